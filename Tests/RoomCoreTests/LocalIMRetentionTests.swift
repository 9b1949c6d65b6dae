import Foundation
import PostgresNIO
import RoomCore
import RoomProviders
import RoomTestSupport
import Testing

@Suite struct LocalIMRetentionTests {
    @Test func oldEventsDeliveredNotificationsAndDeadConnectionsGo() async throws {
        let fixture = try await EngineFixture()
        let local = fixture.local()
        let chatroom = try await local.createChatroom(name: "hall", creator: "host")
        let dead = UUID()
        _ = try await local.connect(dead, accid: "ghost", instance: "crashed")
        try await local.sendChatroomMessage(chatroom, from: "host", type: "100", body: "{}", persist: false, messageID: UUID().uuidString)
        try await local.sendNotification(from: "host", to: "away", attach: "{}", storeOffline: true)
        try await local.sendNotification(from: "host", to: "away", attach: "{}", storeOffline: false)

        let count: @Sendable (String) async throws -> Int = { table in
            try await fixture.count("SELECT count(*)::int FROM \(table) WHERE tenant_id = ANY($1)")
        }
        fixture.clock.advance(by: 2 * 3_600)
        try await local.sendChatroomMessage(chatroom, from: "host", type: "100", body: "{}", persist: false, messageID: UUID().uuidString)
        _ = try await LocalIMProvider.purge(fixture.database, now: fixture.clock.now(), tenants: fixture.tenants.ids)
        #expect(try await count("im_events") == 2, "events are kept a day")
        #expect(try await count("im_notifications") == 1, "a live-only notice nobody took is gone after an hour; the stored one stays")
        #expect(try await count("im_connections") == 0, "a connection unseen for an hour belonged to a dead instance")

        fixture.clock.advance(by: 23 * 3_600)
        _ = try await LocalIMProvider.purge(fixture.database, now: fixture.clock.now(), tenants: fixture.tenants.ids)
        #expect(try await count("im_events") == 1, "the day-old event went, the newer one stays")
        #expect(try await count("im_notifications") == 1, "stored notifications wait 30 days for their reader")
        let open = try await local.isOpen(chatroom)
        #expect(open, "current state is untouched")
    }

    /// #41: every instance's retention, every 30 s, scanned the local IM's
    /// tables whole to find what it deletes (im_events: a day of every
    /// tenant's messages); it cost what the tables held, not what went.
    /// With sequential scans priced out, PostgreSQL's plan for each purge
    /// must reach its rows through an index. im_connections holds live
    /// sockets only (bounded per tenant) and is not indexed for it.
    @Test func eachPurgeWalksAnIndexNotTheWholeTable() async throws {
        let database = try await TestDatabase.shared()
        let statements = LocalIMProvider.purgeStatements(now: Date(), retention: .init())
        #expect(statements.count == 6)
        for (sql, cutoff) in statements where !sql.hasPrefix("DELETE FROM im_connections") {
            let plan = try await database.transaction { connection in
                try await connection.query("SET LOCAL enable_seqscan = off", logger: .init(label: "test"))
                var bindings = PostgresBindings()
                bindings.append(cutoff)
                bindings.append(5_000)
                bindings.append(nil as [String]?)
                let rows = try await connection.query(PostgresQuery(unsafeSQL: "EXPLAIN " + sql, binds: bindings), logger: .init(label: "test"))
                return try await rows.collect().map { try $0.decode(String.self) }.joined(separator: "\n")
            }
            #expect(!plan.contains("Seq Scan"), "\(sql.prefix(60))…:\n\(plan)")
        }
    }

    /// A socket whose disconnect failed (the database was away) stayed
    /// "present" for ever: the heartbeat refreshed every row of its instance,
    /// which satisfied join-IM-first and inflated online counts. The
    /// heartbeat now refreshes only the sockets the instance holds.
    @Test func theHeartbeatKeepsOnlyLiveSocketsPresent() async throws {
        let fixture = try await EngineFixture()
        let local = fixture.local()
        let hub = LocalIMHub(database: fixture.database, clock: fixture.clock, logger: fixture.logger)
        let chatroom = try await local.createChatroom(name: "hall", creator: "host")
        let live = UUID(), stale = UUID()
        for (connection, accid) in [(live, "alive"), (stale, "ghost")] {
            _ = try await local.connect(connection, accid: accid, instance: hub.instanceID)
            #expect(try await local.enter(chatroom, connection: connection, accid: accid))
        }
        _ = hub.register(live, tenantID: fixture.tenant.id, accid: "alive")
        // The ghost's socket is gone but its disconnect never reached the database.
        fixture.clock.advance(by: 60)
        try await hub.beat()
        fixture.clock.advance(by: 60)
        #expect(try await local.isMember("alive", of: chatroom), "a live socket stays present")
        #expect(try await local.isMember("ghost", of: chatroom) == false, "a socket the instance no longer holds is not present")
        #expect(try await local.onlineCounts([chatroom])[chatroom] == 1)
        hub.unregister(live)
    }
}
