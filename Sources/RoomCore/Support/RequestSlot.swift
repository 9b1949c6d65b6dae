import Synchronization

/// The request slot (`FairPermits`) a request's task holds, so that work
/// parked behind something else gives it back while it waits (#41).
///
/// Why: a tenant's share of the request slots is 2 of 4 while another
/// tenant is active. 64 members joining one room then had 2 joins in the
/// server at a time, each parked most of its life in the room's queue doing
/// nothing, and the room's batches were of 2 (ops/bench figure 7: 300
/// joins/s with a quarter of the cores idle). A parked request holds no
/// connection and takes no CPU; its slot lets the next request do its
/// reads meanwhile and join the same batch.
public final class RequestSlot: Sendable {
    @TaskLocal public static var current: RequestSlot?

    private let permits: FairPermits
    private let owner: String
    /// Given back now (a nested park must not give it back twice).
    private let away = Mutex(false)

    /// `owner`'s slot of `permits`, which the caller holds.
    public init(_ permits: FairPermits, owner: String) {
        self.permits = permits
        self.owner = owner
    }

    /// Runs `wait` with the current request's slot given back, and takes it
    /// again after, whether `wait` returned or threw: the caller releases
    /// it as it would have. Taking it again waits its turn among the
    /// tenant's requests until the request's deadline, then takes it past
    /// the capacity: its write may be done, and its answer must not fail
    /// for want of a slot.
    public static func whileParked<Value: Sendable>(_ wait: () async throws -> Value) async throws -> Value {
        guard let slot = current, slot.giveBack() else { return try await wait() }
        let outcome: Result<Value, any Error>
        do {
            outcome = .success(try await wait())
        } catch {
            outcome = .failure(error)
        }
        await slot.takeBack()
        return try outcome.get()
    }

    private func giveBack() -> Bool {
        let given = away.withLock { away in
            guard !away else { return false }
            away = true
            return true
        }
        if given { permits.release(for: owner) }
        return given
    }

    private func takeBack() async {
        do {
            try await permits.acquire(for: owner, until: DatabaseDeadline.until(atMost: 10))
        } catch {
            permits.takeRegardless(for: owner)
        }
        away.withLock { $0 = false }
    }
}
