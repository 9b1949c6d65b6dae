import Foundation
import Logging
import PostgresNIO

/// The outbox table: claiming due entries under a lease, recording outcomes,
/// and the admin API's views. Every admin query is scoped by tenant.
public struct OutboxStore: Sendable {
    public let database: Database

    public init(database: Database) {
        self.database = database
    }

    static let columns = """
        tenant_id, outbox_id, room_id, kind, payload::text AS payload, status, attempts, next_attempt_at, last_error, created_at, delivered_at,
        trace_parent
        """

    /// Claims up to `limit` due entries: each gets one more attempt and a
    /// lease (`next_attempt_at` moved to `now + lease`), so a dispatcher that
    /// dies mid-delivery leaves them to be retried. A room's entry is claimed
    /// only when no earlier entry of that room in its lane is still pending:
    /// per-room order, per destination.
    /// Which entries a claim takes: the IM and live effects (lane ''), the
    /// webhook deliveries, or both; never one of `busy` destinations
    /// (`tenant \u{1f} lane`) or `busyTenants`, which have as many in flight
    /// as they may.
    public struct Claim: Sendable {
        public var webhooks: Bool?
        public var busy: [String] = []
        public var busyTenants: [TenantID] = []

        public init(webhooks: Bool? = nil, busy: [String] = [], busyTenants: [TenantID] = []) {
            self.webhooks = webhooks
            self.busy = busy
            self.busyTenants = busyTenants
        }

        public static let everything = Claim()

        static func destination(_ tenantID: TenantID, lane: String) -> String { tenantID + "\u{1f}" + lane }
    }

    public func claimDue(now: Date, lease: TimeInterval, limit: Int, tenants scope: [TenantID]?, claim: Claim = .everything) async throws -> [OutboxEntry] {
        let rows = try await database.query("""
            -- cross-tenant: one dispatcher claims due entries of every tenant it serves
            WITH due AS (
                SELECT o.tenant_id, o.outbox_id FROM outbox o
                WHERE o.status = 'pending' AND o.next_attempt_at <= \(now)
                  AND (\(scope)::text[] IS NULL OR o.tenant_id = ANY(\(scope)::text[]))
                  AND (\(claim.webhooks)::boolean IS NULL OR (o.lane <> '') = \(claim.webhooks)::boolean)
                  AND NOT (o.tenant_id || chr(31) || o.lane = ANY(\(claim.busy)::text[]))
                  AND NOT (o.tenant_id = ANY(\(claim.busyTenants)::text[]))
                  AND (o.room_id IS NULL OR NOT EXISTS (
                        SELECT 1 FROM outbox e
                        WHERE e.tenant_id = o.tenant_id AND e.room_id = o.room_id AND e.lane = o.lane
                          AND e.status = 'pending' AND e.outbox_id < o.outbox_id))
                ORDER BY o.next_attempt_at, o.outbox_id
                LIMIT \(limit)
                FOR UPDATE SKIP LOCKED
            )
            , claimed AS (
                UPDATE outbox o SET attempts = o.attempts + 1, next_attempt_at = \(now.addingTimeInterval(lease)),
                                    claimed_until = \(now.addingTimeInterval(lease))
                FROM due WHERE o.tenant_id = due.tenant_id AND o.outbox_id = due.outbox_id
                RETURNING o.*
            ), parked AS (
                -- The entries behind a claimed head wait for it (its delivery
                -- makes the next one due, `record`), or for its lease if its
                -- dispatcher dies: due, they were read and passed over by
                -- every claim of every tenant (a hot room's 2,000 join
                -- messages: 4.4 ms a claim, ops/bench figure 7).
                UPDATE outbox b SET next_attempt_at = c.claimed_until
                FROM claimed c
                WHERE b.tenant_id = c.tenant_id AND b.room_id = c.room_id AND b.lane = c.lane
                  AND b.status = 'pending' AND b.outbox_id > c.outbox_id AND b.next_attempt_at < c.claimed_until
            )
            SELECT \(unescaped: Self.columns) FROM claimed
            """)
        return try Self.decodeAll(rows)
    }

