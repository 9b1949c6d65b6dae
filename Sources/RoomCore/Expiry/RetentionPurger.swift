import Foundation
import Logging
import PostgresNIO
import Metrics
import ServiceLifecycle
import Synchronization

/// Deletes what each tenant's retention no longer keeps, in batches of
/// `batch` rows per statement so a purge never holds long locks, batch after
/// batch until nothing is due or the pass's `budget` is spent, on every
/// instance: batches are claimed with SKIP LOCKED, so two instances delete
/// different rows instead of repeating each other's. Also drops per-address
/// rate windows that ended long ago.
///
/// Why a loop (#27): one batch per table per tenant a minute deleted 2,000
/// rows a minute, far below what `ops/bench` writes (thousands of rooms and
/// sessions a second), so what retention should remove grew for ever. What
/// a pass leaves due is reported in `/metrics` as
/// `roomkeeper_retention_backlog_rows{table}` (counted up to 1,000,000).
public struct RetentionPurger: Service {
    public let database: Database
    public let clock: any RoomClock
    public let tenants: @Sendable () -> [Tenant]
    public let interval: Duration
    public let batch: Int
    /// How long one pass may keep deleting (every table, every tenant).
    public let budget: Duration
    /// Rows that keep a guest in use (plugins'), and rows that go with it (providers').
    public let keepers: [AccountReference]
    public let dependents: [AccountReference]
    public let logger: Logger

    public init(database: Database, clock: any RoomClock, tenants: @escaping @Sendable () -> [Tenant],
                interval: Duration = .seconds(60), batch: Int = 2_000, budget: Duration = .seconds(20),
                keepers: [AccountReference] = [], dependents: [AccountReference] = [], logger: Logger) {
        self.database = database
        self.clock = clock
        self.tenants = tenants
        self.interval = interval
        self.batch = batch
        self.budget = budget
        self.keepers = keepers
        self.dependents = dependents
        self.logger = logger
    }

    /// `AND NOT EXISTS` one row of each keeper naming `a.accid`.
    private var keptClause: String {
        keepers.map { " AND NOT EXISTS (SELECT 1 FROM \($0.table) k WHERE k.tenant_id = a.tenant_id AND k.\($0.column) = a.accid)" }.joined()
    }

