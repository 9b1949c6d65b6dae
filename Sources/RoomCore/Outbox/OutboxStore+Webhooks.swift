import Foundation
import PostgresNIO

/// The admin API's view of delivery attempts and its replays.
extension OutboxStore {
    public struct AttemptRow: Sendable, Equatable {
        public var attempt: Int
        public var at: Date
        public var outcome: String
        public var statusCode: Int?
        public var latencyMS: Int
        public var error: String?
    }

    /// Newest first.
    public func attempts(_ tenantID: TenantID, _ id: Int64, limit: Int) async throws -> [AttemptRow] {
        let rows = try await database.query("""
            SELECT n::int, at, outcome, status_code, latency_ms, error FROM (
                -- Numbered through the entry's whole history: a retry or a
                -- replay starts a fresh budget (attempts = 0), not a new count.
                SELECT row_number() OVER (ORDER BY attempt_id) AS n, attempt_id, at, outcome, status_code, latency_ms, error
                FROM outbox_attempts WHERE tenant_id = \(tenantID) AND outbox_id = \(id)) numbered
            ORDER BY attempt_id DESC LIMIT \(limit)
            """)
        return try rows.decode((Int, Date, String, Int?, Int, String?).self).map {
            AttemptRow(attempt: $0.0, at: $0.1, outcome: $0.2, statusCode: $0.3, latencyMS: $0.4, error: $0.5)
        }
    }

    /// Every dead entry of the tenant written since `since` (of one webhook
    /// endpoint, when named) gets a fresh set of attempts, due now; in
    /// outbox order, so each room's order holds again. Returns how many.
    public func replayDead(_ tenantID: TenantID, since: Date, endpoint: String?, now: Date, audited: AuditStamp? = nil) async throws -> Int {
        let lane = endpoint.map { "webhook:" + $0 }
        let replayed = try await database.transaction { connection in
            let rows = try await connection.run("""
                UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = \(now), claimed_until = NULL
                WHERE tenant_id = \(tenantID) AND status = 'dead' AND created_at >= \(since)
                  AND (\(lane)::text IS NULL OR lane = \(lane))
                RETURNING outbox_id
                """, logger: database.logger).collect()
            var detail = ["since": ISO8601DateFormatter().string(from: since)]
            if let endpoint { detail["endpoint"] = endpoint }
            try await AuditLog.append(AuditAct(tenantID: tenantID, action: .outboxReplay, target: endpoint.map { "webhook:\($0)" } ?? "outbox",
                                               outcome: "\(rows.count) replayed", detail: detail),
                                      audited, now: now, on: connection, logger: database.logger)
            return rows.count
        }
        if replayed > 0 { try await notifyDue() }
        return replayed
    }

    /// Queues a `webhook.test` event for one endpoint; returns the entry.
    public func enqueueTest(_ tenant: Tenant, endpoint: WebhookEndpoint, now: Date, audited: AuditStamp? = nil) async throws -> OutboxEntry? {
        let notice = EventNotice(tenantID: tenant.id, roomID: nil, type: WebhookEventTypes.test, at: now,
                                 data: ["endpoint": .string(endpoint.name), "message": .string("a test event sent from the admin API")])
        let ids = try await database.transaction { connection in
            let ids = try await Self.enqueue(notice.deliveries(to: [endpoint]), tenantID: tenant.id, webhooks: [endpoint], now: now,
                                             on: connection, logger: database.logger)
            try await AuditLog.append(AuditAct(tenantID: tenant.id, action: .webhookTest, target: "webhook:\(endpoint.name)",
                                               detail: ["outbox": ids.first.map(String.init) ?? ""]),
                                      audited, now: now, on: connection, logger: database.logger)
            return ids
        }
        guard let id = ids.first else { return nil }
        return try await entry(tenant.id, id)
    }
}
