import Foundation
import RoomCore
import RoomProviders
import RoomTestSupport
import Testing

/// Rooms over real HTTP: shapes, join order, limits, leave, destroy,
/// members, background, each error code a route can answer.
@Suite struct SealMicRoomTests {
    @Test func createListAndDetailHaveTheOriginalShapes() async throws {
        let fixture = try await SealMicFixture()
        try await fixture.server.live { http in
            let client = SealMicClient(http: http, base: fixture.base())
            let host = try await client.login()
            let created = try #require(result(try await client.call("/room/create", ["subject": "Evening", "type": 2], as: host.token)))
            let roomID = try #require(created["roomId"]?.string)
            #expect(created["creatorUserId"]?.string == host.userId && created["subject"]?.string == "Evening")
            #expect(created["roomType"] == .number(2) && created["memCount"] == .number(1) && created["bgId"] == .number(0))
            #expect(created["createDt"]?.int64 == fixture.server.clock.now().epochMilliseconds)
            #expect(try await fixture.local.isOpen(roomID), "the room's id is its IM chatroom's")

            guard case .array(let listed)? = result(try await client.call("/room/list", as: host.token, method: .get)) else {
                Issue.record("list is an array"); return
            }
            #expect(listed.map { $0["roomId"]?.string } == [roomID])

            let detail = try #require(result(try await client.call("/room/detail", ["roomId": .string(roomID)], as: host.token, method: .get)))
            #expect(detail["roomId"]?.string == roomID && detail["memCount"] == .number(1))
            #expect(detail.positions.map(\.0) == Array(0..<8) && detail.positions.allSatisfy { $0.1 == 0 && $0.2 == nil })
            guard case .array(let audiences)? = detail["audiences"] else { Issue.record("audiences"); return }
            #expect(audiences.map { $0["userId"]?.string } == [host.userId] && audiences.first?["role"] == .number(1))

            #expect(errCode(try await client.call("/room/create", [:], as: host.token)) == 1)
            #expect(errCode(try await client.call("/room/create", ["subject": .string(String(repeating: "s", count: 65))], as: host.token)) == 1)
            #expect(errCode(try await client.call("/room/create", ["subject": "x"], as: nil)) == 2)
            #expect(errCode(try await client.call("/room/detail", [:], as: host.token)) == 1)
            #expect(errCode(try await client.call("/room/detail", ["roomId": "nope"], as: host.token)) == 20)
            #expect(errCode(try await client.call("/room/detail", ["roomId": "99999999"], as: host.token)) == 20)
            // Another tenant does not see the room.
            let stranger = try await SealMicClient(http: http, base: fixture.base(1)).login()
            #expect(errCode(try await SealMicClient(http: http, base: fixture.base(1)).call("/room/detail", ["roomId": .string(roomID)], as: stranger.token)) == 20)
        }
    }

    @Test func joiningBeforeTheIMChatroomIsRefusedAfterItAccepted() async throws {
        let fixture = try await SealMicFixture()
        try await fixture.server.live { http in
            let client = SealMicClient(http: http, base: fixture.base())
            let host = try await client.login()
            let guest = try await client.login()
            let roomID = try await client.createRoom(host)
            let port = try #require(http.client.port)
            let observer = try await ChatroomMember.enter(host, roomID, fixture: fixture, port: port)

            let early = try await client.call("/room/join", ["roomId": .string(roomID)], as: guest.token)
            #expect(errCode(early) == 21 && early["errMsg"]?.string?.contains("IM chatroom") == true)
            _ = try await ChatroomMember.enter(guest, roomID, fixture: fixture, port: port)
            let joined = try #require(result(try await client.call("/room/join", ["roomId": .string(roomID)], as: guest.token)))
            #expect(joined["memCount"] == .number(2))
            let message = try await observer.next("SM:RMChangeMsg")
            #expect(message["cmd"] == .number(1) && message["targetUserId"]?.string == guest.userId)
        }
    }

