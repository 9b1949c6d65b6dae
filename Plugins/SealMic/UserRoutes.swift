import Foundation
import RoomKit

/// `/user/login`, `/user/refresh-token`, `/user/logout`.
enum UserRoutes {
    typealias Settings = SealMicPlugin.Settings

    struct LoginResult: Encodable, Sendable {
        let userId: String
        let userName: String
        let authorization: String
        let imToken: String
    }

    static let routes: [ClientRoute<Settings>] = [
        ClientRoute("/user/login", handle: login),
        ClientRoute("/user/refresh-token", handle: refreshToken),
        ClientRoute("/user/logout", handle: logout),
    ]

    /// A new guest per login, as the original; a caller that still holds a
    /// live token keeps its account and token.
    static func login(_ call: ClientCall<Settings>) async throws -> LoginResult {
        let deviceID = try call.parameters.required("deviceId")
        guard deviceID.count <= 128 else { throw ParameterError(field: "deviceId", reason: "must be at most 128 characters") }
        let accounts = call.accounts
        if let session = try await call.presentedSession() {
            let account = session.account
            let credentials = try await call.im(of: account).create(name: account.nickname)
            return LoginResult(userId: account.accid, userName: account.nickname, authorization: session.credential, imToken: credentials.token)
        }
        // The guest and its session in one statement, then its IM account (as GuestLogin).
        let session = try await accounts.signedSessionToken(ttlSeconds: call.settings.tokenTTLSeconds)
        let account = try await call.createGuestWithSession(prefix: "sm", nickname: { "SealMic" + $0.suffix(4) }, avatar: "",
                                                            token: session.token, expiresAt: session.expiresAt)
        let credentials = try await call.im(of: account).create(name: account.nickname)
        return LoginResult(userId: account.accid, userName: account.nickname, authorization: session.token, imToken: credentials.token)
    }

    static func refreshToken(_ call: ClientCall<Settings>) async throws -> any Encodable & Sendable {
        let account = try await call.caller()
        return try await call.im(of: account).refreshToken().token
    }

    /// Beyond the original: the token stops working now, and so do the
    /// guest's IM token and sockets (a SealMic guest lives for one login).
    static func logout(_ call: ClientCall<Settings>) async throws -> Bool {
        let account = try await call.caller()
        try await call.accounts
            .revokeAccess(account.accid)
        return true
    }
}
