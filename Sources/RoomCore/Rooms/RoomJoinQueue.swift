import Foundation
import Synchronization

/// Joins of one room queue in memory, per instance, and are decided and
/// written together (#41: a hot room's joins "may share a statement").
///
/// Why: with `RoomWriteQueue` alone, each join of a batch still ran its own
/// 8 round trips (savepoint, lock, membership, member row, room counts,
/// event, side effects, release) one after the other on the room's one
/// transaction: 2,000 SealMic members joining one room got 161-209 joins/s
/// with the cores a third idle, every join waiting on the ones before it.
/// Now the first join of a room leads: it takes every join queued meanwhile
/// (at most `batchLimit`), and the engine decides them on one read and
/// writes them in one statement (`RoomEngine.joinBatch`). The joins queued
/// while a batch is written go in the next; the first of them leads it.
final class RoomJoinQueue: Sendable {
    /// Joins one statement carries at most: 256 members' rows, events and
    /// side effects are some hundred kilobytes of parameters, and a batch
    /// that large is already past what the room's other writers should
    /// wait behind.
    static let batchLimit = 256

    struct Request: Sendable {
        /// Who joins: an account, or the account of a session the batch
        /// resolves with every other session it carries (`Joiner`).
        let joiner: Joiner
        let role: String
        let inIMChatroom: Bool?
        let pluginID: String?

        init(account: AccountID, role: String, inIMChatroom: Bool?, pluginID: String?) {
            self.init(joiner: .account(account), role: role, inIMChatroom: inIMChatroom, pluginID: pluginID)
        }

        init(joiner: Joiner, role: String, inIMChatroom: Bool?, pluginID: String?) {
            self.joiner = joiner
            self.role = role
            self.inIMChatroom = inIMChatroom
            self.pluginID = pluginID
        }
    }

    enum Joiner: Sendable {
        case account(AccountID)
        /// A session's token digest, of the request's plugin; `refusal`
        /// answers the join when the session is not live.
        case session(tokenHash: String, refusal: any Error & Sendable)
    }

    typealias Outcome = Result<RoomEngine.JoinOutcome, any Error>

    /// Which written batch a join went in: joins of one batch share one
    /// commit, so an answer read after it is as fresh for each of them
    /// (`SharedAnswers`).
    struct Batch: Hashable, Sendable {
        let room: RoomWriteQueue.Key
        let number: UInt64
    }

    fileprivate enum Turn: Sendable {
        case lead
        case done(Outcome, Batch)
    }

    private struct Waiter {
        let id: UInt64
        let request: Request
        /// When it gives up waiting (`WaitTicker` withdraws it).
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<Turn, any Error>
    }

    private struct State {
        /// Rooms with a batch in flight, and the joins waiting for the next.
        var lines: [RoomWriteQueue.Key: [Waiter]] = [:]
        var nextID: UInt64 = 0
        var nextBatch: UInt64 = 0
        var batches = 0
        var joins = 0
        /// Each room's pace (`RoomJoinPace`), kept between its batches;
        /// forgotten once full again (a new one would start the same).
        var paces: [RoomWriteQueue.Key: RoomJoinPace] = [:]
        /// Whether the waiters' ticker runs (`WaitTicker`).
        var ticking = false
    }

    /// Seconds of a monotonic clock, for the paces.
    private static func now() -> Double { (ContinuousClock.now - start).inSeconds }

    private static let start = ContinuousClock.now

    private let state = Mutex(State())

    /// Batches written and joins they carried (for tests).
    var counts: (batches: Int, joins: Int) { state.withLock { ($0.batches, $0.joins) } }

    /// A room's pace as its last batch left it (for tests).
    func pace(of key: RoomWriteQueue.Key) -> RoomJoinPace? { state.withLock { $0.paces[key] } }

    /// `write` decides and writes a batch, answering each request in order.
    /// `pace`: the room's joins a second on this instance and its burst
    /// (`RequestBudgets.roomJoins`).
    func join(_ key: RoomWriteQueue.Key, _ request: Request, pace: RequestBudgets.Budget,
              write: @Sendable ([Request]) async throws -> [Outcome]) async throws -> (RoomEngine.JoinOutcome, Batch) {
        let queued: UInt64? = state.withLock { state in
            guard state.lines[key] != nil else {
                state.lines[key] = []
                return nil
            }
            state.nextID += 1
            return state.nextID
        }
        if let id = queued {
            // Parked, the join gives its request slot back (`RequestSlot`).
            let turn = try await RequestSlot.whileParked {
                try await waitForTurn(key, id: id, request: request, waitingAtMost: Self.waitingAtMost(pace),
                                      until: DatabaseDeadline.until(atMost: DatabaseDeadline.statementSeconds))
            }
            switch turn {
            case .done(let outcome, let batch): return (try outcome.get(), batch)
            case .lead: break
            }
        }
        return try await lead(key, request, pace: pace, write: write)
    }

