import Crypto
import Foundation

/// A client token that carries its own expiry and an HMAC over the tenant,
/// a random session id and that expiry: forged, altered, expired or
/// other-tenant tokens are refused before the database is asked. The
/// session row (looked up by the token's SHA-256) makes it revocable.
public struct SignedToken: Sendable, Equatable {
    public var sessionID: String
    public var expiresAt: Int64

    public enum Refusal: Error, Sendable, Equatable {
        case malformed, badSignature, expired
    }

    public init(sessionID: String, expiresAt: Int64) {
        self.sessionID = sessionID
        self.expiresAt = expiresAt
    }

    /// `<session id>.<expiry, epoch seconds>.<signature>`.
    public func encoded(tenantID: TenantID, key: SymmetricKey) -> String {
        "\(sessionID).\(expiresAt).\(Self.signature(tenantID: tenantID, sessionID: sessionID, expiresAt: expiresAt, key: key))"
    }

    public static func verify(_ token: String, tenantID: TenantID, key: SymmetricKey, now: Date) -> Result<SignedToken, Refusal> {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let expiresAt = Int64(parts[1]), !parts[0].isEmpty,
              parts[0].allSatisfy(\.isHexDigit) else { return .failure(.malformed) }
        let sessionID = String(parts[0])
        let expected = signature(tenantID: tenantID, sessionID: sessionID, expiresAt: expiresAt, key: key)
        guard Secrets.equal(expected, String(parts[2])) else { return .failure(.badSignature) }
        guard Double(expiresAt) > now.timeIntervalSince1970 else { return .failure(.expired) }
        return .success(SignedToken(sessionID: sessionID, expiresAt: expiresAt))
    }

    static func signature(tenantID: TenantID, sessionID: String, expiresAt: Int64, key: SymmetricKey) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(tenantID)\n\(sessionID)\n\(expiresAt)".utf8), using: key)
        return Secrets.hex(mac)
    }
}
