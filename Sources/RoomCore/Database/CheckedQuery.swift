import Logging
import NIOCore
import PostgresNIO
import Synchronization
import Tracing

extension PostgresConnection {
    /// Sends `query` unless the connection has closed, and every statement of
    /// ours goes through here rather than `query(_:logger:)`.
    ///
    /// Why: PostgresNIO writes a query to its channel without a write promise,
    /// so a query written after the channel closed is dropped and its answer
    /// awaited for ever (postgres-nio#487, reverted). A closed connection is
    /// lent by the pool when it closed before the pool heard, and a
    /// transaction's next statement can follow a close too: seen as CI runs
    /// hung for an hour and a seat move unanswered through a PostgreSQL
    /// restart. Checking `isClosed` first only helps when the check and the
    /// write cannot be separated by the close, so both run on the channel's
    /// own event loop, in one job: there the close either happened (and the
    /// check sees it) or has not (and the channel handler fails the query
    /// properly if it closes later).
    ///
    /// Reads and writes go as named prepared statements (`PreparedStatements`).
    ///
    /// Each statement is a span (#30), named by the code that sent it
    /// (`function`, `file`: the caller's), never by its text or values.
    @discardableResult
    public func run(_ query: PostgresQuery, logger: Logger, function: String = #function, file: String = #fileID) async throws -> QueryRows {
        StatementTally.add(query)
        return try await withSpan(StatementSpan.name(file: file, function: function), ofKind: .client) { span in
            span.attributes["db.system.name"] = "postgresql"
            return try await withTaskExecutorPreference(EventLoopTaskExecutor(eventLoop)) {
                guard !self.isClosed else { throw DatabaseUnavailable("the database connection closed") }
                let text = PreparedStatements.text(for: query)
                // Outside a transaction block a write commits after its rows
                // (CommitConfirmation.swift): it is done only once that is known.
                let commits = !self.isInTransactionBlock && (text?.mayWrite ?? StatementEffect.mayWrite(query.sql))
                var sent = false
                do {
                    return try await DatabaseDeadline.bounding(self) {
                        sent = true
                        return try await self.runUnbounded(query, text: text, confirmingCommit: commits, logger: logger)
                    }
                } catch where commits && sent && CommitNotConfirmed.brokeAfterSending(error) {
                    throw CommitNotConfirmed(reason: LoggableError.describe(error))
                }
            }
        }
    }

    /// `run` within its deadline, on the connection's event loop.
    private func runUnbounded(_ query: PostgresQuery, text: AnyPreparedStatement.Text?, confirmingCommit: Bool, logger: Logger) async throws -> QueryRows {
        let rows: [PostgresRow]
        if let text {
            do {
                rows = try await AnyPreparedStatement.$text.withValue(text) {
                    try await self.execute(AnyPreparedStatement(binds: query.binds), logger: logger)
                }.collect()
            } catch {
                // A connection that may remember a failed preparation is
                // closed: the pool replaces it with one that does not.
                if PreparedStatements.mayHavePoisoned(error) {
                    logger.debug("closing a database connection after a statement failed", metadata: ["statement": "\(text.name)"])
                    try? await self.close()
                }
                throw error
            }
        } else {
            rows = try await self.query(query, logger: logger).collect()
        }
        if confirmingCommit { try await self.confirmCommit(logger: logger) }
        return QueryRows(rows)
    }
}

/// A statement span's name: `db <File>.<function>` of the code that sent it.
/// Names are made once per call site and kept: making one per statement
/// was 1.0 % of figure 1's server samples. Call sites are a fixed set, so
/// the table stays small.
enum StatementSpan {
    private struct Site: Hashable {
        let file: String
        let function: String
    }

    private static let names = Mutex<[Site: String]>([:])

    static func name(file: String, function: String) -> String {
        let site = Site(file: file, function: function)
        if let known = names.withLock({ $0[site] }) { return known }
        let name = make(file: file, function: function)
        names.withLock { $0[site] = name }
        return name
    }

    static func make(file: String, function: String) -> String {
        let base = file.split(separator: "/").last.map { $0.hasSuffix(".swift") ? $0.dropLast(6) : $0 } ?? Substring(file)
        let call = function.split(separator: "(").first ?? Substring(function)
        return "db \(base).\(call)"
    }
}

/// The rows of one statement, read to the end before the statement counts
/// as done (our statements return few rows): a write's rows arrive before its
/// commit is known, so they are handed over only after it.
public struct QueryRows: AsyncSequence, Sendable {
    public typealias Element = PostgresRow
    public let rows: [PostgresRow]

    init(_ rows: [PostgresRow]) {
        self.rows = rows
    }

    /// Every row.
    public func collect() async throws -> [PostgresRow] { rows }

    /// Every row decoded as a tuple of columns.
    public func decode<each Column: PostgresDecodable>(_ type: (repeat each Column).Type) throws -> [(repeat each Column)] {
        try rows.decode(type)
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: IndexingIterator<[PostgresRow]>
        public mutating func next() async throws -> PostgresRow? { base.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: rows.makeIterator()) }
}

extension AsyncThrowingMapSequence where Base == PostgresRowSequence, Transformed == PostgresRow {
    /// Every row, read to the end (which returns the connection's attention
    /// to its next statement).
    func collect() async throws -> [PostgresRow] {
        var rows: [PostgresRow] = []
        for try await row in self { rows.append(row) }
        return rows
    }
}

/// Runs a task's jobs on one NIO event loop, so code between two suspension
/// points runs there without interleaving with the loop's own work.
final class EventLoopTaskExecutor: TaskExecutor {
    private let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
