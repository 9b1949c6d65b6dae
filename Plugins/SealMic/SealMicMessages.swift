import Foundation
import RoomKit

/// The SM:* chatroom messages every SealMic client listens to, sent through
/// the tenant's IM provider as engine side effects (in order per room, not persisted).
enum SealMicMessages {
    struct PositionInfo: Encodable {
        let uid: String?
        let rid: String
        let state: Int
        let position: Int
        /// Who muted the holder (#29), when a moderator did; absent
        /// otherwise (the apps ignore keys they do not know).
        let mutedBy: String?
    }

    struct MemberChange: Encodable {
        let cmd: Int
        let targetUserId: String
    }

    struct Control: Encodable {
        let cmd: Int
        let targetUserId: String
        let targetPosition: Int
        let micPositions: [PositionInfo]
    }

    struct Change: Encodable {
        let cmd: Int
        let targetUserId: String
        let fromPosition: Int
        let toPosition: Int
        let micPositions: [PositionInfo]
    }

    struct Background: Encodable {
        let bgId: Int
    }

    struct Destroyed: Encodable {}

    /// `SM:RMChangeMsg` cmds.
    enum MemberCmd: Int { case join = 1, leave = 2, kick = 3 }

    static func memberChanged(_ cmd: MemberCmd, user: AccountID, room: Room) -> OutboxMessage {
        message("SM:RMChangeMsg", MemberChange(cmd: cmd.rawValue, targetUserId: user), from: user, room: room)
    }

    /// `SM:MPChangeMsg` for a move between positions, `SM:MPCtrlMsg` for everything else.
    static func positions(_ outcome: MicOutcome, by actor: AccountID, room: Room) -> OutboxMessage {
        let infos = outcome.positions.map { PositionInfo(uid: $0.holder, rid: wireID(room), state: $0.state, position: $0.position, mutedBy: $0.mutedBy) }
        if let from = outcome.fromPosition {
            return message("SM:MPChangeMsg", Change(cmd: outcome.cmd.rawValue, targetUserId: outcome.targetUserID, fromPosition: from,
                                                   toPosition: outcome.targetPosition, micPositions: infos), from: actor, room: room)
        }
        return message("SM:MPCtrlMsg", Control(cmd: outcome.cmd.rawValue, targetUserId: outcome.targetUserID,
                                               targetPosition: outcome.targetPosition, micPositions: infos), from: actor, room: room)
    }

    static func background(_ bgId: Int, by actor: AccountID, room: Room) -> OutboxMessage {
        message("SM:RBgNtfyMsg", Background(bgId: bgId), from: actor, room: room)
    }

    static func destroyed(_ room: Room) -> OutboxMessage {
        message("SM:RDNtfyMsg", Destroyed(), from: room.owner, room: room)
    }

    /// The room id the clients know: the IM chatroom's, which is the room's.
    static func wireID(_ room: Room) -> String { room.imChatroomID ?? String(room.id) }

    private static func message(_ type: String, _ body: some Encodable, from: AccountID, room: Room) -> OutboxMessage {
        .im(.chatroomMessage(chatroom: wireID(room), from: from, type: type, body: JSONText.encode(body), persist: false), roomID: room.id)
    }
}
