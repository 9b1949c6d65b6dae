import Foundation
import RoomCore
import Synchronization

/// Online counts from a vendor that answers one chatroom per call (NetEase,
/// RongCloud): a lobby's `/room/list` of 100 rooms made 100 sequential calls
/// inside one time budget, timing out and burning the vendor's quota on
/// every poll. Counts are kept for `ttl` per chatroom (a lobby shows them
/// rounded anyway), and the missing ones are asked `parallel` at a time.
final class OnlineCountCache: Sendable {
    private let entries = Mutex<[String: (count: Int, at: ContinuousClock.Instant)]>([:])
    private let ttl: Duration
    private let parallel: Int
    /// Beyond this many chatrooms the oldest entries are forgotten.
    private let capacity = 10_000

    init(ttl: Duration = .seconds(5), parallel: Int = 8) {
        self.ttl = ttl
        self.parallel = parallel
    }

    func counts(_ chatrooms: [String], fetch: @escaping @Sendable (String) async throws -> Int) async throws -> [String: Int] {
        let now = ContinuousClock.now
        var counts: [String: Int] = [:]
        let missing = entries.withLock { entries in
            Array(Set(chatrooms)).filter { chatroom in
                guard let entry = entries[chatroom], now - entry.at < ttl else { return true }
                counts[chatroom] = entry.count
                return false
            }
        }
        var index = 0
        while index < missing.count {
            let batch = missing[index..<min(index + parallel, missing.count)]
            index += parallel
            let fetched = try await withThrowingTaskGroup(of: (String, Int).self) { group in
                for chatroom in batch { group.addTask { (chatroom, try await fetch(chatroom)) } }
                return try await group.reduce(into: [(String, Int)]()) { $0.append($1) }
            }
            let at = ContinuousClock.now
            entries.withLock { entries in
                if entries.count > capacity { entries.removeAll(keepingCapacity: true) }
                for (chatroom, count) in fetched { entries[chatroom] = (count, at) }
            }
            for (chatroom, count) in fetched { counts[chatroom] = count }
        }
        return counts
    }
}
