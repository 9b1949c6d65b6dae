import Foundation

extension AccountStore {
    /// Ends everything an account holds: its sessions now, and its IM tokens
    /// and sockets through the outbox, queued in the same transaction so a
    /// vendor that is down gets the revocation when it is back. Returns how
    /// many sessions ended. An admin's revocation and SealMic's logout use it.
    @discardableResult
    public func revokeAccess(_ tenantID: TenantID, accid: AccountID, outboxSignal: OutboxSignal) async throws -> Int {
        let now = clock.now()
        let ended = try await database.transaction { connection in
            let rows = try await connection.run("""
                UPDATE sessions SET revoked_at = \(now)
                WHERE tenant_id = \(tenantID) AND accid = \(accid) AND revoked_at IS NULL RETURNING 1
                """, logger: database.logger)
            var ended = 0
            for try await _ in rows { ended += 1 }
            try await OutboxStore.enqueue([.im(.revokeTokens(accid: accid), roomID: nil)], tenantID: tenantID, webhooks: [], now: now,
                                          on: connection, logger: database.logger)
            return ended
        }
        outboxSignal.wake()
        return ended
    }
}
