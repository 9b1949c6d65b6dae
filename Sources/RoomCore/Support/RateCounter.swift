import Foundation

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
