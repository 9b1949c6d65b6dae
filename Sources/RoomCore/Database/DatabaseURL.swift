import Foundation
import PostgresNIO

/// PostgresNIO has no URL initializer; this parses `DATABASE_URL`
/// (`postgres://user:pass@host:port/db?sslmode=disable`, or a unix socket via
/// `?host=/path/to/dir`) into the pool's configuration and a single
/// connection's (for LISTEN, which should not hold a pooled connection).
public enum DatabaseURL {
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    public struct Endpoint: Sendable {
        public let pool: PostgresClient.Configuration
        public let connection: PostgresConnection.Configuration
    }

    public static func configuration(from string: String) throws -> PostgresClient.Configuration {
        try endpoint(from: string).pool
    }

    /// The pool's sessions are bounded: no statement runs longer than
    /// `statementTimeout`, and no transaction sits idle longer than
    /// `idleInTransactionTimeout` holding its locks (a slow or hostile
    /// request cannot pin a connection or a room).
    public static func endpoint(from string: String, statementTimeout: String = "10s", idleInTransactionTimeout: String = "30s") throws -> Endpoint {
        let endpoint = try unbounded(from: string)
        var pool = endpoint.pool
        pool.options.additionalStartupParameters += [
            ("statement_timeout", statementTimeout), ("idle_in_transaction_session_timeout", idleInTransactionTimeout),
        ]
        return Endpoint(pool: pool, connection: endpoint.connection)
    }

    private static func unbounded(from string: String) throws -> Endpoint {
        guard let url = URLComponents(string: string),
              url.scheme == "postgres" || url.scheme == "postgresql" else {
            throw Invalid(description: "DATABASE_URL must look like postgres://user:password@host:port/database")
        }
        let query = Dictionary((url.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        let user = url.user.flatMap { $0.removingPercentEncoding } ?? "postgres"
        var database = url.path
        if database.hasPrefix("/") { database.removeFirst() }
        let name = database.isEmpty ? nil : database
        // Without one in the URL, the password comes from PGPASSFILE, as for psql.
        let password = url.password.flatMap { $0.removingPercentEncoding }
            ?? PgPass.password(host: url.host ?? "127.0.0.1", port: url.port ?? 5432, database: name, user: user)

        if let socketDirectory = query["host"], socketDirectory.hasPrefix("/") {
            let path = "\(socketDirectory)/.s.PGSQL.\(url.port ?? 5432)"
            return Endpoint(
                pool: .init(unixSocketPath: path, username: user, password: password, database: name),
                connection: .init(unixSocketPath: path, username: user, password: password, database: name))
        }
        let host = url.host ?? "127.0.0.1", port = url.port ?? 5432
        switch query["sslmode"] ?? "disable" {
        case "disable", "allow":
            return Endpoint(
                pool: .init(host: host, port: port, username: user, password: password, database: name, tls: .disable),
                connection: .init(host: host, port: port, username: user, password: password, database: name, tls: .disable))
        case "prefer":
            return Endpoint(
                pool: .init(host: host, port: port, username: user, password: password, database: name, tls: try .prefer(.clientDefault)),
                connection: .init(host: host, port: port, username: user, password: password, database: name, tls: try .prefer(.init(configuration: .clientDefault))))
        default:
            return Endpoint(
                pool: .init(host: host, port: port, username: user, password: password, database: name, tls: try .require(.clientDefault)),
                connection: .init(host: host, port: port, username: user, password: password, database: name, tls: try .require(.init(configuration: .clientDefault))))
        }
    }
}
