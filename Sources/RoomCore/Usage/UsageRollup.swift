import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// Keeps `usage_hourly` (#30, item 3; schema/core/0022_usage.sql): every
/// `interval`, and when asked for a tenant's usage, folds each tenant's room
/// events since its last fold (the event feed's cursor, so each counts once
/// whichever instance folds it) into hours with `UsageIntegrator`, and adds
/// this instance's counts (`UsageCounters`), in one transaction per tenant
/// under its `usage_state` row's lock. A graceful stop folds once more.
public struct UsageRollup: Service {
    public let database: Database
    public let clock: any RoomClock
    public let tenants: @Sendable () -> [TenantID]
    public let counters: UsageCounters
    public let interval: Duration
    public let logger: Logger

    /// Events folded per tenant and transaction: a backlog (a tenant's first
    /// fold over a year of events) takes several folds, none long.
    static let batch = 5_000

    /// Events given their feed places a statement, and the pause between
    /// statements. One stamp of 5,000 events took 108 ms in PostgreSQL's
    /// log during ops/bench figure 6, and another tenant's create → list →
    /// dissolve flows in those 108 ms took 20-55 ms instead of 6 (its p99
    /// ×2.4-6 of alone, every slow flow in that window). A slice of 500 is
    /// a tenth of that statement, and the pause lets the requests' own
    /// statements run between slices: the rollup is not in a hurry.
    static let stampSlice = 500
    static let stampPause: Duration = .milliseconds(10)

