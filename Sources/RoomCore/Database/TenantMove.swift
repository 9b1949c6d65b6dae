import Foundation
import Logging
import PostgresNIO

/// Moves a tenant's rows from one cell to another while it is served (#43),
/// by PostgreSQL's logical replication:
///   0. ids: a target whose ids are behind the source's is taken past them
///      (`IDBlocks`), so the tenant's ids only grow;
///   1. copy: a publication of the tenant's rows on the source (a row filter
///      on `tenant_id`), a subscription on the target (the initial copy,
///      then every later change, streamed);
///   2. fence: the tenant's new database leases wait on every instance
///      (`Cells`, `Database.withConnection`) and each instance acknowledges
///      once its running ones are done (`CellDirectoryFollower`);
///   3. catch up: a marker written on the source after the fence reaches
///      the target, so every write of the tenant has;
///   4. check each table's row count and checksum of the tenant's rows on
///      both sides, then flip the directory (every instance learns it at
///      once and its waiting leases go to the target);
///   5. drop the subscription and publication, and only then delete the
///      tenant's rows from the source.
/// A move's phase is kept in `tenant_moves`: a move interrupted before the
/// flip is rolled back (the target's copy deleted, the fence lifted), one
/// interrupted after it is finished. Each step is an audit row of the
/// tenant (`tenant.move`).
public struct TenantMove: Sendable {
    public struct Side: Sendable {
        public let name: String
        public let database: Database
        /// libpq's connection string for the source (the subscription's);
        /// it may hold a password: never logged.
        public let conninfo: String

        public init(name: String, database: Database, conninfo: String) {
            self.name = name
            self.database = database
            self.conninfo = conninfo
        }
    }

    public struct Timings: Sendable {
        public var copy: Duration = .zero
        public var catchUp: Duration = .zero
        /// From the fence to its end (the flip): the tenant's write pause.
        public var fence: Duration = .zero
        public var cleanUp: Duration = .zero
        /// Rows moved, by table.
        public var rows: [String: Int] = [:]
    }

    public struct Failed: Error, CustomStringConvertible {
        public let description: String
    }

    let tenant: TenantID
    let home: Database
    let source: Side
    let target: Side
    let report: @Sendable (String) -> Void
    /// How long the instances have to acknowledge the fence, and the marker
    /// to arrive, before the move is rolled back (the fence is the tenant's
    /// write pause: #43's goal is ≤ 5 s).
    let fenceLimit: Duration
    let copyLimit: Duration

    public init(tenant: TenantID, home: Database, source: Side, target: Side, fenceLimit: Duration = .seconds(4), copyLimit: Duration = .seconds(3_600),
                report: @escaping @Sendable (String) -> Void) throws {
        guard TenantLoader.isValidID(tenant) else { throw CellsError.badTenant(tenant) }
        guard source.name != target.name else { throw Failed(description: "tenant \(tenant) is in cell \(target.name) already") }
        self.tenant = tenant
        self.home = home
        self.source = source
        self.target = target
        self.fenceLimit = fenceLimit
        self.copyLimit = copyLimit
        self.report = report
    }

    /// The publication's, slot's and subscription's name (a tenant id is
    /// a-z, 0-9 and -, so the name is unique and a plain identifier).
    var name: String { "rk_move_" + tenant.replacingOccurrences(of: "-", with: "_") }
    /// The tenant's id as an SQL literal (a-z, 0-9 and -: nothing to escape).
    var literal: String { "'\(tenant)'" }

    // MARK: the move

