import Foundation
import RoomCore
import RoomTestSupport
import Synchronization
import Testing

/// #30, item 4: a back end that follows the event feed's cursor sees every
/// event exactly once and each room's events in their order, while two
/// instances write at once (joins racing on the same rooms), round after
/// round; and each event reads as its webhook's body, byte for byte.
@Suite(.serialized) struct EventFeedTests {
    struct Seen: Sendable {
        var items: [JSONValue] = []
        var cursor = "0"
    }

    /// What the poller read, shared with the test's body.
    final class Poller: Sendable {
        let seen = Mutex(Seen())
    }

    static func canonical(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
    }

    /// Two tenants of the test plugin, each with an endpoint on the
    /// receiver at `port` for `events`.
    static func fixture(hooksTo port: Int, events: [String]) async throws -> ServerFixture {
        setenv("RK_TEST_FEED_SECRET", StandardWebhooks.Secret.generate(), 1)
        let table = """
            [plugins.test-rooms]

            [webhooks.backend]
            url = "http://127.0.0.1:\(port)/hook"
            secretEnv = "RK_TEST_FEED_SECRET"
            events = [\(events.map { "\"\($0)\"" }.joined(separator: ", "))]
            """
        return try await ServerFixture(pluginTables: [table, table], clock: SystemClock())
    }

    /// One page after the cursor, appended; true when something came.
    static func poll(_ http: HTTP, _ fixture: ServerFixture, _ poller: Poller) async throws -> Bool {
        let cursor = poller.seen.withLock { $0.cursor }
        let page = try await http.get("/admin/v1/tenants/\(fixture.id(0))/events?after=\(cursor)&limit=200", key: fixture.key(0))
        #expect(page.status == .ok, "\(page.text.prefix(200))")
        let items = page.json["items"]?.arrayValue ?? []
        let next = try #require(page.json["nextCursor"]?.string)
        poller.seen.withLock { $0.items += items; $0.cursor = next }
        return !items.isEmpty
    }

    @Test func aPollerFollowingTheCursorSeesEveryEventOnceInEachRoomsOrder() async throws {
        let receiver = WebhookReceiver()
        try await receiver.run { port in
            let fixture = try await Self.fixture(hooksTo: port, events: ["room.created", "member.joined"])
            let tenant = fixture.id(0)
            let seen = Poller()
            try await OutboxWakeTests.live(try fixture.server()) { other in
                try await fixture.live { http in
                    for round in 0..<5 {
                        var rooms: [Int64] = []
                        for index in 0..<3 {
                            rooms.append(try #require(data(try await http.form("/t/\(tenant)/test-rooms/room/create", "sid=host\(round)&name=r\(index)"))?["roomId"]?.int64))
                        }
                        // Joins race on each room from both instances while the poller follows.
                        let polling = Task {
                            while !Task.isCancelled {
                                _ = try await Self.poll(http, fixture, seen)
                                try await Task.sleep(for: .milliseconds(3))
                            }
                        }
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            for writer in 0..<24 {
                                let client = writer % 2 == 0 ? http : other
                                let room = rooms[writer % rooms.count]
                                group.addTask {
                                    for join in 0..<4 {
                                        let answer = try await client.form("/t/\(tenant)/test-rooms/room/join", "sid=r\(round)w\(writer)j\(join)&roomId=\(room)")
                                        #expect(answer["code"]?.int64 == 200, "\(answer)")
                                    }
                                }
                            }
                            try await group.waitForAll()
                        }
                        polling.cancel()
                        _ = try? await polling.value
                    }
                    // Caught up: nothing new, twice.
                    var quiet = 0
                    while quiet < 2 { quiet = try await Self.poll(http, fixture, seen) ? 0 : quiet + 1 }
                    // The webhooks of it all delivered, while the instances run.
                    try await receiver.wait("the webhooks") { $0.filter(\.accepted).count >= 5 * (3 + 24 * 4) }
                }
            }
            let items = seen.seen.withLock { $0.items }
            let stored = try await fixture.database.query("""
                SELECT room_id, event_id FROM room_events WHERE tenant_id = \(tenant) ORDER BY event_id
                """).decode((Int64, Int64).self)
            let written = 5 * (3 + 24 * 4)  // per round: 3 rooms made (with their owners' joins), 96 joins
            #expect(stored.count >= written, "the writers wrote (\(stored.count) events)")
            let ids = items.compactMap { $0["eventId"]?.string.flatMap { Int64($0) } }
            #expect(ids.count == items.count && Set(ids).count == ids.count, "each event once (\(ids.count) read, \(Set(ids).count) distinct)")
            #expect(Set(ids) == Set(stored.map(\.1)), "every event stored was read: missing \(Set(stored.map(\.1)).subtracting(ids).sorted().prefix(10))")
            let cursors = items.compactMap { $0["cursor"]?.string.flatMap { Int64($0) } }
            #expect(cursors == cursors.sorted() && Set(cursors).count == cursors.count, "cursors only grow")
            // Each room's events in their order (a room's event ids follow its commits).
            var byRoom: [Int64: [Int64]] = [:]
            for item in items {
                if let room = item["data"]?["roomId"]?.int64, let id = item["eventId"]?.string.flatMap({ Int64($0) }) { byRoom[room, default: []].append(id) }
            }
            #expect(byRoom.count == 15 && byRoom.values.allSatisfy { $0 == $0.sorted() }, "in each room's order")

            // As the webhooks carry them: the same bodies.
            let feedBodies = Set(items.map { item -> String in
                var object = item.object ?? [:]
                object["cursor"] = nil
                object["eventId"] = nil
                object["id"] = nil
                return Self.canonical(.object(object))
            })
            let hooks = receiver.accepted.map { Self.canonical($0.json) }
            #expect(hooks.allSatisfy(feedBodies.contains), "every webhook body is a feed event's: \(hooks.first { !feedBodies.contains($0) } ?? "")")
            // And the same ids: each webhook's webhook-id is its feed event's id.
            let feedIDs = Set(items.compactMap { $0["id"]?.string })
            #expect(feedIDs.count == items.count, "each event its own id")
            #expect(receiver.accepted.allSatisfy { feedIDs.contains($0.id) }, "every webhook-id is a feed event's id")
        }
    }

