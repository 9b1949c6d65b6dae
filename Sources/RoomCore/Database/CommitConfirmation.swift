import Logging
import PostgresNIO

/// A write is acknowledged only after PostgreSQL has reported its commit
/// (#27, item 0).
///
/// Why: PostgresNIO ends a statement at its CommandComplete. Outside a
/// transaction block, the extended protocol commits the statement's implicit
/// transaction only at Sync, after CommandComplete, and that commit can still
/// fail: a deferred constraint, or a primary that hung, woke, ran the insert
/// and was then stopped while its commit waited for a synchronous standby
/// that had meanwhile been promoted (seen in 5 of 5 freeze runs: 1-6 guests
/// answered 200 whose account no primary had). So a statement that may write,
/// sent outside a block, is followed on its connection by a statement that
/// PostgresNIO sends only after the first one's ReadyForQuery: it succeeds
/// only if nothing failed in between. Measured against wrapping each such
/// write in BEGIN/COMMIT (two more round trips): one more round trip, and
/// only for writes (reads and the statements of a block need none).
///
/// Inside a block, COMMIT's own completion is the report (PostgreSQL commits
/// before it sends COMMIT's CommandComplete), but a block that failed answers
/// COMMIT with the tag ROLLBACK and no error: that is refused here too.
///
/// Upstream: PostgresNIO could finish a statement at ReadyForQuery (or offer
/// it as an option), which would make the extra round trip unnecessary.
enum StatementEffect {
    /// Statements that change nothing a client is told about.
    private static let quiet: Set<Substring> = [
        "BEGIN", "START", "COMMIT", "END", "ROLLBACK", "ABORT", "SAVEPOINT", "RELEASE", "SET", "SHOW", "RESET",
        "LISTEN", "UNLISTEN", "DEALLOCATE", "DISCARD", "EXPLAIN",
    ]
    /// Words that make a read write: data-modifying CTEs, sequences, NOTIFY,
    /// and our own functions that write (`writingFunctions`).
    private static let writing: Set<Substring> = Set(["INSERT", "DELETE", "MERGE", "TRUNCATE", "NEXTVAL", "SETVAL", "PG_NOTIFY", "COPY"]
                                                     + writingFunctions.map { Substring($0.uppercased()) })
    /// The functions of `schema/` that write, called as `SELECT f(…)`: the
    /// feed's stamp gives places, and a place is handed out only once its
    /// commit is confirmed (#41). `StatementEffectTests` checks that every
    /// such function of the schema is here.
    static let writingFunctions = ["roomkeeper_feed_stamp", "roomkeeper_account_admitted", "roomkeeper_revoke_sessions_after_lock"]

    /// Whether `sql` may write when it runs on its own (its commit is then
    /// the implicit one). Unknown statements are taken as writes.
    static func mayWrite(_ sql: String) -> Bool {
        var words: [Substring] = []
        var rest = Substring(sql.uppercased())
        while !rest.isEmpty {
            rest = rest.drop { !($0.isLetter || $0 == "_" || $0 == "-") }
            if rest.hasPrefix("--") {
                rest = rest.drop { $0 != "\n" }
                continue
            }
            let word = rest.prefix { $0.isLetter || $0 == "_" || $0.isNumber }
            if word.isEmpty {
                rest = rest.dropFirst()
                continue
            }
            words.append(word)
            rest = rest.dropFirst(word.count)
        }
        guard let first = words.first else { return false }
        if quiet.contains(first) { return false }
        guard first == "SELECT" || first == "WITH" || first == "VALUES" || first == "TABLE" else { return true }
        for (index, word) in words.enumerated() {
            if writing.contains(word) { return true }
            // UPDATE writes unless it is a row lock's (FOR UPDATE, FOR NO KEY UPDATE).
            if word == "UPDATE", index > 0, words[index - 1] != "FOR", words[index - 1] != "KEY" { return true }
        }
        return false
    }
}

/// The connection a task's transaction block runs on: statements sent on it
/// meanwhile are committed by the block's COMMIT, not one by one.
enum TransactionBlock {
    @TaskLocal static var connection: ObjectIdentifier?
}

