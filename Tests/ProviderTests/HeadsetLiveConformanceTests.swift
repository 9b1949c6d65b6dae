import Crypto
import Foundation
import HeadsetLive
import PluginConformance
import RoomCore
import RoomTestSupport
import Synchronization
import Testing

/// headset-live passes the plugin conformance suite (local live provider).
@Suite struct HeadsetLiveConformanceTests {
    struct Driver: ConformanceDriver {
        var plugin: AnyRoomPlugin { AnyRoomPlugin(HeadsetLivePlugin()) }
        /// Idle expiry past the TTL, so the suite's TTL check sees the TTL.
        var pluginTable: String { "[plugins.headset-live]\nidleTimeout = \"5h\"\n" }

        func makeAccount(_ client: PluginClient) async throws -> ConformanceAccount {
            let user = try await client.post("/user/get", form: [:]).json["data"]
            return ConformanceAccount(accid: user?["accid"]?.string ?? "", credential: user?["sid"]?.string ?? "")
        }

        func createRoom(_ client: PluginClient, owner: ConformanceAccount) async throws -> RoomID {
            let device = "dev-\(uniqueID())"
            _ = try await client.post("/device/bind", form: ["sid": owner.credential, "deviceId": device])
            let answer = try await client.post("/live/start", form: ["sid": owner.credential, "deviceId": device])
            guard let id = answer.json["data"]?["roomId"]?.int64 else { throw Unexpected(answer: "\(answer.json)") }
            return id
        }

        func dissolveRoom(_ client: PluginClient, roomID: RoomID, as account: ConformanceAccount) async throws -> Bool {
            try await client.post("/live/stop", form: ["sid": account.credential, "roomId": "\(roomID)"]).json["code"]?.int64 == 200
        }


        func kick(_ client: PluginClient, roomID: RoomID, account: ConformanceAccount, forSeconds seconds: Int, as host: ConformanceAccount) async throws -> Bool {
            try await client.post("/live/kick", form: ["sid": host.credential, "roomId": "\(roomID)", "account": account.accid, "durationSeconds": "\(seconds)"]).json["code"]?.int64 == 200
        }

        /// Viewers join a live room by querying it.
        func joinRoom(_ client: PluginClient, roomID: RoomID, as account: ConformanceAccount) async throws -> Bool {
            try await client.post("/live/query", form: ["sid": account.credential, "roomId": "\(roomID)"]).json["code"]?.int64 == 200
        }

        /// An operator's live room: for a device bound to its owner's phone.
        func adminRoom(_ client: PluginClient) async throws -> AdminRoom {
            let owner = try await makeAccount(client)
            let device = "dev-\(uniqueID())"
            _ = try await client.post("/device/bind", form: ["sid": owner.credential, "deviceId": device])
            return AdminRoom(owner: owner, options: ["deviceId": .string(device)], requiredOption: "options.deviceId")
        }

        /// A viewer queries it; its owner opens the intercom and stops it.
        func useAdminRoom(_ client: PluginClient, roomID: RoomID, _ room: AdminRoom) async throws -> Bool {
            guard try await joinRoom(client, roomID: roomID, as: try await makeAccount(client)) else { return false }
            let intercom = try await client.post("/intercom/start", form: ["sid": room.owner.credential, "roomId": "\(roomID)"])
            guard intercom.json["code"]?.int64 == 200 else { return false }
            return try await dissolveRoom(client, roomID: roomID, as: room.owner)
        }

        struct Unexpected: Error { let answer: String }
    }

    @Test(arguments: ConformanceSuite.Check.allCases)
    func conformance(_ check: ConformanceSuite.Check) async throws {
        let held = try await ConformanceSuite(driver: Driver(), database: try await TestDatabase.forConformance()).run(check)
        #expect(!held.isEmpty, "every expectation of \(check) held: \(held)")
    }
}
