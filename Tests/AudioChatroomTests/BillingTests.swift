import Foundation
import PluginConformance
import RoomCore
import RoomTestSupport
import Testing

/// #41: a tenant's billed API requests are the requests that passed
/// routing and authentication. Every request with the tenant's id in its
/// path was counted, so anyone could inflate any tenant's invoice with
/// refused requests.
@Suite(.serialized) struct BillingTests {
    @Test func refusedRequestsAreNotBilled() async throws {
        let hour = Date(timeIntervalSince1970: (1_900_000_000 / 3_600 + Double(Int.random(in: 0...100_000))).rounded(.down) * 3_600)
        let clock = ManualClock(hour.addingTimeInterval(600))
        let fixture = try await AudioChatroomFixture(clock: clock)
        let tenant = fixture.server.id(0)
        try await fixture.server.live { http in
            for _ in 0..<3 {  // 401: no such key
                #expect(try await http.get("/admin/v1/tenants/\(tenant)/rooms", key: "not-a-key-" + uniqueID()).status == .unauthorized)
            }
            for _ in 0..<2 {  // 403: another tenant's key
                #expect(try await http.get("/admin/v1/tenants/\(tenant)/rooms", key: fixture.server.key(1)).status == .forbidden)
            }
            for _ in 0..<2 {  // 404: no such route
                #expect(try await http.request(.post, "\(fixture.base())/no/such/route", form: "").status == .notFound)
            }
            for _ in 0..<2 {  // the wire's "not logged in"
                let refused = try await http.form("\(fixture.base())/room/create", "sid=nobody&roomName=x")
                #expect(refused["code"] == .number(401), "\(refused)")
            }
            // Billed: a guest login and an admin read with the tenant's key.
            #expect(data(try await http.form("\(fixture.base())/user/get", "")) != nil)
            #expect(try await http.get("/admin/v1/tenants/\(tenant)/rooms", key: fixture.server.key(0)).status == .ok)
            clock.advance(by: 3_600)
            let range = "from=\(UsageTestsTime.iso(hour))&to=\(UsageTestsTime.iso(hour.addingTimeInterval(3_600)))"
            let usage = try await http.get("/admin/v1/tenants/\(tenant)/usage?\(range)", key: fixture.server.operatorKey)
            let billed = usage.json["items"]?.arrayValue?.first?["apiRequests"]?.int64
            #expect(billed == 2, "the login and the read, not the 9 refused: \(usage.text.prefix(400))")
        }
    }
}

enum UsageTestsTime {
    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
