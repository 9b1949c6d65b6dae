import Foundation
import RoomCore
import SealMic
import RoomTestSupport
import Testing

/// Mic positions over real HTTP: each legal move reaches the room as its SM:*
/// message with every position; each refused one changes nothing.
@Suite struct SealMicMicTests {
    /// A room with a host, two joined listeners and an observer in the IM chatroom.
    struct Room {
        let client: SealMicClient
        let host: SealMicUser
        let ann: SealMicUser
        let bob: SealMicUser
        let id: String
        let observer: ChatroomMember

        static func open(_ fixture: SealMicFixture, _ http: HTTP) async throws -> Room {
            let client = SealMicClient(http: http, base: fixture.base())
            let host = try await client.login()
            let id = try await client.createRoom(host)
            let observer = try await ChatroomMember.enter(host, id, fixture: fixture, port: try #require(http.client.port))
            let ann = try await client.login()
            let bob = try await client.login()
            for user in [ann, bob] {
                _ = try await client.call("/room/join", ["roomId": .string(id)], as: user.token)
                _ = try await observer.next("SM:RMChangeMsg")
            }
            return Room(client: client, host: host, ann: ann, bob: bob, id: id, observer: observer)
        }

        func mic(_ path: String, _ parameters: [String: JSONValue], as user: SealMicUser) async throws -> JSONValue {
            var body = parameters
            body["roomId"] = .string(id)
            return try await client.call("/room/mic/\(path)", body, as: user.token)
        }

        func control(_ cmd: Int, position: Int, user: SealMicUser? = nil, as actor: SealMicUser? = nil) async throws -> JSONValue {
            var body: [String: JSONValue] = ["cmd": .number(Double(cmd)), "targetPosition": .number(Double(position))]
            if let user { body["targetUserId"] = .string(user.userId) }
            return try await mic("control", body, as: actor ?? host)
        }

        func states() async throws -> [Int64] {
            try #require(result(try await client.call("/room/detail", ["roomId": .string(id)], as: host.token))).positions.map(\.1)
        }
    }

