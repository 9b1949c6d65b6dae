import AudioChatroom
import Foundation
import RoomCore
import RoomProviders
import RoomTestSupport
import Testing

/// The iOS app's own sequence, with its request bodies, and the exact shapes it decodes.
@Suite struct ShippedClientFlowTests {
    @Test func getAccountCreateListMuteDissolve() async throws {
        let fixture = try await AudioChatroomFixture()
        let base = fixture.base()
        try await fixture.server.live { http in
            // NTESDemoAccountTask: no sid yet.
            let user = try await http.form("\(base)/user/get", "")
            #expect(user["code"] == .number(200))
            let info = try #require(data(user))
            guard case .object(let fields) = info else { Issue.record("data is an object"); return }
            #expect(Set(fields.keys) == ["sid", "accid", "nickname", "icon", "imToken", "availableAt"])
            let sid = try #require(info["sid"]?.string)
            let accid = try #require(info["accid"]?.string)
            #expect(sid != accid, "the sid is an opaque token, not the account id")
            #expect(info["imToken"]?.string?.isEmpty == false)
            #expect(info["nickname"]?.string?.hasPrefix("用户") == true)
            guard case .number = info["availableAt"] else { Issue.record("availableAt is a number (epoch ms)"); return }

            // The stored sid gives back the same account, renewed.
            let again = try #require(data(try await http.form("\(base)/user/get", "sid=\(sid)")))
            #expect(again["accid"]?.string == accid)
            #expect(again["sid"]?.string == sid)

            // NTESDemoCreateChatroomTask: iOS joins parameters with "&&".
            let created = try await http.form("\(base)/room/create", "sid=\(sid)&&roomName=临湖小筑")
            let room = try #require(data(created))
            guard case .object(let roomFields) = room else { Issue.record("data is an object"); return }
            #expect(Set(roomFields.keys) == ["roomId", "creator", "name", "thumbnail", "createTime"])
            guard case .number = room["roomId"], case .number = room["createTime"] else { Issue.record("roomId and createTime are numbers"); return }
            #expect(room["creator"]?.string == accid)
            #expect(room["name"]?.string == "临湖小筑")
            let roomID = try #require(room["roomId"]?.int64)

            // NTESDemoChatroomListTask.
            let listed = try #require(data(try await http.form("\(base)/room/list", "limit=20&offset=0")))
            #expect(listed["total"] == .number(1))
            guard case .array(let list)? = listed["list"], let first = list.first, case .object(let item) = first else {
                Issue.record("list of rooms"); return
            }
            #expect(Set(item.keys) == ["roomId", "name", "creator", "thumbnail", "onlineUserCount", "createTime"])
            #expect(first["roomId"] == .number(Double(roomID)))
            #expect(first["onlineUserCount"] == .number(0))

            // NTESDemoMuteAllTask, twice: repeating is success.
            #expect(try await http.form("\(base)/room/mute", "sid=\(sid)&roomId=\(roomID)&mute=true") == .object(["code": .number(200), "data": .object([:])]))
            #expect(try await http.form("\(base)/room/mute", "sid=\(sid)&roomId=\(roomID)&mute=true")["code"] == .number(200))

            // NTESDemoCloseChatroomTask, with roomId as a string.
            #expect(try await http.request(.post, "\(base)/room/dissolve", json: #"{"sid":"\#(sid)","roomId":"\#(roomID)"}"#).json["code"] == .number(200))
            let after = try #require(data(try await http.form("\(base)/room/list", "")))
            #expect(after["total"] == .number(0))
        }
    }

