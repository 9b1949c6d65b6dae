import AudioChatroom
import Foundation
import PluginConformance
import RoomCore
import RoomProviders
import RoomTestSupport
import Testing

/// audio-chatroom passes the plugin conformance suite.
@Suite struct AudioChatroomConformanceTests {
    struct Driver: ConformanceDriver {
        var plugin: AnyRoomPlugin { AnyRoomPlugin(AudioChatroomPlugin()) }
        var pluginTable: String { "[plugins.audio-chatroom]\n" }

        func makeAccount(_ client: PluginClient) async throws -> ConformanceAccount {
            let user = try await client.post("/user/get", form: [:]).json["data"]
            return ConformanceAccount(accid: user?["accid"]?.string ?? "", credential: user?["sid"]?.string ?? "")
        }

        func createRoom(_ client: PluginClient, owner: ConformanceAccount) async throws -> RoomID {
            let answer = try await client.post("/room/create", form: ["sid": owner.credential, "roomName": "Conformance"])
            guard let id = answer.json["data"]?["roomId"]?.int64 else { throw Unexpected(answer: "\(answer.json)") }
            return id
        }

        func dissolveRoom(_ client: PluginClient, roomID: RoomID, as account: ConformanceAccount) async throws -> Bool {
            try await client.post("/room/dissolve", form: ["sid": account.credential, "roomId": "\(roomID)"]).json["code"]?.int64 == 200
        }

        /// Taking part in an audio chatroom means applying for a mic seat.
        func joinRoom(_ client: PluginClient, roomID: RoomID, as account: ConformanceAccount) async throws -> Bool {
            try await client.post("/mic/apply", form: ["sid": account.credential, "roomId": "\(roomID)", "index": "1"]).json["code"]?.int64 == 200
        }


        func kick(_ client: PluginClient, roomID: RoomID, account: ConformanceAccount, forSeconds seconds: Int, as host: ConformanceAccount) async throws -> Bool {
            try await client.post("/room/kick", form: ["sid": host.credential, "roomId": "\(roomID)", "account": account.accid, "durationSeconds": "\(seconds)"]).json["code"]?.int64 == 200
        }

        struct Unexpected: Error { let answer: String }
    }

    @Test(arguments: ConformanceSuite.Check.allCases)
    func conformance(_ check: ConformanceSuite.Check) async throws {
        let held = try await ConformanceSuite(driver: Driver(), database: try await TestDatabase.forConformance()).run(check)
        #expect(!held.isEmpty, "every expectation of \(check) held: \(held)")
    }
}
