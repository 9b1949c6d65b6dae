import Foundation

/// Accounts whose id the client chooses (music-lesson's `/user/reg`) or the
/// server generates with a password (its teachers).
extension AccountStore {
    /// Creates the account; false when the id is taken, now or once: a
    /// retired guest's id is never registered again either (#41: whoever
    /// registered it inherited what still named the purged guest).
    /// `quota`: the tenant's `maxAccounts` (`AccountQuota`).
    public func create(_ tenantID: TenantID, _ account: Account, passwordHash: String?, quota: Int? = nil) async throws -> Bool {
        let rows = try await AccountQuota.enforced(quota) {
            try await database.query("""
                INSERT INTO accounts (tenant_id, accid, nickname, avatar, role, password_hash, created_at)
                SELECT \(tenantID), \(account.accid), \(account.nickname), \(account.avatar), \(account.role), \(passwordHash), \(clock.now())
                WHERE NOT EXISTS (SELECT 1 FROM retired_accounts WHERE tenant_id = \(tenantID) AND accid = \(account.accid))
                  AND \(unescaped: AccountQuota.admitted)(\(tenantID), \(quota))
                ON CONFLICT DO NOTHING RETURNING accid
                """)
        }
        return !rows.isEmpty
    }

    /// The account and its stored password hash.
    public func accountWithPassword(_ tenantID: TenantID, _ accid: AccountID) async throws -> (Account, passwordHash: String?)? {
        let rows = try await database.query("""
            SELECT accid, nickname, avatar, role, password_hash FROM accounts WHERE tenant_id = \(tenantID) AND accid = \(accid)
            """)
        return try rows.decode((String, String, String, String, String?).self).first.map {
            (Account(accid: $0, nickname: $1, avatar: $2, role: $3), $4)
        }
    }

    /// Removes an account nobody used (a teacher made for a booking that lost a race).
    public func delete(_ tenantID: TenantID, _ accid: AccountID) async throws {
        try await database.query("DELETE FROM accounts WHERE tenant_id = \(tenantID) AND accid = \(accid)")
    }
}