    @Test func aTenantMaySwitchTheIMCheckOff() async throws {
        let fixture = try await SealMicFixture(table: "[plugins.sealmic]\njoinRequiresIM = false\n")
        try await fixture.server.live { http in
            let client = SealMicClient(http: http, base: fixture.base())
            let roomID = try await client.createRoom(try await client.login())
            #expect(errCode(try await client.call("/room/join", ["roomId": .string(roomID)], as: try await client.login().token)) == 0)
        }
    }

    @Test func roomAndMemberLimitsAnswer26And27() async throws {
        let fixture = try await SealMicFixture(table: "[plugins.sealmic]\njoinRequiresIM = false\nmaxRooms = 2\ncapacity = 2\n")
        try await fixture.server.live { http in
            let client = SealMicClient(http: http, base: fixture.base())
            let host = try await client.login()
            let roomID = try await client.createRoom(host)
            _ = try await client.createRoom(host)
            let third = try await client.call("/room/create", ["subject": "Third"], as: host.token)
            #expect(errCode(third) == 26)

            #expect(errCode(try await client.call("/room/join", ["roomId": .string(roomID)], as: try await client.login().token)) == 0)
            #expect(errCode(try await client.call("/room/join", ["roomId": .string(roomID)], as: try await client.login().token)) == 27)
        }
    }

