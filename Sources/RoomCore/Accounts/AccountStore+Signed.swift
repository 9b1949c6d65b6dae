import Foundation

/// Sessions whose token is a `SignedToken` (SealMic's `Authorization`).
extension AccountStore {
    /// A new session's signed token and its expiry (not yet stored).
    public func signedSessionToken(_ tenantID: TenantID, ttlSeconds: Int, keyring: TokenKeyring) async throws -> (token: String, expiresAt: Date) {
        let expiresAt = Int64(clock.now().timeIntervalSince1970) + Int64(ttlSeconds)
        let token = SignedToken(sessionID: Secrets.randomToken(bytes: 24), expiresAt: expiresAt)
            .encoded(tenantID: tenantID, key: try await keyring.key(database))
        return (token, Date(timeIntervalSince1970: TimeInterval(expiresAt)))
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