    /// One CTE per dependent, deleting its rows for the accounts in `gone`.
    private var dependentCTEs: String {
        dependents.enumerated().map { index, dependent in
            ", dependent\(index) AS (DELETE FROM \(dependent.table) d USING gone WHERE d.tenant_id = gone.tenant_id AND d.\(dependent.column) = gone.accid)"
        }.joined()
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            if Task.isShuttingDownGracefully || Task.isCancelled { return }
            do {
                let deleted = try await purgeOnce()
                if deleted > 0 { logger.info("retention purged rows", metadata: ["rows": "\(deleted)"]) }
            } catch {
                logger.warning("retention purge failed", metadata: ["error": "\(LoggableError.describe(error))"])
            }
        }
    }

    /// One pass over every tenant, at most `batch` rows per statement.
    /// Returns how many rows went.
    @discardableResult
    public func purgeOnce() async throws -> Int {
        // In a cell's loop, that cell's rows; outside one, every cell's.
        try await database.inItsCellOrEach { try await purgeCell() }
    }

    private func purgeCell() async throws -> Int {
        let now = clock.now()
        let until = ContinuousClock.now + budget
        var deleted = 0
        var backlog: [String: Int] = [:]
        for tenant in tenants() {
            for purge in purges(of: tenant, now: now) { deleted += try await drain(purge, until: until, into: &backlog) }
        }
        for purge in sharedPurges(now: now) { deleted += try await drain(purge, until: until, into: &backlog) }
        for table in ["rooms", "room_events", "outbox", "sessions", "accounts", "usage_hourly", "rate_windows", "idempotency_keys", "audit_log"] {
            Gauge(label: "roomkeeper_retention_backlog_rows", dimensions: [("table", table)]).record(backlog[table] ?? 0)
        }
        lastBacklog.value.withLock { $0 = backlog }
        return deleted
    }

    /// One table's purge of one tenant: a batch's delete, and the count of
    /// what is still due once the pass's time is spent.
    public struct Purge: Sendable {
        public let table: String
        public let delete: PostgresQuery
        public let count: PostgresQuery
        /// The columns the rows' age is read from: each reached through an
        /// index, so a purge costs what it deletes, not what the tenant
        /// keeps (`RetentionTests.eachPurgeWalksItsRowsByAge`).
        public let ageColumns: [String]
    }

    /// What `tenant`'s retention deletes at `now`, table by table, parents
    /// before what only they keep.
    public func purges(of tenant: Tenant, now: Date) -> [Purge] {
        let keep = tenant.retention
        let id = tenant.id
        let closedBefore = now.addingTimeInterval(-keep.closedRooms)
        let delivered = now.addingTimeInterval(-keep.deliveredOutbox), dead = now.addingTimeInterval(-keep.deadOutbox)
        let endedBefore = now.addingTimeInterval(-keep.endedSessions)
        let idleSince = now.addingTimeInterval(-keep.idleGuests)
        let usageBefore = now.addingTimeInterval(-keep.usage)
        return [
            // Closed rooms take their members and plugin rows (ON DELETE
            // CASCADE) and, in the same statement, their audit events.
            Purge(table: "rooms", delete: """
                WITH gone AS (
                    DELETE FROM rooms WHERE ctid IN (
                        SELECT ctid FROM rooms WHERE tenant_id = \(id) AND state = 'closed' AND closed_at < \(closedBefore)
                        LIMIT \(batch) FOR UPDATE SKIP LOCKED)
                    RETURNING tenant_id, room_id
                ), events AS (
                    DELETE FROM room_events e USING gone WHERE e.tenant_id = gone.tenant_id AND e.room_id = gone.room_id
                )
                SELECT 1 FROM gone
                """, count: """
                SELECT count(*)::int FROM (SELECT 1 FROM rooms WHERE tenant_id = \(id) AND state = 'closed' AND closed_at < \(closedBefore)
                                           LIMIT 1000000) due
                """, ageColumns: ["closed_at"]),
            // The tenant's own timeline (tenant-wide bans) has no room to go
            // with: its events go when a closed room's would.
            Purge(table: "room_events", delete: """
                DELETE FROM room_events WHERE ctid IN (
                    SELECT ctid FROM room_events WHERE tenant_id = \(id) AND room_id = \(EventFeed.tenantTimeline) AND at < \(closedBefore)
                    LIMIT \(batch) FOR UPDATE SKIP LOCKED)
                RETURNING 1
                """, count: """
                SELECT count(*)::int FROM (SELECT 1 FROM room_events WHERE tenant_id = \(id) AND room_id = \(EventFeed.tenantTimeline)
                                           AND at < \(closedBefore) LIMIT 1000000) due
                """, ageColumns: ["at"]),
            Purge(table: "outbox", delete: """
                DELETE FROM outbox WHERE ctid IN (
                    SELECT ctid FROM outbox WHERE tenant_id = \(id)
                      AND ((status = 'delivered' AND delivered_at < \(delivered)) OR (status = 'dead' AND created_at < \(dead)))
                    LIMIT \(batch) FOR UPDATE SKIP LOCKED)
                RETURNING 1
                """, count: """
                SELECT count(*)::int FROM (SELECT 1 FROM outbox WHERE tenant_id = \(id)
                      AND ((status = 'delivered' AND delivered_at < \(delivered)) OR (status = 'dead' AND created_at < \(dead)))
                    LIMIT 1000000) due
                """, ageColumns: ["delivered_at", "created_at"]),
            // A session ended when it expired or was revoked, whichever came
            // first: written as two conditions, each an index's
            // (`least(coalesce(revoked_at, expires_at), expires_at)`, one
            // expression, walked every session of the tenant).
            Purge(table: "sessions", delete: """
                DELETE FROM sessions WHERE ctid IN (
                    SELECT ctid FROM sessions WHERE tenant_id = \(id)
                      AND (expires_at < \(endedBefore) OR revoked_at < \(endedBefore))
                    LIMIT \(batch) FOR UPDATE SKIP LOCKED)
                RETURNING 1
                """, count: """
                SELECT count(*)::int FROM (SELECT 1 FROM sessions WHERE tenant_id = \(id)
                      AND (expires_at < \(endedBefore) OR revoked_at < \(endedBefore)) LIMIT 1000000) due
                """, ageColumns: ["expires_at", "revoked_at"]),
            // A guest goes only when no plugin row still names it; what
            // belongs to it goes with it, and its id is retired, never drawn
            // again (#27: a new guest inherited a purged one's headset).
            Purge(table: "accounts", delete: """
                WITH gone AS (
                    DELETE FROM accounts WHERE ctid IN (
                        SELECT a.ctid FROM accounts a
                        WHERE a.tenant_id = \(id) AND a.password_hash IS NULL AND a.created_at < \(idleSince)
                          AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.tenant_id = a.tenant_id AND s.accid = a.accid
                                          AND least(coalesce(s.revoked_at, s.expires_at), s.expires_at) >= \(idleSince))
                          AND NOT EXISTS (SELECT 1 FROM rooms r WHERE r.tenant_id = a.tenant_id AND r.owner = a.accid AND r.state = 'open')
                          \(unescaped: keptClause)
                        LIMIT \(batch) FOR UPDATE OF a SKIP LOCKED)
                    RETURNING tenant_id, accid
                ), retired AS (
                    INSERT INTO retired_accounts (tenant_id, accid, retired_at) SELECT tenant_id, accid, \(now) FROM gone
                    ON CONFLICT DO NOTHING
                )\(unescaped: dependentCTEs)
                SELECT 1 FROM gone
                """, count: """
                SELECT count(*)::int FROM (SELECT 1 FROM accounts a
                    WHERE a.tenant_id = \(id) AND a.password_hash IS NULL AND a.created_at < \(idleSince)
                      AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.tenant_id = a.tenant_id AND s.accid = a.accid
                                      AND least(coalesce(s.revoked_at, s.expires_at), s.expires_at) >= \(idleSince))
                      AND NOT EXISTS (SELECT 1 FROM rooms r WHERE r.tenant_id = a.tenant_id AND r.owner = a.accid AND r.state = 'open')
                      \(unescaped: keptClause)
                    LIMIT 1000000) due
                """, ageColumns: ["created_at"]),
            Purge(table: "usage_hourly", delete: """
                DELETE FROM usage_hourly WHERE ctid IN (
                    SELECT ctid FROM usage_hourly WHERE tenant_id = \(id) AND hour < \(usageBefore) LIMIT \(batch) FOR UPDATE SKIP LOCKED)
                RETURNING 1
                """, count: """
                SELECT count(*)::int FROM (SELECT 1 FROM usage_hourly WHERE tenant_id = \(id) AND hour < \(usageBefore) LIMIT 1000000) due
                """, ageColumns: ["hour"]),
        ]
    }

    /// What retention deletes across tenants at `now`.
    public func sharedPurges(now: Date) -> [Purge] {
        [
            // The longest window a tenant may set is 31 days; Idempotency-Key
            // answers are kept a day (#27).
            aged("rate_windows", column: "window_start", before: now.addingTimeInterval(-32 * 86_400)),
            aged("idempotency_keys", column: "created_at", before: now.addingTimeInterval(-86_400)),
            // Audit rows carry their own end (`keep_until`, fixed when written);
            // the table refuses to delete one before it by the database's clock.
            Purge(table: "audit_log", delete: """
                -- cross-tenant: each audit row says itself when it may go
                DELETE FROM audit_log WHERE ctid IN (
                    SELECT ctid FROM audit_log WHERE keep_until < least(\(now), now()) LIMIT \(batch) FOR UPDATE SKIP LOCKED)
                RETURNING 1
                """, count: """
                -- cross-tenant: audit rows past their keep_until
                SELECT count(*)::int FROM (SELECT 1 FROM audit_log WHERE keep_until < least(\(now), now()) LIMIT 1000000) due
                """, ageColumns: ["keep_until"]),
        ]
    }

    /// A table kept for every tenant alike, whose rows go once `column` is
    /// before `before`. `table` and `column` are this file's constants.
    private func aged(_ table: String, column: String, before: Date) -> Purge {
        Purge(table: table, delete: """
            -- cross-tenant: retention purges every tenant, in batches
            DELETE FROM \(unescaped: table) WHERE ctid IN (
                SELECT ctid FROM \(unescaped: table) WHERE \(unescaped: column) < \(before) LIMIT \(batch) FOR UPDATE SKIP LOCKED)
            RETURNING 1
            """, count: """
            -- cross-tenant: what retention has yet to purge, every tenant
            SELECT count(*)::int FROM (SELECT 1 FROM \(unescaped: table) WHERE \(unescaped: column) < \(before) LIMIT 1000000) due
            """, ageColumns: [column])
    }

    /// What the last pass left due, by table (empty: nothing).
    public var backlog: [String: Int] { lastBacklog.value.withLock { $0 } }
    private let lastBacklog = BacklogRecord()

    /// Deletes batch after batch until one comes back short or the pass's
    /// time is spent; then counts what is still due.
    private func drain(_ purge: Purge, until: ContinuousClock.Instant, into backlog: inout [String: Int]) async throws -> Int {
        var total = 0
        while true {
            let gone = try await self.delete(purge.delete)
            total += gone
            if gone < batch { return total }
            if ContinuousClock.now >= until { break }
        }
        let due = try await database.query(purge.count).first?.decode(Int.self) ?? 0
        backlog[purge.table, default: 0] += due
        return total
    }

    private func delete(_ query: PostgresQuery) async throws -> Int {
        try await database.query(query).count
    }
}

private final class BacklogRecord: Sendable {
    let value = Mutex<[String: Int]>([:])
}
