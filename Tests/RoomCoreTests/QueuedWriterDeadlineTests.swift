import Foundation
@testable import RoomCore
@_spi(RoomEngine) import RoomKit
import RoomTestSupport
import Synchronization
import Testing

/// A writer queued behind a room's batch gives up at its deadline, while
/// the batch is still being written, and the others in its line keep their
/// places (`WaitTicker`: one timer a queue, where each waiter had its own).
@Suite(.serialized) struct QueuedWriterDeadlineTests {
    static let pace = RequestBudgets.Budget(perSecond: 1_000, burst: 100)

    static func request(_ account: AccountID) -> RoomJoinQueue.Request {
        RoomJoinQueue.Request(account: account, role: "member", inIMChatroom: nil, pluginID: nil)
    }

    struct Written: Error {}

    /// `queued`, run with 300 ms left of its request while a batch of 3 s
    /// is written, is told "try again" after those 300 ms, not after the batch.
    static func givesUpInTime(_ queued: @Sendable () async throws -> Void) async throws {
        let began = ContinuousClock.now
        let error: (any Error)? = await DatabaseDeadline.$request.withValue(.now + .milliseconds(300)) {
            do {
                try await queued()
                return nil
            } catch {
                return error
            }
        }
        let waited = ContinuousClock.now - began
        #expect(error.map(DatabaseUnavailable.matches) == true, "answered as 'try again': \(String(describing: error))")
        #expect(waited >= .milliseconds(300) && waited < .seconds(2), "gave up after \(waited), the batch takes 3 s")
    }

    /// The ticker's look, without I/O: the late waiters leave in order,
    /// the others keep their places and order.
    @Test func theLateLeaveTheLineInOrderAndTheOthersStay() {
        let now = ContinuousClock.now
        var line: [(String, ContinuousClock.Instant)] = [
            ("a", now - .seconds(1)), ("b", now + .seconds(1)), ("c", now), ("d", now + .seconds(2)), ("e", now - .milliseconds(1)),
        ]
        let late = WaitTicker.takeLate(&line, at: now) { $0.1 }
        #expect(late.map(\.0) == ["a", "c", "e"])
        #expect(line.map(\.0) == ["b", "d"])
        #expect(WaitTicker.takeLate(&line, at: now) { $0.1 }.isEmpty && line.count == 2)
    }

    /// The leader writes for 3 s; a join queued behind it with 300 ms left
    /// of its request is told "try again" within about 300 ms (not after the
    /// batch), and a join queued with time to spare leads the next batch.
    @Test func aQueuedJoinGivesUpAtItsDeadlineAndTheRestOfTheLineStays() async throws {
        let queue = RoomJoinQueue()
        let key = RoomWriteQueue.Key(tenant: "deadlines", room: 1)
        let writes = Mutex<[[AccountID]]>([])
        let write: @Sendable ([RoomJoinQueue.Request]) async throws -> [RoomJoinQueue.Outcome] = { requests in
            writes.withLock { $0.append(requests.map { if case .account(let account) = $0.joiner { account } else { "?" } }) }
            try await Task.sleep(for: .seconds(3))
            throw Written()
        }
        let leader = Task { try await queue.join(key, Self.request("leader"), pace: Self.pace, write: write) }
        while writes.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(5)) }
        let patient = Task { try await queue.join(key, Self.request("patient"), pace: Self.pace, write: write) }
        try await Self.givesUpInTime { _ = try await queue.join(key, Self.request("hurried"), pace: Self.pace, write: write) }
        await #expect(throws: Written.self) { try await leader.value }
        await #expect(throws: Written.self) { try await patient.value }
        // The hurried join was in no batch; the patient one led the second.
        #expect(writes.withLock { $0 } == [["leader"], ["patient"]])
        #expect(queue.counts.batches == 2 && queue.counts.joins == 2)
    }

    /// The same for a room's other writers (`RoomWriteQueue`), on
    /// PostgreSQL: the leader's transaction takes 3 s, the writer queued
    /// behind it with 300 ms left gives up within about that, writing nothing.
    @Test func aQueuedWriterGivesUpAtItsDeadline() async throws {
        let fixture = try await EngineFixture()
        let queue = RoomWriteQueue()
        let key = RoomWriteQueue.Key(tenant: fixture.tenant.id, room: 1)
        let leading = Mutex(false)
        let leader = Task {
            try await queue.run(key, on: fixture.database) { connection in
                leading.withLock { $0 = true }
                try await Task.sleep(for: .seconds(3))
                return "leader"
            }
        }
        while !leading.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        let ran = Mutex(false)
        try await Self.givesUpInTime { _ = try await queue.run(key, on: fixture.database) { _ in ran.withLock { $0 = true } } }
        #expect(try await leader.value == "leader")
        #expect(!ran.withLock { $0 }, "the writer that gave up wrote nothing")
        #expect(queue.counts.batches == 1 && queue.counts.writers == 1)
    }
}