    /// Writes side effects in the caller's transaction: they are delivered
    /// only if it commits, and in order per room within each lane. A plugin's
    /// `.event` is recorded on the room's timeline here and becomes one
    /// webhook entry per endpoint in `webhooks` that wants it.
    /// Returns the ids of the entries written.
    @discardableResult
    public static func enqueue(_ messages: [OutboxMessage], tenantID: TenantID, webhooks: [WebhookEndpoint], now: Date,
                               on connection: PostgresConnection, logger: Logger) async throws -> [Int64] {
        var rows = OutboxRows()
        rows.add(messages, tenantID: tenantID, webhooks: webhooks, now: now)
        return try await write(rows, now: now, on: connection, logger: logger)
    }

    /// `rows`' timeline rows and deliveries, in one statement (one round trip).
    @discardableResult
    static func write(_ rows: OutboxRows, now: Date, on connection: PostgresConnection, logger: Logger) async throws -> [Int64] {
        guard !rows.isEmpty else {
            try await rows.writeTimeline(at: now, on: connection, logger: logger)
            return []
        }
        // The timeline rows and the deliveries in one statement (one round trip).
        let ids = try await connection.run(rows.hasTimeline ? """
            WITH timeline AS (\(timelineInsert: rows, at: now))
            \(outboxInsert: rows, at: now) RETURNING outbox_id
            """ : "\(outboxInsert: rows, at: now) RETURNING outbox_id", logger: logger).collect()
        return try ids.decode(Int64.self)
    }

    /// One delivery attempt as the dispatcher saw it.
    public struct Attempt: Sendable {
        public var at: Date
        public var statusCode: Int?
        public var latencyMS: Int
        public var error: String?

        public init(at: Date, statusCode: Int?, latencyMS: Int, error: String?) {
            self.at = at
            self.statusCode = statusCode
            self.latencyMS = latencyMS
            self.error = error
        }
    }

    /// What one attempt came to: the entry's status after it, and the attempt's row.
    enum Outcome: String {
        case delivered, retry, dead
    }

    /// The entry's new state and the attempt's row, in one statement. Only
    /// an entry still pending is changed (one that an operator retried or
    /// another dispatcher finished meanwhile keeps its state); returns a row
    /// when it was.
    private static func record(_ outcome: Outcome, of entry: OutboxEntry, attempt: Attempt, retryAt: Date?) -> PostgresQuery {
        let status = outcome == .retry ? "pending" : outcome.rawValue
        let error = outcome == .delivered ? nil : (attempt.error ?? "failed")
        return """
            WITH done AS (
                UPDATE outbox SET status = \(status), next_attempt_at = coalesce(\(retryAt), next_attempt_at),
                       delivered_at = CASE WHEN \(status) = 'delivered' THEN \(attempt.at) END, last_error = \(error), claimed_until = NULL
                WHERE tenant_id = \(entry.tenantID) AND outbox_id = \(entry.id) AND status = 'pending'
                RETURNING tenant_id, outbox_id, attempts, room_id, lane
            ), behind AS (
                -- A retry's lane waits with it (only a lane's first entry may
                -- go): due, the entries behind it were read and passed over by
                -- every claim of every tenant until it went (188 ms a claim
                -- with 20,000 of them behind 10 failing rooms).
                UPDATE outbox b SET next_attempt_at = \(retryAt)
                FROM done
                WHERE \(retryAt)::timestamptz IS NOT NULL
                  AND b.tenant_id = done.tenant_id AND b.room_id = done.room_id AND b.lane = done.lane
                  AND b.status = 'pending' AND b.outbox_id > done.outbox_id AND b.next_attempt_at < \(retryAt)
            ), next AS (
                -- Delivered or dead: the lane's next entry, which waited for
                -- this one in flight (`claimDue`), is due now.
                UPDATE outbox n SET next_attempt_at = \(attempt.at)
                FROM (SELECT b.tenant_id, b.outbox_id FROM outbox b, done
                      WHERE \(retryAt)::timestamptz IS NULL
                        AND b.tenant_id = done.tenant_id AND b.room_id = done.room_id AND b.lane = done.lane
                        AND b.status = 'pending' AND b.outbox_id > done.outbox_id
                      ORDER BY b.outbox_id LIMIT 1) x
                WHERE n.tenant_id = x.tenant_id AND n.outbox_id = x.outbox_id AND n.next_attempt_at > \(attempt.at)
                  AND (n.claimed_until IS NULL OR n.claimed_until <= \(attempt.at))
            )
            INSERT INTO outbox_attempts (tenant_id, outbox_id, attempt, at, outcome, status_code, latency_ms, error)
            SELECT tenant_id, outbox_id, attempts, \(attempt.at), \(outcome.rawValue), \(attempt.statusCode), \(attempt.latencyMS), \(attempt.error) FROM done
            RETURNING 1
            """
    }

