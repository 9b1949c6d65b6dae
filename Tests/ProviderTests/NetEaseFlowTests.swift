import Foundation
import RoomCore
import RoomTestSupport
import Testing

/// A tenant configured for NetEase runs the audio-chatroom flow against a
/// fake nimserver that checks every signature and parameter.
@Suite struct NetEaseFlowTests {
    @Test func theAudioChatroomFlowRunsOnNetEase() async throws {
        let fake = FakeNetEase()
        try await fake.vendor.run { url in
            let fixture = try await VendorTables.fixture(VendorTables.netease(url))
            try await fixture.live { http in
                let base = "/t/\(fixture.id(0))/audio-chatroom"
                let user = try #require(try await http.form("\(base)/user/get", "")["data"])
                let accid = try #require(user["accid"]?.string)
                #expect(user["imToken"]?.string == "nim-\(accid)", "the token NetEase issued")
                let sid = try #require(user["sid"]?.string)
                // A returning user: create answers "already register", so the token is refreshed.
                #expect(try await http.form("\(base)/user/get", "sid=\(sid)")["data"]?["imToken"]?.string == "nim-new-\(accid)")

                let created = try #require(try await http.form("\(base)/room/create", "sid=\(sid)&roomName=Night")["data"])
                let roomID = try #require(created["roomId"]?.int64)
                #expect(roomID >= 70_000_001, "the room's id is the NetEase chatroom's: the app enters the chatroom by it")
                #expect(fake.isOpen(String(roomID)))
                fake.enter("someone", String(roomID))
                let listed = try #require(try await http.form("\(base)/room/list", "")["data"])
                guard case .array(let rooms)? = listed["list"] else { Issue.record("list"); return }
                #expect(rooms.first?["onlineUserCount"] == .number(1))
                #expect(try await http.form("\(base)/room/mute", "sid=\(sid)&roomId=\(roomID)&mute=true")["code"] == .number(200))

                let guest = try #require(try await http.form("\(base)/user/get", "")["data"]?["sid"]?.string)
                #expect(try await http.form("\(base)/mic/apply", "sid=\(guest)&roomId=\(roomID)&index=1")["code"] == .number(200))
                #expect(try await eventually { fake.vendor.calls(to: "/chatroom/queueOffer.action").count == 1 })
                #expect(try await eventually { fake.vendor.calls(to: "/msg/sendAttachMsg.action").count == 1 }, "the apply notice to the host")

                #expect(try await http.form("\(base)/room/dissolve", "sid=\(sid)&roomId=\(roomID)")["code"] == .number(200))
                #expect(try await eventually { !fake.isOpen(String(roomID)) }, "the outbox closed the chatroom")
                let close = try #require(fake.vendor.calls(to: "/chatroom/toggleCloseStat.action").first)
                #expect(close.form == ["roomid": String(roomID), "operator": accid, "valid": "false"])

                // Every call is counted and timed by provider, operation and outcome.
                let metrics = try await http.get("/metrics").text
                #expect(metrics.contains(#"roomkeeper_provider_calls_total{provider="netease",operation="createChatroom",outcome="ok"}"#))
                #expect(metrics.contains("roomkeeper_provider_call_duration_seconds"))
                #expect(!metrics.contains(FakeNetEase.appSecret))
            }
        }
        #expect(fake.vendor.refused == 1, "only the expected 'already register' was refused")
    }

    @Test func joinRequiresTheNetEaseChatroom() async throws {
        let fake = FakeNetEase()
        try await fake.vendor.run { url in
            let fixture = try await VendorTables.fixture(VendorTables.netease(url) + "\n", clock: ManualClock())
            let tenant = fixture.tenants[0]
            let chatroom = try await tenant.im.createChatroom(name: "hall", creator: "host")
            #expect(try await tenant.im.isMember("ann", of: chatroom) == false)
            fake.enter("ann", chatroom)
            #expect(try await tenant.im.isMember("ann", of: chatroom))
            #expect(try await tenant.im.onlineCounts([chatroom]) == [chatroom: 1])
            try await tenant.im.queuePut(chatroom, key: "queue_0", value: "{}", operator: "host")
            #expect(try await tenant.im.queueList(chatroom) == [IMQueueEntry(key: "queue_0", value: "{}")])
            #expect(try await tenant.im.queuePoll(chatroom, key: "queue_0") == "{}")
            try await tenant.im.queueDrop(chatroom)
            try await tenant.im.sendChatroomMessage(chatroom, from: "host", type: "100", body: #"{"cmd":1}"#, persist: false, messageID: UUID().uuidString)
            let sent = try #require(fake.vendor.calls(to: "/chatroom/sendMsg.action").first?.form)
            #expect(sent["msgType"] == "100" && sent["attach"] == #"{"cmd":1}"# && sent["fromAccid"] == "host")
            await #expect(throws: IMError.chatroomNotFound("1")) { try await tenant.im.queueList("1") }
        }
    }

    /// A lobby's `/room/list` polls: NetEase answers one chatroom per call, so
    /// counts are asked in parallel and kept a few seconds; polling again
    /// costs the vendor nothing.
    @Test func listingManyRoomsAsksTheVendorOncePerRoomPerFewSeconds() async throws {
        let fake = FakeNetEase()
        try await fake.vendor.run { url in
            let fixture = try await VendorTables.fixture(VendorTables.netease(url))
            try await fixture.live { http in
                let base = "/t/\(fixture.id(0))/audio-chatroom"
                var rooms: [Int64] = []
                for index in 0..<12 {
                    let sid = try #require(try await http.form("\(base)/user/get", "")["data"]?["sid"]?.string)
                    rooms.append(try #require(try await http.form("\(base)/room/create", "sid=\(sid)&roomName=Lobby\(index)")["data"]?["roomId"]?.int64))
                }
                fake.enter("someone", String(rooms[3]))
                for _ in 0..<3 {
                    let listed = try #require(try await http.form("\(base)/room/list", "limit=20")["data"])
                    guard case .array(let list)? = listed["list"] else { Issue.record("list"); return }
                    #expect(list.count == 12)
                    #expect(list.first { $0["roomId"]?.int64 == rooms[3] }?["onlineUserCount"] == .number(1))
                }
                #expect(fake.vendor.calls(to: "/chatroom/get.action").count == 12, "one call per room for three polls")
            }
        }
    }
}
