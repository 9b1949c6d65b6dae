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
    static func until(atMost seconds: Double) -> ContinuousClock.Instant {
        let own = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        guard let request else { return own }
        return min(own, request)
    }

    /// Runs `body` (on `connection`'s event loop) and closes `connection`
    /// if it has not finished by the deadline; its error then becomes
    /// `DatabaseUnavailable`, which routes answer as "try again".
    static func bounding<T>(_ connection: PostgresConnection, _ body: () async throws -> T) async throws -> T {
        let deadline = until(atMost: statementSeconds)
        let remaining = deadline - .now
        guard remaining > .zero else { throw DatabaseUnavailable("the request's deadline passed") }
        let fired = DeadlineFlag()
        let timer = connection.eventLoop.scheduleTask(in: .nanoseconds(remaining.nanoseconds)) {
            fired.set()
            let closing: EventLoopFuture<Void> = connection.close()
            _ = closing
        }
        defer { timer.cancel() }
        do {
            return try await body()
        } catch where fired.isSet {
            throw DatabaseUnavailable("PostgreSQL did not answer within \(remaining); its connection was closed")
        }
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// Set once a statement's deadline passed.
private final class DeadlineFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}