    /// #30: "every room lifecycle and member event": a tenant-wide ban and
    /// its lift belong to no room, and were webhooks only. They are in the
    /// feed now, with their webhooks' ids and bodies (no `roomId`).
    @Test func aTenantWideBanAndItsLiftAreInTheFeed() async throws {
        let receiver = WebhookReceiver()
        try await receiver.run { port in
            let fixture = try await Self.fixture(hooksTo: port, events: ["member.banned", "member.unbanned"])
            try await fixture.live { http in
                let tenant = fixture.id(0)
                let banned = try await http.post("/admin/v1/tenants/\(tenant)/bans", key: fixture.key(0), json: #"{"account":"mallory","reason":"spam"}"#)
                #expect(banned.status == .created, "\(banned.text)")
                let ban = try #require(banned.json["id"]?.string)
                #expect(try await http.request(.delete, "/admin/v1/tenants/\(tenant)/bans/\(ban)", key: fixture.key(0)).status == .ok)
                try await receiver.wait("the two webhooks") { $0.filter(\.accepted).count >= 2 }
                let items = try await http.get("/admin/v1/tenants/\(tenant)/events", key: fixture.key(0)).json["items"]?.arrayValue ?? []
                #expect(items.map { $0["type"]?.string } == ["member.banned", "member.unbanned"])
                #expect(items.allSatisfy { $0["data"]?["roomId"] == nil && $0["data"]?["account"]?.string == "mallory" })
                let byID = Dictionary(uniqueKeysWithValues: items.compactMap { item in item["id"]?.string.map { ($0, item) } })
                for hook in receiver.accepted {
                    var item = try #require(byID[hook.id]?.object, "the webhook \(hook.id) is a feed event")
                    item["cursor"] = nil
                    item["eventId"] = nil
                    item["id"] = nil
                    #expect(Self.canonical(.object(item)) == Self.canonical(hook.json), "the same body")
                }
            }
        }
    }

    @Test func theFeedIsTheTenantsOwnAndRefusesABadCursor() async throws {
        let fixture = try await ServerFixture()
        try await fixture.live { http in
            _ = try await http.form("/t/\(fixture.id(0))/test-rooms/room/create", "sid=a&name=mine")
            #expect(try await http.get("/admin/v1/tenants/\(fixture.id(1))/events", key: fixture.key(0)).status == .forbidden)
            let theirs = try await http.get("/admin/v1/tenants/\(fixture.id(1))/events", key: fixture.key(1))
            #expect(theirs.status == .ok && theirs.json["items"]?.arrayValue?.isEmpty == true && theirs.json["nextCursor"]?.string == "0")
            let mine = try await http.get("/admin/v1/tenants/\(fixture.id(0))/events", key: fixture.key(0))
            #expect(mine.json["items"]?.arrayValue?.first?["type"]?.string == "room.created")
            for (query, field) in [("after=-1", "after"), ("after=x", "after"), ("limit=0", "limit")] {
                let answer = try await http.get("/admin/v1/tenants/\(fixture.id(0))/events?\(query)", key: fixture.key(0))
                #expect(answer.status == .badRequest && answer.json["field"]?.string == field, "\(query)")
            }
        }
    }
}
