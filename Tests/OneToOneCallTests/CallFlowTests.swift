import Foundation
import OneToOneCall
import RoomCore
import RoomTestSupport
import Testing

/// A call from ring to hang-up over real HTTP (JSON bodies) and the local
/// IM's WebSocket, and each way a call ends.
@Suite struct CallFlowTests {
    @Test func theCalleeHearsTheRingAnswersAndBothHearTheHangUp() async throws {
        let fixture = try await CallFixture()
        try await fixture.server.live { http in
            let port = try #require(http.client.port)
            let ann = try await fixture.guest(http), bob = try await fixture.guest(http)
            let bobSocket = IMTestClient(port: port, tenant: fixture.server.id(0), accid: bob.accid, token: bob.imToken)
            _ = try await bobSocket.next("ready")
            let rung = try #require(data(try await fixture.call(http, "/call/ring", ["sid": .string(ann.sid), "callee": .string(bob.accid)])))
            let roomID = try #require(rung["roomId"]?.int64)
            let ring = try #require(JSONValue.parse(try await bobSocket.next("notification")["attach"]?.string ?? ""))
            #expect(ring["type"]?.string == "ring" && ring["roomId"]?.int64 == roomID && ring["caller"]?.string == ann.accid)

            let current = try #require(data(try await fixture.call(http, "/call/current", ["sid": .string(bob.sid)])))
            #expect(current["roomId"]?.int64 == roomID && current["answered"] == .bool(false))
            let stranger = try await fixture.guest(http)
            #expect(try await fixture.call(http, "/call/accept", ["sid": .string(stranger.sid), "roomId": .number(Double(roomID))])["code"]?.int64 == 403,
                    "only the callee answers")
            #expect(try await fixture.call(http, "/call/cancel", ["sid": .string(bob.sid), "roomId": .number(Double(roomID))])["code"]?.int64 == 403,
                    "the callee rejects, it does not cancel")
            let answered = try #require(data(try await fixture.call(http, "/call/accept", ["sid": .string(bob.sid), "roomId": .number(Double(roomID))])))
            #expect(answered["caller"]?.string == ann.accid)
            #expect(try await fixture.notices(to: ann.accid, count: 1).first?["type"]?.string == "accepted")

