import Foundation
import Logging
import PostgresNIO

/// The engine's side of `RoomDeadline.set`.
extension RoomWrites {
    /// On the hook's transaction, with an audit event.
    func setDeadline(_ roomID: RoomID, to expiry: Date, reason: String, tenantID: TenantID, now: Date, actor: Actor) async throws {
        let rows = try await connection.run("""
            UPDATE rooms SET expires_at = \(expiry), version = version + 1
            WHERE tenant_id = \(tenantID) AND room_id = \(roomID) AND state = 'open' AND expires_at <> \(expiry)
            RETURNING \(unescaped: RoomRows.columns)
            """, logger: logger).collect()
        guard let room = try rows.first.map(RoomRows.decode) else { return }
        // A list leaves out rooms past their expiry.
        ledger.touch([room], listed: true)
        try await connection.run("""
            INSERT INTO room_events (tenant_id, room_id, at, kind, actor, detail)
            VALUES (\(tenantID), \(roomID), \(now), \(RoomEventKind.deadline.stored), \(actor.description),
                    jsonb_build_object('expiresAt', \(ISO8601DateFormatter().string(from: expiry)), 'reason', \(reason)))
            """, logger: logger)
    }
}
