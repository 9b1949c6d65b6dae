import Foundation
import RoomCore
import RoomProviders
import RoomTestSupport
import Testing

/// #30, item 3: a room's session facts equal what a scripted load did to it
/// (joins, the most at once, texts, open to close), through two instances
/// and a restart.
@Suite struct RoomSessionTests {
    @Test func aRoomsSessionFactsAreWhatHappenedToIt() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_950_000_000 + Double(Int.random(in: 0...1_000_000))))
        let fixture = try await ServerFixture(clock: clock)
        let tenant = fixture.id(0)
        let local = try #require(fixture.tenants[0].imAdapter(LocalIMProvider.self))
        let room = try await OutboxWakeTests.live(try fixture.server()) { other -> Int64 in
            try await fixture.live { http in
                let room = try #require(data(try await http.form("/t/\(tenant)/test-rooms/room/create", "sid=host&name=session"))?["roomId"]?.int64)
                // Joins on both instances: four members at most at once, six joins in all.
                for (index, account) in ["a", "b", "c", "d"].enumerated() {
                    let client = index % 2 == 0 ? http : other
                    #expect(try await client.form("/t/\(tenant)/test-rooms/room/join", "sid=\(account)&roomId=\(room)")["code"]?.int64 == 200)
                }
                for account in ["a", "b"] {
                    #expect(try await http.post("/admin/v1/tenants/\(tenant)/rooms/\(room)/members/\(account)/kick", key: fixture.operatorKey).status == .ok)
                }
                for account in ["a", "e"] {
                    #expect(try await other.form("/t/\(tenant)/test-rooms/room/join", "sid=\(account)&roomId=\(room)")["code"]?.int64 == 200)
                }
                // Three texts in its chatroom.
                let token = try await local.createAccount(IMAccount(accid: "c", name: "c")).token
                let client = IMTestClient(port: try #require(http.client.port), tenant: tenant, accid: "c", token: token)
                _ = try await client.next("ready")
                client.send(#"{"type":"enter","chatroom":"\#(room)"}"#)
                _ = try await client.next("entered")
                for text in ["one", "two", "three"] {
                    client.send(#"{"type":"text","chatroom":"\#(room)","text":"\#(text)"}"#)
                    _ = try await client.next("message")
                }
                _ = try await client.close()
                clock.advance(by: 600)
                return room
            }
        }
        // A restart: a new instance reads the same facts, and closes the room.
        try await fixture.live { http in
            clock.advance(by: 300)
            #expect(try await http.post("/admin/v1/tenants/\(tenant)/rooms/\(room)/dissolve", key: fixture.operatorKey).status == .ok)
            let page = try await http.get("/admin/v1/tenants/\(tenant)/sessions?room=\(room)", key: fixture.key(0))
            #expect(page.status == .ok)
            let session = try #require(page.json["items"]?.arrayValue?.first)
            #expect(session["totalJoins"]?.int64 == 6, "six joins: \(session)")
            #expect(session["peakMembers"]?.int64 == 4, "four at most at once")
            #expect(session["members"]?.int64 == 0, "none once closed")
            #expect(session["messages"]?.int64 == 3)
            #expect(session["durationSeconds"]?.int64 == 900 && session["closeReason"]?.string == "dissolved" && session["state"]?.string == "closed")
            #expect(session["plugin"]?.string == "test-rooms" && session["owner"]?.string == "host")

            // Filters, a cursor, isolation, bad input.
            _ = try await http.form("/t/\(tenant)/test-rooms/room/create", "sid=host&name=later")
            let first = try await http.get("/admin/v1/tenants/\(tenant)/sessions?limit=1", key: fixture.key(0))
            #expect(first.json["items"]?.arrayValue?.first?["name"]?.string == "later", "newest first")
            let cursor = try #require(first.json["nextCursor"]?.string)
            let next = try await http.get("/admin/v1/tenants/\(tenant)/sessions?limit=1&cursor=\(cursor)", key: fixture.key(0))
            #expect(next.json["items"]?.arrayValue?.first?["room"]?.int64 == room)
            let opened = clock.now().addingTimeInterval(-60)
            let recent = try await http.get("/admin/v1/tenants/\(tenant)/sessions?from=\(ISO8601DateFormatter().string(from: opened))", key: fixture.key(0))
            #expect(recent.json["items"]?.arrayValue?.map { $0["name"]?.string } == ["later"])
            #expect(try await http.get("/admin/v1/tenants/\(tenant)/sessions", key: fixture.key(1)).status == .forbidden)
            let empty = try await http.get("/admin/v1/tenants/\(tenant)/sessions?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z", key: fixture.key(0))
            #expect(empty.status == .ok && empty.json["items"]?.arrayValue?.isEmpty == true, "an empty range has nothing in it")
            for (query, field) in [("from=yesterday", "from"), ("room=x", "room"), ("to=2026-13-01T00:00:00Z", "to")] {
                let answer = try await http.get("/admin/v1/tenants/\(tenant)/sessions?\(query)", key: fixture.key(0))
                #expect(answer.status == .badRequest && answer.json["field"]?.string == field, "\(query): \(answer.text)")
            }
        }
    }
}
