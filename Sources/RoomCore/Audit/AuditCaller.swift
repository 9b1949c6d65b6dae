import Crypto
import Foundation

/// Who stands behind the privileged acts of one request, as the audit log
/// records them: bound by the HTTP layer for the request's task (like a trace
/// context) and read by the engine where it writes an act, so the engine's
/// signatures carry `Actor` alone.
public struct AuditCaller: Sendable, Equatable {
    /// "operator" or "tenant-admin" for an admin key; "account:<id>" for a
    /// client request (a host's kick).
    public var actor: String
    /// 16 hex digits of the key's HMAC under the server's secret
    /// (`AuditCaller.fingerprint(ofKey:secret:)`); nil for a client.
    public var keyFingerprint: String?
    public var requestID: String?
    public var clientAddress: String?

    public init(actor: String, keyFingerprint: String? = nil, requestID: String?, clientAddress: String?) {
        self.actor = actor
        self.keyFingerprint = keyFingerprint
        self.requestID = requestID
        self.clientAddress = clientAddress
    }

    /// 64 bits of the key's HMAC-SHA-256 under `secret`: enough to tell a
    /// tenant's few keys apart, and tied to this deployment (#41: a bare
    /// SHA-256 let anyone who reads the log test guesses of a key offline,
    /// and link the same key across systems).
    public static func fingerprint(ofKey key: String, secret: [UInt8]) -> String {
        String(Secrets.hex(HMAC<SHA256>.authenticationCode(for: Data(key.utf8), using: SymmetricKey(data: secret))).prefix(16))
    }

    @TaskLocal public static var current: AuditCaller?
}

/// One privileged act, as the code that performs it names it.
public struct AuditAct: Sendable, Equatable {
    /// nil: an act of the operator on no one tenant (a tenant reload).
    public var tenantID: TenantID?
    public var action: AuditAction
    /// What it acted on: `room:<id>`, `room:<id>/account:<id>`, `account:<id>`, …
    public var target: String
    /// What came of it, in a word or two (`ok`, `3 sessions`, `applied`).
    public var outcome: String
    public var detail: [String: String]

    public init(tenantID: TenantID?, action: AuditAction, target: String, outcome: String = "ok", detail: [String: String] = [:]) {
        self.tenantID = tenantID
        self.action = action
        self.target = target
        self.outcome = outcome
        self.detail = detail
    }
}

/// A row of the audit log.
public struct AuditEntry: Sendable, Equatable {
    public var id: Int64
    public var tenantID: TenantID?
    public var at: Date
    public var actor: String
    public var keyFingerprint: String?
    public var action: String
    public var target: String
    public var outcome: String
    public var requestID: String?
    public var clientAddress: String?
    public var detail: String
}
