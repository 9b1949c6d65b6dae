import Foundation
import PostgresNIO
import RoomCore
import RoomTestSupport
import Testing

/// A transaction PostgreSQL rolls back to break a deadlock (40P01), or for
/// a serialization failure (40001), wrote nothing and may simply run
/// again: the caller is told "try again" (503 on the admin API, the wire's
/// busy code on client routes), not an internal error. Before, the lift
/// racing a ban (LiftRaceTests) surfaced as a raw PSQLError, a 500.
@Suite struct RolledBackTransactionTests {
    @Test func aDeadlockVictimIsToldToTryAgain() async throws {
        let database = try await TestDatabase.shared()
        let table = "deadlock_probe_" + Secrets.randomToken(bytes: 5).lowercased()
        try await database.query("CREATE TABLE \(unescaped: table) (id int PRIMARY KEY)")
        try await database.query("INSERT INTO \(unescaped: table) VALUES (1), (2)")
        // Each locks one row, then (once both hold theirs) asks for the other's.
        func side(_ mine: Int, _ theirs: Int) async -> (any Error)? {
            do {
                try await database.transaction { connection in
                    try await connection.run("SELECT 1 FROM \(unescaped: table) WHERE id = \(mine) FOR UPDATE", logger: database.logger)
                    try await Task.sleep(for: .milliseconds(200))
                    try await connection.run("SELECT 1 FROM \(unescaped: table) WHERE id = \(theirs) FOR UPDATE", logger: database.logger)
                }
                return nil
            } catch {
                return error
            }
        }
        async let first = side(1, 2)
        async let second = side(2, 1)
        let errors = await [first, second].compactMap { $0 }
        try await database.query("DROP TABLE \(unescaped: table)")
        #expect(errors.count == 1, "PostgreSQL failed one of the two: \(errors.map { String(reflecting: $0) })")
        for error in errors {
            guard case .databaseUnavailable = Failure(classifying: error) else {
                Issue.record("a deadlock's victim was classified \(Failure(classifying: error))")
                continue
            }
        }
    }
}
