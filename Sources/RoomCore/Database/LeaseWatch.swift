import PostgresNIO
import Synchronization

/// The one timer of a `Database`'s waiting leases (#28, item 7).
///
/// Why: a lease used to start a watchdog child task beside the lending one,
/// sleeping in 50 ms steps until the pool lent the connection, and a lease
/// is almost always lent at once: those child tasks were 3.8 % of the
/// server's CPU samples in figure 1. Now a lease registers here (a lock and
/// a dictionary entry), and one ticker, running only while some lease is
/// registered, looks every 50 ms: a lease still waiting past its deadline,
/// or for a pool the router has left, has its lending task cancelled, which
/// withdraws its request from the pool.
final class LeaseWatch: Sendable {
    /// Why the watch ended a wait.
    enum Outcome: Sendable {
        case timedOut
        case rerouted
    }

    /// Cancels a registered lending task. Sound because the task is only
    /// cancelled under the watch's lock while it is registered, and it
    /// settles (leaves the registry, under the same lock) before it ends.
    private struct Canceller: @unchecked Sendable {
        let task: UnsafeCurrentTask
    }

    private struct Waiter {
        let deadline: ContinuousClock.Instant
        let client: PostgresClient
        let canceller: Canceller
        var outcome: Outcome?
    }

    private struct State {
        var waiters: [UInt64: Waiter] = [:]
        var nextID: UInt64 = 0
        var ticking = false
    }

    static let tick = Duration.milliseconds(50)
    private let router: PrimaryRouter?
    private let state = Mutex(State())

    init(router: PrimaryRouter?) {
        self.router = router
    }

    /// Registers the calling task's wait for a connection of `client`; call
    /// `settle` with the id once lent, and before the task ends.
    func watch(until deadline: ContinuousClock.Instant, client: PostgresClient) -> UInt64 {
        guard let canceller = withUnsafeCurrentTask(body: { $0.map(Canceller.init) }) else { return .max }
        let (id, start) = state.withLock { state -> (UInt64, Bool) in
            state.nextID += 1
            state.waiters[state.nextID] = Waiter(deadline: deadline, client: client, canceller: canceller)
            defer { state.ticking = true }
            return (state.nextID, !state.ticking)
        }
        if start { Task.detached { await self.tickWhileWatching() } }
        return id
    }

    /// Ends the watch of a wait: returns what the watch did to it, if it
    /// ended it (its task is then cancelled, and a connection lent just then
    /// is not to be used).
    func settle(_ id: UInt64) -> Outcome? {
        state.withLock { $0.waiters.removeValue(forKey: id)?.outcome }
    }

    private func tickWhileWatching() async {
        while true {
            try? await Task.sleep(for: Self.tick)
            let now = ContinuousClock.now
            let done = state.withLock { state -> Bool in
                guard !state.waiters.isEmpty else {
                    state.ticking = false
                    return true
                }
                for (id, waiter) in state.waiters where waiter.outcome == nil {
                    let outcome: Outcome? = if let router, router.client !== waiter.client { .rerouted } else if now >= waiter.deadline { .timedOut } else { nil }
                    guard let outcome else { continue }
                    state.waiters[id]?.outcome = outcome
                    waiter.canceller.task.cancel()
                }
                return false
            }
            if done { return }
        }
    }
}