    /// Moves the tenant, first rolling back or finishing a move of it that
    /// was interrupted.
    public func run() async throws -> Timings {
        if let phase = try await phase() {
            guard phase != "flipped" else {
                report("an interrupted move of \(tenant) had flipped: finishing it")
                var timings = Timings()
                timings.cleanUp = try await timed { try await finish() }
                return timings
            }
            report("an interrupted move of \(tenant) (\(phase)) is rolled back first")
            try await rollBack()
        } else {
            // A rollback whose own drop failed leaves the replication with
            // no move recorded (its row goes first: the tenant is served
            // again at once), and this move's CREATEs would fail on it.
            try await dropReplication()
        }
        try await checkTargetEmpty()
        // Before the tenant's first write there: its ids only grow (`IDBlocks`).
        if let block = try await IDBlocks.keepAhead(target: target.name, target.database, of: source.database, home: home) {
            report("cell \(target.name)'s ids were behind \(source.name)'s: it draws from block \(block) now (ids from \(IDBlocks.range(ofBlock: block).lowerBound))")
        }
        let tables = try await Self.tables(on: source.database)
        var timings = Timings()
        try await home.query("""
            INSERT INTO tenant_moves (tenant_id, from_cell, to_cell, phase, started_at, updated_at)
            VALUES (\(tenant), \(source.name), \(target.name), 'copying', now(), now())
            """)
        try await audit(on: source.database, "copying to \(target.name)")
        do {
            let atOnce = try await tablesCopiedAtOnce()
            timings.copy = try await timed { try await copy(tables) }
            report("copied: \(tables.count) tables, \(atOnce) at a time" + (atOnce > 1
                ? " (\(target.name)'s max_sync_workers_per_subscription: 1 leaves a core to the tenants served meanwhile, docs/growth.md)" : ""))
            let fenced = ContinuousClock.now
            try await fence()
            timings.catchUp = try await timed { try await catchUp() }
            timings.rows = try await check(tables)
            try await flip()
            timings.fence = ContinuousClock.now - fenced
            report("flipped: \(tenant) is served from \(target.name) (fenced \(timings.fence))")
        } catch {
            report("the move failed (\(LoggableError.describe(error))): rolling back")
            try await rollBack()
            throw error
        }
        timings.cleanUp = try await timed { try await finish() }
        return timings
    }

    func phase() async throws -> String? {
        try await home.query("SELECT phase FROM tenant_moves WHERE tenant_id = \(tenant)").decode(String.self).first
    }

    private func checkTargetEmpty() async throws {
        let rows = try await Self.count(tenant, on: target.database)
        guard rows == 0 else {
            throw Failed(description: "cell \(target.name) holds \(rows) rows of tenant \(tenant) already: delete them before moving it there")
        }
    }

    /// How many tables the target's subscription copies at once: its
    /// server's `max_sync_workers_per_subscription` (PostgreSQL 15 has no
    /// setting a subscription of its own). Reported with the copy, since
    /// two at once took the cores from the cell's other tenants (ops/bench
    /// figure 8: their p99 ×1.73-2.81 of alone, median ×2.17, against
    /// ×1.34-2.05, median ×1.68, with one).
    private func tablesCopiedAtOnce() async throws -> Int {
        try await target.database.query("SELECT current_setting('max_sync_workers_per_subscription')::int").decode(Int.self).first ?? 0
    }

