/// The one timer of a queue's waiting writers (#41), as `LeaseWatch` is
/// for waiting leases.
///
/// Why: each writer queued in a room's line used to start a task of its
/// own sleeping until its deadline, cancelled once its turn came. In
/// ops/bench figure 7 that is 2,000 tasks a round for 2,000 joins, each
/// started, woken to be cancelled, and its sleep's timer firing 12 s
/// later for nobody: three thread wake-ups a join, on machines where the
/// kernel's wake-ups were the largest share of the server's CPU (12.7 %,
/// `docs/bench/2026-12-02-figure-7-the-machine-measured.md`). Now a queue
/// runs one ticker while anyone waits, and it withdraws the waiters past
/// their deadlines every 50 ms (their deadlines are seconds away).
enum WaitTicker {
    static let tick = Duration.milliseconds(50)

    /// Calls `tick` every 50 ms until it answers false (nobody waits any
    /// more). The caller starts it when the first waiter arrives and keeps,
    /// under the lock that guards its waiters, whether one is running.
    static func start(_ tick: @escaping @Sendable () -> Bool) {
        Task.detached {
            while true {
                try? await Task.sleep(for: Self.tick)
                if !tick() { return }
            }
        }
    }

    /// The waiters of `line` whose deadlines have passed at `now`, taken out
    /// of it in their order; the others keep their places.
    static func takeLate<Waiter>(_ line: inout [Waiter], at now: ContinuousClock.Instant,
                                 deadline: (Waiter) -> ContinuousClock.Instant) -> [Waiter] {
        guard line.contains(where: { deadline($0) <= now }) else { return [] }
        let late = line.filter { deadline($0) <= now }
        line.removeAll { deadline($0) <= now }
        return late
    }
}
