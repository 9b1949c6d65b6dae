import Foundation
import RoomKit

/// The seat rows of a room: born with it (`AudioChatroomPlugin.firstRows`),
/// changed through `RoomEngine.change` as `table`, listed for reads.
enum SeatStore {
    static let tables = ["audio_chatroom_seats"]

    /// What a seat move reads and writes.
    static let table = RoomRowTable<MicSeat>(
        name: "audio_chatroom_seats", key: "seat_index",
        columns: ["seat_index", "phase", "member_account", "member_nick", "member_avatar", "closed", "masked", "self_muted", "reason", "muted_by"])

    /// Every seat of the room as last committed, for reads.
    static func seats(_ roomID: RoomID, on tables: PluginTables) async throws -> [MicSeat] {
        try decode(try await tables.query("""
            SELECT \(unescaped: columns) FROM audio_chatroom_seats WHERE tenant_id = \(.tenant) AND room_id = \(roomID) ORDER BY seat_index
            """))
    }

    static let columns: StaticString = "seat_index, phase, member_account, member_nick, member_avatar, closed, masked, self_muted, reason, muted_by"

    static func decode(_ rows: [TableRow]) throws -> [MicSeat] {
        try rows.decode((Int, String, String?, String?, String?, Bool, Bool, Bool, Int, String?).self).map {
            index, phase, account, nick, avatar, closed, masked, selfMuted, reason, mutedBy in
            MicSeat(index: index, phase: MicSeat.Phase(rawValue: phase) ?? .empty,
                    member: account.map { SeatMember(account: $0, nick: nick ?? "", avatar: avatar ?? "") },
                    closed: closed, masked: masked, selfMuted: selfMuted, reason: reason, mutedBy: mutedBy)
        }
    }

    /// Every seat of the room, locked for a hook's change on the engine's
    /// transaction (a kick's, a mute's).
    static func lockAll(_ roomID: RoomID, on tables: PluginTables) async throws -> [MicSeat] {
        try decode(try await tables.query("""
            SELECT \(unescaped: columns) FROM audio_chatroom_seats WHERE tenant_id = \(.tenant) AND room_id = \(roomID) ORDER BY seat_index FOR UPDATE
            """))
    }

    static func save(_ seats: [MicSeat], _ roomID: RoomID, now: Date, on tables: PluginTables) async throws {
        for seat in seats {
            try await tables.query("""
                UPDATE audio_chatroom_seats SET phase = \(seat.phase.rawValue), member_account = \(seat.member?.account),
                       member_nick = \(seat.member?.nick), member_avatar = \(seat.member?.avatar), self_muted = \(seat.selfMuted),
                       reason = \(seat.reason), muted_by = \(seat.mutedBy), updated_at = \(now)
                WHERE tenant_id = \(.tenant) AND room_id = \(roomID) AND seat_index = \(seat.index)
                """)
        }
    }
}

/// A seat as its row's columns (`SeatStore.table`).
extension MicSeat: RoomRow {
    public init(columns: [String: JSONValue]) throws {
        guard let index = columns["seat_index"]?.int64, let reason = columns["reason"]?.int64 else { throw SeatRowUnreadable() }
        let account = columns["member_account"]?.string
        self.init(index: Int(index), phase: columns["phase"]?.string.flatMap(Phase.init(rawValue:)) ?? .empty,
                  member: account.map { SeatMember(account: $0, nick: columns["member_nick"]?.string ?? "", avatar: columns["member_avatar"]?.string ?? "") },
                  closed: columns["closed"] == .bool(true), masked: columns["masked"] == .bool(true),
                  selfMuted: columns["self_muted"] == .bool(true), reason: Int(reason), mutedBy: columns["muted_by"]?.string)
    }

    public var columns: [String: JSONValue] {
        ["seat_index": .number(Double(index)), "phase": .string(phase.rawValue),
         "member_account": member.map { .string($0.account) } ?? .null, "member_nick": member.map { .string($0.nick) } ?? .null,
         "member_avatar": member.map { .string($0.avatar) } ?? .null,
         "closed": .bool(closed), "masked": .bool(masked), "self_muted": .bool(selfMuted), "reason": .number(Double(reason)),
         "muted_by": mutedBy.map(JSONValue.string) ?? .null]
    }
}

struct SeatRowUnreadable: Error {}
