import RoomCore

/// Keeps this instance's room lists current (#19): follows
/// `roomkeeper_rooms`, which the `rooms` triggers notify with the
/// `tenant/plugin` of every list a commit changed, and forgets those lists.
/// Lists are served from memory only while the LISTEN is in place; after a
/// lost connection they are read from PostgreSQL until it is back, then
/// cached again from empty (a change made in the gap reached nobody here).
public struct RoomListFollower: NotificationFollower {
    let cache: RoomListCache

    public var channel: String { "roomkeeper_rooms" }
    public func listening() { cache.startListening() }
    public func notified(_ payload: String) { cache.forget(payload: payload) }
    public func lost() { cache.stopListening() }
}
