import Foundation
import Logging
import PostgresNIO
import Synchronization

/// Writers to one room queue in memory, per instance, and go to PostgreSQL
/// together (#41, "a hot room is slow only for itself").
///
/// Why: every write of a room (a join, a leave, a plugin's `mutate`) locks
/// the room's row in a transaction. 1,000 members joining one room at once
/// were 1,000 transactions each holding a pooled connection while it waited
/// for that one lock: the pool was the hot room's, and every other room of
/// every tenant waited for a connection (208 joins/s, p99 562 ms).
///
/// Now one room has at most one transaction in flight per instance: the
/// first writer leads a batch (it leases the connection, begins, runs its
/// own writes), then hands the open transaction to each writer that queued
/// meanwhile, in turn (at most `batchLimit`), each inside a savepoint of its
/// own so that one refused or failed writer rolls back alone; one COMMIT
/// then answers them all. Writers learn their outcome only after that
/// commit, and a commit whose outcome is unknown is unknown to each of them.
/// The next queued writer leads the next batch.
final class RoomWriteQueue: Sendable {
    /// Writers one transaction carries at most: 64 joins are about 400
    /// statements, some 40 ms, short enough that the next batch's writers
    /// (queued meanwhile) do not wait long.
    static let batchLimit = 64

    struct Key: Hashable, Sendable {
        let tenant: TenantID
        let room: RoomID
    }

    private struct Waiter {
        let id: UInt64
        /// When it gives up waiting (`WaitTicker` withdraws it).
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<RoomWriteTurn, any Error>
    }

    private struct Line {
        var waiters: [Waiter] = []
    }

    private struct State {
        /// Rooms with a batch in flight, and who waits for the next.
        var lines: [Key: Line] = [:]
        var nextID: UInt64 = 0
        var batches = 0
        var writers = 0
        /// Whether the waiters' ticker runs (`WaitTicker`).
        var ticking = false
    }

    private let state = Mutex(State())

    /// Batches committed or failed, and writers they carried (for tests).
    var counts: (batches: Int, writers: Int) { state.withLock { ($0.batches, $0.writers) } }

    /// Runs `body` in a transaction holding the room's writes of this
    /// instance, alone or with other writers of the room; returns once that
    /// transaction has committed. A writer still queued at its request's
    /// deadline (or after a statement's 12 s) gives up with
    /// `DatabaseUnavailable` (nothing written).
    func run<Result: Sendable>(
        _ key: Key, on database: Database, _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let queued: UInt64? = state.withLock { state in
            guard state.lines[key] != nil else {
                state.lines[key] = Line()
                return nil
            }
            state.nextID += 1
            return state.nextID
        }
        guard let id = queued else { return try await lead(key, on: database, body) }
        // Parked, the writer gives its request slot back (`RequestSlot`); a
        // writer handed the leader's transaction writes under the leader's
        // slot, and takes its own back once the batch has committed.
        let parked: Parked<Result> = try await RequestSlot.whileParked {
            // As long as its statement would have waited for the room's row lock.
            switch try await waitForTurn(key, id: id, until: DatabaseDeadline.until(atMost: DatabaseDeadline.statementSeconds)) {
            case .lead: return .lead
            case .join(let part): return .wrote(try await part.write(body))
            }
        }
        switch parked {
        case .lead: return try await lead(key, on: database, body)
        case .wrote(let result): return result
        }
    }

    private enum Parked<Result: Sendable>: Sendable {
        case lead
        case wrote(Result)
    }

