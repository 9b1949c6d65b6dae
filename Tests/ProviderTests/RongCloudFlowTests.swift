import Foundation
import HTTPTypes
import RoomCore
import RoomTestSupport
import Testing

/// A tenant configured for RongCloud runs the audio-chatroom flow, and
/// SealMic's join-IM-first and SM:* messages, against a fake RongCloud.
@Suite struct RongCloudFlowTests {
    @Test func theAudioChatroomFlowRunsOnRongCloud() async throws {
        let fake = FakeRongCloud()
        try await fake.vendor.run { url in
            let fixture = try await VendorTables.fixture(VendorTables.rongcloud(url, backup: url))
            try await fixture.live { http in
                let base = "/t/\(fixture.id(0))/audio-chatroom"
                let user = try #require(try await http.form("\(base)/user/get", "")["data"])
                let accid = try #require(user["accid"]?.string)
                #expect(user["imToken"]?.string == "rong-\(accid)")
                let sid = try #require(user["sid"]?.string)
                let roomID = try #require(try await http.form("\(base)/room/create", "sid=\(sid)&roomName=Night")["data"]?["roomId"]?.int64)
                #expect(fake.isOpen(String(roomID)), "RongCloud takes our id for the chatroom")
                fake.enter("someone", String(roomID))
                guard case .array(let rooms)? = try await http.form("\(base)/room/list", "")["data"]?["list"] else { Issue.record("list"); return }
                #expect(rooms.first?["onlineUserCount"] == .number(1))
                #expect(try await http.form("\(base)/room/dissolve", "sid=\(sid)&roomId=\(roomID)")["code"] == .number(200))
                #expect(try await eventually { !fake.isOpen(String(roomID)) })
            }
        }
        #expect(fake.vendor.refused == 0)
    }

    @Test func sealMicJoinsAfterTheRongCloudChatroomAndPublishesItsMessages() async throws {
        let fake = FakeRongCloud()
        try await fake.vendor.run { url in
            let fixture = try await VendorTables.fixture(VendorTables.rongcloud(url, backup: url))
            try await fixture.live { http in
                let base = "/t/\(fixture.id(0))/sealmic"
                func call(_ path: String, _ body: JSONValue, _ token: String?) async throws -> JSONValue {
                    var headers = HTTPFields()
                    if let token { headers[.authorization] = token }
                    return try await http.request(.post, base + path, json: body.jsonText, headers: headers).json
                }
                let host = try #require(try await call("/user/login", ["deviceId": "a"], nil)["data"]?["result"])
                let guest = try #require(try await call("/user/login", ["deviceId": "b"], nil)["data"]?["result"])
                let hostToken = try #require(host["authorization"]?.string), guestToken = try #require(guest["authorization"]?.string)
                let roomID = try #require(try await call("/room/create", ["subject": "Mic"], hostToken)["data"]?["result"]?["roomId"]?.string)
                #expect(try await call("/room/join", ["roomId": .string(roomID)], guestToken)["errCode"] == .number(21))
                fake.enter(try #require(guest["userId"]?.string), roomID)
                #expect(try await call("/room/join", ["roomId": .string(roomID)], guestToken)["errCode"] == .number(0))
                #expect(try await call("/room/mic/join", ["roomId": .string(roomID), "targetPosition": 0], guestToken)["errCode"] == .number(0))
                #expect(try await eventually {
                    fake.vendor.calls(to: "/message/chatroom/publish.json").map { $0.form["objectName"] } == ["SM:RMChangeMsg", "SM:MPCtrlMsg"]
                })
                let control = try #require(fake.vendor.calls(to: "/message/chatroom/publish.json").last?.form)
                #expect(control["toChatroomId"] == roomID && control["isPersisted"] == "0")
                #expect(JSONValue.parse(control["content"] ?? "")?["cmd"] == .number(6))
            }
        }
    }

    /// Network errors and 5xx on the main host fall over to the backup host.
    @Test func callsFallOverToTheBackupHost() async throws {
        let primary = FakeRongCloud()
        let backup = FakeRongCloud()
        primary.vendor.mode = .unavailable
        try await primary.vendor.run { primaryURL in
            try await backup.vendor.run { backupURL in
                let fixture = try await VendorTables.fixture(VendorTables.rongcloud(primaryURL, backup: backupURL))
                #expect(try await fixture.tenants[0].im.createAccount(IMAccount(accid: "ann", name: "Ann")).token == "rong-ann")
                let unreachable = try await VendorTables.fixture(VendorTables.rongcloud("http://127.0.0.1:9", backup: backupURL))
                #expect(try await unreachable.tenants[0].im.isMember("ann", of: "nowhere") == false)
            }
        }
        #expect(backup.vendor.calls.map(\.path) == ["/user/getToken.json", "/chatroom/user/exist.json"])
        #expect(primary.vendor.calls.isEmpty)
    }

    @Test func aBadSignatureIsRefusedByTheVendorAndReportedAsRejected() async throws {
        let fake = FakeRongCloud()
        try await fake.vendor.run { url in
            setenv("RK_TEST_WRONG_SECRET", "wrong", 1)
            VendorSecrets.export()
            let table = VendorTables.rongcloud(url, backup: url).replacingOccurrences(of: VendorSecrets.rongcloud, with: "RK_TEST_WRONG_SECRET")
            let fixture = try await ServerFixture(pluginTables: [table + "\n" + VendorTables.plugins + "\n"], registry: VendorTables.registry)
            await #expect(throws: IMError.rejected(operation: "createAccount", code: 1004, message: "signature")) {
                try await fixture.tenants[0].im.createAccount(IMAccount(accid: "ann", name: "Ann"))
            }
        }
    }

    /// #16, finding 4: revoking an account's access expires its RongCloud tokens.
    @Test func revokingAnAccountExpiresItsRongCloudTokens() async throws {
        let fake = FakeRongCloud()
        VendorSecrets.export()
        try await fake.vendor.run { url in
            let fixture = try await ServerFixture(pluginTables: [VendorTables.rongcloud(url, backup: url) + "\n" + VendorTables.plugins + "\n"],
                                                  registry: VendorTables.registry)
            try await fixture.tenants[0].im.revokeTokens(accid: "ann")
            let expired = try #require(fake.tokensExpiredBefore("ann"))
            #expect(expired == Int64(fixture.clock.now().timeIntervalSince1970 * 1000), "tokens issued before now stop working")
        }
    }
}
