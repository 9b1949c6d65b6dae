import Foundation
import PostgresNIO
import RoomCore
import RoomTestSupport
import Testing

/// #41: the feed's places never go back. They restarted from the highest
/// place among the events that exist, so once retention deleted a tenant's
/// newest events, new events got places below cursors already handed out,
/// and a poller (or the usage rollup) following its cursor skipped them for good.
@Suite struct FeedMarkTests {
    @Test func newEventsFollowEveryCursorHandedOutAfterRetentionDeletesTheNewest() async throws {
        let database = try await TestDatabase.shared()
        let tenant = uniqueID()
        let feed = EventFeed(database: database)
        try await Self.write(3, of: tenant, database)
        let first = try await feed.page(tenant, after: 0, limit: 10)
        #expect(first.map(\.cursor) == [1, 2, 3])
        let handedOut = try #require(first.last?.cursor)
        // Retention: every event of the tenant was old enough.
        try await database.query("DELETE FROM room_events WHERE tenant_id = \(tenant)")
        try await Self.write(2, of: tenant, database)
        let next = try await feed.page(tenant, after: handedOut, limit: 10)
        #expect(next.count == 2, "the poller at \(handedOut) sees both new events: \(next.map(\.cursor))")
        #expect(next.allSatisfy { $0.cursor > handedOut })
    }

    /// #41: the usage rollup stamped up to 5,000 events in one statement
    /// (108 ms in figure 6's PostgreSQL log, another tenant's flows 20-55 ms
    /// instead of 6 meanwhile); it stamps 500 a statement now, and folds
    /// every event all the same.
    @Test func theUsageRollupStampsInSlicesAndFoldsEveryEvent() async throws {
        let database = try await TestDatabase.shared()
        let tenant = uniqueID()
        try await database.query("""
            INSERT INTO room_events (tenant_id, room_id, at, kind, actor, detail)
            SELECT \(tenant), \(EventFeed.tenantTimeline), now(), 'banned', 'admin', jsonb_build_object('n', g)
            FROM generate_series(1, 1200) g
            """)
        let rollup = UsageRollupTests.rollup(database, [tenant])
        #expect(try await rollup.stamp(tenant) == [500, 500, 200])
        try await Self.write(3, of: tenant, database)
        #expect(try await rollup.fold(tenant) == 1203, "the 1,200 stamped before and the 3 stamped by the fold")
        let unstamped = try await database.query("SELECT count(*)::int FROM room_events WHERE tenant_id = \(tenant) AND feed_seq IS NULL").decode(Int.self).first
        #expect(unstamped == 0)
    }

    /// An event deleted while the stamp that numbered it waits for it
    /// (retention, a tenant's deletion) left the mark at the base plus the
    /// rows updated, one below the highest place given: the next stamp gave
    /// that place again, the unique index refused it, and every stamp of
    /// the tenant after it failed (its feed and usage stopped for good).
    @Test func anEventDeletedUnderTheStampLeavesAGapNotAPlaceGivenTwice() async throws {
        let database = try await TestDatabase.shared()
        let tenant = uniqueID()
        try await Self.write(5, of: tenant, database)
        let ids = try await database.query("SELECT event_id FROM room_events WHERE tenant_id = \(tenant) ORDER BY event_id").decode(Int64.self)
        func count(_ sql: String) async throws -> Int {
            try await database.query(PostgresQuery(unsafeSQL: sql)).decode(Int.self).first ?? 0
        }
        let (release, releasing) = AsyncStream.makeStream(of: Void.self)
        let deleting = Task {
            try await database.transaction { connection in
                try await connection.run("DELETE FROM room_events WHERE tenant_id = \(tenant) AND event_id = \(ids[2]) /* feed-race */",
                                         logger: database.logger)
                for await _ in release { break }
            }
        }
        #expect(try await StatementGate.until(5) {
            try await count("""
                SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction' AND query LIKE '%feed-race%'
                """) == 1
        }, "the delete holds the event")
        let stamping = Task { try await database.query("SELECT roomkeeper_feed_stamp(\(tenant), 500) /* feed-race-stamp */").decode(Int.self).first }
        #expect(try await StatementGate.until(5) {
            try await count("""
                SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%feed-race-stamp%'
                """) == 1
        }, "the stamp waits for the held event")
        releasing.yield()
        releasing.finish()
        try await deleting.value
        #expect(try await stamping.value == 4, "the deleted event is not stamped")

        try await Self.write(1, of: tenant, database)
        let page = try await EventFeed(database: database).page(tenant, after: 0, limit: 10)
        #expect(page.map(\.cursor) == [1, 2, 4, 5, 6], "the third place is a gap; the new event follows the highest place given")
    }

    static func write(_ count: Int, of tenant: String, _ database: Database) async throws {
        for index in 0..<count {
            try await database.query("""
                INSERT INTO room_events (tenant_id, room_id, at, kind, actor, detail)
                VALUES (\(tenant), \(EventFeed.tenantTimeline), now(), 'banned', 'admin', \("{\"n\":\(index)}")::jsonb)
                """)
        }
    }
}
