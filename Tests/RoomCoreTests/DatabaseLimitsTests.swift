import Foundation
import Logging
import PostgresNIO
@testable import RoomCore
import RoomTestSupport
import Testing

/// The pool's sessions are bounded, so a slow or hostile request cannot pin
/// a connection, and a logged database error carries neither the request's
/// parameters nor the SQL.
@Suite struct DatabaseLimitsTests {
    @Test func aStatementPastTheTimeoutIsCancelled() async throws {
        let url = try #require(ProcessInfo.processInfo.environment["DATABASE_URL"])
        let endpoint = try DatabaseURL.endpoint(from: url, statementTimeout: "200ms")
        let client = PostgresClient(configuration: endpoint.pool, backgroundLogger: Logger(label: "limits"))
        let run = Task { await client.run() }
        defer { run.cancel() }
        let database = Database(client: client, logger: Logger(label: "limits"))
        await #expect(throws: PSQLError.self) { try await database.query("SELECT pg_sleep(2)") }
        do {
            try await database.query("SELECT pg_sleep(2)")
        } catch let error as PSQLError {
            #expect(error.serverInfo?[.sqlState] == "57014", "query_canceled by statement_timeout")
        }
        #expect(try await database.query("SELECT 1").count == 1, "the pool still serves")
    }

    /// A pooled connection whose server went away (a restart, a failover)
    /// must never take a request with it: before the lease checked, the pool
    /// could lend a connection that had closed before it heard, and the query
    /// written to it waited for ever (seen in CI as a hung run, in ops/chaos
    /// as a seat move unanswered through a PostgreSQL restart).
    @Test func aConnectionTheServerDroppedNeverHangsARequest() async throws {
        let url = try #require(ProcessInfo.processInfo.environment["DATABASE_URL"])
        let client = PostgresClient(configuration: try DatabaseURL.endpoint(from: url).pool, backgroundLogger: Logger(label: "dropped"))
        let run = Task { await client.run() }
        defer { run.cancel() }
        let database = Database(client: client, logger: Logger(label: "dropped"), leaseSeconds: 2)
        let admin = try await TestDatabase.shared()
        for round in 1...60 {
            // Answered or failed as a database error, in seconds: never a hang.
            let failures = try await withDeadline(10, { "round \(round) of dropping the pool's connections" }) {
                let pids = await withTaskGroup(of: Int?.self) { group in
                    for _ in 1...4 { group.addTask { try? await database.query("SELECT pg_backend_pid()").first?.decode(Int.self) } }
                    return await group.reduce(into: [Int]()) { if let pid = $1 { $0.append(pid) } }
                }
                try await admin.query("SELECT pg_terminate_backend(pid) FROM unnest(\(pids)::int[]) AS pid")
                try await Task.sleep(for: .microseconds(Int.random(in: 0...3000)))
                do {
                    _ = try await database.query("SELECT 1")
                    return [String]()
                } catch where error is PSQLError || DatabaseUnavailable.matches(error) {
                    return []
                } catch {
                    return ["\(error)"]
                }
            }
            #expect(failures.isEmpty, "round \(round)")
        }
        // The last round's dropped connections may each fail one more query cleanly.
        var served = false
        for _ in 1...5 where !served { served = (try? await database.query("SELECT 1").count) == 1 }
        #expect(served, "the pool serves again")
    }