    @Test func refusalsCarryTheOriginalCodesAndNameTheField() async throws {
        let fixture = try await AudioChatroomFixture()
        let base = fixture.base()
        try await fixture.server.live { http in
            let owner = try #require(data(try await http.form("\(base)/user/get", ""))?["sid"]?.string)
            let other = try #require(data(try await http.form("\(base)/user/get", ""))?["sid"]?.string)

            for name in ["", "这个房间的名字实在是太长了超过了十六个字", "bad name!", "emoji🎤"] {
                let answer = try await http.form("\(base)/room/create", "sid=\(owner)&roomName=\(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
                #expect(answer["code"] == .number(400), "\(name)")
                #expect(answer["msg"]?.string?.hasPrefix("roomName") == true, "\(name)")
            }
            #expect(try await http.form("\(base)/room/create", "sid=forged&roomName=abc")["code"] == .number(401))
            #expect(try await http.form("\(base)/room/create", "roomName=abc")["code"] == .number(401))
            #expect(try await http.form("\(base)/room/list", "")["data"]?["total"] == .number(0), "refusals wrote nothing")

            let roomID = try #require(data(try await http.form("\(base)/room/create", "sid=\(owner)&roomName=Room1"))?["roomId"]?.int64)
            #expect(try await http.form("\(base)/room/dissolve", "sid=\(owner)&roomId=999999999")["code"] == .number(804))
            #expect(try await http.form("\(base)/room/dissolve", "sid=\(other)&roomId=\(roomID)")["code"] == .number(403))
            #expect(try await http.form("\(base)/room/mute", "sid=\(other)&roomId=\(roomID)&mute=true")["code"] == .number(403))
            #expect(try await http.form("\(base)/room/mute", "sid=\(owner)&roomId=\(roomID)")["msg"]?.string == "mute is required")
            #expect(try await http.form("\(base)/room/dissolve", "sid=\(owner)&roomId=\(roomID)")["code"] == .number(200))
            #expect(try await http.form("\(base)/room/dissolve", "sid=\(owner)&roomId=\(roomID)")["code"] == .number(801))
            #expect(try await http.form("\(base)/room/list", "limit=0")["msg"]?.string == "limit must be between 1 and 100")
        }
    }

    @Test func creatingDissolvesTheCreatorsEarlierRooms() async throws {
        let fixture = try await AudioChatroomFixture()
        let base = fixture.base()
        try await fixture.server.live { http in
            let sid = try #require(data(try await http.form("\(base)/user/get", ""))?["sid"]?.string)
            let first = try #require(data(try await http.form("\(base)/room/create", "sid=\(sid)&roomName=One"))?["roomId"]?.int64)
            let second = try #require(data(try await http.form("\(base)/room/create", "sid=\(sid)&roomName=Two"))?["roomId"]?.int64)
            let listed = try #require(data(try await http.form("\(base)/room/list", "")))
            guard case .array(let list)? = listed["list"] else { Issue.record("list"); return }
            #expect(list.compactMap { $0["roomId"]?.int64 } == [second])
            let shown = try await http.get("/admin/v1/tenants/\(fixture.server.id(0))/rooms/\(first)", key: fixture.server.operatorKey)
            #expect(shown.json["room"]?["closeReason"]?.string == "dissolved")
        }
    }

    @Test func onlineUserCountComesFromIMMembership() async throws {
        let fixture = try await AudioChatroomFixture(clock: SystemClock())
        let base = fixture.base()
        try await fixture.server.live { http in
            let owner = try #require(data(try await http.form("\(base)/user/get", "")))
            let sid = try #require(owner["sid"]?.string)
            _ = try #require(data(try await http.form("\(base)/room/create", "sid=\(sid)&roomName=Live")))
            let room = try #require(try await fixture.server.server().services.engine.store.rooms(fixture.server.id(0), .init(state: "open")).first)
            let chatroom = try #require(room.imChatroomID)
            let client = IMTestClient(port: try #require(http.client.port),
                                      tenant: fixture.server.id(0), accid: owner["accid"]?.string ?? "", token: owner["imToken"]?.string ?? "")
            client.send(#"{"type":"enter","chatroom":"\#(chatroom)"}"#)
            _ = try await client.next("entered")
            let listed = try #require(data(try await http.form("\(base)/room/list", "")))
            guard case .array(let list)? = listed["list"] else { Issue.record("list"); return }
            #expect(list.first?["onlineUserCount"] == .number(1))
            try await client.close()
        }
    }
}
