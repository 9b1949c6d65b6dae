import Foundation
import PostgresNIO

/// Admin keys made through the admin API (#44; schema/core/0034_admin_keys.sql).
/// A key is `rk_<id>_<secret>`: the id names it in lists and the audit log,
/// the secret is 32 random bytes; only the whole key's SHA-256 is kept.
public struct AdminKeyStore: Sendable {
    public let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// A key as listed: never the key itself.
    public struct Key: Sendable, Equatable {
        public var tenantID: TenantID
        public var id: String
        public var label: String
        /// Scope names (`AdminScope`'s raw values), sorted.
        public var scopes: [String]
        public var createdAt: Date
        public var createdBy: String
        public var expiresAt: Date?
        public var revokedAt: Date?
        public var lastUsedAt: Date?

        /// Usable at `now`: neither revoked nor expired.
        public func isLive(at now: Date) -> Bool {
            revokedAt == nil && (expiresAt.map { $0 > now } ?? true)
        }
    }

    static let columns = "tenant_id, key_id, label, scopes, created_at, created_by, expires_at, revoked_at, last_used_at"
    typealias Row = (TenantID, String, String, [String], Date, String, Date?, Date?, Date?)

    static func keys(_ rows: [PostgresRow]) throws -> [Key] {
        try rows.decode(Row.self).map { row in
            Key(tenantID: row.0, id: row.1, label: row.2, scopes: row.3, createdAt: row.4, createdBy: row.5,
                expiresAt: row.6, revokedAt: row.7, lastUsedAt: row.8)
        }
    }

    /// Whether `key` is shaped as one of ours (checked before any read).
    public static func looksLikeKey(_ key: String) -> Bool {
        key.hasPrefix("rk_") && key.utf8.count <= 128
    }

    /// Makes a key with `scopes` for `tenantID`, audited; answers it and the key once.
    public func create(_ tenant: Tenant, label: String, scopes: [String], expiresAt: Date?, now: Date,
                       audited stamp: AuditStamp) async throws -> (key: Key, secret: String) {
        let id = "ak" + Secrets.hex((0..<5).map { _ in UInt8.random(in: 0...255) })
        let secret = "rk_\(id)_\(Secrets.randomToken(bytes: 32))"
        let createdBy = AuditCaller.current?.actor ?? "admin"
        let sorted = Array(Set(scopes)).sorted()
        let key = Key(tenantID: tenant.id, id: id, label: label, scopes: sorted, createdAt: now, createdBy: createdBy, expiresAt: expiresAt)
        try await database.transaction { connection in
            try await connection.run("""
                INSERT INTO admin_keys (tenant_id, key_id, label, scopes, key_hash, created_at, created_by, expires_at)
                VALUES (\(tenant.id), \(id), \(label), \(sorted), \(Secrets.sha256Hex(secret)), \(now), \(createdBy), \(expiresAt))
                """, logger: database.logger)
            try await AuditLog.append(AuditAct(tenantID: tenant.id, action: .keyCreate, target: "key:\(id)",
                                               detail: ["label": label, "scopes": sorted.joined(separator: ",")]),
                                      stamp, now: now, on: connection, logger: database.logger)
        }
        return (key, secret)
    }

    /// The tenant's keys, newest first, revoked ones included.
    public func list(_ tenantID: TenantID) async throws -> [Key] {
        try Self.keys(try await database.query("""
            SELECT \(unescaped: Self.columns) FROM admin_keys WHERE tenant_id = \(tenantID) ORDER BY created_at DESC, key_id
            """))
    }

    /// A key holding scopes its revoker does not: revoking it would let a
    /// `keys`-only key take away what it could never have granted.
    public struct BeyondRevokerScopes: Error, Equatable {
        public let scopes: [String]
    }

    /// What a revocation does to `key`, decided without I/O.
    enum Revocation: Equatable {
        case revoke
        /// Revoked before: answered as it is, nothing written (no second audit row).
        case alreadyRevoked
        case refused(missing: [String])

        static func decide(_ key: Key, revokerScopes: Set<String>) -> Revocation {
            if key.revokedAt != nil { return .alreadyRevoked }
            let missing = key.scopes.filter { !revokerScopes.contains($0) }
            return missing.isEmpty ? .revoke : .refused(missing: missing)
        }
    }

    /// Revokes the key, audited; nil when the tenant has no such key. A key
    /// revoked already is answered as it is, with nothing written; a key
    /// with a scope `revokerScopes` lacks is refused (`BeyondRevokerScopes`).
    public func revoke(_ tenant: Tenant, id: String, revokerScopes: Set<String>, now: Date, audited stamp: AuditStamp) async throws -> Key? {
        try await database.transaction { connection in
            // The row lock in its own statement: two revocations, one audit row.
            let locked = try await connection.run("""
                SELECT \(unescaped: Self.columns) FROM admin_keys WHERE tenant_id = \(tenant.id) AND key_id = \(id) FOR UPDATE
                """, logger: database.logger).collect()
            guard var key = try Self.keys(locked).first else { return nil }
            switch Revocation.decide(key, revokerScopes: revokerScopes) {
            case .alreadyRevoked:
                return key
            case .refused(let missing):
                throw BeyondRevokerScopes(scopes: missing)
            case .revoke:
                try await connection.run("""
                    UPDATE admin_keys SET revoked_at = \(now) WHERE tenant_id = \(tenant.id) AND key_id = \(id)
                    """, logger: database.logger)
                key.revokedAt = now
                try await AuditLog.append(AuditAct(tenantID: tenant.id, action: .keyRevoke, target: "key:\(id)", detail: ["label": key.label]),
                                          stamp, now: now, on: connection, logger: database.logger)
                return key
            }
        }
    }

    /// The live key whose SHA-256 is `hash`, marking it used (at most once
    /// a minute: a write per request would be one more commit each); nil
    /// for an unknown, revoked or expired key.
    public func resolve(hash: String, now: Date) async throws -> Key? {
        let database = database
        let find: @Sendable () async throws -> Key? = {
            try Self.keys(try await database.query("""
                -- cross-tenant: a key names its tenant; the unique hash finds it
                SELECT \(unescaped: Self.columns) FROM admin_keys WHERE key_hash = \(hash)
                """)).first
        }
        // The request's tenant's cell first; then every cell (#43): a key
        // used on a route that names no tenant (`/admin/v1/me`), or on
        // another tenant's (refused by its caller, as before cells).
        var found = try await find()
        if found == nil, database.cells != nil { found = try await database.inEachCell(find).compactMap { $0 }.first }
        guard let key = found, key.isLive(at: now) else { return nil }
        if key.lastUsedAt.map({ now.timeIntervalSince($0) >= 60 }) ?? true {
            try await LeaseOwner.$tenant.withValue(key.tenantID) {
                try await database.query("""
                    UPDATE admin_keys SET last_used_at = \(now) WHERE tenant_id = \(key.tenantID) AND key_id = \(key.id)
                    """)
            }
        }
        return key
    }
}
