import Foundation

/// The accounts a route may reach: its tenant's, with sessions of its own
/// plugin (#28, item 1). New guests are made through `ClientCall`, which
/// counts them per client address.
public struct PluginAccounts: Sendable {
    let store: AccountStore
    let tenantID: TenantID
    public let pluginID: String
    let keyring: TokenKeyring
    let outboxSignal: OutboxSignal

    public func account(_ accid: AccountID) async throws -> Account? {
        try await store.account(tenantID, accid)
    }

    /// The account behind a live session of this plugin; with
    /// `renewSeconds`, the session's expiry moves to now + that.
    public func resolve(sid: String, renewSeconds: Int? = nil) async throws -> (Account, expiresAt: Date)? {
        try await store.resolve(tenantID, sid: sid, pluginID: pluginID, renewSeconds: renewSeconds)
    }

    /// `resolve` and the account's open rooms of this plugin, newest first.
    public func resolveWithOpenRooms(sid: String) async throws -> (account: Account, openRooms: [RoomID])? {
        try await store.resolveWithOpenRooms(tenantID, sid: sid, pluginID: pluginID)
    }

    /// The account behind a signed token of a live session of this plugin.
    public func resolveSigned(token: String) async throws -> Account? {
        try await store.resolveSigned(tenantID, token: token, pluginID: pluginID, keyring: keyring)
    }

    /// A signed token for a new session (bound to an account by the caller).
    public func signedSessionToken(ttlSeconds: Int) async throws -> (token: String, expiresAt: Date) {
        try await store.signedSessionToken(tenantID, ttlSeconds: ttlSeconds, keyring: keyring)
    }

    /// A new session of this plugin; the token is shown once.
    public func openSession(accid: AccountID, ttlSeconds: Int) async throws -> (sid: String, expiresAt: Date) {
        try await store.openSession(tenantID, accid: accid, pluginID: pluginID, ttlSeconds: ttlSeconds)
    }

    /// A named account (false: the id is taken).
    public func create(_ account: Account, passwordHash: String?) async throws -> Bool {
        try await store.create(tenantID, account, passwordHash: passwordHash)
    }

    public func accountWithPassword(_ accid: AccountID) async throws -> (Account, passwordHash: String?)? {
        try await store.accountWithPassword(tenantID, accid)
    }

    public func delete(_ accid: AccountID) async throws {
        try await store.delete(tenantID, accid)
    }

    /// Ends every session of the account now, and its IM access through the outbox.
    @discardableResult
    public func revokeAccess(_ accid: AccountID) async throws -> Int {
        try await store.revokeAccess(tenantID, accid: accid, outboxSignal: outboxSignal)
    }
}
