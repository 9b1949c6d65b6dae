import Foundation
import LiveQuiz
import PluginConformance
import RoomCore
import RoomTestSupport
import Synchronization
import Testing

/// live-quiz passes the plugin conformance suite. A game belongs to its host
/// device; the host proves it with the room password, which the driver keeps.
@Suite struct LiveQuizConformanceTests {
    final class Driver: ConformanceDriver {
        let hosts = Mutex<[RoomID: ConformanceAccount]>([:])
        var plugin: AnyRoomPlugin { AnyRoomPlugin(LiveQuizPlugin()) }
        var pluginTable: String { "[plugins.live-quiz]\n" }

        func makeAccount(_ client: PluginClient) async throws -> ConformanceAccount {
            let player = try await client.post("/quiz/player/create", form: [:]).json["data"]
            return ConformanceAccount(accid: player?["accid"]?.string ?? "", credential: player?["sid"]?.string ?? "")
        }

        func createRoom(_ client: PluginClient, owner: ConformanceAccount) async throws -> RoomID {
            let device = "pc-\(uniqueID())"
            let answer = try await client.post("/quiz/host/create", form: ["deviceId": device, "bonus": "10"])
            guard let id = answer.json["data"]?["roomId"]?.int64, let password = answer.json["data"]?["password"]?.string else {
                throw Unexpected(answer: "\(answer.json)")
            }
            // The host's id is opaque (never the device's): read it as a player sees it.
            let player = try await makeAccount(client)
            let room = try await client.post("/quiz/player/room/query", form: ["sid": player.credential, "roomId": "\(id)"]).json["data"]
            guard let host = room?["creator"]?.string else { throw Unexpected(answer: "\(room ?? .null)") }
            hosts.withLock { $0[id] = ConformanceAccount(accid: host, credential: password) }
            return id
        }

        func owner(of roomID: RoomID, createdBy creator: ConformanceAccount) async throws -> ConformanceAccount {
            guard let host = hosts.withLock({ $0[roomID] }) else { throw Unexpected(answer: "no game \(roomID)") }
            return host
        }

        /// Only the room password ends a game.
        func dissolveRoom(_ client: PluginClient, roomID: RoomID, as account: ConformanceAccount) async throws -> Bool {
            try await client.post("/quiz/host/switch", form: ["roomId": "\(roomID)", "password": account.credential, "status": "2"])
                .json["code"]?.int64 == 200
        }


        func kick(_ client: PluginClient, roomID: RoomID, account: ConformanceAccount, forSeconds seconds: Int, as host: ConformanceAccount) async throws -> Bool {
            try await client.post("/quiz/host/kick", form: ["password": host.credential, "roomId": "\(roomID)", "account": account.accid, "durationSeconds": "\(seconds)"]).json["code"]?.int64 == 200
        }

        /// A player joins a game by querying it, as the app does on entering.
        func joinRoom(_ client: PluginClient, roomID: RoomID, as account: ConformanceAccount) async throws -> Bool {
            try await client.post("/quiz/player/room/query", form: ["sid": account.credential, "roomId": "\(roomID)"]).json["code"]?.int64 == 200
        }

        /// An operator's game: its device, bonus and host password.
        func adminRoom(_ client: PluginClient) async throws -> AdminRoom {
            let host = ConformanceAccount(accid: "host-" + uniqueID(), credential: "admin-game-password")
            return AdminRoom(owner: host, options: ["deviceId": .string("pc-\(uniqueID())"), "bonus": 10, "password": .string(host.credential)],
                             requiredOption: "options.deviceId")
        }

        /// A player enters; the host (with the operator's password) publishes a question; the player answers it.
        func useAdminRoom(_ client: PluginClient, roomID: RoomID, _ room: AdminRoom) async throws -> Bool {
            let player = try await makeAccount(client)
            guard try await joinRoom(client, roomID: roomID, as: player) else { return false }
            let live = try await client.post("/quiz/host/switch", form: ["roomId": "\(roomID)", "password": room.owner.credential, "status": "1"])
            guard live.json["code"]?.int64 == 200 else { return false }
            let published = try await client.post("/quiz/host/question/publish", form: ["roomId": "\(roomID)", "password": room.owner.credential,
                                                                                        "questionId": "1", "time": "1"])
            guard published.json["code"]?.int64 == 200 else { return false }
            let answered = try await client.post("/quiz/player/answer", form: ["sid": player.credential, "roomId": "\(roomID)", "questionId": "1", "answer": "1"])
            return answered.json["data"]?["result"]?.int64 == 1
        }

        struct Unexpected: Error { let answer: String }
    }

    @Test(arguments: ConformanceSuite.Check.allCases)
    func conformance(_ check: ConformanceSuite.Check) async throws {
        let held = try await ConformanceSuite(driver: Driver(), database: try await TestDatabase.forConformance()).run(check)
        #expect(!held.isEmpty, "every expectation of \(check) held: \(held)")
    }
}
