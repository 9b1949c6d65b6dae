import Foundation
import PostgresNIO

/// Accounts and their sessions. A session token (`sid`) is random and stored
/// only as its SHA-256; it expires and can be revoked.
public struct AccountStore: Sendable {
    public let database: Database
    public let clock: any RoomClock

    public init(database: Database, clock: any RoomClock) {
        self.database = database
        self.clock = clock
    }

    /// Creates an account with a fresh id `prefix` + digits; retries on the rare collision.
    /// `quota`: the tenant's `maxAccounts` (`AccountQuota`).
    public func createGuest(_ tenantID: TenantID, prefix: String = "user", nickname: (String) -> String, avatar: String, role: String = "user",
                            quota: Int? = nil, digits: () -> String = AccountStore.randomDigits) async throws -> Account {
        try await drawGuest(prefix: prefix, nickname: nickname, avatar: avatar, role: role, digits: digits) { account in
            try await AccountQuota.enforced(quota) {
                try await database.query("""
                    INSERT INTO accounts (tenant_id, accid, nickname, avatar, role, created_at)
                    SELECT \(tenantID), \(account.accid), \(account.nickname), \(account.avatar), \(account.role), \(clock.now())
                    WHERE NOT EXISTS (SELECT 1 FROM retired_accounts WHERE tenant_id = \(tenantID) AND accid = \(account.accid))
                      AND \(unescaped: AccountQuota.admitted)(\(tenantID), \(quota))
                    ON CONFLICT DO NOTHING RETURNING accid
                    """)
            }
        }
    }

    /// `createGuest` and the account's first session in one statement, so
    /// nothing can come between them: two statements once met a failover
    /// between them (the session's insert found no account and the login
    /// answered 500). `token` is the session's token (stored hashed), made
    /// by the caller: a random `sid` or a signed token.
    public func createGuestWithSession(_ tenantID: TenantID, prefix: String, nickname: (String) -> String, avatar: String,
                                       pluginID: String, token: String, expiresAt: Date, quota: Int? = nil) async throws -> Account {
        let now = clock.now()
        return try await drawGuest(prefix: prefix, nickname: nickname, avatar: avatar, role: "user") { account in
            try await AccountQuota.enforced(quota) {
                try await database.query("""
                    WITH account AS (
                        INSERT INTO accounts (tenant_id, accid, nickname, avatar, role, created_at)
                        SELECT \(tenantID), \(account.accid), \(account.nickname), \(account.avatar), \(account.role), \(now)
                        WHERE NOT EXISTS (SELECT 1 FROM retired_accounts WHERE tenant_id = \(tenantID) AND accid = \(account.accid))
                          AND \(unescaped: AccountQuota.admitted)(\(tenantID), \(quota))
                        ON CONFLICT DO NOTHING RETURNING tenant_id, accid
                    )
                    INSERT INTO sessions (tenant_id, token_hash, accid, plugin_id, created_at, expires_at)
                    SELECT tenant_id, \(Secrets.sha256Hex(token)), accid, \(pluginID), \(now), \(expiresAt) FROM account
                    RETURNING accid
                    """)
            }
        }
    }

    /// 8 random digits: a guest id's tail.
    public static func randomDigits() -> String { String(UInt64.random(in: 10_000_000...99_999_999)) }

    /// Draws `prefix` + 8 digits until `insert` writes a row (nothing is
    /// written on a collision, with a live account or a retired id).
    private func drawGuest(prefix: String, nickname: (String) -> String, avatar: String, role: String,
                           digits draw: () -> String = AccountStore.randomDigits,
                           insert: (Account) async throws -> [PostgresRow]) async throws -> Account {
        for _ in 0..<5 {
            let digits = draw()
            let account = Account(accid: prefix + digits, nickname: nickname(digits), avatar: avatar, role: role)
            if try await !insert(account).isEmpty { return account }
        }
        throw RoomError.invalid(field: "accid", reason: "could not allocate a unique account id")
    }

    public func account(_ tenantID: TenantID, _ accid: AccountID) async throws -> Account? {
        let rows = try await database.query("""
            SELECT accid, nickname, avatar, role FROM accounts WHERE tenant_id = \(tenantID) AND accid = \(accid)
            """)
        return try rows.decode((String, String, String, String).self).first.map { Account(accid: $0, nickname: $1, avatar: $2, role: $3) }
    }