/// PostgreSQL did not report the commit of a write that had completed: it may
/// or may not have been applied, so it is not acknowledged (routes answer
/// "unavailable, try again").
struct CommitNotConfirmed: Error, CustomStringConvertible {
    let reason: String
    /// PostgreSQL itself reported that the commit failed (a deferred
    /// constraint, COMMIT answered ROLLBACK): nothing was applied. Otherwise
    /// the outcome is unknown (`Failure.outcomeUnknown`).
    var rolledBack = false
    var description: String { "the commit was not confirmed: \(reason)" }

    /// Whether `error`, met after a write (or COMMIT) was sent, leaves its
    /// outcome unknown: the connection broke or the statement's deadline
    /// closed it, so PostgreSQL may have committed it. An error PostgreSQL
    /// itself reported (read-only, shutting down, a constraint) rolled the
    /// write back: known, not applied (#41).
    static func brokeAfterSending(_ error: any Error) -> Bool {
        if let error = error as? CommitNotConfirmed { return !error.rolledBack }
        if error is DatabaseUnavailable { return true }
        guard let error = error as? PSQLError, error.serverInfo?[.sqlState] == nil else { return false }
        switch error.code {
        case .serverClosedConnection, .connectionError, .uncleanShutdown, .clientClosedConnection: return true
        default: return false
        }
    }
}

extension PostgresConnection {
    /// Runs `body` between BEGIN and COMMIT on this connection, and refuses
    /// a COMMIT that PostgreSQL answered with ROLLBACK.
    func inTransactionBlock<Result: Sendable>(logger: Logger, _ body: () async throws -> Result) async throws -> Result {
        try await TransactionBlock.$connection.withValue(ObjectIdentifier(self)) {
            try await run("BEGIN", logger: logger)
            let result: Result
            do {
                result = try await body()
            } catch {
                _ = try? await run("ROLLBACK", logger: logger)
                throw error
            }
            let tag = try await commit(logger: logger)
            guard tag == "COMMIT" else {
                throw CommitNotConfirmed(reason: "COMMIT answered \(tag): a statement of the transaction had failed", rolledBack: true)
            }
            return result
        }
    }

    var isInTransactionBlock: Bool { TransactionBlock.connection == ObjectIdentifier(self) }

    /// Sends COMMIT and returns its command tag (COMMIT, or ROLLBACK when the
    /// block had failed).
    private func commit(logger: Logger) async throws -> String {
        StatementTally.add()
        return try await withTaskExecutorPreference(EventLoopTaskExecutor(eventLoop)) {
            guard !self.isClosed else { throw DatabaseUnavailable("the database connection closed") }
            var sent = false
            do {
                return try await DatabaseDeadline.bounding(self) {
                    sent = true
                    return try await self.query(String("COMMIT"), []).get().metadata.command
                }
            } catch where sent && CommitNotConfirmed.brokeAfterSending(error) {
                // A block whose COMMIT was sent and not answered may have committed.
                throw CommitNotConfirmed(reason: LoggableError.describe(error))
            }
        }
    }

    /// Whether PostgreSQL itself answered the commit with an error (so it
    /// rolled back). A commit that fails after CommandComplete (a deferred
    /// constraint) reaches PostgresNIO as an ErrorResponse it did not expect:
    /// it closes the connection and reports `clientClosedConnection` over an
    /// `unexpectedBackendMessage`, whose message is not public; its
    /// reflection names the ErrorResponse.
    static func serverReportedFailure(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        if error.serverInfo?[.sqlState] != nil { return true }
        if error.code == .unexpectedBackendMessage { return String(reflecting: error).contains("ErrorResponse(") }
        return error.underlying.map(serverReportedFailure) ?? false
    }

    /// Waits for the ReadyForQuery that follows the last statement's implicit
    /// commit, by sending a statement PostgresNIO writes only after it.
    func confirmCommit(logger: Logger) async throws {
        StatementTally.add()
        do {
            for try await _ in try await self.execute(CommitProbe(), logger: logger) {}
        } catch {
            throw CommitNotConfirmed(reason: String(describing: error), rolledBack: Self.serverReportedFailure(error))
        }
    }
}

/// The cheapest statement: prepared once per connection, no row read.
private struct CommitProbe: PostgresPreparedStatement {
    static let name = "rk_commit_probe"
    static let sql = "SELECT 1 WHERE false"
    static var bindingDataTypes: [PostgresDataType] { [] }
    typealias Row = ()
    func makeBindings() throws -> PostgresBindings { PostgresBindings() }
    func decodeRow(_ row: PostgresRow) throws -> Row { () }
}
