import Foundation
import Logging
import PostgresNIO

/// The one way RoomCore reaches PostgreSQL: a pooled client plus the logger
/// its queries report to.
public struct Database: Sendable {
    public let client: PostgresClient
    public let logger: Logger
    /// For connections of their own (LISTEN) outside the pool; nil: borrow from the pool.
    public let dedicatedConnection: PostgresConnection.Configuration?
    /// How long a request waits for a pooled connection before it fails with
    /// `DatabaseUnavailable`. The pool itself would wait for ever while
    /// PostgreSQL is down or failing over: requests would hang.
    public let leaseSeconds: Double

    public init(client: PostgresClient, logger: Logger, dedicatedConnection: PostgresConnection.Configuration? = nil, leaseSeconds: Double = 5) {
        self.client = client
        self.logger = logger
        self.dedicatedConnection = dedicatedConnection
        self.leaseSeconds = leaseSeconds
    }

    /// Waits, at most `leaseSeconds`, until the pool can lend a connection.
    /// Every query and transaction passes here first, so when PostgreSQL is
    /// away a request fails in seconds instead of hanging; the connection it
    /// then borrows is the one this check left idle.
    private func ensureReachable() async throws {
        let client = client
        do {
            try await withTimeout(leaseSeconds, operation: "leasing a database connection") {
                try await client.withConnection { _ in }
            }
        } catch let timeout as TimeoutError {
            throw DatabaseUnavailable(timeout.description)
        }
    }

    /// Runs `body` on a connection of its own, closed when `body` ends or
    /// the task is cancelled (which also ends a LISTEN sequence).
    public func withDedicatedConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        guard let configuration = dedicatedConnection else {
            return try await client.withConnection { try await body($0) }
        }
        let connection = try await PostgresConnection.connect(configuration: configuration, id: Int.random(in: 1...Int(Int32.max)), logger: logger)
        return try await withTaskCancellationHandler {
            defer { Task { try? await connection.close() } }
            return try await body(connection)
        } onCancel: {
            Task { try? await connection.close() }
        }
    }

    /// Runs `body` in one transaction. Unlike PostgresNIO's `withTransaction`,
    /// the error thrown by `body` reaches the caller unchanged, so typed domain
    /// errors (`RoomError`) survive the rollback.
    public func transaction<Result: Sendable>(
        _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await ensureReachable()
        return try await client.withConnection { connection in
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

    /// Runs a query on a pooled connection and reads every row. Draining the
    /// stream is what returns the connection to the pool, so results are never
    /// left half-read (our queries return few rows).
    @discardableResult
    public func query(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await ensureReachable()
        return try await client.query(query, logger: logger).collect()
    }
}

extension Array where Element == PostgresRow {
    /// Every row decoded as a tuple of columns.
    public func decode<each Column: PostgresDecodable>(_ type: (repeat each Column).Type) throws -> [(repeat each Column)] {
        try map { try $0.decode(type) }
    }
}
