import Foundation

/// Failed logins at one door (a password check, the local IM's login),
/// counted in PostgreSQL, so the wall holds over every instance and across
/// restarts (#27: an MD5 password doubled as an IM token and could be
/// guessed without limit). Counted per (account, address) and per address
/// (IPv6 by its /64, `AddressSubject`), in a 15-minute window: past 10
/// failures for an account from one address, or 50 from an address over any
/// accounts, that address waits out the window, right answers included.
/// 10 leaves room for a user's typos; 50 for a school or an office behind
/// one address.
///
/// Never per account alone (#41): ten wrong passwords from anywhere locked
/// an account out for everyone, its owner included, which made the wall a
/// weapon. An address without failures is never refused a right answer;
/// a guesser spreading over addresses gets 10 guesses an address, against
/// a bcrypt of cost 10 each.
public struct FailedLogins: Sendable {
    public static let windowSeconds = 900
    public static let perAccount = 10
    public static let perAddress = 50
    /// Logins of an account from one address, right or wrong, a minute (#41:
    /// a right password looped at `/user/check` cost a bcrypt each, without
    /// limit). 20 leaves room for an app's retries and a family's devices.
    public static let attemptsPerMinute = 20

    public let database: Database
    /// Which door: "im" or "password:<plugin>"; counts are kept apart per door.
    public let door: String

    public init(database: Database, door: String) {
        self.database = database
        self.door = door
    }

    /// What a refused login is told, in each wire's rate-limit format.
    public static let refusal = RoomError.rateLimited(action: "failed logins for this account from this address",
                                                      limit: RateLimit(perAccount, per: windowSeconds))

    /// `check`'s answer, unless this address is already past a limit for
    /// the account or over all accounts (then `refusal`, and `check` never
    /// runs); a false counts.
    public func attempt(_ tenantID: TenantID, accid: AccountID, address: String, now: Date,
                        check: () async throws -> Bool) async throws -> Bool {
        if try await refused(tenantID, accid: accid, address: address, now: now) { throw Self.refusal }
        let (pair, _) = subjects(accid, address)
        let limit = RateLimit(Self.attemptsPerMinute, per: 60)
        guard try await RateCounter(database: database).admit(tenantID, action: "login:" + door, subject: pair, limit: limit, now: now) else {
            throw RoomError.rateLimited(action: "logins of this account from this address", limit: limit)
        }
        let accepted = try await check()
        if !accepted { try await record(tenantID, accid: accid, address: address, now: now) }
        return accepted
    }

    /// True when this address is past its limit for the account, or over all accounts, in this window.
    public func refused(_ tenantID: TenantID, accid: AccountID, address: String, now: Date) async throws -> Bool {
        let (pair, all) = subjects(accid, address)
        let rows = try await database.query("""
            SELECT coalesce(bool_or(CASE WHEN subject = \(pair) THEN hits >= \(Self.perAccount) ELSE hits >= \(Self.perAddress) END), false)
            FROM rate_windows
            WHERE tenant_id = \(tenantID) AND action = \(action) AND window_start = \(window(now))
              AND subject IN (\(pair), \(all))
            """)
        for refused in try rows.decode(Bool.self) { return refused }
        return false
    }

    /// Counts one failure against the (account, address) pair and the address.
    public func record(_ tenantID: TenantID, accid: AccountID, address: String, now: Date) async throws {
        let (pair, all) = subjects(accid, address)
        try await database.query("""
            INSERT INTO rate_windows (tenant_id, action, subject, window_start, hits)
            VALUES (\(tenantID), \(action), \(pair), \(window(now)), 1),
                   (\(tenantID), \(action), \(all), \(window(now)), 1)
            ON CONFLICT (tenant_id, action, subject, window_start) DO UPDATE SET hits = rate_windows.hits + 1
            """)
    }

    private func subjects(_ accid: AccountID, _ address: String) -> (pair: String, address: String) {
        let subject = AddressSubject.of(address)
        // The address first: an accid may hold any character, an address no "|".
        return ("pair:" + subject + "|" + accid, "address:" + subject)
    }

    private var action: String { "failed-login:" + door }

    private func window(_ now: Date) -> Date {
        let seconds = Double(Self.windowSeconds)
        return Date(timeIntervalSince1970: (now.timeIntervalSince1970 / seconds).rounded(.down) * seconds)
    }
}