    @Test func listenersJoinLeaveAndChangePositions() async throws {
        let fixture = try await SealMicFixture(table: "[plugins.sealmic]\njoinRequiresIM = false\n")
        try await fixture.server.live { http in
            let room = try await Room.open(fixture, http)
            #expect(result(try await room.mic("join", ["targetPosition": 2], as: room.ann)) == .bool(true))
            let up = try await room.observer.next("SM:MPCtrlMsg")
            #expect(up["cmd"] == .number(6) && up["targetUserId"]?.string == room.ann.userId && up["targetPosition"] == .number(2))
            #expect(up.positions.count == 8 && up.positions[2] == (2, 4, room.ann.userId) as (Int64, Int64, String?))
            guard case .array(let infos)? = up["micPositions"] else { Issue.record("micPositions"); return }
            #expect(infos[2]["rid"]?.string == room.id)

            #expect(result(try await room.mic("change", ["fromPosition": 2, "toPosition": 5], as: room.ann)) == .bool(true))
            let moved = try await room.observer.next("SM:MPChangeMsg")
            #expect(moved["cmd"] == .number(8) && moved["fromPosition"] == .number(2) && moved["toPosition"] == .number(5))
            #expect(moved.positions[2].1 == 0 && moved.positions[5].1 == 4)
            // #18: each change is on the room's timeline as the plugin's own event, with the positions it changed.
            let events = try await fixture.server.server().services.engine.store.events(fixture.server.id(0), try #require(Int64(room.id)))
            let changes = events.filter { $0.kind == .plugin(SealMicPlugin.positionsChanged) }.compactMap { JSONValue.parse($0.detail)?["positions"]?.arrayValue }
            #expect(changes.count == 2, "the join and the change")
            #expect(changes.last?.compactMap { $0["holder"]?.string } == [room.ann.userId], "the change names the new holder once: \(changes)")

            #expect(result(try await room.mic("leave", ["targetPosition": 5], as: room.ann)) == .bool(true))
            let down = try await room.observer.next("SM:MPCtrlMsg")
            #expect(down["cmd"] == .number(7) && down.positions[5].1 == 0, "leaving clears the occupied bit")

            // Without targetPosition, leave means the caller's own position.
            _ = try await room.mic("join", ["targetPosition": 1], as: room.bob)
            _ = try await room.observer.next("SM:MPCtrlMsg")
            #expect(result(try await room.mic("leave", [:], as: room.bob)) == .bool(true))
            #expect(try await room.observer.next("SM:MPCtrlMsg")["targetPosition"] == .number(1))
            #expect(try await room.states() == Array(repeating: 0, count: 8))
        }
    }

    /// #29, item 3 ("the seat/position state shows who muted them"): an
    /// admin's mute of a holder reaches the room as cmd 3 on the holder's
    /// position (state 6, `mutedBy`), is in the room's detail, holds when
    /// the holder takes another position, and its lift clears it (cmd 4).
    @Test func aModeratorsMuteShowsOnThePosition() async throws {
        let fixture = try await SealMicFixture(table: "[plugins.sealmic]\njoinRequiresIM = false\n")
        try await fixture.server.live { http in
            let room = try await Room.open(fixture, http)
            #expect(result(try await room.mic("join", ["targetPosition": 2], as: room.ann)) == .bool(true))
            _ = try await room.observer.next("SM:MPCtrlMsg")
            let admin = "/admin/v1/tenants/\(fixture.server.id(0))/rooms/\(room.id)/mutes"
            let muted = try await http.post(admin, key: fixture.server.operatorKey, json: #"{"account":"\#(room.ann.userId)","reason":"noise"}"#)
            #expect(muted.status == .created, "\(muted.text)")
            let shown = try await room.observer.next("SM:MPCtrlMsg")
            #expect(shown["cmd"] == .number(3) && shown["targetUserId"]?.string == room.ann.userId && shown["targetPosition"] == .number(2))
            #expect(shown["micPositions"]?.arrayValue?[2]["state"] == .number(6) && shown["micPositions"]?.arrayValue?[2]["mutedBy"]?.string == "admin")
            let detail = try #require(result(try await room.client.call("/room/detail", ["roomId": .string(room.id)], as: room.host.token)))
            #expect(detail["micPositions"]?.arrayValue?[2]["mutedBy"]?.string == "admin" && detail["micPositions"]?.arrayValue?[2]["state"] == .number(6))

            // A move keeps the mute in force on the new position.
            #expect(result(try await room.mic("change", ["fromPosition": 2, "toPosition": 5], as: room.ann)) == .bool(true))
            let moved = try await room.observer.next("SM:MPChangeMsg")
            #expect(moved.positions[2].1 == 0 && moved.positions[5].1 == 6, "\(moved.positions)")

            let id = try #require(muted.json["id"]?.string)
            #expect(try await http.request(.delete, "\(admin)/\(id)", key: fixture.server.operatorKey).status == .ok)
            let lifted = try await room.observer.next("SM:MPCtrlMsg")
            #expect(lifted["cmd"] == .number(4) && lifted.positions[5].1 == 4 && lifted["micPositions"]?.arrayValue?[5]["mutedBy"] == nil)
        }
    }

    @Test func everyRefusedMoveHasItsCodeAndChangesNothing() async throws {
        let fixture = try await SealMicFixture(table: "[plugins.sealmic]\njoinRequiresIM = false\n")
        try await fixture.server.live { http in
            let room = try await Room.open(fixture, http)
            _ = try await room.mic("join", ["targetPosition": 0], as: room.ann)
            _ = try await room.control(1, position: 3)
            _ = try await room.observer.next("SM:MPCtrlMsg")
            _ = try await room.observer.next("SM:MPCtrlMsg")
            let before = try await room.states()
            #expect(before == [4, 0, 0, 1, 0, 0, 0, 0])
            let outsider = try await room.client.login()

            let refusals: [(String, [String: JSONValue], SealMicUser, Int64)] = [
                ("join", ["targetPosition": 0], room.bob, 24),
                ("join", ["targetPosition": 3], room.bob, 25),
                ("join", ["targetPosition": 1], room.ann, 28),
                ("join", ["targetPosition": 1], room.host, 3),
                ("join", ["targetPosition": 1], outsider, 21),
                ("join", ["targetPosition": 8], room.bob, 1),
                ("join", [:], room.bob, 1),
                ("join", ["targetPosition": "first"], room.bob, 1),
                ("leave", ["targetPosition": 0], room.bob, 24),
                ("leave", [:], room.bob, 24),
                ("change", ["fromPosition": 0, "toPosition": 3], room.ann, 25),
                ("change", ["fromPosition": 1, "toPosition": 2], room.bob, 24),
                ("change", ["fromPosition": 0, "toPosition": 0], room.ann, 24),
                ("change", ["fromPosition": 0], room.ann, 1),
            ]
            for (path, parameters, user, code) in refusals {
                let answer = try await room.mic(path, parameters, as: user)
                #expect(errCode(answer) == code, "\(path) \(parameters): \(answer)")
                #expect(answer["errMsg"]?.string?.isEmpty == false)
            }
            #expect(errCode(try await room.client.call("/room/mic/join", ["roomId": "777", "targetPosition": 1], as: room.bob.token)) == 20)
            #expect(errCode(try await room.client.call("/room/mic/join", ["roomId": .string(room.id), "targetPosition": 1], as: nil)) == 2)
            #expect(try await room.states() == before)
            #expect(try await room.observer.client.expectSilence().filter { $0["type"]?.string == "message" }.isEmpty, "no message for a refused move")
        }
    }

    @Test func theHostControlsPositions() async throws {
        let fixture = try await SealMicFixture(table: "[plugins.sealmic]\njoinRequiresIM = false\n")
        try await fixture.server.live { http in
            let room = try await Room.open(fixture, http)
            let steps: [(cmd: Int, position: Int, user: SealMicUser?, states: [Int64])] = [
                (0, 1, room.ann, [0, 4, 0, 0, 0, 0, 0, 0]),   // carry
                (3, 1, nil, [0, 6, 0, 0, 0, 0, 0, 0]),        // mute
                (4, 1, nil, [0, 4, 0, 0, 0, 0, 0, 0]),        // unmute
                (7, 1, room.ann, [0, 0, 0, 0, 0, 0, 0, 0]),   // down
                (0, 2, room.bob, [0, 0, 4, 0, 0, 0, 0, 0]),   // carry
                (1, 2, nil, [0, 0, 1, 0, 0, 0, 0, 0]),        // lock takes bob down
                (2, 2, nil, [0, 0, 0, 0, 0, 0, 0, 0]),        // unlock
            ]
            for step in steps {
                #expect(result(try await room.control(step.cmd, position: step.position, user: step.user)) == .bool(true), "cmd \(step.cmd)")
                let message = try await room.observer.next("SM:MPCtrlMsg")
                #expect(message["cmd"] == .number(Double(step.cmd)), "the message carries the cmd done (lock is 1)")
                #expect(message.positions.map(\.1) == step.states, "cmd \(step.cmd)")
            }
            let outsider = try await room.client.login()
            let refusals: [(Int, Int, SealMicUser?, SealMicUser, Int64)] = [
                (1, 0, nil, room.ann, 3),          // not the host
                (0, 0, outsider, room.host, 21),   // carry someone not in the room
                (0, 0, room.host, room.host, 3),   // the host takes no position
                (0, 0, nil, room.host, 1),         // carry needs targetUserId
                (2, 0, nil, room.host, 24),        // unlock an open position
                (4, 0, nil, room.host, 24),        // unmute a position not muted
                (7, 0, nil, room.host, 24),        // take down from an empty position
                (5, 0, nil, room.host, 24),        // kick from an empty position
                (6, 0, nil, room.host, 4),         // up is the member's own move
                (8, 0, nil, room.host, 4),         // so is change
                (9, 0, nil, room.host, 1),         // no such cmd
                (1, 9, nil, room.host, 1),         // no such position
            ]
            for (cmd, position, user, actor, code) in refusals {
                #expect(errCode(try await room.control(cmd, position: position, user: user, as: actor)) == code, "cmd \(cmd) position \(position)")
            }
            #expect(try await room.states() == Array(repeating: 0, count: 8))
        }
    }

    @Test func kickTakesTheHolderOffThePositionAndOutOfTheRoom() async throws {
        let fixture = try await SealMicFixture(table: "[plugins.sealmic]\njoinRequiresIM = false\n")
        try await fixture.server.live { http in
            let room = try await Room.open(fixture, http)
            _ = try await room.mic("join", ["targetPosition": 4], as: room.bob)
            _ = try await room.observer.next("SM:MPCtrlMsg")
            #expect(errCode(try await room.control(5, position: 4, user: room.ann)) == 24, "targetUserId must be the holder")
            #expect(result(try await room.control(5, position: 4, user: room.bob)) == .bool(true))
            let kicked = try await room.observer.next("SM:MPCtrlMsg")
            #expect(kicked["cmd"] == .number(5) && kicked["targetUserId"]?.string == room.bob.userId && kicked.positions[4].1 == 0)
            let out = try await room.observer.next("SM:RMChangeMsg")
            #expect(out["cmd"] == .number(3) && out["targetUserId"]?.string == room.bob.userId)
            #expect(errCode(try await room.mic("join", ["targetPosition": 4], as: room.bob)) == 21, "a kicked user is out of the room")
            // #29: a host's kick, by the engine's one kick: on the timeline (and so in webhooks) as one.
            let timeline = try await fixture.server.server().services.engine.store.events(fixture.server.id(0), try #require(Int64(room.id)))
            #expect(timeline.contains { $0.kind == .kicked }, "\(timeline.map(\.kind.stored))")
            // And audited as the host's act, with where it came from.
            let audit = try await fixture.server.database.query("""
                SELECT actor, key_fingerprint, target, outcome, client_address FROM audit_log
                WHERE tenant_id = \(fixture.server.id(0)) AND action = 'member.kick'
                """).decode((String, String?, String, String, String?).self)
            #expect(audit.count == 1 && audit[0].0 == "account:\(room.host.userId)" && audit[0].1 == nil
                    && audit[0].2 == "room:\(room.id)/account:\(room.bob.userId)" && audit[0].3 == "removed" && audit[0].4 == "127.0.0.1",
                    "\(audit)")
            #expect(errCode(try await room.client.call("/room/join", ["roomId": .string(room.id)], as: room.bob.token)) == 0, "and may come back")
        }
    }

    @Test func leavingTheRoomFreesThePosition() async throws {
        let fixture = try await SealMicFixture(table: "[plugins.sealmic]\njoinRequiresIM = false\n")
        try await fixture.server.live { http in
            let room = try await Room.open(fixture, http)
            _ = try await room.mic("join", ["targetPosition": 6], as: room.ann)
            _ = try await room.observer.next("SM:MPCtrlMsg")
            _ = try await room.client.call("/room/leave", ["roomId": .string(room.id)], as: room.ann.token)
            let down = try await room.observer.next("SM:MPCtrlMsg")
            #expect(down["cmd"] == .number(7) && down["targetUserId"]?.string == room.ann.userId && down.positions[6].1 == 0)
            #expect(try await room.observer.next("SM:RMChangeMsg")["cmd"] == .number(2))
        }
    }

    @Test func fiftyUsersRacingForOnePositionLeaveOneHolder() async throws {
        let fixture = try await SealMicFixture(table: "[plugins.sealmic]\njoinRequiresIM = false\n")
        try await fixture.server.live { http in
            let client = SealMicClient(http: http, base: fixture.base())
            let host = try await client.login()
            let roomID = try await client.createRoom(host)
            var racers: [SealMicUser] = []
            for _ in 0..<50 {
                let user = try await client.login()
                _ = try await client.call("/room/join", ["roomId": .string(roomID)], as: user.token)
                racers.append(user)
            }
            // At once, a connection each (the test client sends one request at a time).
            let burst = racers.map {
                ParallelRequests.Request(path: "\(fixture.base())/room/mic/join", body: #"{"roomId":"\#(roomID)","targetPosition":3}"#,
                                         contentType: "application/json", headers: [("Authorization", $0.token)])
            }
            let answers = try await ParallelRequests.send(port: try #require(http.client.port), burst).map { (racers[$0.index].userId, errCode($0.answer)) }
            let winners = answers.filter { $0.1 == 0 }
            #expect(winners.count == 1)
            #expect(answers.filter { $0.1 == 24 }.count == 49)
            let detail = try #require(result(try await client.call("/room/detail", ["roomId": .string(roomID)], as: host.token)))
            #expect(detail.positions[3].2 == winners.first?.0)
            #expect(detail.positions.filter { $0.2 != nil }.count == 1, "no position ever holds two users, nobody holds two")
        }
    }
}
