import Foundation
import Logging
import PostgresNIO
@testable import RoomCore
import RoomTestSupport
import Synchronization
import Testing

/// The pool is shared fairly among tenants (#41): one tenant's queue of
/// leases does not stand between another tenant and a connection.
@Suite struct FairPoolTests {
    /// A tenant flooding a pool of 4 with 24 slow statements; another
    /// tenant's one statement sent after them. First come, first served
    /// (before), it waited behind about 20 of them; now a quarter of the
    /// pool is always left to others, and it is answered first.
    @Test func anotherTenantsLeaseDoesNotWaitBehindAFlood() async throws {
        try await TestDatabase.withPool(connections: 4, label: "fair") { client in
            let database = Database(client: client, logger: Logger(label: "fair"), connections: 4)
            _ = try await database.query("SELECT 1")  // connected
            let finished = Finished()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 1...24 {
                    group.addTask {
                        try await LeaseOwner.$tenant.withValue("flood") { _ = try await database.query("SELECT pg_sleep(0.1)") }
                        finished.append("flood")
                    }
                }
                try await Task.sleep(for: .milliseconds(50))
                group.addTask {
                    try await LeaseOwner.$tenant.withValue("quiet") { _ = try await database.query("SELECT 1") }
                    finished.append("quiet")
                }
                try await group.waitForAll()
            }
            let order = finished.names
            let ahead = try #require(order.firstIndex(of: "quiet"))
            #expect(ahead <= 3, "the quiet tenant's statement finished after \(ahead) of the flood's")
            #expect(database.shares.heldByOwner.isEmpty, "every permit came back")
        }
    }

    /// The policy alone: a permit that comes back goes to the waiting owner
    /// holding the fewest, not to the longest waiting lease.
    @Test func aReturnedPermitGoesToTheWaitingOwnerHoldingFewest() async throws {
        // Only owners holding or waiting count as active here.
        let leases = FairPermits(capacity: 4, activeWindow: .zero)
        let far = ContinuousClock.now + .seconds(30)
        for _ in 1...3 { try await leases.acquire(for: "a", until: far) }
        try await leases.acquire(for: "b", until: far)
        #expect(leases.heldByOwner == ["a": 3, "b": 1])
        let served = Finished()
        let waiters = (1...3).map { _ in Task { try await leases.acquire(for: "a", until: far); served.append("a") } }
        try await Task.sleep(for: .milliseconds(50))
        let quiet = Task { try await leases.acquire(for: "b", until: far); served.append("b") }
        try await Task.sleep(for: .milliseconds(50))
        #expect(served.names.isEmpty, "the pool is full")
        leases.release(for: "a")
        try await quiet.value
        #expect(served.names == ["b"], "b (holding 1) before a (holding 2)")
        leases.release(for: "b")
        leases.release(for: "b")
        // One of a's waiters is served (which one depends on the order its
        // tasks started in: waiting for the first one made could wait for ever).
        let until = ContinuousClock.now + .seconds(10)
        while served.names.count < 2, ContinuousClock.now < until { try await Task.sleep(for: .milliseconds(5)) }
        #expect(served.names == ["b", "a"])
        #expect(leases.heldByOwner["a"] == 3, "a is back to its cap of three quarters: \(leases.heldByOwner)")
        for _ in 1...3 { leases.release(for: "a") }
        for waiter in waiters { try await waiter.value }
        for _ in 1...3 { leases.release(for: "a") }
        #expect(leases.heldByOwner.isEmpty)
    }

    /// While another owner is active, one holds at most an equal share, even
    /// with permits free; once the other has been quiet for the window, the
    /// waiter gets its three quarters back without any permit coming back.
    /// Before, a flooding owner took 6 of 8 whatever the other was doing.
    @Test func whileAnotherOwnerIsActiveEachHoldsAnEqualShare() async throws {
        let leases = FairPermits(capacity: 8, activeWindow: .milliseconds(300))
        let far = ContinuousClock.now + .seconds(30)
        for _ in 1...6 { try await leases.acquire(for: "a", until: far) }
        try await leases.acquire(for: "b", until: far)
        leases.release(for: "b")
        for _ in 1...3 { leases.release(for: "a") }
        try await leases.acquire(for: "a", until: far)
        #expect(leases.heldByOwner == ["a": 4], "half of 8 while b is active")
        let fifth = Task { try await leases.acquire(for: "a", until: far) }
        try await Task.sleep(for: .milliseconds(100))
        #expect(leases.heldByOwner == ["a": 4], "b asked 100 ms ago: a waits with 4 permits free")
        try await fifth.value
        #expect(leases.heldByOwner == ["a": 5], "b quiet for the window: a's share is three quarters again")
        for _ in 1...5 { leases.release(for: "a") }
        #expect(leases.heldByOwner.isEmpty)
    }

    /// A wait ends by its deadline, and its place is given up.
    @Test func aWaitEndsByItsDeadline() async throws {
        let leases = FairPermits(capacity: 1)
        try await leases.acquire(for: "a", until: .now + .seconds(30))
        await #expect(throws: FairPermits.TimedOut.self) { try await leases.acquire(for: "b", until: .now + .milliseconds(100)) }
        leases.release(for: "a")
        try await leases.acquire(for: "b", until: .now + .seconds(1))
        #expect(leases.heldByOwner == ["b": 1])
    }
}

/// Who finished, in order.
private final class Finished: Sendable {
    private let state = Mutex<[String]>([])
    func append(_ name: String) { state.withLock { $0.append(name) } }
    var names: [String] { state.withLock { $0 } }
    /// A request parked behind something else gives its slot back while it
    /// waits, and holds it again after, whatever the wait ended with; a
    /// park inside a park gives it back once.
    @Test func aParkedRequestGivesItsSlotBackAndTakesItAgain() async throws {
        let slots = FairPermits(capacity: 1)
        try await slots.acquire(for: "a", until: .now + .seconds(5))
        try await RequestSlot.$current.withValue(RequestSlot(slots, owner: "a")) {
            try await RequestSlot.whileParked {
                #expect(slots.heldByOwner.isEmpty)
                try await slots.acquire(for: "b", until: .now + .seconds(5))
                slots.release(for: "b")
                try await RequestSlot.whileParked { #expect(slots.heldByOwner.isEmpty) }
            }
            #expect(slots.heldByOwner == ["a": 1])
            struct Refused: Error {}
            await #expect(throws: Refused.self) { try await RequestSlot.whileParked { throw Refused() } }
            #expect(slots.heldByOwner == ["a": 1], "taken again after a wait that threw")
        }
        slots.release(for: "a")
        #expect(slots.heldByOwner.isEmpty)
    }
}
