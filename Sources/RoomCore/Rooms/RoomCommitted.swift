import Metrics

/// What a committed room write changed (#28, item 5): its rooms and the
/// transition each took. `RoomEngine.committed` is the one epilogue every
/// room write runs after its commit (never before: a rolled-back sweep
/// counted its closes before), from its `RoomLedger` (`RoomEngine.commit`).
struct RoomCommitted: Sendable {
    /// The transition's name (`created`, `joined`, `dissolved`, `released`…);
    /// nil for rooms written without one (a plugin's attributes, a version bumped).
    let transition: String?
    let rooms: [Room]
    /// Whether the rooms' lists show what changed.
    let listed: Bool

    init(_ transition: String?, _ rooms: [Room], listed: Bool = true) {
        self.transition = transition
        self.rooms = rooms
        self.listed = listed
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
