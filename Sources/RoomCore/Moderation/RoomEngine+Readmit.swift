import Foundation
import PostgresNIO

/// Room bans that end on their own let the account back into the room's
/// vendor chatroom (#29): a ban with an end asks the provider to keep the
/// account out (`ChatroomKeepOut.minutes`), and NetEase's blacklist has no
/// end, so the engine readmits it when the ban ends, through the outbox like
/// every provider call. The expiry sweeper runs this with the rooms' expiry.
extension RoomEngine {
    /// Readmits up to `limit` accounts whose room ban ended, each once
    /// (claimed with `SKIP LOCKED`, stamped `readmitted_at` in the same
    /// transaction as its outbox entry). Returns how many bans it handled.
    public func readmitDue(limit: Int, tenants scope: TenantScope = nil) async throws -> Int {
        let now = clock.now()
        return try await commit(.transaction) { writes in
            let connection = writes.connection
            let ended = try await connection.run("""
                -- cross-tenant: the sweeper readmits the ended bans of the tenants it serves
                UPDATE bans SET readmitted_at = \(now) WHERE ctid IN (
                    SELECT ctid FROM bans
                    WHERE kind = 'ban' AND room_id IS NOT NULL AND lifted_at IS NULL AND readmitted_at IS NULL
                      AND expires_at IS NOT NULL AND expires_at <= \(now) AND (\(scope == nil) OR tenant_id = ANY(\(scope ?? [])))
                    ORDER BY expires_at LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                RETURNING tenant_id, room_id, accid
                """, logger: database.logger).collect()
            let bans = try ended.map { try $0.decode((TenantID, RoomID, AccountID).self) }
            guard !bans.isEmpty else { return 0 }
            for (tenantID, group) in Dictionary(grouping: bans, by: \.0) {
                let rooms = try await connection.run("""
                    SELECT room_id, im_chatroom_id, owner FROM rooms
                    WHERE tenant_id = \(tenantID) AND room_id = ANY(\(group.map(\.1))) AND state = 'open' AND im_chatroom_id IS NOT NULL
                    """, logger: database.logger).collect()
                let open = Dictionary(try rooms.map { try $0.decode((RoomID, String, AccountID).self) }.map { ($0.0, ($0.1, $0.2)) },
                                      uniquingKeysWith: { first, _ in first })
                let messages: [OutboxMessage] = group.compactMap { _, roomID, account in
                    guard let (chatroom, owner) = open[roomID] else { return nil }
                    return .im(.readmitToChatroom(chatroom: chatroom, accid: account, operator: owner), roomID: roomID)
                }
                try await writes.enqueue(messages, tenantID: tenantID, now: now)
            }
            return bans.count
        }
    }
}
