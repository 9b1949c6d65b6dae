import Foundation
import PostgresNIO
import RoomCore
import RoomTestSupport
import Testing

/// #41, ops/bench figure 7 (2026-12-07): a tenant PostgreSQL's statistics
/// never saw was estimated at one row in every table, and the plans built
/// on that read it whole for every probe. The hot room's feed stamp read
/// 2,004,000 rows for 500 events (1.4-2.2 s a slice); the join batches'
/// session check read hundreds of the tenant's sessions for each one asked.
/// `PlannerStatistics` keeps no statistics of `tenant_id`.
@Suite struct PlannerStatisticsTests {
    @Test func noTableKeepsStatisticsOfItsTenantColumn() async throws {
        let database = try await TestDatabase.shared()
        let kept = try await database.query("""
            SELECT c.relname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE a.attname = 'tenant_id' AND NOT a.attisdropped AND c.relkind IN ('r', 'p') AND n.nspname = current_schema()
              AND a.attstattarget IS DISTINCT FROM 0
            ORDER BY 1
            """).decode(String.self)
        #expect(kept == [])
        let tables = try await database.query("""
            SELECT count(*)::int FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE a.attname = 'tenant_id' AND c.relkind = 'r' AND n.nspname = current_schema()
            """).decode(Int.self).first ?? 0
        #expect(tables > 20, "the core's and the plugins' tables: \(tables)")
    }

    /// ANALYZE samples 3,000 rows of a table, not 30,000: autovacuum's
    /// analyze of the login tables in figure 6's flood took 0.6 s of a core,
    /// and the other tenant's logins waited 20-71 ms in it.
    @Test func everyOtherColumnKeepsTenValues() async throws {
        let database = try await TestDatabase.shared()
        let targets = try await database.query("""
            SELECT DISTINCT a.attstattarget::int FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE a.attnum > 0 AND NOT a.attisdropped AND a.attname <> 'tenant_id' AND c.relkind IN ('r', 'p') AND n.nspname = current_schema()
              AND a.atttypid NOT IN ('timestamptz'::regtype, 'timestamp'::regtype, 'date'::regtype)
            """).decode(Int.self)
        #expect(targets == [10])
        // What ANALYZE then keeps of a column of many values: ten buckets.
        let tenant = uniqueID()
        try await database.query("""
            INSERT INTO accounts (tenant_id, accid, created_at) SELECT \(tenant), 'many-' || n, now() - n * interval '1 second' FROM generate_series(1, 2000) n
            """)
        try await database.query("ANALYZE accounts")
        let bounds = try await database.query("""
            SELECT coalesce(array_length(histogram_bounds::text::text[], 1), 0) FROM pg_stats WHERE tablename = 'accounts' AND attname = 'accid'
            """).decode(Int.self).first
        #expect(bounds == 11, "ten buckets: \(String(describing: bounds)) bounds")
    }

    /// ANALYZE samples for the largest target of a table's columns and its
    /// indexes' expressions: `im_accounts_by_lapse` at the default kept
    /// every ANALYZE of `im_accounts` at 30,000 rows (figure 6's
    /// autovacuum round, 0.22 s of it). What it keeps of the expression
    /// shows the target: ten buckets, not a hundred.
    @Test func everyIndexedExpressionKeepsTenValues() async throws {
        let database = try await TestDatabase.shared()
        let targets = try await database.query("""
            SELECT DISTINCT a.attstattarget::int FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
            JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = i.indexrelid
            WHERE n.nspname = current_schema() AND i.indexprs IS NOT NULL AND i.indkey[a.attnum - 1] = 0
            """).decode(Int.self)
        #expect(targets == [10])
        let tenant = uniqueID()
        try await database.query("""
            INSERT INTO im_accounts (tenant_id, accid, name, avatar, token_hash, created_at, updated_at, token_expires_at)
            SELECT \(tenant), 'lapse-' || n, '', '', md5(n::text), now(), now(), now() + n * interval '1 second' FROM generate_series(1, 2000) n
            """)
        try await database.query("ANALYZE im_accounts")
        let bounds = try await database.query("""
            SELECT coalesce(array_length(histogram_bounds::text::text[], 1), 0) FROM pg_stats WHERE tablename = 'im_accounts_by_lapse'
            """).decode(Int.self).first
        #expect(bounds == 11, "ten buckets: \(String(describing: bounds)) bounds")
        try await database.query("DELETE FROM im_accounts WHERE tenant_id = \(tenant)")
    }

    /// A time's statistics are the clock at the last ANALYZE; our
    /// statements compare times with the clock now.
    @Test func noTimeKeepsStatistics() async throws {
        let database = try await TestDatabase.shared()
        let kept = try await database.query("""
            SELECT c.relname || '.' || a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p') AND n.nspname = current_schema()
              AND a.atttypid IN ('timestamptz'::regtype, 'timestamp'::regtype, 'date'::regtype) AND a.attstattarget IS DISTINCT FROM 0
            ORDER BY 1
            """).decode(String.self)
        #expect(kept == [])
    }

