import AudioChatroom
import Foundation
import HTTPTypes
import PluginConformance
import RoomCore
import RoomTestSupport
import Testing

/// #27, item 5: a state-changing request retried after a lost answer, with
/// the same `Idempotency-Key`, is answered with its first answer and applied
/// once, on client routes and the admin API alike.
@Suite struct IdempotencyTests {
    static let key = HTTPField.Name("Idempotency-Key")!
    static let replayed = HTTPField.Name("Idempotency-Replayed")!

    @Test func aSeatMoveRetriedWithItsKeyIsAppliedOnceAndAnsweredAsTheFirstTime() async throws {
        let fixture = try await AudioChatroomFixture()
        try await fixture.server.live { http in
            let room = try await SeatTests.Room.open(fixture, http)
            let guest = try await room.guest(http)
            let move = "sid=\(guest.sid)&roomId=\(room.roomID)&index=2"
            let first = try await http.request(.post, "\(room.base)/mic/apply", form: move, headers: [Self.key: "move-1"])
            #expect(data(first.json)?["status"] == .number(1), "\(first.text)")
            let retry = try await http.request(.post, "\(room.base)/mic/apply", form: move, headers: [Self.key: "move-1"])
            #expect(retry.text == first.text && retry.headers[Self.replayed] == "true", "the first answer again: \(retry.text)")
            let events = try await fixture.server.server().services.engine.store.events(fixture.server.id(0), room.roomID)
            #expect(events.filter { $0.kind == .plugin(AudioChatroomPlugin.seatChanged) }.count == 1, "applied once")
            let unkeyed = try await http.request(.post, "\(room.base)/mic/apply", form: move)
            #expect(unkeyed.text != first.text, "without the key the same move runs again (and is refused)")

            let reused = try await http.request(.post, "\(room.base)/mic/apply", form: "sid=\(guest.sid)&roomId=\(room.roomID)&index=3",
                                                headers: [Self.key: "move-1"])
            #expect(reused.json["code"] == .number(400) && reused.json["msg"]?.string?.contains("Idempotency-Key") == true,
                    "the key on another request is refused in the wire's format: \(reused.text)")
            let bad = try await http.request(.post, "\(room.base)/mic/apply", form: move, headers: [Self.key: "not ascii é"])
            #expect(bad.json["code"] == .number(400) && bad.json["msg"]?.string?.contains("Idempotency-Key") == true, "\(bad.text)")
        }
    }

    @Test func anAdminCreateRetriedWithItsKeyMakesOneRoomAndKeysStayWithTheirCaller() async throws {
        let fixture = try await AudioChatroomFixture()
        try await fixture.server.live { http in
            let path = "/admin/v1/tenants/\(fixture.server.id(0))/rooms"
            let body = #"{"plugin":"audio-chatroom","name":"once","owner":"o"}"#
            let first = try await http.request(.post, path, key: fixture.server.operatorKey, json: body, headers: [Self.key: "create-1"])
            #expect(first.status == .created)
            let retry = try await http.request(.post, path, key: fixture.server.operatorKey, json: body, headers: [Self.key: "create-1"])
            #expect(retry.status == .created && retry.text == first.text && retry.headers[Self.replayed] == "true")
            let other = try await http.request(.post, path, key: fixture.server.key(0), json: body, headers: [Self.key: "create-1"])
            #expect(other.status == .created && other.json["id"] != first.json["id"], "another key's caller is not answered from the operator's")
            let rooms = try await http.get("\(path)?limit=10", key: fixture.server.operatorKey).json["items"]?.arrayValue ?? []
            #expect(rooms.count == 2, "one room per caller, not one per attempt")
            let reused = try await http.request(.post, path, key: fixture.server.operatorKey, json: #"{"plugin":"audio-chatroom","name":"twice","owner":"o"}"#,
                                                headers: [Self.key: "create-1"])
            #expect(reused.status == .unprocessableContent && reused.json["code"]?.string == "idempotency_key_reused")
            let huge = try await http.request(.post, path, key: fixture.server.operatorKey, json: String(repeating: " ", count: 2 << 20),
                                              headers: [Self.key: "create-2"])
            #expect(huge.status == .contentTooLarge && huge.json["code"]?.string == "body_too_large", "as without a key: \(huge.text.prefix(200))")
        }
    }
}
