import Foundation
import RoomCore
import RoomTestSupport
import Testing

/// #41: quotas are exact under concurrency: 1,000 creates at once against a
/// tenant's quota of 500 open rooms leave exactly 500 open, the others
/// refused in the wire's format, none answered 5xx.
@Suite struct RoomQuotaRaceTests {
    @Test func aThousandConcurrentCreatesAgainstAQuotaOf500LeaveExactly500() async throws {
        let table = "[plugins.test-rooms]\nmaxRooms = 500\n" + """

            [limits]
            clientPerSecond = 100000
            clientBurst = 100000
            """
        let fixture = try await ServerFixture(pluginTables: [table, "[plugins.test-rooms]\n"])
        let tenant = fixture.id(0)
        let answers = try await fixture.live(seconds: 180) { http -> [(status: Int, text: String)] in
            // 100 connections in flight at once, 1,000 creates by 1,000 owners.
            try await RawHTTP.using(port: try #require(http.client.port), connections: 100) { raw in
                try await withThrowingTaskGroup(of: (status: Int, text: String).self) { group in
                    for n in 0..<1_000 {
                        group.addTask {
                            try await raw.send(.POST, "/t/\(tenant)/test-rooms/room/create",
                                               headers: [("Content-Type", "application/x-www-form-urlencoded")], body: "sid=owner\(n)&name=race")
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
        }
        let created = answers.filter { JSONValue.parse($0.text)?["code"]?.int64 == 200 }
        let refused = answers.filter { JSONValue.parse($0.text)?["code"]?.int64 == 429 }
        #expect(answers.allSatisfy { $0.status == 200 }, "no 5xx, no throttling: \(Set(answers.map(\.status)))")
        #expect(created.count == 500 && refused.count == 500, "\(created.count) created, \(refused.count) refused")
        let open = try await fixture.server().services.engine.store.count(tenant, pluginID: "test-rooms", state: "open")
        #expect(open == 500, "exactly the quota open: \(open)")
    }
}
