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

    /// 10,000 rooms of about 500 bytes: 5 MB at most.
    private let memory: RecentMemory<Key, Seen>

    public init(capacity: Int = 10_000, maxAge: Duration = .seconds(600)) {
        memory = RecentMemory(capacity: capacity, maxAge: maxAge)
    }

    func remember(_ room: Room, version: Int64, joinedCount: Int) {
        memory.remember(Seen(room: room, version: version, joinedCount: joinedCount), for: Key(tenantID: room.tenantID, roomID: room.id))
    }

    func recall(_ tenantID: TenantID, _ roomID: RoomID) -> Seen? {
        memory.recall(Key(tenantID: tenantID, roomID: roomID))
    }

    func forget(_ rooms: some Sequence<Room>) {
        memory.forget(rooms.map { Key(tenantID: $0.tenantID, roomID: $0.id) })
    }
}