    /// One guest cannot take a tenant's every room: 3 live rooms per host by
    /// default, decided under the same lock as the tenant's limit, even when
    /// the guest fires its creates at once.
    @Test func oneHostGetsAtMostThreeRoomsEvenAllAtOnce() async throws {
        let fixture = try await SealMicFixture()
        try await fixture.server.live { http in
            let client = SealMicClient(http: http, base: fixture.base())
            let greedy = try await client.login()
            let burst = (0..<10).map { _ in
                ParallelRequests.Request(path: "\(fixture.base())/room/create", body: #"{"subject":"Mine"}"#, contentType: "application/json",
                                         headers: [("Authorization", greedy.token)])
            }
            let codes = try await ParallelRequests.send(port: try #require(http.client.port), burst).map { errCode($0.answer) }
            #expect(codes.filter { $0 == 0 }.count == 3 && codes.filter { $0 == 26 }.count == 7, "\(codes)")
            _ = try await client.createRoom(try await client.login(), subject: "Another host")
        }
    }

    /// A 64-"character" subject can be hundreds of KB of combining marks:
    /// lengths are measured in bytes as well.
    @Test func aSubjectOfFewCharactersAndManyBytesIsRefused() async throws {
        let fixture = try await SealMicFixture()
        try await fixture.server.live { http in
            let client = SealMicClient(http: http, base: fixture.base())
            let host = try await client.login()
            let zalgo = String(repeating: "a" + String(repeating: "\u{0301}", count: 2_000), count: 60)
            #expect(zalgo.count == 60 && zalgo.utf8.count > 200_000)
            let refused = try await client.call("/room/create", ["subject": .string(zalgo)], as: host.token)
            #expect(errCode(refused) == 1 && refused["errMsg"]?.string?.contains("subject") == true, "\(refused["errMsg"] ?? .null)")
            #expect(try await fixture.server.server().services.engine.store.count(fixture.server.id(0), pluginID: "sealmic", state: "open") == 0)
        }
    }

    @Test func concurrentCreatesNeverPassTheRoomLimit() async throws {
        let fixture = try await SealMicFixture(table: "[plugins.sealmic]\nmaxRooms = 3\n")
        try await fixture.server.live { http in
            let client = SealMicClient(http: http, base: fixture.base())
            var hosts: [SealMicUser] = []
            for _ in 0..<10 { hosts.append(try await client.login()) }
            // At once, a connection each (the test client sends one request at a time).
            let burst = hosts.map {
                ParallelRequests.Request(path: "\(fixture.base())/room/create", body: #"{"subject":"Race"}"#, contentType: "application/json",
                                         headers: [("Authorization", $0.token)])
            }
            let codes = try await ParallelRequests.send(port: try #require(http.client.port), burst).map { errCode($0.answer) }
            #expect(codes.filter { $0 == 0 }.count == 3 && codes.filter { $0 == 26 }.count == 7)
            #expect(try await fixture.server.server().services.engine.store.count(fixture.server.id(0), pluginID: "sealmic", state: "open") == 3)
        }
    }

    @Test func leavingDestroyingAndTheHostLeaving() async throws {
        let fixture = try await SealMicFixture(table: "[plugins.sealmic]\njoinRequiresIM = false\n")
        try await fixture.server.live { http in
            let client = SealMicClient(http: http, base: fixture.base())
            let host = try await client.login()
            let guest = try await client.login()
            let stranger = try await client.login()
            let roomID = try await client.createRoom(host)
            let room = ["roomId": JSONValue.string(roomID)]
            let observer = try await ChatroomMember.enter(host, roomID, fixture: fixture, port: try #require(http.client.port))
            _ = try await client.call("/room/join", room, as: guest.token)
            _ = try await observer.next("SM:RMChangeMsg")

            #expect(errCode(try await client.call("/room/leave", room, as: stranger.token)) == 21)
            #expect(result(try await client.call("/room/leave", room, as: guest.token)) == .bool(true))
            let left = try await observer.next("SM:RMChangeMsg")
            #expect(left["cmd"] == .number(2) && left["targetUserId"]?.string == guest.userId)
            #expect(errCode(try await client.call("/room/leave", ["roomId": "42"], as: guest.token)) == 20)

            #expect(errCode(try await client.call("/room/destroy", room, as: guest.token)) == 3)
            #expect(errCode(try await client.call("/room/destroy", [:], as: host.token)) == 1)
            // The host leaving ends the room for everyone.
            #expect(result(try await client.call("/room/leave", room, as: host.token)) == .bool(true))
            #expect(try await observer.next("SM:RDNtfyMsg") == .object([:]))
            _ = try await observer.client.next("closed")
            #expect(try await fixture.local.isOpen(roomID) == false, "the IM chatroom closes with the room")
            #expect(errCode(try await client.call("/room/detail", room, as: host.token)) == 20)
            #expect(errCode(try await client.call("/room/destroy", room, as: host.token)) == 20)
        }
    }

    @Test func destroyTellsMembersAndClosesTheChatroom() async throws {
        let fixture = try await SealMicFixture()
        try await fixture.server.live { http in
            let client = SealMicClient(http: http, base: fixture.base())
            let host = try await client.login()
            let roomID = try await client.createRoom(host)
            let member = try await ChatroomMember.enter(host, roomID, fixture: fixture, port: try #require(http.client.port))
            #expect(result(try await client.call("/room/destroy", ["roomId": .string(roomID)], as: host.token)) == .bool(true))
            #expect(try await member.next("SM:RDNtfyMsg") == .object([:]))
            #expect(try await member.client.next("closed")["chatroom"]?.string == roomID)
        }
    }

    @Test func membersAndTheirRoles() async throws {
        let fixture = try await SealMicFixture(table: "[plugins.sealmic]\njoinRequiresIM = false\n")
        try await fixture.server.live { http in
            let client = SealMicClient(http: http, base: fixture.base())
            let host = try await client.login()
            let speaker = try await client.login()
            let listener = try await client.login()
            let roomID = try await client.createRoom(host)
            let room = ["roomId": JSONValue.string(roomID)]
            for user in [speaker, listener] { _ = try await client.call("/room/join", room, as: user.token) }
            _ = try await client.call("/room/mic/join", ["roomId": .string(roomID), "targetPosition": 2], as: speaker.token)

            guard case .array(let members)? = result(try await client.call("/room/member/list", room, as: listener.token, method: .get)) else {
                Issue.record("member list"); return
            }
            let roles = Dictionary(uniqueKeysWithValues: members.map { ($0["userId"]?.string ?? "", $0["role"]?.int64 ?? 0) })
            #expect(roles == [host.userId: 1, speaker.userId: 2, listener.userId: 3])
            #expect(members.allSatisfy { $0["joinDt"]?.int64 != nil })
            #expect(errCode(try await client.call("/room/member/list", room, as: try await client.login().token)) == 21)
            #expect(errCode(try await client.call("/room/member/list", ["roomId": "1"], as: host.token)) == 20)
        }
    }

    @Test func onlyTheHostChangesTheBackground() async throws {
        let fixture = try await SealMicFixture(table: "[plugins.sealmic]\njoinRequiresIM = false\n")
        try await fixture.server.live { http in
            let client = SealMicClient(http: http, base: fixture.base())
            let host = try await client.login()
            let guest = try await client.login()
            let roomID = try await client.createRoom(host)
            let observer = try await ChatroomMember.enter(host, roomID, fixture: fixture, port: try #require(http.client.port))
            _ = try await client.call("/room/join", ["roomId": .string(roomID)], as: guest.token)

            #expect(errCode(try await client.call("/room/background", ["roomId": .string(roomID), "bgId": 3], as: guest.token)) == 3)
            #expect(errCode(try await client.call("/room/background", ["roomId": .string(roomID)], as: host.token)) == 1)
            #expect(errCode(try await client.call("/room/background", ["roomId": .string(roomID), "bgId": "blue"], as: host.token)) == 1)
            #expect(result(try await client.call("/room/background", ["roomId": .string(roomID), "bgId": 3], as: host.token)) == .bool(true))
            #expect(try await observer.next("SM:RBgNtfyMsg") == .object(["bgId": 3]))
            #expect(result(try await client.call("/room/detail", ["roomId": .string(roomID)], as: guest.token))?["bgId"] == .number(3))
        }
    }

    /// #41: a crowded room's detail (and every join's answer) lists the
    /// newest 200 audiences with the host and the seats' holders, and counts
    /// them all: 2,000 joins into one room were sent 2 million entries.
    @Test func aCrowdedRoomsDetailListsTheNewestAudiencesAndCountsThemAll() async throws {
        let fixture = try await SealMicFixture(table: "[plugins.sealmic]\njoinRequiresIM = false\ncapacity = 1000\n")
        try await fixture.server.live { http in
            let client = SealMicClient(http: http, base: fixture.base())
            let host = try await client.login()
            let roomID = try await client.createRoom(host)
            let seated = try await client.login()
            #expect(errCode(try await client.call("/room/join", ["roomId": .string(roomID)], as: seated.token)) == 0)
            #expect(errCode(try await client.call("/room/mic/join", ["roomId": .string(roomID), "targetPosition": 1], as: seated.token)) == 0)
            // 250 members joined after them (as rows: the answer is the point here).
            try await fixture.server.database.query("""
                WITH added AS (
                    INSERT INTO room_members (tenant_id, room_id, accid, role, status, joined_at, updated_at)
                    SELECT \(fixture.server.id(0)), \(Int64(roomID)!), 'crowd' || n, 'listener', 'joined',
                           \(fixture.server.clock.now()) + n * interval '1 second', now()
                    FROM generate_series(1, 250) n RETURNING 1)
                UPDATE rooms SET joined_count = joined_count + (SELECT count(*) FROM added)
                WHERE tenant_id = \(fixture.server.id(0)) AND room_id = \(Int64(roomID)!)
                """)
            (fixture.server.clock as! ManualClock).advance(by: 1_000)
            let latest = try await client.login()
            let joined = try #require(result(try await client.call("/room/join", ["roomId": .string(roomID)], as: latest.token)))
            guard case .array(let audiences)? = joined["audiences"] else { Issue.record("audiences"); return }
            let ids = audiences.compactMap { $0["userId"]?.string }
            #expect(joined["memCount"] == .number(253), "every joined member counted: \(joined["memCount"] ?? .null)")
            #expect(ids.count == 202, "the newest 200, the host and the seat's holder: \(ids.count)")
            #expect(Set(ids.prefix(2)) == [host.userId, seated.userId] && ids.last == latest.userId,
                    "oldest first among them: \(ids.prefix(3)) … \(ids.suffix(1))")
            #expect(!ids.contains("crowd51") && ids.contains("crowd52"), "the newest 200 are the newcomer and crowd52-250: the 51 oldest of the crowd are left out")
            #expect(joined.positions.first { $0.0 == 1 }?.2 == seated.userId)
            guard case .array(let all)? = result(try await client.call("/room/member/list", ["roomId": .string(roomID)], as: latest.token)) else {
                Issue.record("member list"); return
            }
            #expect(all.count == 253, "the member list lists them all: \(all.count)")
        }
    }
}
