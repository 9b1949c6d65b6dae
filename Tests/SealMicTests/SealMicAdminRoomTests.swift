import Foundation
import RoomCore
import RoomTestSupport
import SealMic
import Testing

/// A SealMic room made through the admin API is a room its apps can use:
/// it has its IM chatroom (the id clients enter), its host is in it, and
/// join-IM-first holds as for a room a client created.
@Suite struct SealMicAdminRoomTests {
    @Test func anAdminRoomIsJoinedIMFirstAndItsPositionsWork() async throws {
        let fixture = try await SealMicFixture()
        try await fixture.server.live { http in
            let client = SealMicClient(http: http, base: fixture.base())
            let host = try await client.login()
            let guest = try await client.login()
            let tenant = fixture.server.id(0)
            let bad = try await http.post("/admin/v1/tenants/\(tenant)/rooms", key: fixture.server.operatorKey,
                                          json: #"{"plugin":"sealmic","name":"Admin","owner":"\#(host.userId)","options":{"roomType":"loud"}}"#)
            #expect(bad.status == .unprocessableContent && bad.json["field"]?.string == "options.roomType", "\(bad.json)")

            let created = try await http.post("/admin/v1/tenants/\(tenant)/rooms", key: fixture.server.operatorKey,
                                              json: #"{"plugin":"sealmic","name":"Admin","owner":"\#(host.userId)","options":{"roomType":1}}"#)
            #expect(created.status == .created)
            let roomID = String(try #require(created.json["id"]?.int64))
            #expect(created.json["imChatroomId"]?.string == roomID, "the chatroom's id is the room's")
            let room = ["roomId": JSONValue.string(roomID)]

            #expect(errCode(try await client.call("/room/join", room, as: guest.token)) == 21, "IM chatroom first")
            let port = try #require(http.client.port)
            let observer = try await ChatroomMember.enter(host, roomID, fixture: fixture, port: port)
            _ = try await ChatroomMember.enter(guest, roomID, fixture: fixture, port: port)
            let joined = try #require(result(try await client.call("/room/join", room, as: guest.token)))
            #expect(joined["roomType"] == .number(1) && joined["creatorUserId"]?.string == host.userId)
            #expect(try await observer.next("SM:RMChangeMsg")["targetUserId"]?.string == guest.userId)

            #expect(result(try await client.call("/room/mic/join", ["roomId": .string(roomID), "targetPosition": 2], as: guest.token)) == .bool(true))
            let moved = try await observer.next("SM:MPCtrlMsg")
            #expect(moved.positions.contains { $0.0 == 2 && $0.2 == guest.userId }, "\(moved)")

            let dissolved = try await http.post("/admin/v1/tenants/\(tenant)/rooms/\(roomID)/dissolve", key: fixture.server.operatorKey)
            #expect(dissolved.status == .ok)
            #expect(try await observer.next("SM:RDNtfyMsg") == .object([:]), "members hear the room end")
            _ = try await observer.client.next("closed")
            #expect(try await fixture.local.isOpen(roomID) == false, "then the engine closes its IM chatroom")
        }
    }
}
