import Foundation
import PluginConformance
import RoomCore
import RoomTestSupport
import Testing

/// #41: what runs at once is shared by tenant. A tenant's admitted requests
/// (within its budget) ran without bound, all at once, and took the cores
/// from every other tenant (ops/bench figures 6 and 7: the other tenant's
/// p99 ×7 and ×20). Now one tenant runs at most three quarters of the
/// instance's request slots; the rest of its requests wait in memory, and
/// another tenant's run at once.
@Suite struct RequestSlotsTests {
    @Test func oneTenantRunsAtMostItsShareAndAnotherRunsBesideIt() async throws {
        let fixture = try await AudioChatroomFixture(table: "[plugins.audio-chatroom]\naccountsPerAddress = \"0\"\n",
                                                     second: "[plugins.audio-chatroom]\naccountsPerAddress = \"0\"\n")
        let a = fixture.server.id(0)
        // A's guest logins wait at the gate, writing their account.
        let gate = try await StatementGate(fixture.server.database, table: "accounts", on: "INSERT", when: "NEW.tenant_id = '\(a)'")
        try await fixture.server.live(options: { $0.requestSlots = 4 }) { http in
            let port = try #require(http.client.port)
            let logins = (0..<6).map { _ in PendingRequest(port: port, path: "\(fixture.base(0))/user/get", body: "") }
            #expect(try await StatementGate.until(10) { try await gate.waiting() == 3 }, "three of A's logins run")
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await gate.waiting() == 3, "and no more than its share of 4 slots: the other three wait in memory")
            #expect(logins.allSatisfy { !$0.isAnswered })
            let other = try await http.form("\(fixture.base(1))/user/get", "")
            #expect(data(other)?["sid"] != nil, "B runs beside A's held logins: \(other)")
            try await gate.open()
            for login in logins { #expect(data(try await login.answer)?["sid"] != nil, "every one of A's logins ran in the end") }
        }
    }

    /// Admin requests take the same slots, by the tenant their path names:
    /// before, a tenant key's held room creates all ran at once.
    @Test func aTenantKeysAdminRequestsRunAtMostItsShare() async throws {
        let fixture = try await AudioChatroomFixture()
        let a = fixture.server.id(0)
        let gate = try await StatementGate(fixture.server.database, table: "rooms", on: "INSERT", when: "NEW.tenant_id = '\(a)'")
        try await fixture.server.live(options: { $0.requestSlots = 4 }) { http in
            let port = try #require(http.client.port)
            let creates = (0..<6).map { n in
                PendingRequest(port: port, ParallelRequests.Request(
                    path: "/admin/v1/tenants/\(a)/rooms", body: #"{"plugin":"audio-chatroom","name":"Held","owner":"admin-owner-\#(n)"}"#,
                    contentType: "application/json", headers: [("Authorization", "Bearer \(fixture.server.key(0))")]))
            }
            #expect(try await StatementGate.until(10) { try await gate.waiting() == 3 }, "three of A's creates run")
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await gate.waiting() == 3, "and no more than its share of 4 slots")
            #expect(creates.allSatisfy { !$0.isAnswered })
            let other = try await http.get("/admin/v1/tenants/\(fixture.server.id(1))/rooms", key: fixture.server.key(1))
            #expect(other.status == .ok, "another tenant's admin request runs beside them: \(other.status)")
            try await gate.open()
            for create in creates { #expect(try await create.answer["id"] != nil, "every one of A's creates ran in the end") }
        }
    }
}
