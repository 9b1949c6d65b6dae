import Foundation

/// Sessions whose token is a `SignedToken` (SealMic's `Authorization`).
extension AccountStore {
    public func openSignedSession(_ tenantID: TenantID, accid: AccountID, pluginID: String, ttlSeconds: Int, keyring: TokenKeyring) async throws -> (token: String, expiresAt: Date) {
        let now = clock.now()
        let expiresAt = Int64(now.timeIntervalSince1970) + Int64(ttlSeconds)
        let token = SignedToken(sessionID: Secrets.randomToken(bytes: 24), expiresAt: expiresAt)
            .encoded(tenantID: tenantID, key: try await keyring.key(database))
        let expiry = Date(timeIntervalSince1970: TimeInterval(expiresAt))
        try await database.query("""
            INSERT INTO sessions (tenant_id, token_hash, accid, plugin_id, created_at, expires_at)
            VALUES (\(tenantID), \(Secrets.sha256Hex(token)), \(accid), \(pluginID), \(now), \(expiry))
            """)
        return (token, expiry)
    }

    /// The account behind a signed token of this tenant and plugin that is
    /// neither expired nor revoked; nil otherwise.
    public func resolveSigned(_ tenantID: TenantID, token: String, pluginID: String, keyring: TokenKeyring) async throws -> Account? {
        guard case .success = SignedToken.verify(token, tenantID: tenantID, key: try await keyring.key(database), now: clock.now()) else {
            return nil
        }
        return try await resolve(tenantID, sid: token, pluginID: pluginID)?.0
    }
}
