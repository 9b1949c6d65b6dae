import Foundation
import Logging
import PostgresNIO

extension AccountStore {
    /// Ends everything an account holds: its sessions now, and its IM tokens
    /// and sockets through the outbox, queued in the same transaction so a
    /// vendor that is down gets the revocation when it is back. Returns how
    /// many sessions ended. An admin's revocation, SealMic's logout and a
    /// tenant ban use it.
    @discardableResult
    /// `audited`: an admin's revoke writes its audit row in the same transaction.
    public func revokeAccess(_ tenantID: TenantID, accid: AccountID, audited: AuditStamp? = nil) async throws -> Int {
        let now = clock.now()
        return try await database.transaction { connection in
            let ended = try await Self.revokeAccess(tenantID, accid: accid, now: now, on: connection, logger: database.logger)
            try await AuditLog.append(AuditAct(tenantID: tenantID, action: .accountRevoke, target: "account:\(accid)",
                                               outcome: "\(ended) sessions"), audited, now: now, on: connection, logger: database.logger)
            return ended
        }
    }

    /// The same, on a transaction the caller holds.
    static func revokeAccess(_ tenantID: TenantID, accid: AccountID, now: Date, on connection: PostgresConnection, logger: Logger) async throws -> Int {
        let rows = try await connection.run("""
            UPDATE sessions SET revoked_at = \(now)
            WHERE tenant_id = \(tenantID) AND accid = \(accid) AND revoked_at IS NULL RETURNING 1
            """, logger: logger)
        var ended = 0
        for try await _ in rows { ended += 1 }
        try await OutboxStore.enqueue([.im(.revokeTokens(accid: accid), roomID: nil)], tenantID: tenantID, webhooks: [], now: now,
                                      on: connection, logger: logger)
        return ended
    }
}
