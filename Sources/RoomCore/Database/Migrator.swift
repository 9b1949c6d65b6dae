import Foundation
import Logging
import PostgresNIO

/// Applies plain SQL migrations (`schema/<folder>/NNNN_name.sql`) in order.
/// Each file runs in its own transaction together with its bookkeeping row,
/// all under one advisory lock, so two instances starting at once apply each
/// file exactly once and running again is a no-op. Then ANALYZE is told
/// what to keep of every table (`PlannerStatistics`).
public struct Migrator: Sendable {
    public struct Migration: Sendable, Equatable {
        public let folder: String
        public let version: Int
        public let name: String
        public let sql: String
        public var id: String { "\(folder)/\(name)" }
    }

    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// Arbitrary constant shared by every Roomkeeper instance.
    static let lockKey: Int64 = 0x526F_6F6D_6B65_6570

    public let migrations: [Migration]

    public init(migrations: [Migration]) {
        self.migrations = migrations
    }

    /// Reads `folders` (core first, then each plugin's) below `schemaRoot`.
    /// A folder that does not exist contributes nothing.
    public init(schemaRoot: URL, folders: [String]) throws {
        var all: [Migration] = []
        for folder in folders {
            let directory = schemaRoot.appendingPathComponent(folder)
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { continue }
            var seen: Set<Int> = []
            for file in files.sorted() where file.hasSuffix(".sql") {
                guard let version = Int(file.prefix(while: \.isNumber)), file.first?.isNumber == true else {
                    throw Problem(description: "\(folder)/\(file): migration files are named NNNN_description.sql")
                }
                guard seen.insert(version).inserted else {
                    throw Problem(description: "\(folder)/\(file): version \(version) appears twice")
                }
                let sql = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                all.append(Migration(folder: folder, version: version, name: file, sql: sql))
            }
        }
        self.migrations = all
    }

    /// Applies what is missing; returns the ids applied by this call.
    @discardableResult
    public func migrate(_ database: Database) async throws -> [String] {
        // Waiting for another instance's migrations, or a long DDL, is not a
        // hung server: an hour, not a client statement's 12 s.
        try await DatabaseDeadline.$statementSeconds.withValue(3_600) { try await migrateBounded(database) }
    }

    private func migrateBounded(_ database: Database) async throws -> [String] {
        try await database.withConnection { connection in
            let logger = database.logger
            try await connection.run("SELECT pg_advisory_lock(\(Self.lockKey))", logger: logger)
            do {
                let applied = try await applyMissing(connection, logger: logger)
                try await PlannerStatistics.apply(on: connection, logger: logger)
                try await connection.run("SELECT pg_advisory_unlock(\(Self.lockKey))", logger: logger)
                return applied
            } catch {
                _ = try? await connection.run("SELECT pg_advisory_unlock(\(Self.lockKey))", logger: logger)
                throw error
            }
        }
    }

    /// The migrations this binary knows that the database has not applied.
    public func pending(_ database: Database) async throws -> [String] {
        try await database.withConnection { connection in
            try await ensureLedger(connection, logger: database.logger)
            let done = try await appliedIDs(connection, logger: database.logger)
            return migrations.map(\.id).filter { !done.contains($0) }
        }
    }

    private func applyMissing(_ connection: PostgresConnection, logger: Logger) async throws -> [String] {
        try await ensureLedger(connection, logger: logger)
        let done = try await appliedIDs(connection, logger: logger)
        var applied: [String] = []
        for migration in migrations where !done.contains(migration.id) {
            do {
                try await connection.inTransactionBlock(logger: logger) {
                    for statement in SQLScript.statements(migration.sql) {
                        try await connection.run(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.run(
                        "INSERT INTO schema_migrations (id, applied_at) VALUES (\(migration.id), now())",
                        logger: logger)
                }
            } catch {
                throw Problem(description: "migration \(migration.id) failed: \(String(reflecting: error))")
            }
            logger.info("applied migration", metadata: ["migration": "\(migration.id)"])
            applied.append(migration.id)
        }
        return applied
    }

    private func ensureLedger(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            "CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL)",
            logger: logger)
    }

    private func appliedIDs(_ connection: PostgresConnection, logger: Logger) async throws -> Set<String> {
        var ids: Set<String> = []
        for id in try await connection.run("SELECT id FROM schema_migrations", logger: logger).decode(String.self) {
            ids.insert(id)
        }
        return ids
    }
}
