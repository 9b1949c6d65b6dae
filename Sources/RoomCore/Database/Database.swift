import Foundation
import Logging
import PostgresNIO

/// The one way RoomCore reaches PostgreSQL: a pooled client plus the logger
/// its queries report to.
public struct Database: Sendable {
    public let client: PostgresClient
    public let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// Runs `body` in one transaction. Unlike PostgresNIO's `withTransaction`,
    /// the error thrown by `body` reaches the caller unchanged, so typed domain
    /// errors (`RoomError`) survive the rollback.
    public func transaction<Result: Sendable>(
        _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await client.withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            let result: Result
            do {
                result = try await body(connection)
            } catch {
                try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
            try await connection.query("COMMIT", logger: logger)
            return result
        }
    }

    @discardableResult
    public func query(_ query: PostgresQuery) async throws -> PostgresRowSequence {
        try await client.query(query, logger: logger)
    }
}
