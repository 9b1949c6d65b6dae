import Foundation
import PostgresNIO
import RoomCore
import Synchronization

/// Holds the writes of one table that meet a condition (the test's tenant,
/// a statement's text) at a gate: a trigger that waits for an advisory lock
/// the test holds, so a race test can stop a request exactly before its
/// write, let a racing request run, then open the gate.
/// The trigger is the test's own and is dropped when the gate closes.
public final class StatementGate: Sendable {
    let database: Database
    let name: String
    let table: String
    let key: Int64
    private let held: Task<Void, any Error>
    private let release: AsyncStream<Void>.Continuation

    /// Writes (`event`: INSERT or UPDATE) of `table` for which `condition`
    /// holds (SQL: `NEW.…` for a ROW gate) wait at the gate until `open()`.
    /// A STATEMENT gate fires before its statement locks any row.
    public init(_ database: Database, table: String, on event: String = "INSERT", level: String = "ROW", when condition: String) async throws {
        self.database = database
        self.table = table
        self.key = Int64.random(in: 1...Int64(Int32.max))
        self.name = "rk_test_gate_\(key)"
        try await database.query("""
            CREATE FUNCTION \(unescaped: name)() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF \(unescaped: condition) THEN
                    PERFORM pg_advisory_lock(\(unescaped: String(key)));
                    PERFORM pg_advisory_unlock(\(unescaped: String(key)));
                END IF;
                RETURN \(unescaped: level == "ROW" ? "NEW" : "NULL");
            END $$
            """)
        try await database.query("""
            CREATE TRIGGER \(unescaped: name) BEFORE \(unescaped: event) ON \(unescaped: table) FOR EACH \(unescaped: level) EXECUTE FUNCTION \(unescaped: name)()
            """)
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        self.release = continuation
        let locked = AsyncStream<Void>.makeStream()
        let key = key
        held = Task {
            try await database.withDedicatedConnection { connection in
                try await connection.run("SELECT pg_advisory_lock(\(key))", logger: database.logger)
                locked.continuation.yield()
                for await _ in stream { break }
                try await connection.run("SELECT pg_advisory_unlock(\(key))", logger: database.logger)
            }
        }
        for await _ in locked.stream { break }
    }

    /// How many statements wait at the gate now.
    public func waiting() async throws -> Int {
        try await database.query("""
            SELECT count(*)::int FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objid = \(key)
            """).decode(Int.self).first ?? 0
    }

    /// How many statements of this database wait for a row or transaction lock now.
    public func waitingForRows() async throws -> Int {
        try await database.query("""
            SELECT count(*)::int FROM pg_locks WHERE locktype IN ('transactionid', 'tuple') AND NOT granted
            """).decode(Int.self).first ?? 0
    }

    /// Lets the waiting statements go and removes the trigger.
    public func open() async throws {
        release.yield()
        release.finish()
        try await held.value
        try await database.query("DROP TRIGGER IF EXISTS \(unescaped: name) ON \(unescaped: table)")
        try await database.query("DROP FUNCTION IF EXISTS \(unescaped: name)()")
    }
}

extension StatementGate {
    /// Waits until `condition` holds (true) or `seconds` pass (false).
    public static func until(_ seconds: Double, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try await condition()
    }
}

/// A request sent on a connection of its own, in the background: whether it
/// was answered yet, and its answer.
public final class PendingRequest: Sendable {
    private final class Flag: Sendable {
        let value = Atomic<Bool>(false)
    }

    private let task: Task<JSONValue, any Error>
    private let done = Flag()

    public convenience init(port: Int, path: String, body: String) {
        self.init(port: port, ParallelRequests.Request(path: path, body: body))
    }

    public init(port: Int, _ request: ParallelRequests.Request) {
        let done = done
        task = Task {
            defer { done.value.store(true, ordering: .releasing) }
            return try await ParallelRequests.send(port: port, [request])[0].answer
        }
    }

    public var isAnswered: Bool { done.value.load(ordering: .acquiring) }

    public var answer: JSONValue {
        get async throws { try await task.value }
    }
}
