import Foundation

/// What a kick does to a plugin's rows and what the room hears, decided
/// without I/O (#42): the engine reads the room, the plugin's rows and the
/// account's membership in one statement, asks this, and writes the
/// membership, the rows, the event, the audit row and the messages in one
/// statement guarded by the room's version (a seat move's shape). A kick
/// was 12 round trips in a transaction, with the plugin's hooks reading and
/// writing between the engine's statements; this way it is 3.
///
/// A plugin that gives one (`RoomPlugin.removal`) is not asked
/// `memberLeft`/`memberRemoved` for a kick; one that gives none (the
/// default) keeps them, in the kick's transaction.
public struct MemberRemoval: Sendable {
    /// Who is taken out of which room, by whom, and whether it had joined
    /// (it may hold what the plugin keeps, a seat applied for, without).
    public struct Leaver: Sendable {
        public let account: AccountID
        public let room: Room
        public let actor: Actor
        public let hadJoined: Bool

        public init(account: AccountID, room: Room, actor: Actor, hadJoined: Bool) {
            self.account = account
            self.room = room
            self.actor = actor
            self.hadJoined = hadJoined
        }
    }

    public let rows: any MemberRowsDecision<Leaver>

    /// The plugin's rows of `table` change: `decide` gets them all, as read
    /// with the room, and returns the rows to save and the messages to send.
    public static func of<Row: RoomRow>(_ table: RoomRowTable<Row>,
                                        _ decide: @escaping @Sendable (Leaver, [Row]) -> RoomChange<Row>) -> MemberRemoval {
        MemberRemoval(rows: TableDecision(table: table, decision: decide))
    }

    /// No rows of the plugin change; the room hears `decide`'s messages.
    public static func messages(_ decide: @escaping @Sendable (Leaver) -> [OutboxMessage]) -> MemberRemoval {
        MemberRemoval(rows: TableDecision.messages(decide))
    }

    /// The plugin keeps nothing a kick changes, and the room hears nothing
    /// from it (the engine's own event and the chatroom's removal still go).
    public static let nothing = messages { _ in [] }
}

/// The rows a decision about one member reads and decides on (a kick's
/// `MemberRemoval`, a mute's `MemberMuting`), as the engine opens it:
/// `table` nil reads none.
public protocol MemberRowsDecision<Subject>: Sendable {
    associatedtype Subject: Sendable
    associatedtype Row: RoomRow
    var table: RoomRowTable<Row>? { get }
    func decide(_ subject: Subject, _ rows: [Row]) -> RoomChange<Row>
}

struct TableDecision<Subject: Sendable, Row: RoomRow>: MemberRowsDecision {
    let table: RoomRowTable<Row>?
    let decision: @Sendable (Subject, [Row]) -> RoomChange<Row>

    func decide(_ subject: Subject, _ rows: [Row]) -> RoomChange<Row> { decision(subject, rows) }
}

extension TableDecision where Row == NoRemovalRow {
    /// No rows change; the room hears `decide`'s messages.
    static func messages(_ decide: @escaping @Sendable (Subject) -> [OutboxMessage]) -> TableDecision {
        TableDecision(table: nil) { subject, _ in
            var change = RoomChange<NoRemovalRow>()
            decide(subject).forEach { change.emit($0) }
            return change
        }
    }
}

/// The row type of a decision that reads no rows.
public struct NoRemovalRow: RoomRow {
    /// No columns.
    public enum Column: CodingKey, CaseIterable {
        public init?(stringValue: String) { nil }
        public init?(intValue: Int) { nil }
        public var stringValue: String { switch self {} }
        public var intValue: Int? { nil }
    }

    public init(from decoder: any Decoder) throws {}
    public func encode(to encoder: any Encoder) throws {}
}
