import Synchronization

/// An answer read once for every join of one written batch (#41).
///
/// Why: a SealMic join answers the room's detail (its seats and newest 200
/// members). Read and encoded by each join, that was the largest part of a
/// join's cost once the joins themselves were written together: in ops/bench
/// figure 7, encoding the detail was 15 % of the server's samples and
/// reading its members 12 %, with the cores saturated at 547-568 joins/s.
/// The joins of a batch share one commit, so a read started after it is as
/// fresh for each of them as its own would be: the first to ask computes,
/// the others wait for that value. A later batch never shares an earlier
/// one's answer (it would miss its own joins).
final class SharedAnswers: Sendable {
    struct Key: Hashable, Sendable {
        let batch: RoomJoinQueue.Batch
        /// The answer's kind, as the plugin names it ("detail").
        let name: String
        /// Answers of different types never share (the cast below relies on it).
        let type: ObjectIdentifier
    }

    /// How long a batch's answer is kept for its joins that ask late. They
    /// ask once the leader resumes them, one after another on busy cores:
    /// forgotten as soon as the first asker had it, the answer was read 1,011
    /// times for 69 batches in figure 7. A join asking later than this reads
    /// its own (never a stale one: the key is its batch).
    static let keptFor: Duration = .seconds(1)

    private struct Kept {
        let task: Task<any Sendable, any Error>
        let since: ContinuousClock.Instant
    }

    private struct State {
        var kept: [Key: Kept] = [:]
        var swept = ContinuousClock.now
        var computed = 0
        var asked = 0
    }

    private let state = Mutex(State())

    /// Answers computed and asked for (for tests).
    var counts: (computed: Int, asked: Int) { state.withLock { ($0.computed, $0.asked) } }

    /// `compute`'s value for `key`: this caller's own, or the one a caller
    /// of the same batch started first. The computation runs as a task that
    /// keeps the first caller's task-local values (its tenant's lease share).
    func answer<Answer: Sendable>(_ batch: RoomJoinQueue.Batch, name: String,
                                  _ compute: @escaping @Sendable () async throws -> Answer) async throws -> Answer {
        let key = Key(batch: batch, name: name, type: ObjectIdentifier(Answer.self))
        let task: Task<any Sendable, any Error> = state.withLock { state in
            state.asked += 1
            let now = ContinuousClock.now
            // At most one sweep a period: the map holds a period's batches.
            if now - state.swept >= Self.keptFor {
                state.kept = state.kept.filter { now - $0.value.since < Self.keptFor }
                state.swept = now
            }
            if let kept = state.kept[key] { return kept.task }
            state.computed += 1
            let task = Task<any Sendable, any Error> { try await compute() }
            state.kept[key] = Kept(task: task, since: now)
            return task
        }
        guard let answer = try await task.value as? Answer else { preconditionFailure("an answer of another type under \(key.name)") }
        return answer
    }
}
