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

    /// The database DATABASE_URL names (or `endpoint`), through a router
    /// that has already found the primary among the URL's hosts; the router must run.
    static func database(_ logger: Logger, endpoint: DatabaseURL.Endpoint? = nil) async throws -> (PrimaryRouter, Database) {
        let router = PrimaryRouter(endpoint: try endpoint ?? databaseEndpoint(), logger: logger)
        await router.followPrimary()
        return (router, Database(router: router, logger: logger))
    }

    /// Connects to every cell as `user` (its password from PGPASSFILE)
    /// instead of the URLs' own: `roomkeeper tenants move` needs a role that
    /// may replicate and subscribe (a superuser in PostgreSQL 15), which
    /// the instances' own role should not be (ROOMKEEPER_MOVE_USER, #43).
    static func connectAs(_ user: String?) {
        guard let user, !user.isEmpty else { return }
        func swapped(_ url: String) -> String {
            url.replacingOccurrences(of: #"^(postgres(?:ql)?://)[^@/]*@"#, with: "$1\(user)@", options: .regularExpression)
        }
        if let url = values["DATABASE_URL"] { setenv("DATABASE_URL", swapped(url), 1) }
        if let cells = values["ROOMKEEPER_CELLS"] {
            let entries = cells.split(separator: ";").map { entry -> String in
                let parts = entry.split(separator: "=", maxSplits: 1)
                return parts.count == 2 ? "\(parts[0])=\(swapped(String(parts[1])))" : String(entry)
            }
            setenv("ROOMKEEPER_CELLS", entries.joined(separator: ";"), 1)
        }
    }

    /// The first cell's name (#43): ROOMKEEPER_CELL, "cell1" by default.
    static var homeCell: String { values["ROOMKEEPER_CELL"].flatMap { $0.isEmpty ? nil : $0 } ?? "cell1" }

    /// The other cells (#43): ROOMKEEPER_CELLS="cell2=postgres://…;cell3=…"
    /// (`;` between cells: a URL names its hosts with commas), in order.
    static func otherCells() throws -> [(name: String, endpoint: DatabaseURL.Endpoint)] {
        guard let text = values["ROOMKEEPER_CELLS"], !text.isEmpty else { return [] }
        return try text.split(separator: ";").map { entry in
            let parts = entry.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw CommandFailure("ROOMKEEPER_CELLS: \"\(entry)\" is not name=postgres-url")
            }
            return (parts[0], try DatabaseURL.endpoint(from: parts[1], statementTimeout: values["ROOMKEEPER_STATEMENT_TIMEOUT"] ?? "10s"))
        }
    }

    /// The cell `tenant` lives in, by the directory in the first cell, and
    /// its endpoint (nil: the first cell's, DATABASE_URL).
    static func cell(of tenant: String, _ logger: Logger) async throws -> (name: String, endpoint: DatabaseURL.Endpoint?) {
        let others = try otherCells()
        guard !others.isEmpty else { return (homeCell, nil) }
        let name = try await withDatabase(logger) { home in
            try await home.query("SELECT cell FROM tenant_cells WHERE tenant_id = \(tenant)").decode(String.self).first
        } ?? homeCell
        if name == homeCell { return (name, nil) }
        guard let endpoint = others.first(where: { $0.name == name })?.endpoint else {
            throw CommandFailure("tenant \(tenant) is placed in cell \(name), which ROOMKEEPER_CELLS does not name")
        }
        return (name, endpoint)
    }

    /// Applies the migrations to every cell (the first cell's first), and
    /// moves each other cell's id sequences into its own range (`Cells.claimIDRange`).
    static func migrateCells(_ migrator: Migrator, _ logger: Logger) async throws -> Int {
        var applied = try await withDatabase(logger) { try await migrator.migrate($0) }.count
        for (index, cell) in try otherCells().enumerated() {
            applied += try await withDatabase(logger, endpoint: cell.endpoint) { database in
                let done = try await migrator.migrate(database)
                try await Cells.claimIDRange(index: index + 1, on: database)
                return done
            }.count
        }
        return applied
    }

    /// Runs `body` with a PostgreSQL client that is running, then stops it.
    static func withDatabase<T: Sendable>(_ logger: Logger, endpoint: DatabaseURL.Endpoint? = nil,
                                          _ body: @Sendable (Database) async throws -> T) async throws -> T {
        let (router, database) = try await database(logger, endpoint: endpoint)
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
