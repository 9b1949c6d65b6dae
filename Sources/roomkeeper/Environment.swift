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

    /// Runs `body` with a PostgreSQL client that is running, then stops it.
    static func withDatabase<T: Sendable>(_ logger: Logger, _ body: @Sendable (Database) async throws -> T) async throws -> T {
        let endpoint = try databaseEndpoint()
        let client = PostgresClient(configuration: endpoint.pool, backgroundLogger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            await Task.yield()
            defer { group.cancelAll() }
            return try await body(Database(client: client, logger: logger, dedicatedConnection: endpoint.connection))
        }
    }
}

struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