    public func markDelivered(_ entry: OutboxEntry, attempt: Attempt) async throws {
        try await database.query(Self.record(.delivered, of: entry, attempt: attempt, retryAt: nil))
    }

    /// Another try at `retryAt`, or, without one, dead: then, in the same
    /// transaction, `outbox.dead` for the endpoints in `deadLetterWebhooks`.
    public func markFailed(_ entry: OutboxEntry, attempt: Attempt, retryAt: Date?, deadLetterWebhooks: [WebhookEndpoint] = []) async throws {
        if let retryAt {
            try await database.query(Self.record(.retry, of: entry, attempt: attempt, retryAt: retryAt))
            return
        }
        try await database.transaction { connection in
            let rows = try await connection.run(Self.record(.dead, of: entry, attempt: attempt, retryAt: nil), logger: database.logger).collect()
            // A dead `outbox.dead` announces nothing further: no loop through a receiver that is down.
            if case .webhook(let delivery) = entry.effect, delivery.type == WebhookEventTypes.outboxDead { return }
            guard !rows.isEmpty else { return }
            let notice = EventNotice(tenantID: entry.tenantID, roomID: nil, type: WebhookEventTypes.outboxDead, at: attempt.at, data: [
                "outboxId": .number(Double(entry.id)), "kind": .string(entry.kind), "attempts": .number(Double(entry.attempts)),
                "error": .string(String((attempt.error ?? "failed").prefix(500))),
                "endpoint": entry.webhookEndpoint.map(JSONValue.string) ?? .null,
            ])
            try await Self.enqueue(notice.deliveries(to: deadLetterWebhooks), tenantID: entry.tenantID, webhooks: deadLetterWebhooks,
                                   now: attempt.at, on: connection, logger: database.logger)
        }
    }

    /// Makes a tenant's entries of `kind` that are backing off after failures
    /// due now, leaving entries in flight (leased) alone; returns how many.
    /// Called when that kind's provider answers again after failing, so a
    /// recovered vendor gets its backlog at once, not after each entry's
    /// backoff (up to `maxBackoff`) runs out.
    @discardableResult
    public func wakeBackedOff(_ tenantID: TenantID, kind: String, lane: String = "", now: Date, limit: Int = 1_000_000) async throws -> Int {
        let rows = try await database.query("""
            UPDATE outbox SET next_attempt_at = \(now)
            WHERE ctid IN (
                SELECT ctid FROM outbox
                WHERE tenant_id = \(tenantID) AND kind = \(kind) AND lane = \(lane) AND status = 'pending'
                  AND next_attempt_at > \(now) AND (claimed_until IS NULL OR claimed_until <= \(now))
                ORDER BY next_attempt_at, outbox_id LIMIT \(limit) FOR UPDATE SKIP LOCKED)
            RETURNING outbox_id
            """)
        if !rows.isEmpty { try await notifyDue() }
        return rows.count
    }

    /// Tells every instance's dispatcher that entries became due without an
    /// insert (the insert trigger tells it of new ones): a retry, a replay,
    /// a recovered destination's backlog. Rare, so a statement of its own.
    func notifyDue() async throws {
        try await database.query("SELECT pg_notify(\(OutboxWakeFollower.channel), '')")
    }

    /// Newest first.
    /// The lane of the entries bound for the operator's endpoint (its
    /// `outbox.dead` copies): the operator's, not the tenant's (#41).
    public static let operatorLane = "webhook:" + WebhookEndpoint.operatorName

