import Foundation
import HTTPTypes
import PluginConformance
import RoomCore
import RoomProviders
import RoomTestSupport
import Testing

/// #41, item 1: nothing bounded a tenant's share. A tenant's requests past
/// its budget (its file's `[limits]`) are answered 429 in their API's
/// format, with `Retry-After` and the RateLimit fields, write nothing and
/// are not billed; the other tenant is not touched.
@Suite struct RequestBudgetTests {
    static let limited = """
        [plugins.audio-chatroom]

        [limits]
        clientPerSecond = 1
        clientBurst = 5
        adminPerSecond = 1
        adminBurst = 3
        """

    @Test func aTenantPastItsClientBudgetIsAnswered429AndTheOtherIsServed() async throws {
        let fixture = try await AudioChatroomFixture(table: Self.limited, second: "[plugins.audio-chatroom]\n")
        let (a, b) = (fixture.server.id(0), fixture.server.id(1))
        try await fixture.server.live { http in
            var answers: [HTTP.Answer] = []
            for _ in 0..<8 { answers.append(try await http.request(.post, "\(fixture.base(0))/user/get", form: "")) }
            let served = answers.filter { $0.status == .ok }, throttled = answers.filter { $0.status == .tooManyRequests }
            #expect(served.count >= 5 && served.count <= 6 && served.count + throttled.count == 8, "a burst of 5, then 1 a second")
            let refusal = try #require(throttled.first)
            #expect(refusal.json["code"] == .number(416), "NetEase's own 'called too often' code: \(refusal.text)")
            #expect(Int(refusal.headers[.retryAfter] ?? "") ?? 0 >= 1)
            #expect(refusal.headers[HTTPField.Name("RateLimit-Policy")!] == #""client";q=1;w=1"#)
            #expect(refusal.headers[HTTPField.Name("RateLimit")!]?.hasPrefix(#""client";r=0;t="#) == true)
            let guests = try await fixture.server.database.query("SELECT count(*)::int FROM accounts WHERE tenant_id = \(a)").decode(Int.self).first
            #expect(guests == served.count, "a throttled login wrote nothing")
            for _ in 0..<8 {
                #expect(data(try await http.form("\(fixture.base(1))/user/get", "")) != nil, "tenant B keeps its own budget")
            }
            _ = b
        }
    }

