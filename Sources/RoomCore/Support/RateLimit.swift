import Foundation

/// At most `count` in each fixed window of `seconds`. A tenant file writes
/// one as "count/duration": "100/1d", "1/3s"; "0" turns a limit off.
public struct RateLimit: Sendable, Equatable, CustomStringConvertible {
    public var count: Int
    public var seconds: Int

    public init(_ count: Int, per seconds: Int) {
        self.count = count
        self.seconds = seconds
    }

    /// nil for "0" (no limit); throws a reason for anything malformed.
    public static func parse(_ text: String) throws(ParseFailure) -> RateLimit? {
        if text == "0" { return nil }
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2, let count = Int(parts[0]), (1...1_000_000).contains(count),
              let seconds = SettingsReader.parseDuration(parts[1]), (1...(31 * 86_400)).contains(seconds) else {
            throw ParseFailure()
        }
        return RateLimit(count, per: seconds)
    }

    public struct ParseFailure: Error {}

    public var description: String { "\(count) per \(seconds) s" }
}

/// Counts what clients do per address, in PostgreSQL, so the limits hold
/// over every instance and across restarts.
public struct RateCounter: Sendable {
    public let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// Counts one more `action` by `subject`; false when that is past `limit`
    /// in the current window. The increment and the count are one statement.
    public func admit(_ tenantID: TenantID, action: String, subject: String, limit: RateLimit, now: Date) async throws -> Bool {
        let window = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / Double(limit.seconds)).rounded(.down) * Double(limit.seconds))
        let rows = try await database.query("""
            INSERT INTO rate_windows (tenant_id, action, subject, window_start, hits)
            VALUES (\(tenantID), \(action), \(subject), \(window), 1)
            ON CONFLICT (tenant_id, action, subject, window_start) DO UPDATE SET hits = rate_windows.hits + 1
            RETURNING hits
            """)
        for hits in try rows.decode(Int.self) { return hits <= limit.count }
        return false
    }
}