    private func lead(_ key: RoomWriteQueue.Key, _ own: Request, pace budget: RequestBudgets.Budget,
                      write: @Sendable ([Request]) async throws -> [Outcome]) async throws -> (RoomEngine.JoinOutcome, Batch) {
        var taken: ([Waiter], Batch)?
        while taken == nil {
            let decision: RoomJoinPace.Decision
            (decision, taken) = state.withLock { state in
                let now = Self.now()
                // A reload that changed the tenant's pace starts the room a new one.
                var pace = state.paces[key].flatMap { $0.isPaced(by: budget) ? $0 : nil }
                    ?? RoomJoinPace(perSecond: budget.perSecond, burst: budget.burst, now: now)
                let decision = pace.decide(wanted: min(Self.batchLimit, 1 + state.lines[key, default: []].count), now: now)
                state.paces[key] = pace
                guard case .take(let count) = decision else { return (decision, nil) }
                let others = Array(state.lines[key, default: []].prefix(count - 1))
                state.lines[key]?.removeFirst(others.count)
                state.nextBatch += 1
                return (decision, (others, Batch(room: key, number: state.nextBatch)))
            }
            // Short of tokens: at most a chunk of the pace (20 ms), parked
            // (the slot given back), and not cut short by cancellation: the
            // room's line waits on this leader, which must write or hand on.
            if case .wait(let seconds) = decision {
                _ = try? await RequestSlot.whileParked { try? await Task.sleep(for: .seconds(seconds)) }
            }
        }
        let (others, batch) = taken!
        let outcomes: [Outcome]
        do {
            outcomes = try await write([own] + others.map(\.request))
        } catch {
            outcomes = Array(repeating: .failure(error), count: others.count + 1)
        }
        for (waiter, outcome) in zip(others, outcomes.dropFirst()) { waiter.continuation.resume(returning: .done(outcome, batch)) }
        handOn(key, carried: others.count + 1)
        return (try outcomes[0].get(), batch)
    }

    /// The batch is written: the first join queued meanwhile leads the next.
    private func handOn(_ key: RoomWriteQueue.Key, carried: Int) {
        let next: Waiter? = state.withLock { state in
            state.batches += 1
            state.joins += carried
            guard let first = state.lines[key]?.first else {
                state.lines[key] = nil
                // Rooms no longer joined forget their paces (a few a room at most).
                if state.paces.count > 1_024 {
                    let now = Self.now()
                    state.paces = state.paces.filter { state.lines[$0.key] != nil || !$0.value.isFull(at: now) }
                }
                return nil
            }
            state.lines[key]?.removeFirst()
            return first
        }
        next?.continuation.resume(returning: .lead)
    }

    /// Seconds of its pace a room's line may hold: a join past them is
    /// refused at once as too many (a 429 in its wire), where it would wait
    /// in memory for a turn it may not get before its deadline (12 s).
    static let horizonSeconds = 2

    /// Joins a room's line holds at most: two seconds of its pace past its burst.
    static func waitingAtMost(_ pace: RequestBudgets.Budget) -> Int {
        pace.burst + pace.perSecond * horizonSeconds
    }

    private func waitForTurn(_ key: RoomWriteQueue.Key, id: UInt64, request: Request, waitingAtMost: Int,
                             until deadline: ContinuousClock.Instant) async throws -> Turn {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Turn, any Error>) in
                enum Now { case lead, waiting(startsTicker: Bool), ended(any Error) }
                let now: Now = state.withLock { state in
                    // The batch ended between this join's first look and now.
                    guard state.lines[key] != nil else {
                        state.lines[key] = []
                        return .lead
                    }
                    if Task.isCancelled { return .ended(CancellationError()) }
                    if ContinuousClock.now >= deadline { return .ended(DatabaseUnavailable("the room's joins waited too long; try again")) }
                    if state.lines[key]!.count >= waitingAtMost {
                        return .ended(RoomError.rateLimited(action: "joins waiting for this room", limit: RateLimit(waitingAtMost, per: Self.horizonSeconds)))
                    }
                    state.lines[key]!.append(Waiter(id: id, request: request, deadline: deadline, continuation: continuation))
                    defer { state.ticking = true }
                    return .waiting(startsTicker: !state.ticking)
                }
                switch now {
                case .lead: continuation.resume(returning: .lead)
                case .ended(let error): continuation.resume(throwing: error)
                case .waiting(let startsTicker):
                    if startsTicker { WaitTicker.start { [weak self] in self?.withdrawLate() ?? false } }
                }
            }
        } onCancel: {
            withdraw(key, id: id, because: CancellationError())
        }
    }

    /// The ticker's look: waiters past their deadlines give up, having
    /// written nothing. False once nobody waits (the ticker stops).
    private func withdrawLate() -> Bool {
        let now = ContinuousClock.now
        let (late, waiting): ([Waiter], Bool) = state.withLock { state in
            var late: [Waiter] = []
            for key in Array(state.lines.keys) { late += WaitTicker.takeLate(&state.lines[key]!, at: now, deadline: \.deadline) }
            let waiting = state.lines.values.contains { !$0.isEmpty }
            if !waiting { state.ticking = false }
            return (late, waiting)
        }
        for waiter in late {
            waiter.continuation.resume(throwing: DatabaseUnavailable("the room has more joins waiting than it can take in time; try again"))
        }
        return waiting
    }

    private func withdraw(_ key: RoomWriteQueue.Key, id: UInt64, because error: any Error) {
        let waiter: Waiter? = state.withLock { state in
            guard let index = state.lines[key]?.firstIndex(where: { $0.id == id }) else { return nil }
            return state.lines[key]!.remove(at: index)
        }
        waiter?.continuation.resume(throwing: error)
    }
}
