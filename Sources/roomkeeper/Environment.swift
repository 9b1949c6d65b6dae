import Foundation
import Logging
import PostgresNIO
import RoomCore

/// Reading the process environment, in one place.
enum Env {
    static var values: [String: String] { ProcessInfo.processInfo.environment }

    static func databaseEndpoint() throws -> DatabaseURL.Endpoint {
        guard let url = values["DATABASE_URL"], !url.isEmpty else {
            throw CommandFailure("DATABASE_URL is not set (ops/run starts a local PostgreSQL and sets it for you)")
        }
        return try DatabaseURL.endpoint(from: url, statementTimeout: values["ROOMKEEPER_STATEMENT_TIMEOUT"] ?? "10s")
    }

    /// A duration such as "250ms", "1s" or "1h" from the environment, if set.
    static func duration(_ name: String) throws -> Duration? {
        guard let text = values[name], !text.isEmpty else { return nil }
        if text.hasSuffix("ms"), let milliseconds = Int64(text.dropLast(2)), milliseconds > 0 { return .milliseconds(milliseconds) }
        guard let seconds = SettingsReader.parseDuration(text), seconds > 0 else { throw CommandFailure("\(name) must be a duration such as 250ms, 1s or 1h") }
        return .seconds(seconds)
    }

    static func logger(_ label: String) -> Logger {
        var logger = Logger(label: label)
        logger.logLevel = values["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        return logger
    }

    /// The database DATABASE_URL names, through a router that has already
    /// found the primary among the URL's hosts; the router must run.
    static func database(_ logger: Logger) async throws -> (PrimaryRouter, Database) {
        let router = PrimaryRouter(endpoint: try databaseEndpoint(), logger: logger)
        await router.followPrimary()
        return (router, Database(router: router, logger: logger))
    }

    /// Runs `body` with a PostgreSQL client that is running, then stops it.
    static func withDatabase<T: Sendable>(_ logger: Logger, _ body: @Sendable (Database) async throws -> T) async throws -> T {
        let (router, database) = try await database(logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await router.run() }
            await Task.yield()
            defer { group.cancelAll() }
            return try await body(database)
        }
    }
}

struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
