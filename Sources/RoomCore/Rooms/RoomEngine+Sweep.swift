import Foundation
import PostgresNIO

/// Batch transitions for the expiry sweeper: many rooms per transaction,
/// claimed with `FOR UPDATE SKIP LOCKED` so several sweepers on one database
/// share the work and never close a room twice.
extension RoomEngine {
    /// Which tenants a sweeper serves; nil serves all.
    public typealias TenantScope = [TenantID]?

    /// Closes up to `limit` rooms past their TTL. Returns how many closed.
    public func expireDue(limit: Int, tenants scope: TenantScope = nil) async throws -> Int {
        let now = clock.now()
        return try await database.transaction { connection in
            let rows = try await connection.query("""
                WITH due AS (
                    SELECT tenant_id, room_id FROM rooms
                    WHERE state = 'open' AND expires_at <= \(now)
                      AND (\(scope)::text[] IS NULL OR tenant_id = ANY(\(scope)::text[]))
                    ORDER BY expires_at
                    LIMIT \(limit)
                    FOR UPDATE SKIP LOCKED
                )
                UPDATE rooms r SET state = 'closed', close_reason = 'expired', closed_at = \(now), version = r.version + 1
                FROM due WHERE r.tenant_id = due.tenant_id AND r.room_id = due.room_id
                RETURNING \(unescaped: RoomRows.columns.split(separator: ",").map { "r." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", "))
                """, logger: database.logger)
            let closed = try await RoomRows.all(rows)
            try await finishClosing(closed, reason: .expired, connection: connection, now: now)
            return closed.count
        }
    }

    /// Handles up to `limit` reservations past their deadline, unclaimed:
    /// released, or closed with reason `lapsed`, as each room asked.
    public func lapseDue(limit: Int, tenants scope: TenantScope = nil) async throws -> Int {
        let now = clock.now()
        return try await database.transaction { connection in
            let rows = try await connection.query("""
                WITH due AS (
                    SELECT tenant_id, room_id FROM rooms
                    WHERE state = 'open' AND reserved_until IS NOT NULL AND reservation_claimed_at IS NULL
                      AND reserved_until <= \(now)
                      AND (\(scope)::text[] IS NULL OR tenant_id = ANY(\(scope)::text[]))
                    ORDER BY reserved_until
                    LIMIT \(limit)
                    FOR UPDATE SKIP LOCKED
                )
                UPDATE rooms r SET
                    state        = CASE WHEN r.lapse_action = 'close' THEN 'closed' ELSE r.state END,
                    close_reason = CASE WHEN r.lapse_action = 'close' THEN 'lapsed' ELSE r.close_reason END,
                    closed_at    = CASE WHEN r.lapse_action = 'close' THEN \(now) ELSE r.closed_at END,
                    reserved_for   = CASE WHEN r.lapse_action = 'release' THEN NULL ELSE r.reserved_for END,
                    reserved_until = CASE WHEN r.lapse_action = 'release' THEN NULL ELSE r.reserved_until END,
                    version = r.version + 1
                FROM due WHERE r.tenant_id = due.tenant_id AND r.room_id = due.room_id
                RETURNING \(unescaped: RoomRows.columns.split(separator: ",").map { "r." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", "))
                """, logger: database.logger)
            let rooms = try await RoomRows.all(rows)
            let released = rooms.filter(\.isOpen)
            let closed = rooms.filter { !$0.isOpen }
            let writes = RoomWrites(connection: connection, logger: database.logger)
            try await writes.events(released, kind: "reservation-lapsed", actor: .system, detail: ["action": "release"], at: now)
            try await finishClosing(closed, reason: .lapsed, connection: connection, now: now)
            if !released.isEmpty { Self.transitions.increment(kind: "released", plugin: "sweeper", by: released.count) }
            return rooms.count
        }
    }

    /// Audit events, plugin hooks (per tenant and plugin) and their outbox
    /// entries for rooms this transaction just closed.
    private func finishClosing(_ closed: [Room], reason: CloseReason, connection: PostgresConnection, now: Date) async throws {
        guard !closed.isEmpty else { return }
        let writes = RoomWrites(connection: connection, logger: database.logger)
        try await writes.events(closed, kind: "closed", actor: .system, detail: ["reason": reason.rawValue], at: now)
        let groups = Dictionary(grouping: closed) { GroupKey(tenantID: $0.tenantID, pluginID: $0.pluginID) }
        for (key, rooms) in groups.sorted(by: { ($0.key.tenantID, $0.key.pluginID) < ($1.key.tenantID, $1.key.pluginID) }) {
            let messages: [OutboxMessage]
            do {
                let (plugin, settings) = try pluginAndSettings(key.tenantID, key.pluginID)
                let hook = AnyRoomPlugin.ErasedHook(connection: connection, tenantID: key.tenantID, settings: settings, now: now, actor: .system, logger: database.logger)
                messages = try await plugin.closing(rooms, reason, hook)
            } catch RoomError.pluginNotEnabled {
                // A plugin this build no longer has: the rooms still close.
                database.logger.warning("closing rooms of an unknown plugin without its hook", metadata: ["plugin": "\(key.pluginID)"])
                messages = []
            }
            try await writes.enqueue(messages, tenantID: key.tenantID, now: now)
            Self.transitions.increment(kind: reason.rawValue, plugin: key.pluginID, by: rooms.count)
        }
    }

    private struct GroupKey: Hashable {
        let tenantID: TenantID
        let pluginID: String
    }
}
