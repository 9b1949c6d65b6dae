import Foundation
import RoomCore
import RoomLoadTest
import RoomTestSupport
import Testing

/// `roomkeeper load-test` (#44) against a live server: every member joins,
/// every message reaches every other member of its room, the report says
/// so, and the run leaves no room open and no guest logged in.
@Suite struct LoadTestCommandTests {
    @Test func aLoadTestJoinsEveryMemberDeliversEveryMessageAndCleansUp() async throws {
        let fixture = try await SealMicFixture(table: "[plugins.sealmic]\naccountsPerAddress = \"0\"\nroomsPerAddress = \"0\"\n")
        let tenant = fixture.server.id(0)
        let report = try await fixture.server.live { http in
            let plan = LoadTestPlan(url: "http://127.0.0.1:\(try #require(http.client.port))", tenant: tenant, rooms: 2, members: 5,
                                    messagesPerSecond: 20, seconds: 1)
            return try await LoadTest.run(plan)
        }
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.joins == 10 && report.joinsPerSecond > 0)
        #expect(report.messagesSent == 20 && report.deliveriesExpected == 80 && report.deliveries == 80, "\(report.table)")
        #expect(report.latencyMs.p99 != nil && report.latencyMs.p50! <= report.latencyMs.p99!)
        #expect(report.table.contains("joins/s") && report.json.contains("\"joinsPerSecond\""))
        let open = try await fixture.server.database.query("""
            SELECT count(*)::int FROM rooms WHERE tenant_id = \(tenant) AND state = 'open'
            """).decode(Int.self).first
        #expect(open == 0, "every room the run made is destroyed")
        let live = try await fixture.server.database.query("""
            SELECT count(*)::int FROM sessions WHERE tenant_id = \(tenant) AND revoked_at IS NULL
            """).decode(Int.self).first
        #expect(live == 0, "every guest logged out")
    }

    /// A load test stops by itself: its size and time are bounded, and it
    /// speaks only the wires it knows.
    @Test(arguments: [
        (LoadTestPlan(rooms: 0), "rooms"), (LoadTestPlan(rooms: 101), "rooms"), (LoadTestPlan(members: 1_001), "members"),
        (LoadTestPlan(rooms: 100, members: 100), "members"), (LoadTestPlan(messagesPerSecond: 1_001), "rate"),
        (LoadTestPlan(seconds: 601), "seconds"), (LoadTestPlan(plugin: "audio-chatroom"), "plugin"),
        (LoadTestPlan(url: "http://user:pw@127.0.0.1:8080"), "url"), (LoadTestPlan(url: "http://127.0.0.1:8080/?k=v"), "url"),
        (LoadTestPlan(tenant: "../x"), "tenant"),
    ])
    func aPlanOutOfBoundsIsRefusedNamingTheOption(_ plan: LoadTestPlan, _ field: String) {
        #expect(throws: LoadTestPlan.Refused.self) { try plan.checked() }
        do {
            _ = try plan.checked()
        } catch let refused as LoadTestPlan.Refused {
            #expect(refused.field == field, "\(refused)")
        } catch {
            Issue.record("\(error)")
        }
    }
}
