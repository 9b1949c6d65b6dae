import Synchronization

/// A bounded number of permits shared fairly among owners (tenants): the
/// instance's database connections (`Database`), and its requests in
/// flight (`RequestSlots`).
///   - An owner alone holds at most `perOwnerCap` of them (three quarters):
///     whatever one tenant does, a quarter are there for the others at once.
///   - While other owners are active (holding, waiting, or asking within
///     `activeWindow`), an owner holds at most an equal share: capacity
///     divided by the active owners, at least one. Why: with three quarters
///     of 8 request slots, a flooding tenant left 2 to the other, which
///     needed about 2 at 105 create → list → dissolve flows a second, so
///     the other's requests waited behind the flood's for slots (ops/bench
///     figure 6: even its list, read from memory, p90 1.7 → 10 ms).
///   - When a permit comes back and owners wait, it goes to the waiting
///     owner holding the fewest, ties taken round-robin: a tenant with one
///     request waits behind at most one of another's, not behind its queue.
/// Waits are bounded by the caller's deadline.
public final class FairPermits: Sendable {
    public struct TimedOut: Error {}

    private struct Waiter {
        let id: UInt64
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// How often waits past their deadline are ended, while any wait:
    /// one task for all waiters, where a timer task each cost 3.5 % of
    /// the server's samples in ops/bench figure 1 at 16 connections (most
    /// requests wait for one of 4 slots; each timer a task, a sleep and a
    /// cancellation). A wait ends at most this much after its deadline.
    static let reapEvery: Duration = .milliseconds(50)

    /// How many permits there are, how many one owner may hold alone, and
    /// how long an owner counts as active after it last asked.
    private struct Limits {
        let capacity: Int
        let alone: Int
        let activeWindow: Duration
    }

    private struct State {
        var held: [String: Int] = [:]
        var total = 0
        var queues: [String: [Waiter]] = [:]
        /// Owners in the order they first waited; served round-robin.
        var ring: [String] = []
        var lastServed: String?
        var nextID: UInt64 = 0
        /// When each owner last asked for a permit, kept for `activeWindow`.
        var asked: [String: ContinuousClock.Instant] = [:]
        /// A look at the waiters is due once the activity window has passed.
        var reviewScheduled = false
        /// The task ending waits past their deadline runs (while any wait).
        var reaping = false

        /// The most `owner` may hold now: three quarters alone, an equal
        /// share of the active owners otherwise.
        func cap(of owner: String, _ limits: Limits, now: ContinuousClock.Instant) -> Int {
            var others = Set(held.keys).union(queues.keys)
            for (other, at) in asked where now - at < limits.activeWindow { others.insert(other) }
            others.remove(owner)
            guard !others.isEmpty else { return limits.alone }
            return min(limits.alone, max(1, limits.capacity / (others.count + 1)))
        }

        func mayTake(_ owner: String, _ limits: Limits, now: ContinuousClock.Instant) -> Bool {
            total < limits.capacity && held[owner, default: 0] < cap(of: owner, limits, now: now)
        }

        /// The waiting owner to serve next: fewest held, then round-robin
        /// after the last served; nil when none may take a permit now.
        func nextOwner(_ limits: Limits, now: ContinuousClock.Instant) -> String? {
            guard total < limits.capacity, !ring.isEmpty else { return nil }
            let start = lastServed.flatMap { ring.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
            var best: (owner: String, held: Int)?
            for step in 0..<ring.count {
                let owner = ring[(start + step) % ring.count]
                let count = held[owner, default: 0]
                guard count < cap(of: owner, limits, now: now) else { continue }
                if best == nil || count < best!.held { best = (owner, count) }
            }
            return best?.owner
        }

        /// Notes that `owner` asked, and forgets owners quiet for the window
        /// (the map holds at most the loaded tenants and the instance).
        mutating func noteAsked(_ owner: String, _ limits: Limits, now: ContinuousClock.Instant) {
            asked[owner] = now
            if asked.count > 1 { asked = asked.filter { now - $0.value < limits.activeWindow } }
        }

        mutating func take(_ owner: String) {
            total += 1
            held[owner, default: 0] += 1
        }

        mutating func dequeue(_ owner: String) -> Waiter {
            let waiter = queues[owner]!.removeFirst()
            if queues[owner]!.isEmpty {
                queues[owner] = nil
                ring.removeAll { $0 == owner }
            }
            lastServed = owner
            return waiter
        }

        mutating func remove(_ id: UInt64, of owner: String) -> Waiter? {
            guard let index = queues[owner]?.firstIndex(where: { $0.id == id }) else { return nil }
            let waiter = queues[owner]!.remove(at: index)
            if queues[owner]!.isEmpty {
                queues[owner] = nil
                ring.removeAll { $0 == owner }
            }
            return waiter
        }
    }

    public let capacity: Int
    public let perOwnerCap: Int
    private let limits: Limits
    private let state = Mutex(State())

    /// `activeWindow`: an owner that asked within it counts as active (1 s:
    /// a tenant sending a request a second or more keeps its equal share).
    public init(capacity: Int, activeWindow: Duration = .seconds(1)) {
        self.capacity = max(1, capacity)
        perOwnerCap = max(1, self.capacity * 3 / 4)
        limits = Limits(capacity: self.capacity, alone: perOwnerCap, activeWindow: activeWindow)
    }