    /// A lease waiting on a full pool ends by its bound with "unavailable",
    /// whichever of many waits: the watch cancels the waiting lease, not the
    /// caller's task, and the pool serves again once a connection is back.
    @Test func leasesWaitingOnAFullPoolEndByTheirBound() async throws {
        try await TestDatabase.withPool(connections: 1, label: "full") { client in
            let database = Database(client: client, logger: Logger(label: "full"), leaseSeconds: 0.5)
            let holding = Task { try await database.withConnection { _ in try await Task.sleep(for: .seconds(2)) } }
            try await Task.sleep(for: .milliseconds(200))
            let started = ContinuousClock.now
            let outcomes = await withTaskGroup(of: (unavailable: Bool, cancelled: Bool).self) { group in
                for _ in 1...8 {
                    group.addTask {
                        do {
                            _ = try await database.query("SELECT 1")
                            return (false, Task.isCancelled)
                        } catch {
                            return (DatabaseUnavailable.matches(error), Task.isCancelled)
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let waited = ContinuousClock.now - started
            #expect(outcomes.allSatisfy { $0.unavailable }, "\(outcomes)")
            #expect(!outcomes.contains { $0.cancelled }, "the callers' tasks are not cancelled")
            #expect(waited >= .milliseconds(450) && waited < .milliseconds(1_200), "ended by the 0.5 s bound, in \(waited)")
            try await holding.value
            #expect(try await database.query("SELECT 1").count == 1, "the pool serves again")
        }
    }

    /// Statements are prepared per connection, and PostgresNIO remembers a
    /// failed preparation for the connection's life: a statement first sent
    /// inside a transaction that had already failed must not fail on that
    /// connection for ever after. One connection in the pool, so the next
    /// request would get the same one.
    @Test func aStatementFirstPreparedInAFailedTransactionRunsOnTheNextRequest() async throws {
        let logger = Logger(label: "prepared")
        try await TestDatabase.withPool(connections: 1, label: "prepared") { client in
            let database = Database(client: client, logger: logger)
            // A text no connection has prepared yet.
            let fresh: PostgresQuery = "SELECT \(7)::int AS seven, 'first sent in a failed transaction \(unescaped: uniqueID())' AS note"
            do {
                try await database.transaction { connection in
                    _ = try? await connection.run("SELECT 1 / 0", logger: logger)
                    _ = try await connection.run(fresh, logger: logger).collect()
                }
                Issue.record("a statement after a failed one in the same transaction should fail")
            } catch let error as PSQLError {
                #expect(error.serverInfo?[.sqlState] == "25P02", "in_failed_sql_transaction")
            }
            let rows = try await database.query(fresh)
            #expect(try rows.decode((Int, String).self).first?.0 == 7, "the statement runs on the next request")
            #expect(try await database.query(fresh).count == 1, "and again, prepared")
        }
    }

    /// A prepared statement is typed as PostgresNIO types it unnamed; the
    /// types are read from the bindings' layout (reflection cost 5.6 % of
    /// the server's CPU), which must still be the layout this build knows.
    @Test func boundTypesAreReadAsPostgresNIODeclaresThem() throws {
        #expect(PreparedStatements.layoutIsKnown, "PostgresBindings' layout changed: statements would fall back to reflection")
        var binds = PostgresBindings()
        binds.append("tenant")
        binds.append(Int64(42))
        binds.append(Optional<Date>.none)
        binds.append([String]())
        let types = try #require(PreparedStatements.boundTypes(binds))
        #expect(types == [.text, .int8, .null, .textArray])
        #expect(types == PreparedStatements.reflectedTypes(binds))
        let query: PostgresQuery = "SELECT \(Int64(1)) -- why"
        #expect(PreparedStatements.text(for: query) != nil)
        #expect(PreparedStatements.text(for: "BEGIN") == nil && PreparedStatements.text(for: "SET LOCAL statement_timeout = '1s'") == nil)
    }

    @Test func aDatabaseErrorIsLoggedWithoutItsParameters() async throws {
        let database = try await TestDatabase.shared()
        let secret = "client-secret-" + uniqueID()
        do {
            try await database.query("SELECT 1 / 0 WHERE \(secret) <> ''")
            Issue.record("division by zero should fail")
        } catch {
            let logged = LoggableError.describe(error)
            #expect(!logged.contains(secret) && !logged.contains("SELECT") && logged.contains("22012"), "neither parameters nor SQL: \(logged)")
        }
    }
}
