import Foundation
import Synchronization

/// A tenant's online counts by chatroom, read in one query at most once per
/// `maxAge` on this instance (#19): every lobby poll of `/room/list` asked
/// PostgreSQL for the counts of its page, which kept room lists from being
/// served from memory. A count may be up to `maxAge` old (vendors' counts
/// are cached for 5 s); the query's cost grows with the tenant's connected
/// members, not with its rooms. Concurrent readers share one query.
final class PresenceCounts: Sendable {
    private struct State {
        var counts: [String: Int] = [:]
        var loadedAt: ContinuousClock.Instant?
        var loading: Task<[String: Int], any Error>?
    }

    private let state = Mutex(State())
    let maxAge: Duration

    init(maxAge: Duration = .seconds(1)) {
        self.maxAge = maxAge
    }

    func counts(of chatrooms: [String], load: @escaping @Sendable () async throws -> [String: Int]) async throws -> [String: Int] {
        let now = ContinuousClock.now
        enum Next { case fresh([String: Int]), wait(Task<[String: Int], any Error>) }
        let next: Next = state.withLock { state in
            if let at = state.loadedAt, now - at < maxAge { return .fresh(state.counts) }
            if let task = state.loading { return .wait(task) }
            let task = Task<[String: Int], any Error> {
                do {
                    let counts = try await load()
                    self.state.withLock { state in
                        state.counts = counts
                        state.loadedAt = now
                        state.loading = nil
                    }
                    return counts
                } catch {
                    self.state.withLock { $0.loading = nil }
                    throw error
                }
            }
            state.loading = task
            return .wait(task)
        }
        let all: [String: Int]
        switch next {
        case .fresh(let counts): all = counts
        case .wait(let task): all = try await task.value
        }
        var wanted: [String: Int] = [:]
        for chatroom in chatrooms { if let count = all[chatroom] { wanted[chatroom] = count } }
        return wanted
    }
}
