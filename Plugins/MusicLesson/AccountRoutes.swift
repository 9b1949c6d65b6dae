import Crypto
import Foundation
import HummingbirdBcrypt
import RoomKit

/// `/user/reg` (students) and `/user/check` (both roles). Passwords arrive
/// as their 32-character lowercase MD5; only a bcrypt of that is stored.
enum AccountRoutes {
    typealias Settings = MusicLessonPlugin.Settings
    static let bcryptCost: UInt8 = 10

    struct Registered: Encodable, Sendable {
        let accid: String
        let nickname: String
        let imToken: String
        let sid: String
        let availableAt: Int64
    }

    struct Checked: Encodable, Sendable {
        let accid: String
        let nickname: String
        let userType: Int
        let sid: String?
        let availableAt: Int64?
    }

    static let routes: [ClientRoute<Settings>] = [
        ClientRoute("/user/reg", handle: reg),
        ClientRoute("/user/check", handle: check),
    ]

    static func reg(_ call: ClientCall<Settings>) async throws -> Registered {
        let accid = try validAccid(call.parameters)
        let nickname = try call.parameters.text("nickname", characters: 1...32)
        let password = try md5Password(call.parameters)
        try await call.throttle(.newAccount)
        let accounts = call.accounts
        let account = Account(accid: accid, nickname: nickname, role: Role.student.rawValue)
        let hash = try await SlowHash.run(tenant: call.tenant.id) { Bcrypt.hash(password, cost: bcryptCost) }
        guard try await accounts.create(account, passwordHash: hash) else {
            throw ClientError(code: LessonCodes.accountExists, message: "accid \(accid) is already registered")
        }
        // The app logs in to IM with its password's MD5 as the token. An
        // account the IM provider did not take is no account: it goes, so
        // registering again works once the provider is back.
        let credentials: IMCredentials
        do {
            credentials = try await call.im(of: account).create(name: nickname, token: password, tokenHash: hash)
        } catch {
            try? await accounts.delete(accid)
            throw error
        }
        let session = try await accounts.openSession(accid: accid, ttlSeconds: call.settings.sessionTTLSeconds)
        return Registered(accid: accid, nickname: nickname, imToken: credentials.token, sid: session.sid, availableAt: session.expiresAt.epochMilliseconds)
    }

    /// Who an accid is; with the right password, also a session.
    static func check(_ call: ClientCall<Settings>) async throws -> any Encodable & Sendable {
        let accid = try call.parameters.required("accid")
        let accounts = call.accounts
        guard let (account, hash) = try await accounts.accountWithPassword(accid), let role = Role(rawValue: account.role) else {
            throw ClientError(code: LessonCodes.noSuchAccount, message: "no account \(accid)")
        }
        guard call.parameters.string("password") != nil else {
            return Checked(accid: accid, nickname: account.nickname, userType: role.userType, sid: nil, availableAt: nil)
        }
        let password = try md5Password(call.parameters)
        // bcrypt is CPU work: off the event loops, where it would stall every
        // tenant. Failures are limited per account and address (#27).
        let matches = try await call.checkLogin(accid) {
            guard let hash else { return false }
            return try await SlowHash.run(tenant: call.tenant.id) { Bcrypt.verify(password, hash: hash) }
        }
        guard matches else {
            throw ClientError(code: LessonCodes.wrongPassword, message: "wrong password for \(accid)")
        }
        // The app logs in to IM with the same MD5 on every start: the right
        // password renews the IM token (students lost IM 7 days after
        // registering, and for good after a revoke, when only /user/reg issued it).
        // The password's hash just verified it: the IM keeps it, not a second bcrypt.
        _ = try await call.im(of: account).create(name: account.nickname, token: password, tokenHash: hash)
        let session = try await accounts.openSession(accid: accid, ttlSeconds: call.settings.sessionTTLSeconds)
        return Checked(accid: accid, nickname: account.nickname, userType: role.userType, sid: session.sid,
                       availableAt: session.expiresAt.epochMilliseconds)
    }

    enum Role: String {
        case student, teacher
        var userType: Int { self == .student ? 0 : 1 }
    }

    /// 1-32 characters of letters, digits, `_`, `.`, `@` and `-`.
    static func validAccid(_ parameters: WireParameters) throws -> String {
        let accid = try parameters.required("accid")
        let allowed = accid.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || "_.@-".unicodeScalars.contains($0) }
        guard (1...32).contains(accid.count), allowed else {
            throw ParameterError(field: "accid", reason: "must be 1-32 characters of letters, digits, _ . @ -")
        }
        return accid
    }

    /// The client's MD5 of the password: 32 lowercase hex characters.
    static func md5Password(_ parameters: WireParameters) throws -> String {
        let password = try parameters.required("password")
        guard password.count == 32, password.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
            throw ParameterError(field: "password", reason: "must be the password's MD5: 32 lowercase hex characters")
        }
        return password
    }

    /// What the apps send for a password they know in clear.
    static func md5(_ text: String) -> String {
        Secrets.hex(Insecure.MD5.hash(data: Data(text.utf8)))
    }

    /// The account of the call, which must have `role`.
    static func account(_ call: ClientCall<Settings>, as role: Role) async throws -> Account {
        let account = try await call.caller()
        guard account.role == role.rawValue else {
            throw role == .teacher ? NetEase.notLoggedIn("this is not a teacher's account")
                : ClientError(code: NetEase.forbidden, message: "only students book lessons")
        }
        return account
    }
}
