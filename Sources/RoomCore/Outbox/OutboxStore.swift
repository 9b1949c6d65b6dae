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
        tenant_id, outbox_id, room_id, kind, payload::text AS payload, status, attempts, next_attempt_at, last_error, created_at, delivered_at
        """

    /// Claims up to `limit` due entries: each gets one more attempt and a
    /// lease (`next_attempt_at` moved to `now + lease`), so a dispatcher that
    /// dies mid-delivery leaves them to be retried. A room's entry is claimed
    /// only when no earlier entry of that room is still pending: per-room order.
    public func claimDue(now: Date, lease: TimeInterval, limit: Int, tenants scope: [TenantID]?) async throws -> [OutboxEntry] {
        let rows = try await database.query("""
            -- cross-tenant: one dispatcher claims due entries of every tenant it serves
            WITH due AS (
                SELECT o.tenant_id, o.outbox_id FROM outbox o
                WHERE o.status = 'pending' AND o.next_attempt_at <= \(now)
                  AND (\(scope)::text[] IS NULL OR o.tenant_id = ANY(\(scope)::text[]))
                  AND (o.room_id IS NULL OR NOT EXISTS (
                        SELECT 1 FROM outbox e
                        WHERE e.tenant_id = o.tenant_id AND e.room_id = o.room_id
                          AND e.status = 'pending' AND e.outbox_id < o.outbox_id))
                ORDER BY o.next_attempt_at, o.outbox_id
                LIMIT \(limit)
                FOR UPDATE SKIP LOCKED
            )
            UPDATE outbox o SET attempts = o.attempts + 1, next_attempt_at = \(now.addingTimeInterval(lease)),
                                claimed_until = \(now.addingTimeInterval(lease))
            FROM due WHERE o.tenant_id = due.tenant_id AND o.outbox_id = due.outbox_id
            RETURNING \(unescaped: Self.columns.split(separator: ",").map { "o." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", "))
            """)
        return try Self.decodeAll(rows)
    }

    /// Writes side effects in the caller's transaction: they are delivered
    /// only if it commits, and in order per room.
    public static func enqueue(_ messages: [OutboxMessage], tenantID: TenantID, now: Date, on connection: PostgresConnection, logger: Logger) async throws {
        guard !messages.isEmpty else { return }
        try await connection.run("""
            INSERT INTO outbox (tenant_id, room_id, kind, payload, next_attempt_at, created_at)
            SELECT \(tenantID), NULLIF(r, 0), k, p::jsonb, \(now), \(now)
            FROM unnest(\(messages.map { $0.roomID ?? 0 })::bigint[], \(messages.map(\.effect.kind))::text[], \(messages.map(\.effect.payload))::text[])
                 WITH ORDINALITY AS u(r, k, p, n)
            ORDER BY n
            """, logger: logger)
    }

    public func markDelivered(_ entry: OutboxEntry, at now: Date) async throws {
        try await database.query("""
            UPDATE outbox SET status = 'delivered', delivered_at = \(now), last_error = NULL, claimed_until = NULL
            WHERE tenant_id = \(entry.tenantID) AND outbox_id = \(entry.id) AND status = 'pending'
            """)
    }

    public func markFailed(_ entry: OutboxEntry, error: String, retryAt: Date?) async throws {
        if let retryAt {
            try await database.query("""
                UPDATE outbox SET next_attempt_at = \(retryAt), last_error = \(error), claimed_until = NULL
                WHERE tenant_id = \(entry.tenantID) AND outbox_id = \(entry.id) AND status = 'pending'
                """)
        } else {
            try await database.query("""
                UPDATE outbox SET status = 'dead', last_error = \(error), claimed_until = NULL
                WHERE tenant_id = \(entry.tenantID) AND outbox_id = \(entry.id) AND status = 'pending'
                """)
        }
    }

    /// Makes a tenant's entries of `kind` that are backing off after failures
    /// due now, leaving entries in flight (leased) alone; returns how many.
    /// Called when that kind's provider answers again after failing, so a
    /// recovered vendor gets its backlog at once, not after each entry's
    /// backoff (up to `maxBackoff`) runs out.
    @discardableResult
    public func wakeBackedOff(_ tenantID: TenantID, kind: String, now: Date) async throws -> Int {
        let rows = try await database.query("""
            UPDATE outbox SET next_attempt_at = \(now)
            WHERE tenant_id = \(tenantID) AND kind = \(kind) AND status = 'pending'
              AND next_attempt_at > \(now) AND (claimed_until IS NULL OR claimed_until <= \(now))
            RETURNING outbox_id
            """)
        return rows.count
    }

    /// Newest first.
    public func list(_ tenantID: TenantID, status: OutboxEntry.Status?, before: Int64?, limit: Int) async throws -> [OutboxEntry] {
        let rows = try await database.query("""
            SELECT \(unescaped: Self.columns) FROM outbox
            WHERE tenant_id = \(tenantID)
              AND (\(status?.rawValue)::text IS NULL OR status = \(status?.rawValue))
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
    public func retry(_ tenantID: TenantID, _ id: Int64, now: Date) async throws -> OutboxEntry? {
        let rows = try await database.query("""
            UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = \(now)
            WHERE tenant_id = \(tenantID) AND outbox_id = \(id) AND status <> 'delivered'
              AND (claimed_until IS NULL OR claimed_until <= \(now))
            RETURNING \(unescaped: Self.columns)
            """)
        return try Self.decodeAll(rows).first
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
                deliveredAt: try cells["delivered_at"].decode(Date?.self)))
        }
        return entries
    }
}