    /// Opens a session; returns the token (shown once) and its expiry.
    public func openSession(_ tenantID: TenantID, accid: AccountID, pluginID: String, ttlSeconds: Int) async throws -> (sid: String, expiresAt: Date) {
        let sid = Secrets.randomToken(bytes: 24)
        let now = clock.now()
        let expiresAt = now.addingTimeInterval(TimeInterval(ttlSeconds))
        // An account banned from its tenant gets no new session (#29). The
        // account's lock, shared, orders the login with a tenant ban of it
        // (which holds the lock to its commit): the ban is read after the
        // lock is granted (`…_after_lock`), so a login that waited for a ban
        // sees it, and one that went first is what the ban then revokes.
        let opened = try await database.query("""
            WITH held AS (SELECT pg_advisory_xact_lock_shared(\(AccountLock.key(tenantID, accid))) AS locked)
            INSERT INTO sessions (tenant_id, token_hash, accid, plugin_id, created_at, expires_at)
            SELECT \(tenantID), \(Secrets.sha256Hex(sid)), \(accid), \(pluginID), \(now), \(expiresAt) FROM held
            WHERE NOT roomkeeper_banned_after_lock(\(tenantID), \(accid), NULL, \(now), held.locked IS NOT NULL)
            RETURNING 1
            """)
        guard !opened.isEmpty else { throw RoomError.banned }
        return (sid, expiresAt)
    }

    /// The account behind a live session of `pluginID`, or nil. With
    /// `renewSeconds`, a live session's expiry moves to now + that.
    public func resolve(_ tenantID: TenantID, sid: String, pluginID: String, renewSeconds: Int? = nil) async throws -> (Account, expiresAt: Date)? {
        let now = clock.now()
        let hash = Secrets.sha256Hex(sid)
        // Most calls only read the session; renewing is a write.
        guard let renewSeconds else {
            return try Self.decodeSession(try await database.query(Self.sessionRead(tenantID, tokenHash: hash, pluginID: pluginID, now: now)))
        }
        let renewed = now.addingTimeInterval(TimeInterval(renewSeconds))
        let rows = try await database.query("""
            UPDATE sessions s SET expires_at = \(renewed)
            FROM accounts a
            WHERE s.tenant_id = \(tenantID) AND s.token_hash = \(hash) AND s.plugin_id = \(pluginID)
              AND s.revoked_at IS NULL AND s.expires_at > \(now)
              AND a.tenant_id = s.tenant_id AND a.accid = s.accid
            RETURNING a.accid, a.nickname, a.avatar, a.role, s.expires_at
            """)
        return try Self.decodeSession(rows)
    }

    /// `resolve`'s read: the account behind a live session, by the session's
    /// key (`PlannerStatisticsTests` reads its plan).
    public static func sessionRead(_ tenantID: TenantID, tokenHash: String, pluginID: String, now: Date) -> PostgresQuery {
        """
        SELECT a.accid, a.nickname, a.avatar, a.role, s.expires_at FROM sessions s
        JOIN accounts a ON a.tenant_id = s.tenant_id AND a.accid = s.accid
        WHERE s.tenant_id = \(tenantID) AND s.token_hash = \(tokenHash) AND s.plugin_id = \(pluginID)
          AND s.revoked_at IS NULL AND s.expires_at > \(now)
        """
    }

    /// `resolve` and, in the same statement, the account's open rooms of
    /// `pluginID`, newest first: for a create that first dissolves the
    /// creator's earlier rooms, one round trip instead of two.
    public func resolveWithOpenRooms(_ tenantID: TenantID, sid: String, pluginID: String) async throws
        -> (account: Account, expiresAt: Date, openRooms: [RoomID])? {
        let rows = try await database.query("""
            SELECT a.accid, a.nickname, a.avatar, a.role, s.expires_at,
                   array(SELECT r.room_id FROM rooms r
                         WHERE r.tenant_id = s.tenant_id AND r.owner = s.accid AND r.plugin_id = \(pluginID) AND r.state = 'open'
                         ORDER BY r.created_seq DESC LIMIT 100) AS open_rooms
            FROM sessions s
            JOIN accounts a ON a.tenant_id = s.tenant_id AND a.accid = s.accid
            WHERE s.tenant_id = \(tenantID) AND s.token_hash = \(Secrets.sha256Hex(sid)) AND s.plugin_id = \(pluginID)
              AND s.revoked_at IS NULL AND s.expires_at > \(clock.now())
            """)
        return try rows.decode((String, String, String, String, Date, [Int64]).self).first.map {
            (Account(accid: $0, nickname: $1, avatar: $2, role: $3), $4, $5)
        }
    }

    private static func decodeSession(_ rows: [PostgresRow]) throws -> (Account, expiresAt: Date)? {
        try rows.decode((String, String, String, String, Date).self).first.map {
            (Account(accid: $0, nickname: $1, avatar: $2, role: $3), $4)
        }
    }
}
