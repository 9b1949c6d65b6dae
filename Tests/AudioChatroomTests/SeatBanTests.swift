import AudioChatroom
import Foundation
import RoomCore
import RoomTestSupport
import Testing

/// #29: a seat move is a door too. The change's read asks the engine's one
/// ban rule about its caller, so an account banned from the room (or its
/// tenant) applies for no seat with its old sid, and may again once lifted.
@Suite struct SeatBanTests {
    /// The admin API's room ban of `account`.
    static func ban(_ account: String, from room: SeatTests.Room, _ fixture: AudioChatroomFixture, _ http: HTTP) async throws -> HTTP.Answer {
        try await http.post("/admin/v1/tenants/\(fixture.server.id(0))/rooms/\(room.roomID)/bans", key: fixture.server.operatorKey,
                            json: #"{"account":"\#(account)"}"#)
    }

    @Test func aBannedCallersSeatApplyIsRefusedUntilTheBanIsLifted() async throws {
        let fixture = try await AudioChatroomFixture()
        try await fixture.server.live { http in
            let room = try await SeatTests.Room.open(fixture, http)
            let guest = try await room.guest(http)
            let banned = try await Self.ban(guest.accid, from: room, fixture, http)
            #expect(banned.status == .created)
            let refused = try await room.move(http, "apply", sid: guest.sid, index: 1)
            #expect(refused["code"]?.int64 == 403, "\(refused)")
            let seats = try #require(data(try await http.form("\(room.base)/mic/list", "roomId=\(room.roomID)")))
            guard case .array(let list)? = seats["list"] else { Issue.record("seats"); return }
            #expect(list[1]["status"] == .number(0), "the seat was not touched")

            let id = try #require(banned.json["id"]?.string)
            _ = try await http.request(.delete, "/admin/v1/tenants/\(fixture.server.id(0))/rooms/\(room.roomID)/bans/\(id)", key: fixture.server.operatorKey)
            #expect(data(try await room.move(http, "apply", sid: guest.sid, index: 1))?["status"] == .number(1))
        }
    }

    /// #41: the host invited a banned account onto a seat: the invitee is
    /// a door too, asked of the same rule in the change's read.
    @Test func aHostInvitesNoBannedAccountOntoASeat() async throws {
        let fixture = try await AudioChatroomFixture()
        try await fixture.server.live { http in
            let room = try await SeatTests.Room.open(fixture, http)
            let guest = try await room.guest(http)
            let banned = try await Self.ban(guest.accid, from: room, fixture, http)
            #expect(banned.status == .created)
            let refused = try await room.move(http, "invite", sid: room.hostSID, index: 2, extra: "&account=\(guest.accid)")
            #expect(refused["code"]?.int64 == 403 && refused["msg"]?.string?.contains("banned") == true, "\(refused)")
            let seats = try #require(data(try await http.form("\(room.base)/mic/list", "roomId=\(room.roomID)")))
            guard case .array(let list)? = seats["list"] else { Issue.record("seats"); return }
            #expect(list[2]["status"] == .number(0), "the seat stays empty")
            let other = try await room.guest(http)
            let invited = try await room.move(http, "invite", sid: room.hostSID, index: 2, extra: "&account=\(other.accid)")
            #expect(data(invited)?["status"] != nil, "an account in good standing is invited: \(invited)")
        }
    }
}
