import Foundation
import Logging
import PostgresNIO
@testable import RoomCore
import RoomTestSupport
import Synchronization
import Testing

/// A PostgreSQL that hangs (SIGSTOP, a host gone without a TCP reset) never
/// holds a request or a listener past its bound (#27, item 2): statements
/// have a client-side deadline that closes their connection, a request's
/// waits end by its deadline, and a LISTEN connection is pinged.
@Suite struct HungDatabaseTests {
    static func frozenDatabase(_ body: @Sendable (Database, TCPForwarder) async throws -> Void) async throws {
        let forwarder = try await TCPForwarder(to: PrimaryRouterTests.databasePort())
        let endpoint = try PrimaryRouterTests.endpoint(ports: [forwarder.port])
        let client = PostgresClient(configuration: endpoint.hosts[0].pool, backgroundLogger: PrimaryRouterTests.logger)
        let run = Task { await client.run() }
        defer { run.cancel(); Task { await forwarder.stop() } }
        let database = Database(client: client, logger: PrimaryRouterTests.logger, dedicatedConnection: endpoint.hosts[0].connection, leaseSeconds: 1)
        _ = try await database.query("SELECT 1")  // a connection in the pool
        try await body(database, forwarder)
    }

    @Test func aStatementToAHungServerFailsByItsDeadline() async throws {
        try await Self.frozenDatabase { database, forwarder in
            forwarder.freeze()
            let started = ContinuousClock.now
            let error = await #expect(throws: (any Error).self) {
                try await withDeadline(8, { "a statement sent to a hung server" }) {
                    try await DatabaseDeadline.$statementSeconds.withValue(1) { _ = try await database.query("SELECT 1") }
                }
            }
            #expect(error.map(DatabaseUnavailable.matches) == true, "answered as 'try again': \(String(describing: error))")
            #expect(ContinuousClock.now - started < .seconds(3), "by the statement's deadline (1 s)")
            forwarder.thaw()
            let served = try await database.query("SELECT 1").count
            #expect(served == 1, "the pool serves again with a new connection")
        }
    }

    @Test func aRequestsWaitsEndByItsDeadline() async throws {
        try await Self.frozenDatabase { database, forwarder in
            forwarder.freeze()
            let started = ContinuousClock.now
            await #expect(throws: (any Error).self) {
                try await withDeadline(8, { "a request on a hung server" }) {
                    try await DatabaseDeadline.$request.withValue(.now + .milliseconds(1500)) {
                        // Two statements of 12 s each would wait 24 s; the request has 1.5 s.
                        _ = try? await database.query("SELECT 1")
                        _ = try await database.query("SELECT 2")
                    }
                }
            }
            #expect(ContinuousClock.now - started < .seconds(3), "by the request's deadline (1.5 s)")
        }
    }

    @Test func aListenerOnAHungServerEndsAndCanReconnect() async throws {
        try await Self.frozenDatabase { database, forwarder in
            let started = Mutex<ContinuousClock.Instant?>(nil)
            let ended = await #expect(throws: (any Error).self) {
                try await withDeadline(15, { "a LISTEN on a hung server" }) {
                    try await database.listen(on: "hung_test_\(uniqueID())") { notifications in
                        forwarder.freeze()
                        started.withLock { $0 = .now }
                        for try await _ in notifications {}
                    }
                }
            }
            #expect(!(ended is DeadlineExceeded), "the listener noticed: \(String(describing: ended))")
            let frozenAt = try #require(started.withLock { $0 })
            #expect(ContinuousClock.now - frozenAt < .seconds(2 * Database.listenPingSeconds + 2), "within two pings")
        }
    }
}
