import Foundation
import RoomCore

/// The answers kept for `Idempotency-Key` (`schema/core/0014`, `0027`):
/// claimed before the request runs, completed with its answer, released
/// when it failed before writing, so a retry runs it again. `key` is the
/// key's digest and `body` sealed (`IdempotentRequest`).
struct IdempotencyStore: Sendable {
    let database: Database
    let clock: any RoomClock

    /// A claim left in progress this long (its instance died mid-request, or
    /// PostgreSQL was away when its outcome was to be kept) answers "outcome
    /// unknown": 60 s, six times the request deadline.
    static let abandonedSeconds: TimeInterval = 60

    enum Claim: Equatable {
        /// This request runs; `complete` or `release` follows.
        case fresh
        /// The first answer, to send again.
        case answered(status: Int, contentType: String?, body: Data)
        /// The first request is still running.
        case inProgress
        /// The key was used for a different request.
        case mismatch
        /// The first request never finished: it may have been applied.
        case outcomeUnknown
    }

    func claim(scope: String, key: String, fingerprint: String) async throws -> Claim {
        let now = clock.now()
        // One statement: the insert, or the row that was there. A row
        // committed by a racing claim after this statement's snapshot reads
        // as neither: in progress, which a retry resolves.
        let rows = try await database.query("""
            WITH inserted AS (
                INSERT INTO idempotency_keys (scope, key, fingerprint, created_at) VALUES (\(scope), \(key), \(fingerprint), \(now))
                ON CONFLICT DO NOTHING RETURNING 1
            )
            SELECT (SELECT count(*)::int FROM inserted), k.fingerprint, k.status, k.content_type, k.body, k.created_at
            FROM (SELECT 1) one LEFT JOIN idempotency_keys k ON k.scope = \(scope) AND k.key = \(key)
            """).decode((Int, String?, Int?, String?, Data?, Date?).self)
        guard let (inserted, stored, status, contentType, body, createdAt) = rows.first else { return .inProgress }
        if inserted == 1 { return .fresh }
        guard let stored else { return .inProgress }
        guard stored == fingerprint else { return .mismatch }
        if let status { return .answered(status: status, contentType: contentType, body: body ?? Data()) }
        guard let createdAt, now.timeIntervalSince(createdAt) > Self.abandonedSeconds else { return .inProgress }
        // Its instance died, or could not keep an unknown outcome: running it
        // again could apply it twice (#41).
        return .outcomeUnknown
    }

    func complete(scope: String, key: String, status: Int, contentType: String?, body: Data) async throws {
        try await database.query("""
            UPDATE idempotency_keys SET status = \(status), content_type = \(contentType), body = \(body)
            WHERE scope = \(scope) AND key = \(key) AND status IS NULL
            """)
    }

    func release(scope: String, key: String) async throws {
        try await database.query("DELETE FROM idempotency_keys WHERE scope = \(scope) AND key = \(key) AND status IS NULL")
    }
}
