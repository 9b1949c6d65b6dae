import Metrics

/// What a committed room write changed (#28, item 5): its rooms and the
/// transition each took. `RoomEngine.committed` is the one epilogue every
/// room write runs after its commit (never before: a rolled-back sweep
/// counted its closes before), from its `RoomLedger` (`RoomEngine.commit`).
struct RoomCommitted: Sendable {
    /// The transition, as the timeline names it; nil for rooms written
    /// without one (a plugin's attributes, a version bumped).
    let transition: RoomTransition?
    let rooms: [Room]
    /// Whether the rooms' lists show what changed.
    let listed: Bool

    init(_ transition: RoomTransition?, _ rooms: [Room], listed: Bool = true) {
        self.transition = transition
        self.rooms = rooms
        self.listed = listed
    }
}

/// A counted room transition in the timeline's one vocabulary (#42): its
/// `kind` is the event kind `room_events` stores (`joined`, `kicked`,
/// `closed`, `reservation-lapsed`…), a close's reason beside it, so the
/// metrics, the timeline and the feed name a change alike (a close was
/// counted by its reason and a lapsed hold as `released` before).
struct RoomTransition: Hashable, Sendable {
    let kind: RoomEventKind
    let reason: CloseReason?

    init(_ kind: RoomEventKind) {
        self.kind = kind
        reason = nil
    }

    static func closed(_ reason: CloseReason) -> RoomTransition { RoomTransition(kind: .closed, reason: reason) }

    private init(kind: RoomEventKind, reason: CloseReason?) {
        self.kind = kind
        self.reason = reason
    }

    /// The labels: `kind`, and `reason` for a close.
    var dimensions: [(String, String)] {
        [("kind", kind.stored)] + (reason.map { [("reason", $0.rawValue)] } ?? [])
    }
}

/// `roomkeeper_room_transitions_total{kind, reason?, plugin}`, each handle
/// made once (`MadeOnce`: transition kinds and plugins are fixed sets).
struct TransitionCounter: Sendable {
    private struct Key: Hashable, Sendable {
        let transition: RoomTransition
        let plugin: String
    }

    private static let made = MadeOnce<Key, Counter>()

    func increment(_ transition: RoomTransition, plugin: String, by amount: Int = 1) {
        Self.made.value(for: Key(transition: transition, plugin: plugin)) {
            Counter(label: "roomkeeper_room_transitions_total", dimensions: transition.dimensions + [("plugin", plugin)])
        }.increment(by: amount)
    }
}
