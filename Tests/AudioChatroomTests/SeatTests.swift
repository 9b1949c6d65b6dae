import AudioChatroom
import Foundation
import PluginConformance
import RoomCore
import RoomProviders
import RoomTestSupport
import Testing

/// Server-kept seats over real HTTP: each legal move writes the queue element
/// through the IM provider; each illegal one is refused and changes nothing.
@Suite struct SeatTests {
    struct Room {
        let fixture: AudioChatroomFixture
        let hostSID: String
        let roomID: Int64
        let chatroom: String
        var base: String { fixture.base() }
        var local: LocalIMProvider { fixture.server.tenants[0].imAdapter(LocalIMProvider.self)! }

        static func open(_ fixture: AudioChatroomFixture, _ http: HTTP) async throws -> Room {
            let host = try #require(data(try await http.form("\(fixture.base())/user/get", ""))?["sid"]?.string)
            let roomID = try #require(data(try await http.form("\(fixture.base())/room/create", "sid=\(host)&roomName=Seats"))?["roomId"]?.int64)
            let room = try #require(try await fixture.server.server().services.engine.store.room(fixture.server.id(0), roomID))
            return Room(fixture: fixture, hostSID: host, roomID: roomID, chatroom: try #require(room.imChatroomID))
        }

        func guest(_ http: HTTP) async throws -> (sid: String, accid: String) {
            let user = try #require(data(try await http.form("\(base)/user/get", "")))
            return (try #require(user["sid"]?.string), try #require(user["accid"]?.string))
        }

        func move(_ http: HTTP, _ name: String, sid: String, index: Int, extra: String = "") async throws -> JSONValue {
            try await http.form("\(base)/mic/\(name)", "sid=\(sid)&roomId=\(roomID)&index=\(index)\(extra)")
        }

        /// The queue element as the IM provider holds it, once the outbox delivered it.
        func queued(_ index: Int, status: Int) async throws -> JSONValue? {
            for _ in 0..<200 {
                let value = try await local.queueList(chatroom).first { $0.key == "queue_\(index)" }?.value
                if let value, let json = JSONValue.parse(value), json["status"] == .number(Double(status)) { return json }
                try await Task.sleep(for: .milliseconds(10))
            }
            return nil
        }
    }

    /// #28: with the local IM, a move's queue element and its note to the
    /// host are written by the move's own statement, not by the outbox
    /// after it: they are there when the answer is. A move made while an
    /// IM effect of the room still waits in the outbox queues its own
    /// behind it instead, and the element changes only when they are delivered.
    @Test func aMovesQueueElementIsWrittenWithTheMove() async throws {
        let fixture = try await AudioChatroomFixture()
        try await fixture.server.live { http in
            let room = try await Room.open(fixture, http)
            let guest = try await room.guest(http)
            let database = fixture.server.database, tenant = fixture.server.id(0)
            #expect(data(try await room.move(http, "apply", sid: guest.sid, index: 1))?["status"] == .number(1))
            let element = try await room.local.queueList(room.chatroom).first { $0.key == "queue_1" }?.value
            #expect(element.flatMap(JSONValue.parse)?["status"] == .number(1), "the element is there with the answer: \(element ?? "none")")
            #expect(try await database.query("""
                SELECT count(*)::int FROM im_notifications WHERE tenant_id = \(tenant) AND to_accid <> \(guest.accid)
                """).decode(Int.self).first == 1, "the host's note too")
            #expect(try await database.query("""
                SELECT count(*)::int FROM outbox WHERE tenant_id = \(tenant) AND room_id = \(room.roomID) AND lane = ''
                """).decode(Int.self).first == 0)

            // An IM effect of the room that waits (due in an hour).
            try await database.query("""
                INSERT INTO outbox (tenant_id, room_id, kind, lane, payload, next_attempt_at, created_at)
                VALUES (\(tenant), \(room.roomID), 'im', '',
                        jsonb_build_object('chatroomMessage', jsonb_build_object('chatroom', \(room.chatroom)::text, 'from', 'test', 'type', '100',
                                                                                 'body', '{}', 'persist', false)),
                        now() + interval '1 hour', now())
                """)
            #expect(data(try await room.move(http, "accept", sid: room.hostSID, index: 1))?["status"] == .number(2))
            #expect(try await database.query("""
                SELECT count(*)::int FROM outbox WHERE tenant_id = \(tenant) AND room_id = \(room.roomID) AND lane = '' AND payload ? 'queuePut' AND status = 'pending'
                """).decode(Int.self).first == 1, "the accept's element waits behind the message")
            let unchanged = try await room.local.queueList(room.chatroom).first { $0.key == "queue_1" }?.value
            #expect(unchanged.flatMap(JSONValue.parse)?["status"] == .number(1), "not yet written")
        }
    }

    /// #29: a moderator's mute shows on the member's seat and outlasts its
    /// own switch; a kick frees the seat of a member who never joined the
    /// room (audio-chatroom's audience sits from the IM chatroom).
    @Test func aMuteShowsOnTheSeatAndAKickFreesIt() async throws {
        let fixture = try await AudioChatroomFixture()
        try await fixture.server.live { http in
            let room = try await Room.open(fixture, http)
            let guest = try await room.guest(http)
            _ = try await room.move(http, "apply", sid: guest.sid, index: 1)
            #expect(data(try await room.move(http, "accept", sid: room.hostSID, index: 1))?["status"] == .number(2))
            let admin = "/admin/v1/tenants/\(fixture.server.id(0))/rooms/\(room.roomID)"
            let muted = try await http.post("\(admin)/mutes", key: fixture.server.operatorKey, json: #"{"account":"\#(guest.accid)"}"#)
            #expect(muted.status == .created)
            let element = try #require(try await room.queued(1, status: 6), "the seat's element says muted")
            #expect(element["micMute"] == .bool(true) && element["mutedBy"]?.string == "admin")
            let unmuting = try await room.move(http, "self-mute", sid: guest.sid, index: 1, extra: "&mute=false")
            #expect(data(unmuting)?["status"] == .number(6) && data(unmuting)?["micMute"] == .bool(true) && data(unmuting)?["mutedBy"]?.string == "admin",
                    "its own switch does not lift a moderator's mute: \(unmuting)")
            let id = try #require(muted.json["id"]?.string)
            #expect(try await http.request(.delete, "\(admin)/mutes/\(id)", key: fixture.server.operatorKey).status == .ok)
            #expect(try await room.queued(1, status: 2)?["micMute"] == .bool(false), "lifted: its own switch (off) rules")

            #expect(try await http.post("\(admin)/members/\(guest.accid)/kick", key: fixture.server.operatorKey).status == .ok)
            let freed = try #require(try await room.queued(1, status: 0), "the kick freed the seat")
            #expect(freed["reason"] == .number(3) && freed["member"]?["account"]?.string == "")
            #expect(data(try await room.move(http, "apply", sid: guest.sid, index: 2))?["status"] == .number(1), "a kick without a duration lets it back")
        }
    }

    /// #29: a member muted before it takes a seat (applying, or invited by
    /// the host) takes it muted, naming who muted it; before, the seat showed
    /// only its own switch (off).
    @Test func aMemberMutedBeforeTakingASeatTakesItMuted() async throws {
        let fixture = try await AudioChatroomFixture()
        try await fixture.server.live { http in
            let room = try await Room.open(fixture, http)
            let (applicant, invitee) = (try await room.guest(http), try await room.guest(http))
            let admin = "/admin/v1/tenants/\(fixture.server.id(0))/rooms/\(room.roomID)"
            for account in [applicant.accid, invitee.accid] {
                #expect(try await http.post("\(admin)/mutes", key: fixture.server.operatorKey, json: #"{"account":"\#(account)"}"#).status == .created)
            }
            let applied = try await room.move(http, "apply", sid: applicant.sid, index: 1)
            #expect(data(applied)?["micMute"] == .bool(true) && data(applied)?["mutedBy"]?.string == "admin", "\(applied)")
            let accepted = try await room.move(http, "accept", sid: room.hostSID, index: 1)
            #expect(data(accepted)?["status"] == .number(6) && data(accepted)?["mutedBy"]?.string == "admin", "on mic, muted: \(accepted)")
            let invited = try await room.move(http, "invite", sid: room.hostSID, index: 2, extra: "&account=\(invitee.accid)")
            #expect(data(invited)?["status"] == .number(6) && data(invited)?["mutedBy"]?.string == "admin", "\(invited)")
            #expect(try await room.queued(2, status: 6)?["mutedBy"]?.string == "admin", "the queue element says so too")
        }
    }

    @Test func legalMovesWriteTheQueueElement() async throws {
        let fixture = try await AudioChatroomFixture()
        try await fixture.server.live { http in
            let room = try await Room.open(fixture, http)
            let guest = try await room.guest(http)

            let applied = try await room.move(http, "apply", sid: guest.sid, index: 2)
            #expect(data(applied)?["status"] == .number(1))
            let element = try #require(try await room.queued(2, status: 1))
            #expect(element["member"]?["account"]?.string == guest.accid)
            #expect(element["index"] == .number(2) && element["reason"] == .number(0) && element["micMute"] == .bool(false))
            // #18: the move is on the room's timeline as the plugin's own event (what webhooks send).
            let events = try await fixture.server.server().services.engine.store.events(fixture.server.id(0), room.roomID)
            let seatEvent = try #require(events.last { $0.kind == .plugin(AudioChatroomPlugin.seatChanged) })
            let detail = JSONValue.parse(seatEvent.detail)
            #expect(detail?["seat"] == .number(2) && detail?["account"]?.string == guest.accid && seatEvent.actor == "account:\(guest.accid)")

            let steps: [(String, String, String, Int, Int)] = [
                ("accept", room.hostSID, "", 2, 1), ("self-mute", guest.sid, "&mute=true", 6, 0), ("mask", room.hostSID, "", 7, 0),
                ("self-mute", guest.sid, "&mute=false", 5, 0), ("unmask", room.hostSID, "", 2, 8), ("kick", room.hostSID, "", 0, 3),
                ("close", room.hostSID, "", 3, 0), ("open", room.hostSID, "", 0, 9),
                ("invite", room.hostSID, "&account=\(guest.accid)&nick=Guest", 2, 2), ("leave", guest.sid, "", 0, 4),
                ("apply", guest.sid, "", 1, 0), ("cancel", guest.sid, "", 0, 5), ("apply", guest.sid, "", 1, 0), ("reject", room.hostSID, "", 0, 6),
            ]
            for (name, sid, extra, status, reason) in steps {
                let answer = try await room.move(http, name, sid: sid, index: 2, extra: extra)
                #expect(data(answer)?["status"] == .number(Double(status)), "\(name): \(answer)")
                #expect(data(answer)?["reason"] == .number(Double(reason)), "\(name)")
                #expect(try await room.queued(2, status: status)?["reason"] == .number(Double(reason)), "\(name) reached the IM queue")
            }
            let seats = try #require(data(try await http.form("\(room.base)/mic/list", "roomId=\(room.roomID)")))
            #expect(seats["total"] == .number(8))
        }
    }

    @Test func illegalMovesAreRefusedAndChangeNothing() async throws {
        let fixture = try await AudioChatroomFixture()
        try await fixture.server.live { http in
            let room = try await Room.open(fixture, http)
            let ann = try await room.guest(http), ben = try await room.guest(http)
            _ = try await room.move(http, "apply", sid: ann.sid, index: 0)
            _ = try #require(try await room.queued(0, status: 1))

            let refusals: [(String, String, Int, String, Int)] = [
                ("apply", ben.sid, 0, "", 1101),       // two users on one seat
                ("leave", ben.sid, 0, "", 1101),       // leaving a seat you do not hold (it is applying)
                ("cancel", ben.sid, 0, "", 403),       // someone else's application
                ("accept", ann.sid, 0, "", 403),       // the host's move
                ("kick", room.hostSID, 0, "", 1101),   // nobody on mic
                ("apply", ann.sid, 1, "", 1102),       // one seat per account
                ("apply", room.hostSID, 3, "", 403),   // the host takes no seat
                ("open", room.hostSID, 3, "", 1101),   // not closed
                ("apply", ann.sid, 8, "", 400),        // no such seat (8 seats: 0-7)
                ("invite", room.hostSID, 4, "", 400),  // whom?
            ]
            for (name, sid, index, extra, code) in refusals {
                let answer = try await room.move(http, name, sid: sid, index: index, extra: extra)
                #expect(answer["code"] == .number(Double(code)), "\(name) on seat \(index): \(answer)")
            }
            #expect(try await room.move(http, "apply", sid: "forged", index: 5)["code"] == .number(401))
            #expect(try await http.form("\(room.base)/mic/apply", "sid=\(ben.sid)&roomId=999999999&index=0")["code"] == .number(804))

            let seats = try #require(data(try await http.form("\(room.base)/mic/list", "roomId=\(room.roomID)")))
            guard case .array(let list)? = seats["list"] else { Issue.record("seats"); return }
            #expect(list.map { $0["status"] } == [.number(1)] + Array(repeating: .number(0), count: 7), "only the first apply changed anything")
            #expect(try await room.local.queueList(room.chatroom).count == 1)
        }
    }

    @Test func fiftyConcurrentAppliesForOneSeatHaveOneApplicant() async throws {
        let fixture = try await AudioChatroomFixture()
        try await fixture.server.live { http in
            let room = try await Room.open(fixture, http)
            var guests: [String] = []
            for _ in 0..<50 { guests.append(try await room.guest(http).sid) }
            // At once, a connection each (the test client sends one request at a time).
            let burst = guests.map { ParallelRequests.Request(path: "\(room.base)/mic/apply", body: "sid=\($0)&roomId=\(room.roomID)&index=4") }
            let codes = try await ParallelRequests.send(port: try #require(http.client.port), burst).map { $0.answer["code"]?.double }
            #expect(codes.filter { $0 == 200 }.count == 1)
            #expect(codes.filter { $0 == 1101 }.count == 49)
            let seats = try #require(data(try await http.form("\(room.base)/mic/list", "roomId=\(room.roomID)")))
            guard case .array(let list)? = seats["list"] else { Issue.record("seats"); return }
            #expect(list[4]["status"] == .number(1))
        }
    }

    @Test func expiryAfter48HoursClosesTheRoomAndItsChatroom() async throws {
        let clock = ManualClock()
        let fixture = try await AudioChatroomFixture(clock: clock)
        try await fixture.server.live { http in
            let user = try #require(data(try await http.form("\(fixture.base())/user/get", "")))
            let sid = try #require(user["sid"]?.string)
            let roomID = try #require(data(try await http.form("\(fixture.base())/room/create", "sid=\(sid)&roomName=Night"))?["roomId"]?.int64)
            let room = try #require(try await fixture.server.server().services.engine.store.room(fixture.server.id(0), roomID))
            let chatroom = try #require(room.imChatroomID)
            let member = IMTestClient(port: try #require(http.client.port),
                                      tenant: fixture.server.id(0), accid: user["accid"]?.string ?? "", token: user["imToken"]?.string ?? "")
            member.send(#"{"type":"enter","chatroom":"\#(chatroom)"}"#)
            _ = try await member.next("entered")

            clock.advance(by: 47 * 3_600)
            _ = try await fixture.server.server().sweeper.sweepOnce()
            #expect(try #require(data(try await http.form("\(fixture.base())/room/list", "")))["total"] == .number(1))
            clock.advance(by: 3_601)
            _ = try await fixture.server.server().sweeper.sweepOnce()
            #expect(try #require(data(try await http.form("\(fixture.base())/room/list", "")))["total"] == .number(0))

            let closed = try await member.next("closed")
            #expect(closed["chatroom"]?.string == chatroom)
            #expect(closed["ext"]?.string == #"{"type":1}"#)
            #expect(try await fixture.server.tenants[0].imAdapter(LocalIMProvider.self)!.isOpen(chatroom) == false)
            let shown = try await http.get("/admin/v1/tenants/\(fixture.server.id(0))/rooms/\(roomID)", key: fixture.server.operatorKey)
            #expect(shown.json["room"]?["closeReason"]?.string == "expired")
            try await member.close()
        }
    }
}
