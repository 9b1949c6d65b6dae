import Foundation
import Logging
import PostgresNIO

/// Moves an open room's expiry inside a plugin hook's transaction (a live
/// room idles towards an early expiry until its stream starts), with an
/// audit event. The sweeper then expires it as any other room.
public enum RoomDeadline {
    /// `expiry` is kept between now and the longest TTL from now: a date a
    /// plugin derived from input can be anything, and one PostgreSQL's
    /// timestamp cannot hold traps the process when it is encoded (#27).
    public static func set<Settings>(_ roomID: RoomID, to expiry: Date, reason: String, hook: HookContext<Settings>) async throws {
        try await hook.rooms.setDeadline(roomID, StorableDate.clamped(expiry, from: hook.now), reason)
    }

    /// The engine's side: on the hook's transaction, with an audit event.
    static func write(_ roomID: RoomID, to expiry: Date, reason: String, tenantID: TenantID, now: Date, actor: Actor,
                      connection: PostgresConnection, logger: Logger) async throws {
        let rows = try await connection.run("""
            UPDATE rooms SET expires_at = \(expiry), version = version + 1
            WHERE tenant_id = \(tenantID) AND room_id = \(roomID) AND state = 'open' AND expires_at <> \(expiry)
            RETURNING room_id
            """, logger: logger).collect()
        guard !rows.isEmpty else { return }
        try await connection.run("""
            INSERT INTO room_events (tenant_id, room_id, at, kind, actor, detail)
            VALUES (\(tenantID), \(roomID), \(now), 'deadline', \(actor.description),
                    jsonb_build_object('expiresAt', \(ISO8601DateFormatter().string(from: expiry)), 'reason', \(reason)))
            """, logger: logger)
    }
}