            #expect(data(try await fixture.call(http, "/call/hangup", ["sid": .string(bob.sid), "roomId": .number(Double(roomID))])) != nil)
            let ended = try #require(JSONValue.parse(try await bobSocket.next("notification")["attach"]?.string ?? ""))
            #expect(ended["type"]?.string == "ended" && ended["reason"]?.string == "hungUp")
            #expect(try await fixture.notices(to: ann.accid, count: 2).last?["reason"]?.string == "hungUp")
            #expect(try await fixture.call(http, "/call/hangup", ["sid": .string(ann.sid), "roomId": .number(Double(roomID))])["code"]?.int64 == 801,
                    "an ended call stays ended")
            let free = try #require(data(try await fixture.call(http, "/call/current", ["sid": .string(ann.sid)])))
            #expect(free["roomId"] == nil, "both accounts are free again")
            // The call's time is the room's session, as every room's.
            let sessions = try await http.get("/admin/v1/tenants/\(fixture.server.id(0))/sessions?room=\(roomID)", key: fixture.server.operatorKey)
            #expect(sessions.status == .ok && sessions.json["items"]?.arrayValue?.count == 1, "\(sessions.text)")
            _ = try await bobSocket.close()
        }
    }

    @Test func aCalleeInACallIsBusyAndEveryEndIsNamed() async throws {
        let clock = ManualClock()
        let fixture = try await CallFixture(clock: clock)
        try await fixture.server.live { http in
            let ann = try await fixture.guest(http), bob = try await fixture.guest(http), cat = try await fixture.guest(http)
            func ring(_ from: Guest, _ to: Guest) async throws -> JSONValue {
                try await fixture.call(http, "/call/ring", ["sid": .string(from.sid), "callee": .string(to.accid)])
            }
            func room(_ answer: JSONValue) throws -> JSONValue { .number(Double(try #require(answer["data"]?["roomId"]?.int64))) }

            let first = try await ring(ann, bob)
            #expect(try await ring(cat, bob)["code"]?.int64 == 486, "bob is being rung: busy")
            #expect(try await ring(ann, cat)["code"]?.int64 == 488, "ann is calling: she hangs up first")
            #expect(try await ring(bob, bob)["code"]?.int64 == 400, "nobody calls itself")
            #expect(try await fixture.call(http, "/call/ring", ["sid": .string(cat.sid), "callee": "nobody-here"])["code"]?.int64 == 400)
            #expect(data(try await fixture.call(http, "/call/reject", ["sid": .string(bob.sid), "roomId": try room(first)])) != nil)
            #expect(try await fixture.notices(to: ann.accid, count: 1).last?["reason"]?.string == "rejected")

            let second = try await ring(ann, bob)
            #expect(data(try await fixture.call(http, "/call/cancel", ["sid": .string(ann.sid), "roomId": try room(second)])) != nil)
            // bob heard: ring, ended (rejected), ring, ended (cancelled).
            #expect(try await fixture.notices(to: bob.accid, count: 4).last?["reason"]?.string == "cancelled")

            // Unanswered, the ring lapses by the engine's reservation expiry (30 s).
            let third = try await ring(cat, bob)
            // The ring reaches bob before 31 s pass, as it would in real
            // time. Advanced while its delivery was still in flight, the
            // test clock passed the delivery's 20 s lease: the ring was
            // claimed again and the miss's notices parked behind that
            // second claim, a timeline real time never makes. (This test
            // failed once in the full suite, stop 66; the local IM stores a
            // redelivered entry once, so a second ring is not the cause, and
            // the cause is not known. This wait removes the one overlap the
            // clock jump made.)
            #expect(try await fixture.notices(to: bob.accid, count: 5).count == 5)
            clock.advance(by: 31)
            _ = try await fixture.server.server().sweeper.sweepOnce()
            #expect(try await fixture.notices(to: bob.accid, count: 6).last?["reason"]?.string == "missed")
            let lapsed = try await http.get("/admin/v1/tenants/\(fixture.server.id(0))/rooms/\(try #require(third["data"]?["roomId"]?.int64))",
                                            key: fixture.server.operatorKey)
            #expect(lapsed.json["room"]?["closeReason"]?.string == "lapsed")
            #expect(try await fixture.call(http, "/call/accept", ["sid": .string(bob.sid), "roomId": try room(third)])["code"]?.int64 == 801,
                    "a missed call cannot be answered")
            #expect(data(try await ring(cat, bob)) != nil, "bob is free again")
        }
    }

    /// The callee accepting while the caller cancels, many times: each round
    /// ends as one serial order of the two would. Accept first: both
    /// succeed, the call was answered and the cancel hung it up. Cancel
    /// first: the accept is refused (801) and nobody answered.
    @Test func anAcceptRacingACancelEndsAsOneSerialOrder() async throws {
        let fixture = try await CallFixture()
        try await fixture.server.live { http in
            let port = try #require(http.client.port)
            let ann = try await fixture.guest(http), bob = try await fixture.guest(http)
            var orders: Set<String> = []
            for round in 0..<12 {
                let rung = try #require(data(try await fixture.call(http, "/call/ring", ["sid": .string(ann.sid), "callee": .string(bob.accid)])))
                let roomID = try #require(rung["roomId"]?.int64)
                let answers = try await ParallelRequests.send(port: port, [
                    .init(path: "\(fixture.base())/call/accept", body: #"{"sid":"\#(bob.sid)","roomId":\#(roomID)}"#, contentType: "application/json"),
                    .init(path: "\(fixture.base())/call/cancel", body: #"{"sid":"\#(ann.sid)","roomId":\#(roomID)}"#, contentType: "application/json"),
                ]).sorted { $0.index < $1.index }.map { $0.answer["code"]?.int64 }
                let answered = try await fixture.server.database.query("""
                    SELECT answered_at IS NOT NULL, ended_at IS NOT NULL FROM one_to_one_calls WHERE tenant_id = \(fixture.server.id(0)) AND room_id = \(roomID)
                    """).decode((Bool, Bool).self).first
                switch (answers[0], answers[1], answered?.0, answered?.1) {
                case (200, 200, true, true): orders.insert("accept, then cancel (a hang-up)")
                case (801, 200, false, true): orders.insert("cancel, then accept (refused)")
                default: Issue.record("round \(round): accept \(String(describing: answers[0])), cancel \(String(describing: answers[1])), call \(String(describing: answered))")
                }
                let ends = try await fixture.notices(to: bob.accid, count: 2 * (round + 1)).filter { $0["type"]?.string == "ended" && $0["roomId"]?.int64 == roomID }
                #expect(ends.count == 1 && ["hungUp", "cancelled"].contains(ends[0]["reason"]?.string ?? ""), "round \(round): \(ends)")
            }
            #expect(!orders.isEmpty, "\(orders)")
        }
    }
}
