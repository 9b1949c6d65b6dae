import Foundation

/// The NetEase-style apps' login-or-register in one call: a live `sid` of the
/// plugin is renewed and keeps its account; anything else gets a new guest.
/// Either way the account gets a fresh IM token.
public struct GuestLogin: Sendable {
    public let account: Account
    public let sid: String
    public let expiresAt: Date
    public let imToken: String

    public static func login<Settings>(
        _ call: ClientCall<Settings>, pluginID: String, ttlSeconds: Int, prefix: String,
        nickname: @escaping (String) -> String, avatar: String = ""
    ) async throws -> GuestLogin {
        let accounts = AccountStore(database: call.services.database, clock: call.services.clock)
        if let sid = call.parameters.string("sid"),
           let (account, expiresAt) = try await accounts.resolve(call.tenant.id, sid: sid, pluginID: pluginID, renewSeconds: ttlSeconds) {
            let credentials = try await call.tenant.im.createAccount(IMAccount(accid: account.accid, name: account.nickname, avatar: account.avatar))
            return GuestLogin(account: account, sid: sid, expiresAt: expiresAt, imToken: credentials.token)
        }
        let account = try await call.createGuest(prefix: prefix, nickname: nickname, avatar: avatar)
        let credentials = try await call.tenant.im.createAccount(IMAccount(accid: account.accid, name: account.nickname, avatar: avatar))
        let session = try await accounts.openSession(call.tenant.id, accid: account.accid, pluginID: pluginID, ttlSeconds: ttlSeconds)
        return GuestLogin(account: account, sid: session.sid, expiresAt: session.expiresAt, imToken: credentials.token)
    }
}
