import Foundation
import Logging
import PostgresNIO
import RoomCore
import RoomTestSupport
import ServiceLifecycle
import Testing

/// #17: the multi-host URL `pg_autoctl show uri` prints is read as libpq
/// reads it, and the instances follow the primary without a restart.
@Suite struct PrimaryRouterTests {
    @Test func aMultiHostURLIsOneHostPerEntryWithTheSameUserDatabaseAndParameters() throws {
        let endpoint = try DatabaseURL.endpoint(
            from: "postgres://app:pw@db1:5432,db2:6432/rooms?sslmode=disable&target_session_attrs=read-write")
        #expect(endpoint.hosts.map(\.name) == ["db1:5432", "db2:6432"])
        for host in endpoint.hosts {
            #expect(host.connection.username == "app")
            #expect(host.connection.password == "pw")
            #expect(host.connection.database == "rooms")
        }
        #expect(try DatabaseURL.endpoint(from: "postgres://app@db1:5432/rooms").hosts.map(\.name) == ["db1:5432"])
    }

    @Test func aURLThatAsksForAStandbyOrHasAnEmptyHostIsRefusedByName() {
        for url in [
            "postgres://app@db1:5432,db2:5432/rooms?target_session_attrs=read-only",
            "postgres://app@db1:5432,db2:5432/rooms?target_session_attrs=standby",
        ] {
            #expect(throws: DatabaseURL.Invalid.self) { try DatabaseURL.endpoint(from: url) }
            #expect((try? DatabaseURL.endpoint(from: url)) == nil)
        }
        do {
            _ = try DatabaseURL.endpoint(from: "postgres://app@db1:5432,,db2:5432/rooms")
            Issue.record("an empty host was accepted")
        } catch let invalid as DatabaseURL.Invalid {
            #expect(invalid.description.contains("empty host"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func theFirstHostThatAnswersIsUsedWhenAnEarlierOneIsDown() async throws {
        let live = try await TCPForwarder(to: Self.databasePort())
        defer { Task { await live.stop() } }
        // Nothing listens on port 9: the first host is down from the start.
        let router = PrimaryRouter(endpoint: try Self.endpoint(ports: [9, live.port]), logger: Self.logger)
        await router.followPrimary()
        #expect(router.activeHost.name == "127.0.0.1:\(live.port)")
        try await Self.running(router) { database in
            let rows = try await database.query("SELECT 1")
            #expect(try rows.first?.decode(Int.self) == 1)
        }
    }

    @Test func whenTheActiveHostVanishesQueriesReachTheOtherWithoutARestart() async throws {
        let first = try await TCPForwarder(to: Self.databasePort())
        let second = try await TCPForwarder(to: Self.databasePort())
        defer { Task { await second.stop() } }
        let router = PrimaryRouter(endpoint: try Self.endpoint(ports: [first.port, second.port]), logger: Self.logger)
        await router.followPrimary()
        #expect(router.activeHost.name == "127.0.0.1:\(first.port)")
        try await Self.running(router) { database in
            _ = try await database.query("SELECT 1")
            await first.stop()
            // Requests in the gap may fail (cleanly); within a few seconds they succeed again.
            let deadline = ContinuousClock.now + .seconds(10)
            var answered = false
            while !answered, ContinuousClock.now < deadline {
                do {
                    _ = try await database.query("SELECT 1")
                    answered = router.activeHost.name == "127.0.0.1:\(second.port)"
                } catch {
                    #expect(DatabaseUnavailable.matches(error), "a failure in the gap is a database outage: \(error)")
                }
                if !answered { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(answered, "the router moved to the second host")
            #expect(router.activeHost.name == "127.0.0.1:\(second.port)")
        }
    }

    static var logger: Logger {
        var logger = Logger(label: "router-test")
        logger.logLevel = .critical
        return logger
    }

    static func databasePort() throws -> Int {
        guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"], let port = URLComponents(string: url)?.port else {
            throw TestDatabase.SetupError(description: "DATABASE_URL is not set")
        }
        return port
    }

    /// DATABASE_URL with its host replaced by a list of 127.0.0.1 ports.
    static func endpoint(ports: [Int]) throws -> DatabaseURL.Endpoint {
        guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"], var components = URLComponents(string: url) else {
            throw TestDatabase.SetupError(description: "DATABASE_URL is not set")
        }
        components.host = "HOSTS"
        components.port = nil
        let hosts = ports.map { "127.0.0.1:\($0)" }.joined(separator: ",")
        return try DatabaseURL.endpoint(from: components.string!.replacingOccurrences(of: "HOSTS", with: hosts))
    }

    static func running(_ router: PrimaryRouter, _ body: @Sendable (Database) async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await router.run() }
            defer { group.cancelAll() }
            try await body(Database(router: router, logger: logger, leaseSeconds: 1))
        }
    }
}
