import Foundation
import Synchronization

/// How a plugin's routes know who calls them (#42 item 4). The engine reads
/// the credential from where the plugin's wire says it travels
/// (`WireProtocol.credential`), once per request, and refuses in the wire's
/// own code; no route reads a `sid` or an `Authorization` header by hand
/// (a seat move used to check its login four times, in three ways).
public enum CallerRule: Sendable, Equatable {
    /// A live session of the plugin (the default).
    case session
    /// A live session, or, for shipped apps that send their account's id
    /// instead (the music-lesson and live-quiz seeds' `accidAsSid`), an
    /// existing account named by the credential or by `accid`.
    case sessionOrAccid
}

/// The caller of one request, once resolved.
final class CallerMemo: Sendable {
    private let resolved = Mutex<Account?>(nil)

    var account: Account? { resolved.withLock { $0 } }

    func keep(_ account: Account) { resolved.withLock { $0 = account } }
}

extension ClientCall {
    /// The account calling: the session its credential names, resolved the
    /// way the wire's token is (`WireProtocol.session`), once per request.
    /// Throws the wire's "not logged in" refusal without a live one.
    public func caller() async throws -> Account {
        if let known = callerMemo.account { return known }
        let acceptsAccid = callerRule == .sessionOrAccid
        guard let credential = wire.credential(parameters: parameters, headers: headers)
            ?? (acceptsAccid ? parameters.string("accid") : nil) else { throw wire.notLoggedIn() }
        var account: Account?
        switch wire.session {
        case .opaque: account = try await accounts.resolve(sid: credential)?.0
        case .signed: account = try await accounts.resolveSigned(token: credential)
        }
        if account == nil, acceptsAccid { account = try await accounts.actingAs(credential) }
        guard let account else { throw wire.notLoggedIn() }
        callerMemo.keep(account)
        return account
    }

    /// The request's session, for an engine read that checks it with the
    /// room (`rooms.change(_:rows:caller:)`, `rooms.dissolve(_:caller:)`,
    /// `createRoom(_:caller:)`): one round trip fewer than `caller()`
    /// first. Refused with the wire's "not logged in". A signed token's
    /// signature is not checked there: only a token this server issued
    /// names a stored session (its hash), and the stored session's expiry
    /// and revocation decide.
    public var session: CallerSession {
        CallerSession(sid: wire.credential(parameters: parameters, headers: headers), refusal: wire.notLoggedIn())
    }
}

/// The live session a login finds the request already carrying: it keeps
/// its account and its credential (answered again as it came).
public struct PresentedSession: Sendable {
    public let account: Account
    public let credential: String
    /// Known for an opaque token (`WireProtocol.SessionToken.opaque`).
    public let expiresAt: Date?
}

extension ClientCall {
    /// For a login: the live session this request carries, read where the
    /// wire carries it, or nil (never a refusal: a login without one makes
    /// one). `renewingFor`: an opaque session's expiry moves to now + that.
    public func presentedSession(renewingFor seconds: Int? = nil) async throws -> PresentedSession? {
        guard let credential = wire.credential(parameters: parameters, headers: headers) else { return nil }
        switch wire.session {
        case .opaque:
            guard let (account, expiresAt) = try await accounts.resolve(sid: credential, renewSeconds: seconds) else { return nil }
            callerMemo.keep(account)
            return PresentedSession(account: account, credential: credential, expiresAt: expiresAt)
        case .signed:
            guard let account = try await accounts.resolveSigned(token: credential) else { return nil }
            callerMemo.keep(account)
            return PresentedSession(account: account, credential: credential, expiresAt: nil)
        }
    }
}
