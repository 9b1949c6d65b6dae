import Foundation
import PostgresNIO

/// PostgresNIO has no URL initializer; this parses `DATABASE_URL`
/// (`postgres://user:pass@host:port/db?sslmode=disable`, or a unix socket via
/// `?host=/path/to/dir`) into the pool's configuration and a single
/// connection's (for LISTEN, which should not hold a pooled connection).
///
/// Like libpq it accepts several hosts, `postgres://u@h1:5432,h2:5433/db`,
/// as `pg_autoctl show uri` prints them; `PrimaryRouter` then sends every
/// query to the one that accepts writes.
public enum DatabaseURL {
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    /// One server of the URL.
    public struct Host: Sendable {
        /// `host:port` (or the socket path), for logs and errors.
        public let name: String
        public let pool: PostgresClient.Configuration
        public let connection: PostgresConnection.Configuration
    }

    public struct Endpoint: Sendable {
        /// In the URL's order; never empty.
        public let hosts: [Host]
        public var pool: PostgresClient.Configuration { hosts[0].pool }
        public var connection: PostgresConnection.Configuration { hosts[0].connection }
    }

    /// libpq's connection string for `endpoint` (a subscription's, #43):
    /// every host, its user, database and password, the primary only. It
    /// holds the password: never printed or logged.
    public static func conninfo(_ endpoint: Endpoint) -> String {
        func quoted(_ value: String) -> String {
            "'" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        }
        let pools = endpoint.hosts.map(\.pool)
        let first = pools[0]
        var parts = [
            "host=" + quoted(pools.map { $0.host ?? $0.unixSocketPath ?? "" }.joined(separator: ",")),
            "port=" + quoted(pools.map { String($0.port ?? 5432) }.joined(separator: ",")),
            "user=" + quoted(first.username),
            "target_session_attrs=read-write",
        ]
        if let database = first.database { parts.append("dbname=" + quoted(database)) }
        if let password = first.password { parts.append("password=" + quoted(password)) }
        return parts.joined(separator: " ")
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
        return Endpoint(hosts: endpoint.hosts.map { host in
            var pool = host.pool
            // No keep-alive query: PostgresNIO's pool starts a keep-alive
            // timer (a task, a child task pair and a timer of the system's,
            // left armed 30 s after it is cancelled) every time a connection
            // goes back to it, and for what? Every connection it opens on
            // demand is closed after 60 s idle, so a keep-alive (at 30 s)
            // ran at most once in its idle life. In ops/bench figure 7 the
            // system's timer thread was 9.6 % of the server's samples with
            // them and 1.7 % without; with the queues' one timer (WaitTicker)
            // the server's CPU a join went 1,006 -> 829 µs, alternated with
            // the build before both (docs/bench/2026-12-02-figure-7-the-pools-timers.md). A
            // connection that died idle still fails its next statement,
            // answered "try again", as one that dies busy.
            pool.options.keepAliveBehavior = nil
            pool.options.additionalStartupParameters += [
                ("statement_timeout", statementTimeout), ("idle_in_transaction_session_timeout", idleInTransactionTimeout),
            ]
            return Host(name: host.name, pool: pool, connection: host.connection)
        })
    }

    /// Roomkeeper writes, so with several hosts it always looks for the one
    /// that accepts writes: `target_session_attrs` may be absent,
    /// `read-write`, `primary` or `any`, never a standby's.
    private static let acceptedSessionAttributes: Set<String> = ["read-write", "primary", "any"]

    private static func unbounded(from string: String) throws -> Endpoint {
        let single = try singleHostURLs(string)
        for url in single {
            let attributes = URLComponents(string: url)?.queryItems?.first { $0.name == "target_session_attrs" }?.value
            if let attributes, !acceptedSessionAttributes.contains(attributes) {
                throw Invalid(description: "DATABASE_URL's target_session_attrs must be read-write (Roomkeeper writes), not \(attributes)")
            }
        }
        return Endpoint(hosts: try single.map(host(from:)))
    }

    /// `scheme://userinfo@h1:p1,h2:p2/rest` as one URL per host, each with the
    /// same user, database and parameters (URLComponents reads one host only).
    static func singleHostURLs(_ string: String) throws -> [String] {
        guard let schemeEnd = string.range(of: "://") else {
            throw Invalid(description: "DATABASE_URL must look like postgres://user:password@host:port/database")
        }
        let afterScheme = string[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
        let authority = afterScheme[..<authorityEnd]
        let userInfo = authority.lastIndex(of: "@").map { authority[...$0] } ?? ""
        let hostList = authority[(authority.lastIndex(of: "@").map { authority.index(after: $0) } ?? authority.startIndex)...]
        let hosts = hostList.split(separator: ",", omittingEmptySubsequences: false)
        guard hosts.count > 1 else { return [string] }
        guard !hosts.contains(where: \.isEmpty) else {
            throw Invalid(description: "DATABASE_URL has an empty host in its list \(hostList)")
        }
        let prefix = string[..<schemeEnd.upperBound], rest = afterScheme[authorityEnd...]
        return hosts.map { "\(prefix)\(userInfo)\($0)\(rest)" }
    }

    private static func host(from string: String) throws -> Host {
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
            return Host(
                name: path,
                pool: .init(unixSocketPath: path, username: user, password: password, database: name),
                connection: .init(unixSocketPath: path, username: user, password: password, database: name))
        }
        let host = url.host ?? "127.0.0.1", port = url.port ?? 5432, hostName = "\(host):\(port)"
        switch query["sslmode"] ?? "disable" {
        case "disable", "allow":
            return Host(
                name: hostName,
                pool: .init(host: host, port: port, username: user, password: password, database: name, tls: .disable),
                connection: .init(host: host, port: port, username: user, password: password, database: name, tls: .disable))
        case "prefer":
            return Host(
                name: hostName,
                pool: .init(host: host, port: port, username: user, password: password, database: name, tls: .prefer(.clientDefault)),
                connection: .init(host: host, port: port, username: user, password: password, database: name, tls: try .prefer(.init(configuration: .clientDefault))))
        default:
            return Host(
                name: hostName,
                pool: .init(host: host, port: port, username: user, password: password, database: name, tls: .require(.clientDefault)),
                connection: .init(host: host, port: port, username: user, password: password, database: name, tls: try .require(.init(configuration: .clientDefault))))
        }
    }
}
