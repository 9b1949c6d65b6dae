import Foundation

/// Failed logins at one door (a password check, the local IM's login),
/// counted per account and per client address in PostgreSQL, so the wall
/// holds over every instance and across restarts (#27: an MD5 password
/// doubled as an IM token and could be guessed without limit). Past 10
/// failures an account, or 50 an address, in a 15-minute window, the door
/// refuses before it checks anything, right answers included, until the
/// window ends. 10 leaves room for a user's typos; 50 for a school or an
/// office behind one address.
public struct FailedLogins: Sendable {
    public static let windowSeconds = 900
    public static let perAccount = 10
    public static let perAddress = 50

    public let database: Database
    /// Which door: "im" or "password:<plugin>"; counts are kept apart per door.
    public let door: String

    public init(database: Database, door: String) {
        self.database = database
        self.door = door
    }

    /// What a refused login is told, in each wire's rate-limit format.
    public static let refusal = RoomError.rateLimited(action: "failed logins for this account or address",
                                                      limit: RateLimit(perAccount, per: windowSeconds))

    /// `check`'s answer, unless the account or the address is already past
    /// its limit (then `refusal`, and `check` never runs); a false counts.
    public func attempt(_ tenantID: TenantID, accid: AccountID, address: String, now: Date,
                        check: () async throws -> Bool) async throws -> Bool {
        if try await refused(tenantID, accid: accid, address: address, now: now) { throw Self.refusal }
        let accepted = try await check()
        if !accepted { try await record(tenantID, accid: accid, address: address, now: now) }
        return accepted
    }

    /// True when the account or the address is past its limit in this window.
    public func refused(_ tenantID: TenantID, accid: AccountID, address: String, now: Date) async throws -> Bool {
        let rows = try await database.query("""
            SELECT coalesce(bool_or(CASE WHEN subject LIKE 'account:%' THEN hits >= \(Self.perAccount) ELSE hits >= \(Self.perAddress) END), false)
            FROM rate_windows
            WHERE tenant_id = \(tenantID) AND action = \(action) AND window_start = \(window(now))
              AND subject IN (\("account:" + accid), \("address:" + address))
            """)
        for refused in try rows.decode(Bool.self) { return refused }
        return false
    }

    /// Counts one failure against both the account and the address.
    public func record(_ tenantID: TenantID, accid: AccountID, address: String, now: Date) async throws {
        try await database.query("""
            INSERT INTO rate_windows (tenant_id, action, subject, window_start, hits)
            VALUES (\(tenantID), \(action), \("account:" + accid), \(window(now)), 1),
                   (\(tenantID), \(action), \("address:" + address), \(window(now)), 1)
            ON CONFLICT (tenant_id, action, subject, window_start) DO UPDATE SET hits = rate_windows.hits + 1
            """)
    }

    private var action: String { "failed-login:" + door }

    private func window(_ now: Date) -> Date {
        let seconds = Double(Self.windowSeconds)
        return Date(timeIntervalSince1970: (now.timeIntervalSince1970 / seconds).rounded(.down) * seconds)
    }
}
