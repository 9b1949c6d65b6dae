import Foundation
import RoomCore
import RoomTestSupport
import Testing

/// #41: a tenant's accounts quota (`[limits] maxAccounts`) is exact under
/// concurrency, answered in the wire's format, and touches no other tenant.
@Suite struct AccountQuotaTests {
    static let quota = 50

    @Test func twoHundredConcurrentSignUpsAgainstAQuotaOf50LeaveExactly50() async throws {
        let table = """
            [plugins.audio-chatroom]
            accountsPerAddress = "0"

            [limits]
            maxAccounts = \(Self.quota)
            clientPerSecond = 100000
            clientBurst = 100000
            """
        let fixture = try await AudioChatroomFixture(table: table, second: "[plugins.audio-chatroom]\n")
        let (tenant, other) = (fixture.server.id(0), fixture.server.id(1))
        // Accounts made before the quota's counter exists count too: the
        // first insert under the quota counts the tenant once.
        let database = fixture.server.database
        try await database.query("""
            INSERT INTO accounts (tenant_id, accid, nickname, avatar, role, created_at)
            SELECT \(tenant), 'earlier' || n, 'e', '', 'user', now() FROM generate_series(1, 10) n
            """)
        let answers = try await fixture.server.live(seconds: 120) { http -> [(status: Int, text: String)] in
            try await RawHTTP.using(port: try #require(http.client.port), connections: 50) { raw in
                let answers = try await withThrowingTaskGroup(of: (status: Int, text: String).self) { group in
                    for _ in 0..<200 {
                        group.addTask {
                            try await raw.send(.POST, "\(fixture.base())/user/get",
                                               headers: [("Content-Type", "application/x-www-form-urlencoded")], body: "")
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                // The other tenant, without a quota, signs up as before.
                let elsewhere = try await raw.send(.POST, "\(fixture.base(1))/user/get",
                                                   headers: [("Content-Type", "application/x-www-form-urlencoded")], body: "")
                return answers + [elsewhere]
            }
        }
        let mine = answers.dropLast()
        let signedUp = mine.filter { JSONValue.parse($0.text)?["code"]?.int64 == 200 }
        let refused = mine.filter { JSONValue.parse($0.text)?["code"]?.int64 == 429 }
        #expect(mine.allSatisfy { $0.status == 200 }, "answered in the wire's envelope, never 5xx: \(Set(mine.map(\.status)))")
        #expect(signedUp.count == Self.quota - 10 && refused.count == 200 - (Self.quota - 10),
                "\(signedUp.count) signed up, \(refused.count) refused")
        let message = try #require(refused.first.flatMap { JSONValue.parse($0.text)?["msg"]?.string })
        #expect(message.contains("\(Self.quota) accounts"), "the refusal says why: \(message)")
        #expect(JSONValue.parse(try #require(answers.last).text)?["code"]?.int64 == 200, "a tenant without a quota is not held back")

        let counts = try await database.query("""
            SELECT (SELECT count(*)::int FROM accounts WHERE tenant_id = \(tenant)),
                   (SELECT used::int FROM account_counts WHERE tenant_id = \(tenant)),
                   (SELECT count(*)::int FROM sessions WHERE tenant_id = \(tenant))
            """).decode((Int, Int, Int).self)
        let (accounts, counted, sessions) = try #require(counts.first)
        #expect(accounts == Self.quota && counted == Self.quota, "exactly the quota: \(accounts) accounts, counter \(counted)")
        #expect(sessions == Self.quota - 10, "a refused sign-up writes no session: \(sessions)")
        let otherCounter = try await database.query("SELECT count(*)::int FROM account_counts WHERE tenant_id = \(other)").decode(Int.self)
        #expect(otherCounter.first == 0, "a tenant without a quota keeps no counter")

        // An account deleted gives its place back.
        try await database.query("DELETE FROM accounts WHERE tenant_id = \(tenant) AND accid = 'earlier1'")
        try await fixture.server.live { http in
            let again = try await http.form("\(fixture.base())/user/get", "")
            #expect(again["code"] == .number(200), "a place freed is taken again: \(again)")
            let past = try await http.form("\(fixture.base())/user/get", "")
            #expect(past["code"] == .number(429), "and then the quota holds again: \(past)")
            let limits = try await http.get("/admin/v1/tenants/\(tenant)/limits", key: fixture.server.operatorKey).json
            #expect(limits["maxAccounts"] == .number(Double(Self.quota)) && limits["usage"]?["accounts"] == .number(Double(Self.quota)),
                    "the limits route shows the quota and its use: \(limits)")
        }
    }
}
