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

    /// The scope is the admin key, not how its header is spelled: once the
    /// Bearer scheme was read in any case, "bearer K" retried what "Bearer K"
    /// sent as a stranger would, and made a second room.
    @Test func anAdminRetrySpellingItsBearerSchemeOtherwiseIsStillTheSameCaller() async throws {
        let fixture = try await AudioChatroomFixture()
        try await fixture.server.live { http in
            let path = "/admin/v1/tenants/\(fixture.server.id(0))/rooms"
            let body = #"{"plugin":"audio-chatroom","name":"once","owner":"o"}"#
            let first = try await http.request(.post, path, json: body,
                                               headers: [.authorization: "Bearer \(fixture.server.operatorKey)", Self.key: "spelled-1"])
            #expect(first.status == .created)
            let retry = try await http.request(.post, path, json: body,
                                               headers: [.authorization: "bearer  \(fixture.server.operatorKey) ", Self.key: "spelled-1"])
            #expect(retry.status == .created && retry.text == first.text && retry.headers[Self.replayed] == "true", "\(retry.text)")
            let rooms = try await http.get("\(path)?limit=10", key: fixture.server.operatorKey).json["items"]?.arrayValue ?? []
            #expect(rooms.count == 1, "one room, not one per spelling")
        }
    }

    /// #41: anonymous requests of a tenant shared one key scope, so a guest
    /// login sent with a key another caller had used was answered that
    /// caller's sid and IM token, which were kept in clear for 24 hours.
    @Test func anAnonymousKeyIsScopedByAddressAndItsAnswerIsKeptSealed() async throws {
        let fixture = try await AudioChatroomFixture()
        try await fixture.server.live { http in
            let key = "login-" + uniqueID(), path = "\(fixture.base())/user/get"
            let first = try await http.request(.post, path, form: "", headers: [Self.key: key])
            let sid = try #require(data(first.json)?["sid"]?.string, "\(first.text)")
            let retry = try await http.request(.post, path, form: "", headers: [Self.key: key])
            #expect(retry.text == first.text && retry.headers[Self.replayed] == "true", "its own retry gets its answer")
            let stranger = AddressedHTTP(port: try #require(http.client.port), from: "127.0.0.2")
            let other = try await stranger.form(path, "", headers: ["Idempotency-Key": key])
            #expect(other.headers["idempotency-replayed"] == nil, "another address runs its own request")
            #expect(data(other.json)?["sid"]?.string != nil && data(other.json)?["sid"]?.string != sid, "never the first caller's sid: \(other.text)")

            let rows = try await fixture.server.database.query("""
                SELECT key, encode(body, 'escape') FROM idempotency_keys WHERE scope LIKE \(fixture.server.id(0) + "|%")
                """).decode((String, String).self)
            #expect(rows.count == 2, "one row a caller")
            for (storedKey, body) in rows {
                #expect(storedKey != key && !storedKey.contains(key), "the key is stored as a digest")
                #expect(!body.contains(sid) && !body.contains("\"sid\""), "the answer is sealed")
            }
        }
    }

    /// #41: the wires read with POST; a key on a read kept a copy of what it answered.
    @Test func aKeyOnAReadIsIgnored() async throws {
        let fixture = try await AudioChatroomFixture()
        try await fixture.server.live { http in
            let room = try await SeatTests.Room.open(fixture, http)
            let list = "sid=\(room.hostSID)&roomId=\(room.roomID)"
            let first = try await http.request(.post, "\(room.base)/mic/list", form: list, headers: [Self.key: "read-1"])
            let again = try await http.request(.post, "\(room.base)/mic/list", form: list, headers: [Self.key: "read-1"])
            #expect(data(first.json) != nil && data(again.json) != nil, "\(first.text)")
            #expect(again.headers[Self.replayed] == nil, "a read runs each time")
            let kept = try await fixture.server.database.query("""
                SELECT count(*)::int FROM idempotency_keys WHERE scope LIKE \(fixture.server.id(0) + "|%")
                """).decode(Int.self).first
            #expect(kept == 0, "nothing kept for a read")
        }
    }

    /// #41: a login whose commit was never reported (PostgreSQL stopped
    /// answering after the statement was sent) may have made the account.
    /// Releasing its key let the retry run it again: two guests. The key
    /// stays claimed, and a retry is told to read before writing.
    @Test func aWriteWhoseOutcomeIsUnknownKeepsItsKeyClaimed() async throws {
        let clock = ManualClock()
        let fixture = try await AudioChatroomFixture(clock: clock)
        let tenant = fixture.server.id(0), path = "\(fixture.base())/user/get", key = "login-" + uniqueID()
        let first = try await ForwardedDatabase.run { database, forwarder in
            try await fixture.server.live(options: { $0.requestSeconds = 3 }, database: database) { http in
                let gate = try await StatementGate(fixture.server.database, table: "accounts", when: "NEW.tenant_id = '\(tenant)'")
                let login = Task { try await http.request(.post, path, form: "", headers: [Self.key: key]) }
                #expect(try await StatementGate.until(5) { try await gate.waiting() == 1 }, "the login's write is at the gate")
                forwarder.freeze()  // it was sent; its answer will never come
                try await gate.open()
                let answer = try await login.value
                forwarder.thaw()
                return answer
            }
        }
        #expect(first.json["code"] == .number(503) && first.json["msg"]?.string?.contains("read before") == true, "\(first.text)")
        try await fixture.server.live { http in
            clock.advance(by: 61)  // past any claim left running
            let retry = try await http.request(.post, path, form: "", headers: [Self.key: key])
            #expect(data(retry.json) == nil && retry.json["msg"]?.string?.contains("read before") == true, "told to read: \(retry.text)")
        }
        let guests = try await fixture.server.database.query("SELECT count(*)::int FROM accounts WHERE tenant_id = \(tenant)").decode(Int.self).first
        #expect(guests == 1, "one login, one account, however often it is retried")
    }
}
