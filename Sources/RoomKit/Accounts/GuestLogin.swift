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
        _ call: ClientCall<Settings>, ttlSeconds: Int, prefix: String,
        nickname: @escaping (String) -> String, avatar: String = ""
    ) async throws -> GuestLogin {
        if let session = try await call.presentedSession(renewingFor: ttlSeconds) {
            let account = session.account
            let credentials = try await call.im(of: account).create(name: account.nickname, avatar: account.avatar)
            return GuestLogin(account: account, sid: session.credential,
                              expiresAt: session.expiresAt ?? call.now().addingTimeInterval(TimeInterval(ttlSeconds)), imToken: credentials.token)
        }
        // The account and its session first, in one statement; the IM account
        // after (a vendor's call is not held inside a database write). If the
        // vendor fails, the login fails and its session is never handed out.
        let sid = Secrets.randomToken(bytes: 24)
        let expiresAt = call.now().addingTimeInterval(TimeInterval(ttlSeconds))
        let account = try await call.createGuestWithSession(prefix: prefix, nickname: nickname, avatar: avatar,
                                                            token: sid, expiresAt: expiresAt)
        let credentials = try await call.im(of: account).create(name: account.nickname, avatar: avatar)
        return GuestLogin(account: account, sid: sid, expiresAt: expiresAt, imToken: credentials.token)
    }
}
