import Foundation
import Logging
import PostgresNIO
import RoomCore
import RoomProviders

/// The database every test uses: `DATABASE_URL` (ops/test creates a fresh
/// one), migrated once per test process. Tests isolate themselves by using
/// tenants of their own, as real tenants are isolated.
public enum TestDatabase {
    private static let setUp = Task<Database, any Error> {
        guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty else {
            throw SetupError(description: "DATABASE_URL is not set: run the tests with ops/test, which starts a local PostgreSQL")
        }
        let database = try connect(url)
        try await migrator.migrate(database)
        return database
    }

    /// A database at `url` whose client runs for the whole test process.
    private static func connect(_ url: String) throws -> Database {
        var logger = Logger(label: "tests")
        logger.logLevel = .warning
        let endpoint = try DatabaseURL.endpoint(from: url)
        let client = PostgresClient(configuration: endpoint.pool, backgroundLogger: logger)
        Task.detached { await client.run() }
        return Database(client: client, logger: logger, dedicatedConnection: endpoint.connection)
    }

    /// Also turns on the plan check of plugin statements (`PlanScope`): in
    /// the tests, PostgreSQL itself says which tables each one touches.
    public static func shared() async throws -> Database {
        PlanScope.turnOn()
        return try await setUp.value
    }

    public static var schemaRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("schema")
    }

    public static var migrator: Migrator {
        get throws {
            // Core, the providers', then every plugin's folder.
            let fixed = ["core"] + StandardProviderCatalog.schemaFolders
            let plugins = (try? FileManager.default.contentsOfDirectory(atPath: schemaRoot.path))?.filter { !fixed.contains($0) }.sorted() ?? []
            return try Migrator(schemaRoot: schemaRoot, folders: fixed + plugins)
        }
    }

    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }
}

/// A unique id, so parallel tests never share a tenant.
public func uniqueID(_ prefix: String = "t") -> String {
    prefix + Secrets.randomToken(bytes: 5)
}

extension TestDatabase {
    /// Runs `body` on another database of the same server, with its own client.
    public static func withDatabase<T: Sendable>(named name: String, _ body: @Sendable (Database) async throws -> T) async throws -> T {
        guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"], var components = URLComponents(string: url) else {
            throw SetupError(description: "DATABASE_URL is not set")
        }
        components.path = "/\(name)"
        var logger = Logger(label: "tests")
        logger.logLevel = .warning
        let client = PostgresClient(configuration: try DatabaseURL.configuration(from: components.string!), backgroundLogger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(Database(client: client, logger: logger))
        }
    }
}

extension TestDatabase {
    /// Runs `body` with a running client of the test database whose pool
    /// holds `connections` at most (tests of how leases wait).
    public static func withPool<T>(connections: Int, label: String, _ body: (PostgresClient) async throws -> T) async throws -> T {
        guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"] else { throw SetupError(description: "DATABASE_URL is not set") }
        var pool = try DatabaseURL.endpoint(from: url).pool
        pool.options.maximumConnections = connections
        let client = PostgresClient(configuration: pool, backgroundLogger: Logger(label: label))
        let run = Task { await client.run() }
        defer { run.cancel() }
        return try await body(client)
    }
}

extension TestDatabase {
    /// The database a conformance run is given (#43: "everything that worked
    /// on one cell works on two"): the test database, or, with
    /// `ROOMKEEPER_TEST_CELLS=2` (ops/test's second pass), the test database
    /// routed by two cells, the second a database of the same server made
    /// once per process. `ConformanceSuite` then places its first tenant in
    /// the second cell and the other in the first.
    public static func forConformance() async throws -> Database {
        let home = try await shared()
        guard ProcessInfo.processInfo.environment["ROOMKEEPER_TEST_CELLS"] == "2" else { return home }
        let cells = try Cells(home: "cell1", others: [Cells.Cell(name: "cell2", database: try await secondCell.value)])
        try await cells.load(from: home)
        return home.routed(by: cells)
    }

    /// `<test database>_cell2`, made afresh and migrated, its ids drawn from
    /// cell 1's range as `roomkeeper serve` sets a second cell up.
    private static let secondCell = Task<Database, any Error> {
        let home = try await shared()
        guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"], var components = URLComponents(string: url) else {
            throw SetupError(description: "DATABASE_URL is not set")
        }
        let name = components.path.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + "_cell2"
        try await home.query("DROP DATABASE IF EXISTS \(unescaped: name) WITH (FORCE)")
        try await home.query("CREATE DATABASE \(unescaped: name)")
        components.path = "/\(name)"
        let cell = try connect(components.string!)
        try await migrator.migrate(cell)
        try await Cells.claimIDRange(index: 1, on: cell)
        return cell
    }
}
