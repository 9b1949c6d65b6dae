import Foundation
import Synchronization

/// Rooms this instance has lately read or written, at the version it saw
/// them (#28, item 3), so a dissolve can decide on a room it knows and send
/// one statement guarded by that version instead of reading the room
/// first. Every write of a room bumps its version, so a room at the version
/// kept is the room kept; a guess that fails (the room changed, maybe on
/// another instance) costs one statement that writes nothing, then the
/// dissolve reads the room as if nothing were kept.
///
/// Bounded: at most `capacity` rooms, each kept at most `maxAge`, far
/// below the retention that could free a closed room's id for a new room.
public final class RecentRooms: Sendable {
    struct Key: Hashable, Sendable {
        let tenantID: TenantID
        let roomID: RoomID
    }

    struct Seen: Sendable {
        let room: Room
        let version: Int64
        let joinedCount: Int
    }

    private struct Entry {
        let seen: Seen
        let keptAt: ContinuousClock.Instant
    }

    /// 10,000 rooms of about 500 bytes: 5 MB at most.
    let capacity: Int
    let maxAge: Duration
    private let entries = Mutex<[Key: Entry]>([:])

    public init(capacity: Int = 10_000, maxAge: Duration = .seconds(600)) {
        self.capacity = capacity
        self.maxAge = maxAge
    }

    func remember(_ room: Room, version: Int64, joinedCount: Int) {
        let key = Key(tenantID: room.tenantID, roomID: room.id)
        let entry = Entry(seen: Seen(room: room, version: version, joinedCount: joinedCount), keptAt: .now)
        entries.withLock { entries in
            if entries.count >= capacity, entries[key] == nil { entries.remove(at: entries.startIndex) }
            entries[key] = entry
        }
    }

    func recall(_ tenantID: TenantID, _ roomID: RoomID) -> Seen? {
        let key = Key(tenantID: tenantID, roomID: roomID)
        return entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard ContinuousClock.now - entry.keptAt < maxAge else {
                entries[key] = nil
                return nil
            }
            return entry.seen
        }
    }

    func forget(_ rooms: some Sequence<Room>) {
        let keys = rooms.map { Key(tenantID: $0.tenantID, roomID: $0.id) }
        entries.withLock { entries in
            for key in keys { entries[key] = nil }
        }
    }
}
