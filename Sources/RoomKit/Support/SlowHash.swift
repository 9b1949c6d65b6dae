import NIOPosix
import Synchronization

/// Password hashing (bcrypt at cost 10, ~60 ms of one core here) on a pool
/// of its own, behind a bounded queue with a share per tenant (#41). On
/// NIO's shared blocking pool of two threads, one account looping right
/// passwords at `/user/check` (two bcrypts a login) queued every tenant's
/// logins and every webhook's address lookup behind it. Past its share a
/// tenant's check is refused "busy, try again" (`ServiceBusy`) instead of
/// waiting: 64 queued on the instance is about two seconds of work on two
/// threads (a class of 30 logging in as its lesson starts fits), 24 of them
/// one tenant's, so two tenants' floods still leave room for others.
public enum SlowHash {
    static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 2)
        pool.start()
        return pool
    }()

    static let queue = FairQueue(total: 64, perTenant: 24)

    /// Runs `body` (a bcrypt) for `tenant`, or throws `ServiceBusy`.
    public static func run<Result: Sendable>(tenant: String, _ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        guard queue.enter(tenant) else { throw ServiceBusy(what: "password checks") }
        defer { queue.leave(tenant) }
        return try await pool.runIfActive(body)
    }
}

/// Places in a queue, bounded in all and per tenant.
final class FairQueue: Sendable {
    let total: Int
    let perTenant: Int
    private let state = Mutex<(all: Int, byTenant: [String: Int])>((0, [:]))

    init(total: Int, perTenant: Int) {
        self.total = total
        self.perTenant = perTenant
    }

    func enter(_ tenant: String) -> Bool {
        state.withLock { state in
            guard state.all < total, state.byTenant[tenant, default: 0] < perTenant else { return false }
            state.all += 1
            state.byTenant[tenant, default: 0] += 1
            return true
        }
    }

    func leave(_ tenant: String) {
        state.withLock { state in
            state.all -= 1
            state.byTenant[tenant, default: 1] -= 1
            if state.byTenant[tenant] == 0 { state.byTenant[tenant] = nil }
        }
    }
}

/// A shared resource of the instance is at its bound for this caller: nothing
/// was done; answered "unavailable for a moment, try again".
public struct ServiceBusy: Error, Sendable, CustomStringConvertible {
    public let what: String

    public init(what: String) {
        self.what = what
    }

    public var description: String { "too many \(what) are waiting; try again" }
}
