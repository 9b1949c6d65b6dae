import Foundation

/// What a moderator's mute, or its lift, shows on a plugin's rows and tells
/// the room, decided without I/O (#42), as `MemberRemoval` is for a kick:
/// a room's first mute of an account is then one read and one statement
/// guarded by the room's version (the mute, the rows, the event, the audit
/// row, the chatroom's mute and the messages), where the transaction took
/// a lock, an insert, an event, two enqueues, the audit and the plugin's
/// hook reading and writing in between. A lift, and a mute over one in
/// force (whose terms are weighed), keep the transaction, where the engine
/// applies the same decision to the rows it locks.
///
/// A plugin that gives one (`RoomPlugin.muting`) is not asked
/// `memberMuted`; one that gives none (the default) keeps it.
public struct MemberMuting: Sendable {
    /// Whose mute changed in which room, and how.
    public struct Muted: Sendable {
        public let account: AccountID
        public let room: Room
        /// Who muted it; nil when the mute is lifted.
        public let mutedBy: Actor?
        /// Who acted (the muter, or the lifter).
        public let actor: Actor

        public init(account: AccountID, room: Room, mutedBy: Actor?, actor: Actor) {
            self.account = account
            self.room = room
            self.mutedBy = mutedBy
            self.actor = actor
        }
    }

    public let rows: any MemberRowsDecision<Muted>

    /// The plugin's rows of `table` show it: `decide` gets them all, as
    /// read with the room, and returns the rows to save and the messages.
    public static func of<Row: RoomRow>(_ table: RoomRowTable<Row>,
                                        _ decide: @escaping @Sendable (Muted, [Row]) -> RoomChange<Row>) -> MemberMuting {
        MemberMuting(rows: TableDecision(table: table, decision: decide))
    }

    /// The plugin shows nothing of a mute (the engine's event, the audit
    /// row and the chatroom's mute still go).
    public static let nothing = MemberMuting(rows: TableDecision<Muted, NoRemovalRow>.messages { _ in [] })
}
