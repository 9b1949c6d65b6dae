import Foundation
import RoomKit

/// The seat rows of a room: born with it (`AudioChatroomPlugin.firstRows`),
/// changed through `RoomEngine.change` as `table`, listed for reads.
enum SeatStore {
    static let tables = ["audio_chatroom_seats"]

    /// What a seat move reads and writes: a `MicSeat`'s columns (`MicSeat.Column`).
    static let table = RoomRowTable<MicSeat>(name: "audio_chatroom_seats", key: .index)

    /// Every seat of the room as last committed, for reads.
    static func seats(_ roomID: RoomID, on tables: PluginTables) async throws -> [MicSeat] {
        try await tables.rows(of: table, in: roomID)
    }

    /// Every seat of the room, locked for a hook's change on the engine's
    /// transaction (a kick's, a mute's).
    static func lockAll(_ roomID: RoomID, on tables: PluginTables) async throws -> [MicSeat] {
        try await tables.rows(of: table, in: roomID, locking: true)
    }

    static func save(_ seats: [MicSeat], _ roomID: RoomID, now: Date, on tables: PluginTables) async throws {
        try await tables.save(seats, to: table, in: roomID, now: now)
    }
}

/// A seat is its row (`SeatStore.table`): its columns are `Column`, and
/// its member is kept flat (account, nick, avatar), as the table has it.
extension MicSeat: RoomRow {
    public enum Column: String, CodingKey, CaseIterable {
        case index = "seat_index", phase, memberAccount = "member_account", memberNick = "member_nick", memberAvatar = "member_avatar"
        case closed, masked, selfMuted = "self_muted", reason, mutedBy = "muted_by"
    }

    public init(from decoder: any Decoder) throws {
        let row = try decoder.container(keyedBy: Column.self)
        let account = try row.decodeIfPresent(String.self, forKey: .memberAccount)
        self.init(index: try row.decode(Int.self, forKey: .index),
                  phase: Phase(rawValue: try row.decode(String.self, forKey: .phase)) ?? .empty,
                  member: try account.map {
                      SeatMember(account: $0, nick: try row.decodeIfPresent(String.self, forKey: .memberNick) ?? "",
                                 avatar: try row.decodeIfPresent(String.self, forKey: .memberAvatar) ?? "")
                  },
                  closed: try row.decode(Bool.self, forKey: .closed), masked: try row.decode(Bool.self, forKey: .masked),
                  selfMuted: try row.decode(Bool.self, forKey: .selfMuted), reason: try row.decode(Int.self, forKey: .reason),
                  mutedBy: try row.decodeIfPresent(String.self, forKey: .mutedBy))
    }

    public func encode(to encoder: any Encoder) throws {
        var row = encoder.container(keyedBy: Column.self)
        try row.encode(index, forKey: .index)
        try row.encode(phase.rawValue, forKey: .phase)
        try row.encode(member?.account, forKey: .memberAccount)
        try row.encode(member?.nick, forKey: .memberNick)
        try row.encode(member?.avatar, forKey: .memberAvatar)
        try row.encode(closed, forKey: .closed)
        try row.encode(masked, forKey: .masked)
        try row.encode(selfMuted, forKey: .selfMuted)
        try row.encode(reason, forKey: .reason)
        try row.encode(mutedBy, forKey: .mutedBy)
    }
}
