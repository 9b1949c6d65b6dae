import Synchronization

/// A bounded number of permits shared fairly among owners (tenants): the
/// instance's database connections (`Database`), and its requests in
/// flight (`RequestSlots`).
///   - One owner holds at most `perOwnerCap` of them (three quarters):
///     whatever one tenant does, a quarter are there for the others at once.
///   - When a permit comes back and owners wait, it goes to the waiting
///     owner holding the fewest, ties taken round-robin: a tenant with one
///     request waits behind at most one of another's, not behind its queue.
/// Waits are bounded by the caller's deadline.
public final class FairPermits: Sendable {
    public struct TimedOut: Error {}

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var held: [String: Int] = [:]
        var total = 0
        var queues: [String: [Waiter]] = [:]
        /// Owners in the order they first waited; served round-robin.
        var ring: [String] = []
        var lastServed: String?
        var nextID: UInt64 = 0

        func mayTake(_ owner: String, capacity: Int, cap: Int) -> Bool {
            total < capacity && held[owner, default: 0] < cap
        }

        /// The waiting owner to serve next: fewest held, then round-robin
        /// after the last served; nil when none may take a permit now.
        func nextOwner(capacity: Int, cap: Int) -> String? {
            guard total < capacity, !ring.isEmpty else { return nil }
            let start = lastServed.flatMap { ring.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
            var best: (owner: String, held: Int)?
            for step in 0..<ring.count {
                let owner = ring[(start + step) % ring.count]
                let count = held[owner, default: 0]
                guard count < cap else { continue }
                if best == nil || count < best!.held { best = (owner, count) }
            }
            return best?.owner
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
    private let state = Mutex(State())

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        perOwnerCap = max(1, self.capacity * 3 / 4)
    }

    /// Waits for a permit for `owner` until `deadline` (then `TimedOut`);
    /// a cancelled wait throws `CancellationError`. Pair with `release`.
    public func acquire(for owner: String, until deadline: ContinuousClock.Instant) async throws {
        let (capacity, cap) = (self.capacity, perOwnerCap)
        let id: UInt64? = state.withLock { state in
            // Permits are handed to waiters as they come back, so a free
            // permit means nobody who may take it is waiting.
            if state.mayTake(owner, capacity: capacity, cap: cap) {
                state.take(owner)
                return nil
            }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return }
        let timer = Task { [weak self] in
            try await Task.sleep(until: deadline)
            self?.withdraw(id, of: owner, because: TimedOut())
        }
        defer { timer.cancel() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Now { case granted, waiting, ended(any Error) }
                let now: Now = state.withLock { state in
                    if state.mayTake(owner, capacity: capacity, cap: cap) {
                        state.take(owner)
                        return .granted
                    }
                    // The timer or the cancellation fired before the wait was listed.
                    if Task.isCancelled { return .ended(CancellationError()) }
                    if ContinuousClock.now >= deadline { return .ended(TimedOut()) }
                    if state.queues[owner] == nil { state.ring.append(owner) }
                    state.queues[owner, default: []].append(Waiter(id: id, continuation: continuation))
                    return .waiting
                }
                switch now {
                case .granted: continuation.resume()
                case .ended(let error): continuation.resume(throwing: error)
                case .waiting: break
                }
            }
        } onCancel: {
            withdraw(id, of: owner, because: CancellationError())
        }
    }

    /// Gives `owner`'s permit back and hands permits to waiting owners.
    public func release(for owner: String) {
        let (capacity, cap) = (self.capacity, perOwnerCap)
        let served: [Waiter] = state.withLock { state in
            state.total -= 1
            state.held[owner, default: 1] -= 1
            if state.held[owner] == 0 { state.held[owner] = nil }
            return Self.serve(&state, capacity: capacity, cap: cap)
        }
        for waiter in served { waiter.continuation.resume() }
    }

    /// Owners holding permits now, for tests and gauges.
    public var heldByOwner: [String: Int] { state.withLock { $0.held } }

    private func withdraw(_ id: UInt64, of owner: String, because error: any Error) {
        let (capacity, cap) = (self.capacity, perOwnerCap)
        let (withdrawn, served): (Waiter?, [Waiter]) = state.withLock { state in
            guard let waiter = state.remove(id, of: owner) else { return (nil, []) }
            // Its leaving may let an owner behind it at the cap go first.
            return (waiter, Self.serve(&state, capacity: capacity, cap: cap))
        }
        withdrawn?.continuation.resume(throwing: error)
        for waiter in served { waiter.continuation.resume() }
    }

    private static func serve(_ state: inout State, capacity: Int, cap: Int) -> [Waiter] {
        var served: [Waiter] = []
        while let next = state.nextOwner(capacity: capacity, cap: cap) {
            state.take(next)
            served.append(state.dequeue(next))
        }
        return served
    }
}