    /// `operatorsToo` false (a tenant's admin): without the entries bound for
    /// the operator's endpoint.
    public func list(_ tenantID: TenantID, status: OutboxEntry.Status?, kind: String? = nil, before: Int64?, limit: Int,
                     operatorsToo: Bool = true) async throws -> [OutboxEntry] {
        let rows = try await database.query("""
            SELECT \(unescaped: Self.columns) FROM outbox
            WHERE tenant_id = \(tenantID) AND (\(operatorsToo) OR lane <> \(Self.operatorLane))
              AND (\(status?.rawValue)::text IS NULL OR status = \(status?.rawValue))
              AND (\(kind)::text IS NULL OR kind = \(kind))
              AND (\(before)::bigint IS NULL OR outbox_id < \(before))
            ORDER BY outbox_id DESC LIMIT \(limit)
            """)
        return try Self.decodeAll(rows)
    }

    public func entry(_ tenantID: TenantID, _ id: Int64) async throws -> OutboxEntry? {
        let rows = try await database.query("SELECT \(unescaped: Self.columns) FROM outbox WHERE tenant_id = \(tenantID) AND outbox_id = \(id)")
        return try Self.decodeAll(rows).first
    }

    /// A dead (or backing-off) entry gets a fresh set of attempts, due now.
    /// Returns nil when there is no such entry, or it was delivered, or it is
    /// being delivered right now (making it due would deliver it twice).
    public func retry(_ tenantID: TenantID, _ id: Int64, now: Date, audited: AuditStamp? = nil, operatorsToo: Bool = true) async throws -> OutboxEntry? {
        let entry = try await database.transaction { connection in
            let rows = try await connection.run("""
                UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = \(now)
                WHERE tenant_id = \(tenantID) AND outbox_id = \(id) AND status <> 'delivered'
                  AND (\(operatorsToo) OR lane <> \(Self.operatorLane))
                  AND (claimed_until IS NULL OR claimed_until <= \(now))
                RETURNING \(unescaped: Self.columns)
                """, logger: database.logger).collect()
            guard let entry = try Self.decodeAll(rows).first else { return nil as OutboxEntry? }
            try await AuditLog.append(AuditAct(tenantID: tenantID, action: .outboxRetry, target: "outbox:\(id)",
                                               detail: ["kind": entry.kind]),
                                      audited, now: now, on: connection, logger: database.logger)
            return entry
        }
        if entry != nil { try await notifyDue() }
        return entry
    }

    public func counts(_ tenantID: TenantID?) async throws -> [(tenantID: TenantID, status: String, count: Int)] {
        let rows = try await database.query("""
            SELECT tenant_id, status, count(*)::int FROM outbox
            WHERE (\(tenantID)::text IS NULL OR tenant_id = \(tenantID))
            GROUP BY tenant_id, status ORDER BY 1, 2
            """)
        var counts: [(TenantID, String, Int)] = []
        for row in try rows.decode((String, String, Int).self) { counts.append(row) }
        return counts
    }

    static func decodeAll(_ rows: [PostgresRow]) throws -> [OutboxEntry] {
        var entries: [OutboxEntry] = []
        for row in rows {
            let cells = row.makeRandomAccess()
            let kind = try cells["kind"].decode(String.self)
            let payload = try cells["payload"].decode(String.self)
            entries.append(OutboxEntry(
                tenantID: try cells["tenant_id"].decode(String.self),
                id: try cells["outbox_id"].decode(Int64.self),
                roomID: try cells["room_id"].decode(Int64?.self),
                kind: kind,
                payload: payload,
                effect: OutboxEffect.decode(kind: kind, payload: payload),
                status: OutboxEntry.Status(rawValue: try cells["status"].decode(String.self)) ?? .pending,
                attempts: try cells["attempts"].decode(Int.self),
                nextAttemptAt: try cells["next_attempt_at"].decode(Date.self),
                lastError: try cells["last_error"].decode(String?.self),
                createdAt: try cells["created_at"].decode(Date.self),
                deliveredAt: try cells["delivered_at"].decode(Date?.self),
                traceParent: try cells["trace_parent"].decode(String?.self)))
        }
        return entries
    }
}
