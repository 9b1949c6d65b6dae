/// What happened to a room, as its timeline (`room_events.kind`) records it
/// (#28, item 4): the engine writes and reads these cases, never the text;
/// `stored` is the one place each is spelled.
public enum RoomEventKind: Sendable, Hashable, CustomStringConvertible {
    case created, reserved, reservationLapsed, extended, deadline, closed
    case joined, left, kicked, banned, unbanned, muted, unmuted
    /// A plugin's own event (`<plugin>.<thing>.<what happened>`, one of its
    /// `eventTypes`): its webhook type is its own name.
    case plugin(String)

    /// The engine's own kinds, in the order the contract lists them.
    public static let engine: [RoomEventKind] = [
        .created, .reserved, .reservationLapsed, .extended, .deadline, .closed,
        .joined, .left, .kicked, .banned, .unbanned, .muted, .unmuted,
    ]

    /// The text in `room_events.kind`.
    public var stored: String {
        switch self {
        case .created: "created"
        case .reserved: "reserved"
        case .reservationLapsed: "reservation-lapsed"
        case .extended: "extended"
        case .deadline: "deadline"
        case .closed: "closed"
        case .joined: "joined"
        case .left: "left"
        case .kicked: "kicked"
        case .banned: "banned"
        case .unbanned: "unbanned"
        case .muted: "muted"
        case .unmuted: "unmuted"
        case .plugin(let type): type
        }
    }

    /// The kind a stored text names; any text that is not the engine's is a
    /// plugin's event.
    public init(stored: String) {
        self = Self.byText[stored] ?? .plugin(stored)
    }

    private static let byText: [String: RoomEventKind] = Dictionary(uniqueKeysWithValues: engine.map { ($0.stored, $0) })

    public var description: String { stored }
}
