import Foundation
import Logging
import PostgresNIO
@testable import RoomCore
import RoomTestSupport
import Testing

/// A write is taken as done only once PostgreSQL has reported its commit
/// (#27, item 0). PostgresNIO ends a statement at CommandComplete; outside a
/// transaction block the implicit commit comes after that, at Sync, and can
/// still fail (a deferred constraint, a commit cut off while it waits for the
/// synchronous standby of a primary that hung and was failed over). Inside a
/// block, COMMIT itself can answer ROLLBACK when the block had failed.
@Suite struct CommitConfirmationTests {
    /// A deferred unique constraint is checked at commit: the statement
    /// completes, then its implicit commit fails.
    @Test func aWriteWhoseImplicitCommitFailsIsNotTakenAsDone() async throws {
        let database = try await TestDatabase.shared()
        let table = "commit_probe_\(uniqueID())"
        try await database.query(PostgresQuery(unsafeSQL: """
            CREATE TABLE \(table) (id int, CONSTRAINT \(table)_once UNIQUE (id) DEFERRABLE INITIALLY DEFERRED)
            """))
        defer { Task { try? await database.query(PostgresQuery(unsafeSQL: "DROP TABLE \(table)")) } }
        await #expect(throws: (any Error).self, "the commit failed after CommandComplete") {
            try await database.query(PostgresQuery(unsafeSQL: "INSERT INTO \(table) (id) VALUES (1), (1)"))
        }
        let count = try await database.query(PostgresQuery(unsafeSQL: "SELECT count(*)::int FROM \(table)"))
        #expect(try count.first?.decode(Int.self) == 0, "nothing was written")
        // The same write through a statement with a RETURNING clause: its rows
        // arrive before the commit is known.
        await #expect(throws: (any Error).self) {
            try await database.query(PostgresQuery(unsafeSQL: "INSERT INTO \(table) (id) VALUES (2), (2) RETURNING id"))
        }
        try await database.query(PostgresQuery(unsafeSQL: "INSERT INTO \(table) (id) VALUES (3)"))
        let kept = try await database.query(PostgresQuery(unsafeSQL: "SELECT count(*)::int FROM \(table)"))
        #expect(try kept.first?.decode(Int.self) == 1, "a write that commits still succeeds")
    }

    /// A block whose statement failed (and whose error the body swallowed)
    /// answers COMMIT with ROLLBACK: its earlier writes are gone.
    @Test func aTransactionThatRolledBackAtCommitIsNotTakenAsDone() async throws {
        let database = try await TestDatabase.shared()
        let table = "commit_probe_\(uniqueID())"
        try await database.query(PostgresQuery(unsafeSQL: "CREATE TABLE \(table) (id int)"))
        defer { Task { try? await database.query(PostgresQuery(unsafeSQL: "DROP TABLE \(table)")) } }
        await #expect(throws: (any Error).self, "COMMIT answered ROLLBACK") {
            try await database.transaction { connection in
                try await connection.run(PostgresQuery(unsafeSQL: "INSERT INTO \(table) (id) VALUES (1)"), logger: database.logger)
                _ = try? await connection.run("SELECT 1 / 0", logger: database.logger)
            }
        }
        let count = try await database.query(PostgresQuery(unsafeSQL: "SELECT count(*)::int FROM \(table)"))
        #expect(try count.first?.decode(Int.self) == 0)
    }

    /// Which statements need their commit confirmed outside a block: the
    /// ones that may write. Reads need no extra round trip.
    @Test func statementsThatMayWriteAreRecognised() {
        #expect(StatementEffect.mayWrite("INSERT INTO t VALUES (1)"))
        #expect(StatementEffect.mayWrite("  -- why\nUPDATE rooms SET name = $1"))
        #expect(StatementEffect.mayWrite("WITH gone AS (DELETE FROM t RETURNING id) SELECT count(*) FROM gone"))
        #expect(StatementEffect.mayWrite("SELECT pg_notify('x', 'y')"))
        #expect(StatementEffect.mayWrite("SELECT nextval('room_ids')"))
        #expect(StatementEffect.mayWrite("CREATE TABLE t (id int)"))
        #expect(StatementEffect.mayWrite("INSERT INTO t VALUES (1) ON CONFLICT (id) DO UPDATE SET n = 2"))
        #expect(!StatementEffect.mayWrite("SELECT * FROM rooms WHERE tenant_id = $1"))
        #expect(!StatementEffect.mayWrite("SELECT * FROM rooms WHERE tenant_id = $1 FOR UPDATE"))
        #expect(!StatementEffect.mayWrite("SELECT * FROM rooms FOR NO KEY UPDATE SKIP LOCKED"))
        #expect(!StatementEffect.mayWrite("SELECT updated_at, inserted FROM t"))
        #expect(!StatementEffect.mayWrite("BEGIN") && !StatementEffect.mayWrite("COMMIT") && !StatementEffect.mayWrite("SET LOCAL x = 1"))
        #expect(!StatementEffect.mayWrite("LISTEN roomkeeper_rooms") && !StatementEffect.mayWrite("SHOW transaction_read_only"))
        #expect(!StatementEffect.mayWrite("SELECT pg_advisory_lock(1)"))
    }
}
