import Metrics

/// What a committed room write changed (#28, item 5): its rooms and the
/// transition each took. `RoomEngine.committed` is the one epilogue every
/// room write runs after its commit (never before: a rolled-back sweep
/// counted its closes before).
struct RoomCommitted: Sendable {
    /// The transition's name (`created`, `joined`, `dissolved`, `released`…).
    let transition: String
    let rooms: [Room]

    init(_ transition: String, _ rooms: [Room]) {
        self.transition = transition
        self.rooms = rooms
    }
}

extension RoomEngine {
    /// After a commit: every list the write touched and every room it
    /// changed (`RecentRooms`) are forgotten on this instance (the others hear the rooms trigger's NOTIFY), and each
    /// transition is counted under one label scheme, `kind` the transition
    /// and `plugin` the room's own plugin (the caller's, "admin" and
    /// "sweeper" were mixed in before).
    func committed(_ changes: [RoomCommitted]) {
        var lists = Set<RoomListCache.Key>()
        for change in changes where !change.rooms.isEmpty {
            for (plugin, rooms) in Dictionary(grouping: change.rooms, by: \.pluginID) {
                Self.transitions.increment(kind: change.transition, plugin: plugin, by: rooms.count)
            }
            lists.formUnion(change.rooms.map { RoomListCache.Key(tenantID: $0.tenantID, pluginID: $0.pluginID) })
        }
        for list in lists { listCache.forget(list.tenantID, list.pluginID) }
        // Their versions moved: a dissolve guessing from them would only miss.
        for change in changes { recentRooms.forget(change.rooms) }
    }
}

/// `roomkeeper_room_transitions_total{kind, plugin}`, each handle made once
/// (`MadeOnce`: transition kinds and plugins are fixed sets).
struct TransitionCounter: Sendable {
    private struct Key: Hashable, Sendable {
        let kind: String
        let plugin: String
    }

    private static let made = MadeOnce<Key, Counter>()

    func increment(kind: String, plugin: String, by amount: Int = 1) {
        Self.made.value(for: Key(kind: kind, plugin: plugin)) {
            Counter(label: "roomkeeper_room_transitions_total", dimensions: [("kind", kind), ("plugin", plugin)])
        }.increment(by: amount)
    }
}
