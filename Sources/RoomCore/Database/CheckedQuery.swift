import Logging
import NIOCore
import PostgresNIO

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
    @discardableResult
    public func run(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        try await withTaskExecutorPreference(EventLoopTaskExecutor(eventLoop)) {
            guard !self.isClosed else { throw DatabaseUnavailable("the database connection closed") }
            return try await self.query(query, logger: logger)
        }
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
