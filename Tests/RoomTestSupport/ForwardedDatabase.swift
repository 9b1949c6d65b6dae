import Foundation
import Logging
import PostgresNIO
import RoomCore

/// The test database reached through a `TCPForwarder`, so a test can freeze
/// or cut the server's connections while PostgreSQL itself keeps running.
public enum ForwardedDatabase {
    public static func run<T: Sendable>(_ body: @Sendable (Database, TCPForwarder) async throws -> T) async throws -> T {
        guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"], var components = URLComponents(string: url),
              let port = components.port else {
            throw TestDatabase.SetupError(description: "DATABASE_URL is not set")
        }
        let forwarder = try await TCPForwarder(to: port)
        components.port = forwarder.port
        var logger = Logger(label: "forwarded-db")
        logger.logLevel = .critical
        let endpoint = try DatabaseURL.endpoint(from: components.string!)
        let client = PostgresClient(configuration: endpoint.pool, backgroundLogger: logger)
        let run = Task { await client.run() }
        defer { run.cancel(); Task { await forwarder.stop() } }
        let database = Database(client: client, logger: logger, dedicatedConnection: endpoint.connection, leaseSeconds: 1)
        _ = try await database.query("SELECT 1")  // a connection in the pool
        return try await body(database, forwarder)
    }
}