    public init(database: Database, clock: any RoomClock, tenants: @escaping @Sendable () -> [TenantID], counters: UsageCounters = .shared,
                interval: Duration = .seconds(30), logger: Logger) {
        self.database = database
        self.clock = clock
        self.tenants = tenants
        self.counters = counters
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            await foldAll()
        }
    }

    /// Folds every tenant with something to fold; failures are logged and
    /// retried next time.
    public func foldAll() async {
        let counted = Set(counters.tenants())
        for tenant in Set(tenants()).union(counted).sorted() {
            do {
                // In the tenant's cell (#43), whichever task folds.
                _ = try await LeaseOwner.$cell.withValue(nil) {
                    try await LeaseOwner.$tenant.withValue(tenant) {
                        if !counted.contains(tenant), try await !hasWork(tenant) { return 0 }
                        return try await fold(tenant)
                    }
                }
            } catch {
                logger.warning("usage fold failed", metadata: ["tenant": "\(tenant)", "error": "\(LoggableError.describe(error))"])
            }
        }
    }

    /// Folds `tenant`'s events since its last fold (up to `batch`) and this
    /// instance's counts of it; returns how many events it folded.
    @discardableResult
    public func fold(_ tenant: TenantID) async throws -> Int {
        // Places in the feed, committed before the fold reads them (EventFeed.page).
        try await stamp(tenant)
        let taken = counters.take(tenant)
        do {
            return try await database.transaction { connection in try await fold(tenant, counts: taken, on: connection) }
        } catch {
            counters.putBack(tenant, taken)
            throw error
        }
    }

    /// Whether `tenant` has anything to fold: events without a feed place,
    /// places not folded yet, rooms or members whose time accrues, or no
    /// state yet. One statement, where a fold is nine round trips (the
    /// stamp, then BEGIN, the state's insert and lock, the events' read,
    /// the state's update, COMMIT and its probe; `UsageRollupTests`), and
    /// every instance folds every tenant every 30 s, most of them idle at
    /// any hour.
    func hasWork(_ tenant: TenantID) async throws -> Bool {
        try await database.query("""
            SELECT EXISTS (SELECT 1 FROM room_events e WHERE e.tenant_id = \(tenant) AND e.feed_seq IS NULL)
                OR coalesce((SELECT m.last_seq FROM feed_marks m WHERE m.tenant_id = \(tenant)), 0)
                   > coalesce((SELECT u.feed_cursor FROM usage_state u WHERE u.tenant_id = \(tenant)), -1)
                OR EXISTS (SELECT 1 FROM usage_state u WHERE u.tenant_id = \(tenant) AND (u.open_rooms > 0 OR u.members > 0))
            """).decode(Bool.self).first ?? true
    }

    /// Gives up to `batch` of the tenant's events their feed places,
    /// `stampSlice` a statement (each its own commit) with `stampPause`
    /// between them; returns what each statement stamped.
    @discardableResult
    public func stamp(_ tenant: TenantID) async throws -> [Int] {
        var slices: [Int] = []
        while slices.reduce(0, +) < Self.batch {
            let stamped = try await database.query("SELECT roomkeeper_feed_stamp(\(tenant), \(Self.stampSlice)::int)").decode(Int.self).first ?? 0
            slices.append(stamped)
            guard stamped == Self.stampSlice else { break }
            try await Task.sleep(for: Self.stampPause)
        }
        return slices
    }

    private func fold(_ tenant: TenantID, counts: [Date: UsageCounters.Counts], on connection: PostgresConnection) async throws -> Int {
        try await connection.run("INSERT INTO usage_state (tenant_id, feed_cursor) VALUES (\(tenant), 0) ON CONFLICT DO NOTHING", logger: logger)
        // The feed's mark is read before the events (their statement's
        // snapshot is later): places up to it were all committed by then.
        let stateRows = try await connection.run("""
            SELECT u.feed_cursor, u.open_rooms, u.members, u.at,
                   coalesce((SELECT m.last_seq FROM feed_marks m WHERE m.tenant_id = u.tenant_id), 0)
            FROM usage_state u WHERE u.tenant_id = \(tenant) FOR UPDATE OF u
            """, logger: logger).collect()
        guard let (cursor, openRooms, members, at, mark) = try stateRows.decode((Int64, Int, Int, Date?, Int64).self).first else { return 0 }
        // Each event's step; a closed room's members are those still joined
        // in it (a close leaves their rows joined), a kick's whether it had.
        let eventRows = try await connection.run("""
            SELECT e.feed_seq, e.kind, e.at, coalesce(e.detail->>'wasMember', '') = 'true',
                   CASE WHEN e.kind = \(RoomEventKind.closed.stored) THEN (SELECT count(*)::int FROM room_members m
                        WHERE m.tenant_id = e.tenant_id AND m.room_id = e.room_id AND m.status = 'joined') ELSE 0 END
            FROM room_events e WHERE e.tenant_id = \(tenant) AND e.feed_seq > \(cursor)
            ORDER BY e.feed_seq LIMIT \(Self.batch)
            """, logger: logger).collect()
        let events = try eventRows.decode((Int64, String, Date, Bool, Int).self)
        let steps = events.compactMap { _, kind, at, wasMember, members in
            UsageIntegrator.step(kind: RoomEventKind(stored: kind), wasMember: wasMember, members: members).map { (at: at, step: $0) }
        }
        var state = UsageIntegrator.State(openRooms: openRooms, members: members, at: at)
        // A full batch stops at its last event: the next fold goes on from there.
        let until = events.count == Self.batch ? (events.last?.2 ?? clock.now()) : clock.now()
        let hours = UsageIntegrator.integrate(&state, steps: steps, until: until)
        try await write(hours, counts: counts, tenant: tenant, on: connection)
        // No event after the cursor: every place up to the mark is gone
        // (retention deleted them unfolded), so the cursor moves past them,
        // or the tenant would count as having work on every fold.
        let next = events.last?.0 ?? max(cursor, mark)
        try await connection.run("""
            UPDATE usage_state SET feed_cursor = \(next), open_rooms = \(state.openRooms), members = \(state.members), at = \(state.at)
            WHERE tenant_id = \(tenant)
            """, logger: logger)
        return events.count
    }

    /// Adds the hours' figures and the counts to `usage_hourly` in one statement.
    private func write(_ hours: [Date: UsageIntegrator.Hour], counts: [Date: UsageCounters.Counts], tenant: TenantID,
                       on connection: PostgresConnection) async throws {
        let starts = Set(hours.keys).union(counts.keys).sorted()
        guard !starts.isEmpty else { return }
        let figures = starts.map { hours[$0] ?? UsageIntegrator.Hour() }
        let counted = starts.map { counts[$0] ?? UsageCounters.Counts() }
        try await connection.run("""
            INSERT INTO usage_hourly (tenant_id, hour, room_seconds, member_seconds, peak_members, rooms_opened, joins,
                                      api_requests, im_messages, webhook_deliveries)
            SELECT \(tenant), to_timestamp(h), rs, ms, pk, ro, j, ar, im, wd
            FROM unnest(\(starts.map(\.timeIntervalSince1970))::float8[], \(figures.map(\.roomSeconds))::float8[],
                        \(figures.map(\.memberSeconds))::float8[], \(figures.map { Int64($0.peakMembers) })::bigint[],
                        \(figures.map { Int64($0.roomsOpened) })::bigint[], \(figures.map { Int64($0.joins) })::bigint[],
                        \(counted.map(\.apiRequests))::bigint[], \(counted.map(\.imMessages))::bigint[],
                        \(counted.map(\.webhookDeliveries))::bigint[]) AS u(h, rs, ms, pk, ro, j, ar, im, wd)
            ON CONFLICT (tenant_id, hour) DO UPDATE SET
                room_seconds = usage_hourly.room_seconds + EXCLUDED.room_seconds,
                member_seconds = usage_hourly.member_seconds + EXCLUDED.member_seconds,
                peak_members = greatest(usage_hourly.peak_members, EXCLUDED.peak_members),
                rooms_opened = usage_hourly.rooms_opened + EXCLUDED.rooms_opened,
                joins = usage_hourly.joins + EXCLUDED.joins,
                api_requests = usage_hourly.api_requests + EXCLUDED.api_requests,
                im_messages = usage_hourly.im_messages + EXCLUDED.im_messages,
                webhook_deliveries = usage_hourly.webhook_deliveries + EXCLUDED.webhook_deliveries
            """, logger: logger)
    }
}