    /// A database of its own, so the statistics are exactly these: 6,000
    /// sessions that expire tomorrow when ANALYZE ran; two days on, 6,000
    /// newer ones are live and those are not. A request's session read
    /// (`AccountStore.resolve`) asked for one of the newer: with the
    /// statistics of `expires_at` it was estimated at no live row, and
    /// `sessions_by_expiry` read every live session of the tenant for it.
    @Test func aClockPastTheLastAnalyzeStillReadsASessionByItsKey() async throws {
        try await Self.inDatabaseOfItsOwn { database in
            try await Self.fill(database, tenant: "known", rooms: 0, eventsPerRoom: 0, guests: 6_000)
            try await database.query("ANALYZE")
            let later = Date().addingTimeInterval(2 * 86_400)
            try await database.query("""
                INSERT INTO accounts (tenant_id, accid, created_at) SELECT 'known', 'newer-' || n, \(later) FROM generate_series(1, 6000) n
                """)
            try await database.query("""
                INSERT INTO sessions (tenant_id, token_hash, accid, plugin_id, created_at, expires_at)
                SELECT 'known', 'newer-hash-' || n, 'newer-' || n, 'sealmic', \(later), \(later.addingTimeInterval(86_400))
                FROM generate_series(1, 6000) n
                """)
            let query = AccountStore.sessionRead("known", tokenHash: "newer-hash-4000", pluginID: "sealmic", now: later)
            let found = try await database.query(query).decode((String, String, String, String, Date).self).map(\.0)
            #expect(found == ["newer-4000"])
            let plan = try await database.query(PostgresQuery(unsafeSQL: "EXPLAIN (ANALYZE, FORMAT JSON) " + query.sql, binds: query.binds))
                .decode(String.self).joined()
            let rows = LiveSessionsPlanTests.rowsRead(from: "sessions", in: try #require(JSONValue.parse(plan)))
            #expect(rows <= 1, "one session's read read \(rows) rows of sessions:\n\(plan)")
        }
    }

    /// A database of its own, so the statistics are exactly these: one
    /// tenant of 6,000 events, sessions and accounts when ANALYZE ran, then
    /// a tenant it never saw fills one room with 2,000 events and logs in
    /// 1,000 guests.
    @Test func aTenantTheStatisticsNeverSawIsReadByItsKeys() async throws {
        try await Self.inDatabaseOfItsOwn { database in
            try await Self.fill(database, tenant: "known", rooms: 3_000, eventsPerRoom: 2, guests: 6_000)
            _ = try await database.query("SELECT roomkeeper_feed_stamp('known', 10000)")
            try await database.query("ANALYZE")
            try await Self.fill(database, tenant: "unseen", rooms: 1, eventsPerRoom: 2_000, guests: 1_000)

            // The stamp's own reads, counted by PostgreSQL for this transaction.
            let read: Int64 = try await database.transaction { connection -> Int64 in
                let stamped = try await connection.run("SELECT roomkeeper_feed_stamp('unseen', 500)", logger: database.logger)
                    .collect().decode(Int.self).first
                #expect(stamped == 500)
                return try await connection.run("""
                    SELECT (coalesce(idx_tup_fetch, 0) + coalesce(seq_tup_read, 0))::bigint FROM pg_stat_xact_user_tables WHERE relname = 'room_events'
                    """, logger: database.logger).collect().decode(Int64.self).first ?? 0
            }
            // Each of the table's 8,000 rows read at most twice (on a table
            // this small a scan of it is the cheaper plan: 13,000 rows), not
            // the room's 2,000 events once for each event stamped (1,014,000
            // with the tenant's statistics).
            #expect(read <= 16_000, "the stamp of 500 events read \(read) rows")

            let asked = (1...25).map { "unseen-hash-\($0 * 40)" }
            let query = LiveSessions.query("unseen", tokenHashes: asked, pluginIDs: Array(repeating: "sealmic", count: 25), now: Date())
            let found = try await database.query(query).decode((String, String, String).self).map(\.0)
            #expect(Set(found) == Set(asked))
            let plan = try await database.query(PostgresQuery(unsafeSQL: "EXPLAIN (ANALYZE, FORMAT JSON) " + query.sql, binds: query.binds))
                .decode(String.self).joined()
            let parsed = try #require(JSONValue.parse(plan))
            for table in ["sessions", "accounts"] {
                let rows = LiveSessionsPlanTests.rowsRead(from: table, in: parsed)
                #expect(rows <= 25, "the batch read \(rows) rows of \(table) for 25 asked:\n\(plan)")
            }
        }
    }

    /// `body` on a migrated database made for it and dropped after.
    private static func inDatabaseOfItsOwn(_ body: @escaping @Sendable (Database) async throws -> Void) async throws {
        let home = try await TestDatabase.shared()
        let name = "roomkeeper_stats_\(uniqueID().lowercased())"
        try await home.query("CREATE DATABASE \(unescaped: name)")
        do {
            try await TestDatabase.withDatabase(named: name) { database in
                try await TestDatabase.migrator.migrate(database)
                try await body(database)
            }
        } catch {
            _ = try? await home.query("DROP DATABASE IF EXISTS \(unescaped: name) WITH (FORCE)")
            throw error
        }
        _ = try? await home.query("DROP DATABASE IF EXISTS \(unescaped: name) WITH (FORCE)")
    }

    /// `rooms` rooms of `eventsPerRoom` events each, and `guests` accounts
    /// with a live session each (token hash `<tenant>-hash-<n>`).
    static func fill(_ database: Database, tenant: String, rooms: Int, eventsPerRoom: Int, guests: Int) async throws {
        try await database.query("""
            INSERT INTO room_events (tenant_id, room_id, at, kind, actor, detail)
            SELECT \(tenant), 20000000 + r, now(), 'joined', 'account:a', '{}'
            FROM generate_series(1, \(rooms)) r, generate_series(1, \(eventsPerRoom)) e
            """)
        try await database.query("""
            INSERT INTO accounts (tenant_id, accid, created_at) SELECT \(tenant), \(tenant) || '-' || n, now() FROM generate_series(1, \(guests)) n
            """)
        try await database.query("""
            INSERT INTO sessions (tenant_id, token_hash, accid, plugin_id, created_at, expires_at)
            SELECT \(tenant), \(tenant) || '-hash-' || n, \(tenant) || '-' || n, 'sealmic', now(), now() + interval '1 day'
            FROM generate_series(1, \(guests)) n
            """)
    }
}
