import Foundation
import Logging
import PostgresNIO
import RoomCore
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
