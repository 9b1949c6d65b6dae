import Foundation
import Synchronization

/// What an instance lately saw, kept for guesses (`SessionCache`,
/// `RecentRooms`): at most `capacity` values (an arbitrary one goes when it
/// is full), each for at most `maxAge`.
final class RecentMemory<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        let value: Value
        let keptAt: ContinuousClock.Instant
    }

    let capacity: Int
    let maxAge: Duration
    private let entries = Mutex<[Key: Entry]>([:])

    init(capacity: Int, maxAge: Duration) {
        self.capacity = capacity
        self.maxAge = maxAge
    }

    func remember(_ value: Value, for key: Key) {
        let entry = Entry(value: value, keptAt: .now)
        entries.withLock { entries in
            if entries.count >= capacity, entries[key] == nil { entries.remove(at: entries.startIndex) }
            entries[key] = entry
        }
    }

    /// The value kept for `key`, unless it is older than `maxAge` or no
    /// longer `valid` (then it is forgotten).
    func recall(_ key: Key, valid: (Value) -> Bool = { _ in true }) -> Value? {
        entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard ContinuousClock.now - entry.keptAt < maxAge, valid(entry.value) else {
                entries[key] = nil
                return nil
            }
            return entry.value
        }
    }

    /// Changes the value kept for `key`, if any (its age unchanged).
    func update(_ key: Key, _ change: (inout Value) -> Void) {
        entries.withLock { entries in
            guard let entry = entries[key] else { return }
            var value = entry.value
            change(&value)
            entries[key] = Entry(value: value, keptAt: entry.keptAt)
        }
    }

    func forget(_ keys: some Sequence<Key>) {
        entries.withLock { entries in
            for key in keys { entries[key] = nil }
        }
    }

    var count: Int { entries.withLock { $0.count } }
}
