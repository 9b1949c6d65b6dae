import Foundation
import PostgresNIO

/// PostgresNIO has no URL initializer; this parses `DATABASE_URL`
/// (`postgres://user:pass@host:port/db?sslmode=disable`, or a unix socket via
/// `?host=/path/to/dir`).
public enum DatabaseURL {
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    public static func configuration(from string: String) throws -> PostgresClient.Configuration {
        guard let url = URLComponents(string: string),
              url.scheme == "postgres" || url.scheme == "postgresql" else {
            throw Invalid(description: "DATABASE_URL must look like postgres://user:password@host:port/database")
        }
        let query = Dictionary((url.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        let user = url.user.flatMap { $0.removingPercentEncoding } ?? "postgres"
        let password = url.password.flatMap { $0.removingPercentEncoding }
        var database = url.path
        if database.hasPrefix("/") { database.removeFirst() }
        let databaseName = database.isEmpty ? nil : database

        if let socketDirectory = query["host"], socketDirectory.hasPrefix("/") {
            let port = url.port ?? 5432
            return PostgresClient.Configuration(
                unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)",
                username: user, password: password, database: databaseName)
        }
        let tls: PostgresClient.Configuration.TLS
        switch query["sslmode"] ?? "disable" {
        case "disable", "allow": tls = .disable
        case "prefer": tls = try .prefer(.clientDefault)
        default: tls = try .require(.clientDefault)
        }
        return PostgresClient.Configuration(
            host: url.host ?? "127.0.0.1", port: url.port ?? 5432,
            username: user, password: password, database: databaseName, tls: tls)
    }
}