    private func lead<Result: Sendable>(
        _ key: Key, on database: Database, _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        var parts: [BatchPart] = []
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await database.transaction { connection in
                // The leader's own writes first, without a savepoint: if they
                // fail, the transaction holds nobody else's yet.
                let own = try await body(connection)
                let lease = DatabaseDeadline.lease
                while parts.count < Self.batchLimit - 1, let waiter = nextWaiter(key) {
                    let part = BatchPart(connection: connection, lease: lease, logger: database.logger)
                    parts.append(part)
                    await part.hand(to: waiter.continuation)
                }
                return own
            })
        } catch {
            outcome = .failure(error)
        }
        let committed = outcome.map { _ in () }
        for part in parts { part.settle(committed) }
        handOn(key, carried: parts.count + 1)
        return try outcome.get()
    }

    private func nextWaiter(_ key: Key) -> Waiter? {
        state.withLock { Self.nextWaiter(&$0, key) }
    }

    /// The batch is over: the first writer queued meanwhile leads the next.
    private func handOn(_ key: Key, carried: Int) {
        let next: Waiter? = state.withLock { state in
            state.batches += 1
            state.writers += carried
            guard let waiter = Self.nextWaiter(&state, key) else {
                state.lines[key] = nil
                return nil
            }
            return waiter
        }
        next?.continuation.resume(returning: .lead)
    }

    private static func nextWaiter(_ state: inout State, _ key: Key) -> Waiter? {
        guard !(state.lines[key]?.waiters.isEmpty ?? true) else { return nil }
        return state.lines[key]!.waiters.removeFirst()
    }

    private func waitForTurn(_ key: Key, id: UInt64, until deadline: ContinuousClock.Instant) async throws -> RoomWriteTurn {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<RoomWriteTurn, any Error>) in
                enum Now { case lead, waiting(startsTicker: Bool), ended(any Error) }
                let now: Now = state.withLock { state in
                    // The batch ended between this writer's first look and now.
                    guard state.lines[key] != nil else {
                        state.lines[key] = Line()
                        return .lead
                    }
                    if Task.isCancelled { return .ended(CancellationError()) }
                    if ContinuousClock.now >= deadline { return .ended(DatabaseUnavailable("the room's writers waited too long; try again")) }
                    state.lines[key]!.waiters.append(Waiter(id: id, deadline: deadline, continuation: continuation))
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

    /// The ticker's look: writers past their deadlines give up, having
    /// written nothing. False once nobody waits (the ticker stops).
    private func withdrawLate() -> Bool {
        let now = ContinuousClock.now
        let (late, waiting): ([Waiter], Bool) = state.withLock { state in
            var late: [Waiter] = []
            for key in Array(state.lines.keys) { late += WaitTicker.takeLate(&state.lines[key]!.waiters, at: now, deadline: \.deadline) }
            let waiting = state.lines.values.contains { !$0.waiters.isEmpty }
            if !waiting { state.ticking = false }
            return (late, waiting)
        }
        for waiter in late {
            waiter.continuation.resume(throwing: DatabaseUnavailable("the room has more writers waiting than it can take in time; try again"))
        }
        return waiting
    }

    private func withdraw(_ key: Key, id: UInt64, because error: any Error) {
        let waiter: Waiter? = state.withLock { state in
            guard let index = state.lines[key]?.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.lines[key]!.waiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: error)
    }
}

/// What a queued writer is told when its turn comes.
private enum RoomWriteTurn: Sendable {
    case lead
    case join(BatchPart)
}

/// One queued writer's part of a batch: the leader's open transaction, lent
/// to the writer's own task for its writes (in a savepoint), then the
/// batch's commit outcome handed back.
private final class BatchPart: Sendable {
    let connection: PostgresConnection
    let lease: DatabaseDeadline.LeaseOrigin?
    let logger: Logger

    private struct State {
        /// The leader, waiting for this writer to finish its writes.
        var leader: CheckedContinuation<Void, Never>?
        var wrote = false
        /// The writer, waiting for the batch's commit.
        var writer: CheckedContinuation<Void, any Error>?
        var outcome: Result<Void, any Error>?
    }

    private let state = Mutex(State())

    init(connection: PostgresConnection, lease: DatabaseDeadline.LeaseOrigin?, logger: Logger) {
        self.connection = connection
        self.lease = lease
        self.logger = logger
    }

    /// Leader: lends the transaction to the queued writer and waits until
    /// its writes are done (or rolled back to its savepoint).
    func hand(to writer: CheckedContinuation<RoomWriteTurn, any Error>) async {
        await withCheckedContinuation { (leader: CheckedContinuation<Void, Never>) in
            state.withLock { $0.leader = leader }
            writer.resume(returning: .join(self))
        }
    }

    /// Writer: its writes in a savepoint on the lent transaction; then, if
    /// they succeeded, the batch's commit.
    func write<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        let (connection, logger) = (connection, logger)
        let written: Swift.Result<Result, any Error> = await TransactionBlock.$connection.withValue(ObjectIdentifier(connection)) {
            await DatabaseDeadline.$lease.withValue(lease) {
                await LeaseOwner.$holding.withValue(true) {
                    do {
                        try await connection.run("SAVEPOINT room_writer", logger: logger)
                        do {
                            let result = try await body(connection)
                            try await connection.run("RELEASE SAVEPOINT room_writer", logger: logger)
                            return .success(result)
                        } catch {
                            _ = try? await connection.run("ROLLBACK TO SAVEPOINT room_writer", logger: logger)
                            return .failure(error)
                        }
                    } catch {
                        return .failure(error)
                    }
                }
            }
        }
        let result: Result
        switch written {
        case .success(let value): result = value
        case .failure(let error):
            partDone(wrote: false)
            throw error
        }
        try await withCheckedThrowingContinuation { (writer: CheckedContinuation<Void, any Error>) in
            let settled: Swift.Result<Void, any Error>? = state.withLock { state in
                if let outcome = state.outcome { return outcome }
                state.writer = writer
                return nil
            }
            if let settled { writer.resume(with: settled) }
            partDone(wrote: true)
        }
        return result
    }

    private func partDone(wrote: Bool) {
        let leader: CheckedContinuation<Void, Never>? = state.withLock { state in
            state.wrote = wrote
            defer { state.leader = nil }
            return state.leader
        }
        leader?.resume()
    }

    /// Leader, after the commit (or its failure): the writer learns it.
    func settle(_ outcome: Result<Void, any Error>) {
        let writer: CheckedContinuation<Void, any Error>? = state.withLock { state in
            state.outcome = outcome
            defer { state.writer = nil }
            return state.writer
        }
        writer?.resume(with: outcome)
    }
}
