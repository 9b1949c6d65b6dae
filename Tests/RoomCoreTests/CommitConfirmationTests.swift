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
        #expect(StatementEffect.mayWrite("SELECT roomkeeper_feed_stamp($1, 2000)"), "#41: the stamp gives places")
    }

    /// #41: a function of ours that writes, called as `SELECT f(…)`, read
    /// as a read, so its commit went unconfirmed (the feed's stamp). Every
    /// non-trigger function of `schema/` whose last definition writes must
    /// be taken as a write.
    @Test func everyFunctionOfTheSchemaThatWritesIsTakenAsAWrite() throws {
        var bodies: [String: String] = [:]
        let files = FileManager.default.enumerator(atPath: TestDatabase.schemaRoot.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".sql") }.sorted {
            ($0.split(separator: "/").last ?? "") < ($1.split(separator: "/").last ?? "")
        } ?? []
        #expect(files.count > 20)
        let definition = try Regex(#"CREATE (?:OR REPLACE )?FUNCTION (\w+)\([^)]*\)\s+RETURNS (\w+)[\s\S]*?\$\$([\s\S]*?)\$\$"#)
        for file in files {
            let text = try String(contentsOf: TestDatabase.schemaRoot.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: definition) {
                guard let name = match.output[1].substring, let returns = match.output[2].substring, let body = match.output[3].substring else { continue }
                bodies[String(name)] = returns.lowercased() == "trigger" ? nil : String(body).uppercased()
            }
        }
        #expect(bodies["roomkeeper_feed_stamp"] != nil && bodies["roomkeeper_banned"] != nil, "the schema's functions were read")
        for (name, body) in bodies {
            let reads = body.replacingOccurrences(of: "FOR NO KEY UPDATE", with: "").replacingOccurrences(of: "FOR UPDATE", with: "")
            let writes = ["INSERT ", "UPDATE ", "DELETE ", "PG_NOTIFY"].contains { reads.contains($0) }
            #expect(StatementEffect.mayWrite("SELECT \(name)($1)") == writes, "\(name) \(writes ? "writes" : "only reads")")
        }
    }
}

/// #41: a write whose connection broke after it was sent may have been
/// applied. It is classified `outcomeUnknown` (an `Idempotency-Key` then
/// stays claimed), a read or a refused write stays "unavailable, try again".
@Suite struct UnknownOutcomeTests {
    @Test func aWriteSentToAServerThatStopsAnsweringHasAnUnknownOutcome() async throws {
        let table = "unknown_outcome_\(uniqueID())"
        let direct = try await TestDatabase.shared()
        try await direct.query(PostgresQuery(unsafeSQL: "CREATE TABLE \(table) (id int)"))
        defer { Task { try? await direct.query(PostgresQuery(unsafeSQL: "DROP TABLE \(table)")) } }
        try await ForwardedDatabase.run { database, forwarder in
            forwarder.freeze()
            let write = await #expect(throws: (any Error).self) {
                try await DatabaseDeadline.$statementSeconds.withValue(1) {
                    try await database.query(PostgresQuery(unsafeSQL: "INSERT INTO \(table) (id) VALUES (1)"))
                }
            }
            #expect(write.map { Failure(classifying: $0) }.map(Self.isUnknown) == true, "sent, never answered: \(String(describing: write))")
            let read = await #expect(throws: (any Error).self) {
                try await DatabaseDeadline.$statementSeconds.withValue(1) {
                    try await database.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)"))
                }
            }
            guard case .databaseUnavailable? = read.map({ Failure(classifying: $0) }) else {
                Issue.record("a read changes nothing: try again, \(String(describing: read))")
                return
            }
            forwarder.thaw()
        }
    }

    @Test func aCommitPostgreSQLRefusedIsKnownNotApplied() async throws {
        let database = try await TestDatabase.shared()
        let table = "refused_commit_\(uniqueID())"
        try await database.query(PostgresQuery(unsafeSQL: """
            CREATE TABLE \(table) (id int, CONSTRAINT \(table)_once UNIQUE (id) DEFERRABLE INITIALLY DEFERRED)
            """))
        defer { Task { try? await database.query(PostgresQuery(unsafeSQL: "DROP TABLE \(table)")) } }
        let error = await #expect(throws: (any Error).self) {
            try await database.query(PostgresQuery(unsafeSQL: "INSERT INTO \(table) (id) VALUES (1), (1)"))
        }
        guard case .databaseUnavailable? = error.map({ Failure(classifying: $0) }) else {
            Issue.record("PostgreSQL said it rolled back: known, \(String(describing: error))")
            return
        }
    }

    static func isUnknown(_ failure: Failure) -> Bool {
        if case .outcomeUnknown = failure { return true }
        return false
    }
}