    /// Waits for a permit for `owner` until `deadline` (then `TimedOut`);
    /// a cancelled wait throws `CancellationError`. Pair with `release`.
    public func acquire(for owner: String, until deadline: ContinuousClock.Instant) async throws {
        let limits = self.limits
        let id: UInt64? = state.withLock { state in
            let now = ContinuousClock.now
            state.noteAsked(owner, limits, now: now)
            // Permits are handed to waiters as they come back, so a free
            // permit means nobody who may take it is waiting.
            if state.mayTake(owner, limits, now: now) {
                state.take(owner)
                return nil
            }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Now { case granted, waiting(reviewAfterWindow: Bool, reap: Bool), ended(any Error) }
                let now: Now = state.withLock { state in
                    if state.mayTake(owner, limits, now: .now) {
                        state.take(owner)
                        return .granted
                    }
                    // The cancellation fired before the wait was listed.
                    if Task.isCancelled { return .ended(CancellationError()) }
                    if ContinuousClock.now >= deadline { return .ended(TimedOut()) }
                    if state.queues[owner] == nil { state.ring.append(owner) }
                    state.queues[owner, default: []].append(Waiter(id: id, deadline: deadline, continuation: continuation))
                    let reap = !state.reaping
                    state.reaping = true
                    // Refused by the share with permits free: no release may
                    // come before the others' activity ends, so look again then.
                    let review = state.total < limits.capacity && !state.reviewScheduled
                    if review { state.reviewScheduled = true }
                    return .waiting(reviewAfterWindow: review, reap: reap)
                }
                switch now {
                case .granted: continuation.resume()
                case .ended(let error): continuation.resume(throwing: error)
                case .waiting(let review, let reap):
                    if reap { Task { [weak self] in await self?.reapWhileWaiting() } }
                    if review {
                        Task { [weak self, window = limits.activeWindow] in
                            try? await Task.sleep(for: window)
                            self?.review()
                        }
                    }
                }
            }
        } onCancel: {
            withdraw(id, of: owner, because: CancellationError())
        }
    }

    /// Takes a permit for `owner` now, past the capacity if need be: for a
    /// request whose work is done and only its answer is left
    /// (`RequestSlot`). Pair with `release`.
    public func takeRegardless(for owner: String) {
        state.withLock { $0.take(owner) }
    }

    /// Gives `owner`'s permit back and hands permits to waiting owners.
    public func release(for owner: String) {
        let limits = self.limits
        let served: [Waiter] = state.withLock { state in
            state.total -= 1
            state.held[owner, default: 1] -= 1
            if state.held[owner] == 0 { state.held[owner] = nil }
            return Self.serve(&state, limits)
        }
        for waiter in served { waiter.continuation.resume() }
    }

    /// Serves waiters whose share grew as other owners went quiet.
    private func review() {
        let limits = self.limits
        let (served, again): ([Waiter], Bool) = state.withLock { state in
            let served = Self.serve(&state, limits)
            let again = !state.queues.isEmpty && state.total < limits.capacity
            state.reviewScheduled = again
            return (served, again)
        }
        for waiter in served { waiter.continuation.resume() }
        if again {
            Task { [weak self, window = limits.activeWindow] in
                try? await Task.sleep(for: window)
                self?.review()
            }
        }
    }

    /// Ends each wait past its deadline (`TimedOut`), every `reapEvery`,
    /// until nobody waits.
    private func reapWhileWaiting() async {
        while true {
            try? await Task.sleep(for: Self.reapEvery)
            let limits = self.limits
            let (expired, served, waiting): ([Waiter], [Waiter], Bool) = state.withLock { state in
                let now = ContinuousClock.now
                var expired: [Waiter] = []
                for (owner, queue) in state.queues {
                    for waiter in queue where waiter.deadline <= now {
                        if let removed = state.remove(waiter.id, of: owner) { expired.append(removed) }
                    }
                }
                // Their leaving may let an owner behind them at the cap go first.
                let served = expired.isEmpty ? [] : Self.serve(&state, limits)
                state.reaping = !state.queues.isEmpty
                return (expired, served, state.reaping)
            }
            for waiter in expired { waiter.continuation.resume(throwing: TimedOut()) }
            for waiter in served { waiter.continuation.resume() }
            guard waiting else { return }
        }
    }

    /// Owners holding permits now, for tests and gauges.
    public var heldByOwner: [String: Int] { state.withLock { $0.held } }

    private func withdraw(_ id: UInt64, of owner: String, because error: any Error) {
        let limits = self.limits
        let (withdrawn, served): (Waiter?, [Waiter]) = state.withLock { state in
            guard let waiter = state.remove(id, of: owner) else { return (nil, []) }
            // Its leaving may let an owner behind it at the cap go first.
            return (waiter, Self.serve(&state, limits))
        }
        withdrawn?.continuation.resume(throwing: error)
        for waiter in served { waiter.continuation.resume() }
    }

    private static func serve(_ state: inout State, _ limits: Limits) -> [Waiter] {
        var served: [Waiter] = []
        let now = ContinuousClock.now
        while let next = state.nextOwner(limits, now: now) {
            state.take(next)
            served.append(state.dequeue(next))
        }
        return served
    }
}
