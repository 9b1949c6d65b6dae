import Foundation
import Logging
import RoomCore
import RoomKit
import RoomTestSupport
import Testing

/// #41: every instance folded every tenant's usage every 30 s, nine round
/// trips each (measured: the stamp, BEGIN, the state's insert and lock, the
/// events' read, the state's update, COMMIT and its probe), most of them for tenants with
/// nothing to fold. An idle tenant now costs one statement.
@Suite struct UsageRollupTests {
    static func rollup(_ database: Database, _ tenants: [TenantID]) -> UsageRollup {
        UsageRollup(database: database, clock: SystemClock(), tenants: { tenants }, counters: UsageCounters(), logger: .init(label: "test"))
    }

    static func state(_ tenant: TenantID, _ database: Database) async throws -> (cursor: Int64, at: Date?)? {
        try await database.query("SELECT feed_cursor, at FROM usage_state WHERE tenant_id = \(tenant)").decode((Int64, Date?).self).first.map { (cursor: $0.0, at: $0.1) }
    }

    @Test func anIdleTenantCostsOneStatementAFold() async throws {
        let database = try await TestDatabase.shared()
        let tenant = uniqueID()
        let rollup = Self.rollup(database, [tenant])
        await rollup.foldAll()
        let first = try #require(try await Self.state(tenant, database), "the first fold makes the tenant's state")
        let tally = StatementTally()
        await StatementTally.$current.withValue(tally) { await rollup.foldAll() }
        #expect(tally.count == 1, "\(tally.sent)")
        #expect(try await Self.state(tenant, database)?.at == first.at, "nothing was folded")
    }

    @Test func aTenantWithNewEventsOrOpenRoomsIsStillFolded() async throws {
        let database = try await TestDatabase.shared()
        let quiet = uniqueID(), open = uniqueID()
        let rollup = Self.rollup(database, [quiet, open])
        await rollup.foldAll()
        // New events of `quiet`: unstamped, so it has work.
        try await FeedMarkTests.write(2, of: quiet, database)
        // `open` has a room open: its room time accrues between folds.
        try await database.query("UPDATE usage_state SET open_rooms = 1 WHERE tenant_id = \(open)")
        let before = try #require(try await Self.state(open, database))
        await rollup.foldAll()
        #expect(try await Self.state(quiet, database)?.cursor == 2, "both events folded")
        #expect(try await Self.state(open, database)?.at != before.at, "the open room's time was folded")
        // Events stamped by a feed reader and not folded yet are work too.
        try await FeedMarkTests.write(1, of: quiet, database)
        _ = try await EventFeed(database: database).page(quiet, after: 0, limit: 10)
        await rollup.foldAll()
        #expect(try await Self.state(quiet, database)?.cursor == 3)
    }

    /// Events given their places and then deleted by retention before any
    /// fold read them left the cursor below the feed's mark for good, and
    /// the tenant counted as having work on every fold.
    @Test func placesRetentionDeletedUnfoldedDoNotKeepATenantBusy() async throws {
        let database = try await TestDatabase.shared()
        let tenant = uniqueID()
        let rollup = Self.rollup(database, [tenant])
        await rollup.foldAll()
        try await FeedMarkTests.write(3, of: tenant, database)
        _ = try await EventFeed(database: database).page(tenant, after: 0, limit: 10)
        try await database.query("DELETE FROM room_events WHERE tenant_id = \(tenant)")
        await rollup.foldAll()
        #expect(try await Self.state(tenant, database)?.cursor == 3, "past the places that are gone")
        let tally = StatementTally()
        await StatementTally.$current.withValue(tally) { await rollup.foldAll() }
        #expect(tally.count == 1, "idle again: \(tally.sent)")
    }
}
