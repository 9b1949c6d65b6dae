import Foundation
import PostgresNIO

/// Moves an open room's expiry inside a plugin hook's transaction (a live
/// room idles towards an early expiry until its stream starts), with an
/// audit event. The sweeper then expires it as any other room.
public enum RoomDeadline {
    /// `expiry` is kept between now and the longest TTL from now: a date a
    /// plugin derived from input can be anything, and one PostgreSQL's
    /// timestamp cannot hold traps the process when it is encoded (#27).
    public static func set<Settings>(_ roomID: RoomID, to expiry: Date, reason: String, hook: HookContext<Settings>) async throws {
        let expiry = StorableDate.clamped(expiry, from: hook.now)
        let rows = try await hook.connection.run("""
            UPDATE rooms SET expires_at = \(expiry), version = version + 1
            WHERE tenant_id = \(hook.tenantID) AND room_id = \(roomID) AND state = 'open' AND expires_at <> \(expiry)
            RETURNING room_id
            """, logger: hook.logger).collect()
        guard !rows.isEmpty else { return }
        try await hook.connection.run("""
            INSERT INTO room_events (tenant_id, room_id, at, kind, actor, detail)
            VALUES (\(hook.tenantID), \(roomID), \(hook.now), 'deadline', \(hook.actor.description),
                    jsonb_build_object('expiresAt', \(ISO8601DateFormatter().string(from: expiry)), 'reason', \(reason)))
            """, logger: hook.logger)
    }
}