    /// Requests within a quarter second of their place wait for it and are
    /// served at the budget's pace; farther ones are refused. Before, all
    /// past the burst were refused, and a flooding tenant's refusals came
    /// back together and ran in waves (ops/bench figure 6).
    @Test func requestsJustPastTheBudgetWaitForTheirPlaceAtItsPace() async throws {
        let paced = "[plugins.audio-chatroom]\n\n[limits]\nclientPerSecond = 20\nclientBurst = 20\n"
        let fixture = try await AudioChatroomFixture(table: paced, second: "[plugins.audio-chatroom]\n")
        try await fixture.server.live { http in
            let port = try #require(http.client.port)
            // Timed from the burst's start: the budget refills while the burst
            // itself arrives (on a loaded machine, a good part of the 10 below).
            let started = ContinuousClock.now
            let burst = try await ParallelRequests.form(port: port, "\(fixture.base(0))/user/get", "", count: 20)
            #expect(burst.allSatisfy { $0["code"]?.int64 == 200 }, "the burst")
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<10 { statuses.append(try await http.request(.post, "\(fixture.base(0))/user/get", form: "").status) }
            let took = ContinuousClock.now - started
            #expect(statuses.allSatisfy { $0 == .ok }, "one after another, each 50 ms from its place at most: \(statuses)")
            // 30 requests on a burst of 20 at 20 a second: the 10 past it earn 0.5 s.
            #expect(took >= .milliseconds(450), "served at 20 a second once the burst is spent, not at once: \(took)")
            let sent = ContinuousClock.now
            let codes = try await ParallelRequests.form(port: port, "\(fixture.base(0))/user/get", "", count: 12).map { $0["code"]?.int64 }
            let spread = (ContinuousClock.now - sent) / .seconds(1)
            let served = codes.filter { $0 == 200 }.count, refused = codes.filter { $0 == 416 }.count
            // A quarter second of places (5) wait, plus what the budget earned
            // while the 12 were still arriving past that quarter second: on a
            // loaded machine they arrive over a second or more (CI with a build
            // beside it: 8 served).
            #expect(served >= 4 && served <= 7 + Int(20 * max(0, spread - 0.25)) && served + refused == 12,
                    "12 at once: places up to a quarter second away wait, the rest are refused: \(codes) over \(spread) s")
        }
    }

    @Test func aTenantKeyPastItsAdminBudgetIsAnswered429AsAProblem() async throws {
        let fixture = try await AudioChatroomFixture(table: Self.limited, second: "[plugins.audio-chatroom]\n")
        let tenant = fixture.server.id(0)
        try await fixture.server.live { http in
            var statuses: [HTTPResponse.Status] = []
            var last: HTTP.Answer?
            for _ in 0..<6 {
                let answer = try await http.get("/admin/v1/tenants/\(tenant)/rooms", key: fixture.server.key(0))
                statuses.append(answer.status)
                if answer.status == .tooManyRequests { last = answer }
            }
            #expect(statuses.prefix(3).allSatisfy { $0 == .ok } && statuses.contains(.tooManyRequests), "\(statuses)")
            let refusal = try #require(last)
            #expect(refusal.headers[.contentType] == "application/problem+json" && refusal.json["code"]?.string == "rate_limited")
            #expect(refusal.headers[.retryAfter] != nil && refusal.headers[HTTPField.Name("RateLimit-Policy")!] == #""admin";q=1;w=1"#)
            #expect(try await http.get("/admin/v1/tenants/\(tenant)/rooms", key: fixture.server.operatorKey).status == .ok,
                    "the operator is not held to a tenant's budget")
        }
    }

    /// #41: failed admin keys are throttled per address: past 10 at once an
    /// address waits, right key or not; another address does not.
    @Test func failedAdminKeysAreThrottledPerAddress() async throws {
        let fixture = try await AudioChatroomFixture()
        let tenant = fixture.server.id(0)
        try await fixture.server.live { http in
            for _ in 0..<10 {
                #expect(try await http.get("/admin/v1/tenants/\(tenant)/rooms", key: "guess-" + uniqueID()).status == .unauthorized)
            }
            let walled = try await http.get("/admin/v1/tenants/\(tenant)/rooms", key: fixture.server.key(0))
            #expect(walled.status == .tooManyRequests && walled.headers[.retryAfter] != nil, "the address waits: \(walled.status)")
            let elsewhere = AddressedHTTP(port: try #require(http.client.port), from: "127.0.0.2")
            let other = try await elsewhere.request("GET", "/admin/v1/tenants/\(tenant)/rooms", headers: ["Authorization": "Bearer \(fixture.server.key(0))"])
            #expect(other.status == 200, "another address is not held: \(other.status)")
        }
    }

    /// #41: `GET …/limits` answers the budgets, this instance's share, the
    /// plugins' quotas and what the tenant uses now.
    @Test func theLimitsAnswerTheBudgetsTheShareAndTheUse() async throws {
        let fixture = try await AudioChatroomFixture(table: Self.limited, second: "[plugins.audio-chatroom]\n")
        let tenant = fixture.server.id(0)
        try await fixture.server.live { http in
            #expect(data(try await http.form("\(fixture.base(0))/user/get", "")) != nil)
            let answer = try await http.get("/admin/v1/tenants/\(tenant)/limits", key: fixture.server.operatorKey)
            #expect(answer.status == .ok, "\(answer.text)")
            let limits = answer.json
            #expect(limits["budgets"]?["client"]?["perSecond"] == .number(1) && limits["budgets"]?["client"]?["burst"] == .number(5))
            #expect(limits["budgets"]?["admin"]?["burst"] == .number(3) && limits["budgets"]?["account"]?["perSecond"] == .number(50), "defaults where unset")
            #expect((limits["instances"]?.int64 ?? 0) >= 1)
            #expect(limits["roomJoins"]?["perSecond"] == .number(1_000) && limits["roomJoins"]?["burst"] == .number(100), "a room's join pace: the default")
            #expect(limits["usage"]?["accounts"] == .number(1) && limits["usage"]?["openRooms"] == .number(0))
            #expect(limits["quotas"]?.arrayValue?.first?["plugin"]?.string == "audio-chatroom")
            #expect(limits["maxAccounts"] == nil, "no accounts quota: the field is absent, as the contract says")
            let other = try await http.get("/admin/v1/tenants/\(tenant)/limits", key: fixture.server.key(1))
            #expect(other.status == .forbidden, "another tenant's key")
        }
    }

    /// A tenant file's bad `[limits]` is refused with the field named.
    @Test func aBadLimitIsRefusedNamingItsField() async throws {
        let database = try await TestDatabase.shared()
        let text = TestTenants.file(id: "limited", pluginTable: "[plugins.audio-chatroom]\n\n[limits]\nclientPerSecond = 0\nadminBurst = \"many\"\naccountPerSecond = 10\naccountBurst = 5\nroomJoinsPerSecond = 0\n")
        let loader = TenantLoader(registry: AudioChatroomFixture.registry, providers: StandardProviderCatalog(database: database, clock: ManualClock()),
                                  environment: TestTenants.environment)
        let (tenant, issues) = loader.parse(id: "limited", file: "limited.toml", text: text)
        #expect(tenant == nil)
        #expect(Set(issues.map(\.field)) == ["limits.clientPerSecond", "limits.adminBurst", "limits.accountBurst", "limits.roomJoinsPerSecond"], "\(issues)")
    }
}
