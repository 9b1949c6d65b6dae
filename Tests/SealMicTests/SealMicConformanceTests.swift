import Foundation
import PluginConformance
import RoomCore
import RoomTestSupport
import SealMic
import Testing

/// sealmic passes the plugin conformance suite.
@Suite struct SealMicConformanceTests {
    struct Driver: ConformanceDriver {
        var plugin: AnyRoomPlugin { AnyRoomPlugin(SealMicPlugin()) }
        /// Joins are refused for the reason under test, not for a missing IM chatroom.
        var pluginTable: String { "[plugins.sealmic]\njoinRequiresIM = false\n" }

        func makeAccount(_ client: PluginClient) async throws -> ConformanceAccount {
            let login = try await client.post("/user/login", form: ["deviceId": "conformance"]).json["data"]?["result"]
            return ConformanceAccount(accid: login?["userId"]?.string ?? "", credential: login?["authorization"]?.string ?? "")
        }

        func createRoom(_ client: PluginClient, owner: ConformanceAccount) async throws -> RoomID {
            let answer = try await client.post("/room/create", form: ["subject": "Conformance"], headers: [.authorization: owner.credential])
            guard let id = answer.json["data"]?["result"]?["roomId"]?.int64 else { throw Unexpected(answer: "\(answer.json)") }
            return id
        }

        func dissolveRoom(_ client: PluginClient, roomID: RoomID, as account: ConformanceAccount) async throws -> Bool {
            try await client.post("/room/destroy", form: ["roomId": "\(roomID)"], headers: [.authorization: account.credential]).json["errCode"]?.int64 == 0
        }

        func joinRoom(_ client: PluginClient, roomID: RoomID, as account: ConformanceAccount) async throws -> Bool {
            try await client.post("/room/join", form: ["roomId": "\(roomID)"], headers: [.authorization: account.credential]).json["errCode"]?.int64 == 0
        }


        func kick(_ client: PluginClient, roomID: RoomID, account: ConformanceAccount, forSeconds seconds: Int, as host: ConformanceAccount) async throws -> Bool {
            try await client.post("/room/kick", form: ["roomId": "\(roomID)", "account": account.accid, "durationSeconds": "\(seconds)"],
                                  headers: [.authorization: host.credential]).json["errCode"]?.int64 == 0
        }

        struct Unexpected: Error { let answer: String }
    }

    @Test(arguments: ConformanceSuite.Check.allCases)
    func conformance(_ check: ConformanceSuite.Check) async throws {
        let held = try await ConformanceSuite(driver: Driver(), database: try await TestDatabase.forConformance()).run(check)
        #expect(!held.isEmpty, "every expectation of \(check) held: \(held)")
    }
}
