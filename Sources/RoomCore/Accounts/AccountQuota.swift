import PostgresNIO

/// A tenant's accounts quota (`[limits] maxAccounts`, #41), exact under
/// concurrency: every account insert calls `admitted` in its WHERE clause,
/// which takes the tenant's counter row lock in its own statement and
/// raises at the quota (migration 0031); triggers keep the counter.
enum AccountQuota {
    /// The SQL function an account insert's WHERE clause calls with the
    /// tenant and its quota (null: no quota, no lock).
    static let admitted = "roomkeeper_account_admitted"

    /// What the function raises at the quota.
    static let fullState = "RKA01"

    /// Runs an account insert; the quota's refusal becomes `RoomError.tooManyAccounts`.
    static func enforced<Result>(_ quota: Int?, _ insert: () async throws -> Result) async throws -> Result {
        do {
            return try await insert()
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == fullState {
            throw RoomError.tooManyAccounts(limit: quota ?? 0)
        }
    }
}
