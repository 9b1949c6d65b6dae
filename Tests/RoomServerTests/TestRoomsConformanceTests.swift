import Foundation
import PluginConformance
import RoomCore
import RoomTestSupport
import Testing

/// The conformance suite, run for the test-only plugin until real plugins land.
@Suite struct TestRoomsConformanceTests {
    struct Driver: ConformanceDriver {
        var plugin: AnyRoomPlugin { AnyRoomPlugin(TestRoomsPlugin()) }
        var pluginTable: String { "[plugins.test-rooms]\nroomTTL = \"2h\"\n" }

        func makeAccount(_ client: PluginClient) async throws -> ConformanceAccount {
            let accid = uniqueID("user")
            return ConformanceAccount(accid: accid, credential: accid)
        }

        func createRoom(_ client: PluginClient, owner: ConformanceAccount) async throws -> RoomID {
            let answer = try await client.post("/room/create", form: ["sid": owner.credential, "name": "conformance"])
            guard let id = answer.json["data"]?["roomId"]?.int64 else { throw Unexpected(answer: "\(answer.json)") }
            return id
        }

        func dissolveRoom(_ client: PluginClient, roomID: RoomID, as account: ConformanceAccount) async throws -> Bool {
            try await client.post("/room/dissolve", form: ["sid": account.credential, "roomId": "\(roomID)"]).json["code"]?.int64 == 200
        }

        func joinRoom(_ client: PluginClient, roomID: RoomID, as account: ConformanceAccount) async throws -> Bool {
            try await client.post("/room/join", form: ["sid": account.credential, "roomId": "\(roomID)"]).json["code"]?.int64 == 200
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
