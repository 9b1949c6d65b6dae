import Foundation
import OneToOneCall
import PluginConformance
import RoomCore
import RoomTestSupport
import Synchronization
import Testing

/// one-to-one-call passes the plugin conformance suite. A call belongs to
/// its caller and admits only its callee: the suite's "creator" is rung by a
/// caller the driver makes (as a lesson belongs to its teacher), so the
/// creator is the member that gets in.
@Suite struct OneToOneCallConformanceTests {
    final class Driver: ConformanceDriver {
        let callers = Mutex<[RoomID: ConformanceAccount]>([:])
        var plugin: AnyRoomPlugin { AnyRoomPlugin(OneToOneCallPlugin()) }
        /// The ring must not lapse before the TTL (12 h) the suite checks.
        var pluginTable: String { "[plugins.one-to-one-call]\nringTimeout = \"13h\"\n" }

        func makeAccount(_ client: PluginClient) async throws -> ConformanceAccount {
            let answer = try await client.post("/user/get", form: [:])
            return ConformanceAccount(accid: answer.json["data"]?["accid"]?.string ?? "", credential: answer.json["data"]?["sid"]?.string ?? "")
        }

        /// A new caller rings `owner` (the account the suite names).
        func createRoom(_ client: PluginClient, owner callee: ConformanceAccount) async throws -> RoomID {
            let caller = try await makeAccount(client)
            let answer = try await client.post("/call/ring", form: ["sid": caller.credential, "callee": callee.accid])
            guard let id = answer.json["data"]?["roomId"]?.int64 else { throw Unexpected(answer: "\(answer.json)") }
            callers.withLock { $0[id] = caller }
            return id
        }

        func owner(of roomID: RoomID, createdBy creator: ConformanceAccount) async throws -> ConformanceAccount {
            guard let caller = callers.withLock({ $0[roomID] }) else { throw Unexpected(answer: "no call \(roomID)") }
            return caller
        }

        /// The caller's end of the call.
        func dissolveRoom(_ client: PluginClient, roomID: RoomID, as account: ConformanceAccount) async throws -> Bool {
            try await client.post("/call/cancel", form: ["sid": account.credential, "roomId": "\(roomID)"]).json["code"]?.int64 == 200
        }

        /// The callee's answer.
        func joinRoom(_ client: PluginClient, roomID: RoomID, as account: ConformanceAccount) async throws -> Bool {
            try await client.post("/call/accept", form: ["sid": account.credential, "roomId": "\(roomID)"]).json["code"]?.int64 == 200
        }

        func kick(_ client: PluginClient, roomID: RoomID, account: ConformanceAccount, forSeconds seconds: Int, as host: ConformanceAccount) async throws -> Bool {
            try await client.post("/call/kick", form: ["sid": host.credential, "roomId": "\(roomID)", "account": account.accid,
                                                       "durationSeconds": "\(seconds)"]).json["code"]?.int64 == 200
        }

        /// A call an operator places: the caller owns it, `options.callee` is rung.
        func adminRoom(_ client: PluginClient) async throws -> AdminRoom {
            let caller = try await makeAccount(client), callee = try await makeAccount(client)
            return AdminRoom(owner: caller, options: ["callee": .string(callee.accid)], requiredOption: "options.callee", guests: [callee])
        }

        /// The callee answers it.
        func useAdminRoom(_ client: PluginClient, roomID: RoomID, _ room: AdminRoom) async throws -> Bool {
            guard let callee = room.guests.first else { return false }
            return try await joinRoom(client, roomID: roomID, as: callee)
        }

        struct Unexpected: Error { let answer: String }
    }

    @Test(arguments: ConformanceSuite.Check.allCases)
    func conformance(_ check: ConformanceSuite.Check) async throws {
        let held = try await ConformanceSuite(driver: Driver(), database: try await TestDatabase.forConformance()).run(check)
        #expect(!held.isEmpty, "every expectation of \(check) held: \(held)")
    }
}