    /// 1. The publications and the subscription; returns when the initial
    /// copy of every table is done.
    private func copy(_ tables: [String]) async throws {
        let filtered = tables.filter { $0 != "audit_log" }.map { table in
            table == "idempotency_keys" ? "idempotency_keys WHERE (left(scope, \(tenant.count + 1)) = '\(tenant)|')" : "\(table) WHERE (tenant_id = \(literal))"
        }
        try await source.database.query("CREATE PUBLICATION \(unescaped: name) FOR TABLE \(unescaped: filtered.joined(separator: ", "))")
        // The audit log's key is its id alone, so only its inserts may be
        // published with a row filter on the tenant (its deletes are
        // retention's, which the target runs as well).
        try await source.database.query("""
            CREATE PUBLICATION \(unescaped: name)_append FOR TABLE audit_log WHERE (tenant_id = \(unescaped: literal)) WITH (publish = 'insert')
            """)
        // The slot is made here, not by CREATE SUBSCRIPTION: in one
        // PostgreSQL server (two cells' databases on one machine) that hangs.
        try await source.database.query("SELECT pg_create_logical_replication_slot(\(name), 'pgoutput')")
        try await target.database.query("""
            CREATE SUBSCRIPTION \(unescaped: name) CONNECTION '\(unescaped: source.conninfo.replacingOccurrences(of: "'", with: "''"))'
            PUBLICATION \(unescaped: name), \(unescaped: name)_append WITH (create_slot = false, slot_name = '\(unescaped: name)', copy_data = true)
            """)
        let until = ContinuousClock.now + copyLimit
        while true {
            let states = try await target.database.query("""
                SELECT count(*) FILTER (WHERE r.srsubstate = 'r')::int, count(*)::int,
                       coalesce((SELECT (st.apply_error_count + st.sync_error_count)::int FROM pg_stat_subscription_stats st WHERE st.subname = \(name)), 0)
                FROM pg_subscription s JOIN pg_subscription_rel r ON r.srsubid = s.oid WHERE s.subname = \(name)
                """).decode((Int, Int, Int).self).first ?? (0, 0, 0)
            if states.2 > 0 { throw Failed(description: "the target's subscription failed \(states.2) times (its server log says why: a full disk, rows that conflict)") }
            if states.1 == tables.count, states.0 == states.1 { return }
            guard ContinuousClock.now < until else { throw Failed(description: "the copy did not finish in \(copyLimit)") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// 2. The fence, and every instance alive acknowledging it.
    private func fence() async throws {
        try await audit(on: source.database, "fenced")
        try await home.query("""
            WITH fenced AS (UPDATE tenant_moves SET phase = 'fenced', updated_at = now() WHERE tenant_id = \(tenant) AND phase = 'copying' RETURNING 1)
            SELECT pg_notify(\(CellDirectoryFollower.channel), \(tenant)) FROM fenced
            """)
        let until = ContinuousClock.now + fenceLimit
        while true {
            let missing = try await home.query("""
                -- cross-tenant: the instances alive, each of which must acknowledge the fence
                SELECT i.instance_id FROM instances i
                WHERE i.seen_at > now() - interval '15 seconds'
                  AND NOT EXISTS (SELECT 1 FROM tenant_move_acks a WHERE a.tenant_id = \(tenant) AND a.instance_id = i.instance_id)
                """).decode(String.self)
            if missing.isEmpty { return }
            guard ContinuousClock.now < until else {
                throw Failed(description: "\(missing.count) instances did not acknowledge the fence in \(fenceLimit)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// 3. A marker through the subscription: once it is in the target, so
    /// is every write of the tenant committed before it.
    private func catchUp() async throws {
        let marker = Int64.random(in: 1...Int64.max)
        try await source.database.query("""
            INSERT INTO tenant_move_markers (tenant_id, marker) VALUES (\(tenant), \(marker))
            ON CONFLICT (tenant_id) DO UPDATE SET marker = EXCLUDED.marker
            """)
        let until = ContinuousClock.now + fenceLimit
        while try await target.database.query("SELECT 1 FROM tenant_move_markers WHERE tenant_id = \(tenant) AND marker = \(marker)").decode(Int.self).isEmpty {
            guard ContinuousClock.now < until else { throw Failed(description: "the target did not catch up in \(fenceLimit)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// 4a. Every table's rows of the tenant alike on both sides: their
    /// count and a checksum (`digests`).
    private func check(_ tables: [String]) async throws -> [String: Int] {
        async let there = Self.digests(of: tenant, tables, on: target.database)
        let here = try await Self.digests(of: tenant, tables, on: source.database)
        let moved = try await there
        var rows: [String: Int] = [:]
        for table in tables where table != "tenant_move_markers" {
            guard let mine = here[table], let theirs = moved[table], mine == theirs else {
                throw Failed(description: "table \(table) differs: \(here[table].map { "\($0.rows) rows" } ?? "-") here, \(moved[table].map { "\($0.rows) rows" } ?? "-") in \(target.name)")
            }
            rows[table] = mine.rows
        }
        return rows
    }

    /// 4b. The directory names the target, the fence ends, in one commit.
    private func flip() async throws {
        try await home.transaction { connection in
            try await connection.run("""
                INSERT INTO tenant_cells (tenant_id, cell) VALUES (\(tenant), \(target.name))
                ON CONFLICT (tenant_id) DO UPDATE SET cell = EXCLUDED.cell, placed_at = now()
                """, logger: home.logger)
            try await connection.run("""
                UPDATE tenant_moves SET phase = 'flipped', updated_at = now() WHERE tenant_id = \(tenant)
                """, logger: home.logger)
            try await connection.run("SELECT pg_notify(\(CellDirectoryFollower.channel), \(tenant))", logger: home.logger)
        }
        try await audit(on: target.database, "flipped from \(source.name)")
    }

    /// 5. The replication's parts dropped, then the source's rows deleted.
    private func finish() async throws {
        try await dropReplication()
        let deleted = try await Self.delete(tenant, on: source.database)
        try await target.database.query("DELETE FROM tenant_move_markers WHERE tenant_id = \(tenant)")
        try await home.query("DELETE FROM tenant_moves WHERE tenant_id = \(tenant)")
        try await audit(on: target.database, "done: \(deleted) rows deleted from \(source.name)")
        report("done: \(deleted) rows of \(tenant) deleted from \(source.name)")
    }

    /// Undoes a move that has not flipped: the fence lifted first (the
    /// tenant is served from the source again at once), then the
    /// replication dropped and the target's copy deleted.
    public func rollBack() async throws {
        guard let phase = try await phase() else { return }
        guard phase != "flipped" else { throw Failed(description: "the move of \(tenant) has flipped: it is finished, not rolled back") }
        let from = try await home.query("SELECT to_cell FROM tenant_moves WHERE tenant_id = \(tenant)").decode(String.self).first
        try await home.query("""
            WITH gone AS (DELETE FROM tenant_moves WHERE tenant_id = \(tenant) RETURNING 1)
            SELECT pg_notify(\(CellDirectoryFollower.channel), \(tenant)) FROM gone
            """)
        try await dropReplication()
        // The copy is in the cell this move was going to (which is `target`
        // unless the interrupted move went elsewhere: then it is not ours to
        // delete here, and the operator is told).
        if from == nil || from == target.name {
            _ = try await Self.delete(tenant, on: target.database)
        } else if let from {
            report("the interrupted move was to cell \(from): delete its copy of \(tenant) there")
        }
        try await audit(on: source.database, "rolled back")
    }

    /// Drops the subscription (without touching its slot from the target:
    /// in one server that waits on itself), then the slot and publications.
    private func dropReplication() async throws {
        let subscribed = try await target.database.query("SELECT 1 FROM pg_subscription WHERE subname = \(name)").decode(Int.self)
        if !subscribed.isEmpty {
            try await target.database.query("ALTER SUBSCRIPTION \(unescaped: name) DISABLE")
            // Its workers stop a moment after: a DROP beside a table's sync
            // worker still retrying (a target that cannot take the copy)
            // waited on it past the statement's 10 s deadline, and the
            // rollback failed. Waited for here, and the DROP, which also
            // drops the syncs' slots on the source, given a minute.
            for _ in 0..<100 {
                let running = try await target.database.query("""
                    SELECT count(*)::int FROM pg_stat_subscription WHERE subname = \(name) AND pid IS NOT NULL
                    """).decode(Int.self).first ?? 0
                if running == 0 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            try await target.database.query("ALTER SUBSCRIPTION \(unescaped: name) SET (slot_name = NONE)")
            try await DatabaseDeadline.$statementSeconds.withValue(60) {
                try await target.database.query("DROP SUBSCRIPTION \(unescaped: name)")
            }
        }
        // The slot may still be held by the walsender the subscription ran
        // until it notices: a few tries.
        for attempt in 1...50 {
            let dropped = try await source.database.query("""
                SELECT pg_drop_replication_slot(slot_name)::text FROM pg_replication_slots WHERE slot_name = \(name) AND NOT active
                UNION ALL SELECT 'none' WHERE NOT EXISTS (SELECT 1 FROM pg_replication_slots WHERE slot_name = \(name))
                """).decode(String.self)
            if !dropped.isEmpty { break }
            if attempt == 50 { throw Failed(description: "the replication slot \(name) stayed in use") }
            try await Task.sleep(for: .milliseconds(100))
        }
        try await source.database.query("DROP PUBLICATION IF EXISTS \(unescaped: name), \(unescaped: name)_append")
        try await source.database.query("DELETE FROM tenant_move_markers WHERE tenant_id = \(tenant)")
    }

    private func audit(on database: Database, _ outcome: String) async throws {
        try await AuditLog(database: database).append(AuditAct(tenantID: tenant, action: .tenantMove, target: "tenant:\(tenant)", outcome: outcome,
                                                               detail: ["from": source.name, "to": target.name]),
                                                      by: .admin, keep: RetentionPolicy().audit, now: Date())
    }

    private func timed(_ body: () async throws -> Void) async throws -> Duration {
        let started = ContinuousClock.now
        try await body()
        return ContinuousClock.now - started
    }
}

extension TenantMove {
    /// The directory's own tables, which stay in the first cell.
    static let directoryTables: Set<String> = ["tenant_cells", "tenant_moves", "tenant_move_acks"]

    /// The tables that hold a tenant's rows: every table of the schema with
    /// a `tenant_id` column (the directory's aside), and the idempotency
    /// keys (scoped "tenant|…"). Ordered so that a table comes after those
    /// its foreign keys reference (deletes go in reverse).
    public static func tables(on database: Database) async throws -> [String] {
        let rows = try await database.query("""
            SELECT c.relname,
                   coalesce((SELECT array_agg(DISTINCT p.relname::text) FROM pg_constraint f JOIN pg_class p ON p.oid = f.confrelid
                             WHERE f.conrelid = c.oid AND f.contype = 'f' AND f.confrelid <> c.oid), '{}')
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND c.relkind = 'r'
              AND (c.relname = 'idempotency_keys'
                   OR EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped))
            ORDER BY c.relname
            """).decode((String, [String]).self)
        let references = Dictionary(uniqueKeysWithValues: rows.filter { !directoryTables.contains($0.0) })
        var ordered: [String] = []
        var placed: Set<String> = []
        func place(_ table: String) {
            guard !placed.contains(table), let parents = references[table] else { return }
            placed.insert(table)
            parents.forEach(place)
            ordered.append(table)
        }
        references.keys.sorted().forEach(place)
        return ordered
    }

    static func filter(_ table: String, _ tenant: TenantID) -> String {
        table == "idempotency_keys" ? "left(scope, \(tenant.count + 1)) = '\(tenant)|'" : "tenant_id = '\(tenant)'"
    }

    /// How many rows of `tenant` the database holds, in every table.
    public static func count(_ tenant: TenantID, on database: Database) async throws -> Int {
        let tables = try await tables(on: database)
        let sum = tables.map { "(SELECT count(*) FROM \($0) WHERE \(filter($0, tenant)))" }.joined(separator: " + ")
        return try await database.query("SELECT (\(unescaped: sum))::int").decode(Int.self).first ?? 0
    }

    struct Digest: Equatable { let rows: Int; let checksum: String }

    /// Each table's count of the tenant's rows and their checksum: the
    /// exact sum of each row's 64-bit hash, which no order changes, so
    /// nothing is sorted. It runs inside the fence (the tenant's write
    /// pause): the md5 of the rows' md5s in order took 2.4 s for 400,000
    /// rows, this 0.7 s (psql on this machine, a build beside it); the row's
    /// text, made either way, is most of what is left.
    static func digests(of tenant: TenantID, _ tables: [String], on database: Database) async throws -> [String: Digest] {
        var digests: [String: Digest] = [:]
        for table in tables {
            let row = try await database.query("""
                SELECT count(*)::int, coalesce(sum(hashtextextended(t::text, 0)::numeric), 0)::text
                FROM \(unescaped: table) t WHERE \(unescaped: filter(table, tenant))
                """).decode((Int, String).self).first ?? (0, "")
            digests[table] = Digest(rows: row.0, checksum: row.1)
        }
        return digests
    }

    /// Deletes every row of `tenant`, children before parents, a batch of
    /// rows a statement, each its own transaction, with a pause between;
    /// returns how many. The cell serves its other tenants meanwhile: in one
    /// transaction, the 10,000 rows of the chaos run's moved tenant were
    /// where the staying tenant's slowest requests fell (its p99 ×2.05 of
    /// its p99 before the move, goal ≤ 2×). The rows are no longer served
    /// (after the flip) or not yet (a rollback), so a delete cut short is
    /// finished by the move run again.
    static func delete(_ tenant: TenantID, on database: Database, batch: Int = 1_000, pause: Duration = .milliseconds(10)) async throws -> Int {
        let tables = try await tables(on: database)
        var deleted = 0
        for table in tables.reversed() {
            while true {
                let gone = try await database.transaction { connection in
                    // The audit log's trigger lets this tenant's rows go (0036).
                    try await connection.run("SELECT set_config('roomkeeper.moved_tenant', \(tenant), true)", logger: database.logger)
                    return try await connection.run("""
                        WITH gone AS (DELETE FROM \(unescaped: table) WHERE ctid = ANY (ARRAY(
                                        SELECT ctid FROM \(unescaped: table) WHERE \(unescaped: filter(table, tenant)) LIMIT \(batch)))
                                      RETURNING 1)
                        SELECT count(*)::int FROM gone
                        """, logger: database.logger).collect().decode(Int.self).first ?? 0
                }
                deleted += gone
                guard gone == batch else { break }
                try await Task.sleep(for: pause)
            }
        }
        return deleted
    }
}
