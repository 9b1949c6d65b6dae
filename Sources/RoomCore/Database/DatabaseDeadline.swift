import NIOCore
import PostgresNIO
import Synchronization

/// No statement waits on PostgreSQL for ever, and no request longer than its
/// bound (#27, item 2).
///
/// Why: a primary that hangs (SIGSTOP, a host that stops answering without
/// a TCP reset) leaves statements already sent waiting until the kernel
/// gives up, about 15 minutes; in a 40 s freeze requests waited past 20 s.
/// PostgreSQL's statement_timeout cannot help when PostgreSQL itself is
/// frozen, so the client keeps its own deadline: when it passes, the
/// statement's connection is closed (the statement fails at once and the
/// pool opens a new connection, to the new primary once the router moved).
public enum DatabaseDeadline {
    /// How long one statement may take, client-side: PostgreSQL's own
    /// statement_timeout (10 s by default) plus a margin, so that when
    /// PostgreSQL answers at all, its own timeout (57014) comes first.
    @TaskLocal public static var statementSeconds: Double = 12

    /// When the request being served must be answered: every lease and
    /// statement it makes ends by then (set by the HTTP server, 10 s).
    @TaskLocal public static var request: ContinuousClock.Instant?

    /// The deadline for a database wait starting now, at most `seconds` away.
    public static func until(atMost seconds: Double) -> ContinuousClock.Instant {
        let own = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        guard let request else { return own }
        return min(own, request)
    }

    /// The pool a connection was leased from, when a router chooses the
    /// pool: a statement on it ends as soon as the router moves elsewhere.
    @TaskLocal static var lease: LeaseOrigin?

    struct LeaseOrigin: Sendable {
        let router: PrimaryRouter
        let client: PostgresClient

        var moved: Bool { router.client !== client }
    }

    /// Runs `body` (on `connection`'s event loop) and closes `connection`
    /// if it has not finished by the deadline, or once the router has moved
    /// to another primary (a statement waiting on a primary that hangs would
    /// otherwise hold its request to the deadline after the failover: seen
    /// as a 20 s gap where the failover took 13 s). Its error then becomes
    /// `DatabaseUnavailable`, which routes answer as "try again".
    static func bounding<T>(_ connection: PostgresConnection, _ body: () async throws -> T) async throws -> T {
        let deadline = until(atMost: statementSeconds)
        guard deadline > .now else { throw DatabaseUnavailable("the request's deadline passed") }
        let watch = StatementWatch(connection: connection, deadline: deadline, lease: lease)
        watch.arm()
        defer { watch.disarm() }
        do {
            return try await body()
        } catch where watch.reason != nil {
            throw DatabaseUnavailable(watch.reason ?? "")
        }
    }
}

/// Closes a statement's connection at its deadline or when its primary is
/// no longer the router's. One timer per statement: at the deadline, or
/// every 250 ms while a router may move (the common statement ends first).
private final class StatementWatch: Sendable {
    private let connection: PostgresConnection
    private let deadline: ContinuousClock.Instant
    private let lease: DatabaseDeadline.LeaseOrigin?
    private let state = Mutex<(timer: Scheduled<Void>?, done: Bool, reason: String?)>((nil, false, nil))

    init(connection: PostgresConnection, deadline: ContinuousClock.Instant, lease: DatabaseDeadline.LeaseOrigin?) {
        self.connection = connection
        self.deadline = deadline
        self.lease = lease
    }

    var reason: String? { state.withLock { $0.reason } }

    func arm() {
        let now = ContinuousClock.now
        let next = lease == nil ? deadline : min(deadline, now + .milliseconds(250))
        let delay = max(next - now, .zero)
        let timer = connection.eventLoop.scheduleTask(in: .nanoseconds(delay.nanoseconds)) { self.fire() }
        state.withLock { $0.timer = timer }
    }

    func disarm() {
        state.withLock { state in
            state.done = true
            state.timer?.cancel()
        }
    }

    private func fire() {
        let reason: String? = if lease?.moved == true {
            "the router moved to another primary; the statement's connection was closed"
        } else if ContinuousClock.now >= deadline {
            "PostgreSQL did not answer in time; the statement's connection was closed"
        } else {
            nil
        }
        let act = state.withLock { state -> Bool in
            guard !state.done else { return false }
            if let reason { state.reason = reason }
            return true
        }
        guard act else { return }
        if reason != nil {
            let closing: EventLoopFuture<Void> = connection.close()
            _ = closing
        } else {
            arm()
        }
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
