import Foundation
import RoomKit

/// The mic position rows of one room: born with it (`SealMicPlugin.firstRows`), vacated on a
/// leave (on the engine's transaction), moved through `RoomEngine.change`
/// as `table`.
struct MicPositionStore {
    static let tables = ["sealmic_mic_positions"]

    /// A hook's or a read's tables.
    let tables: PluginTables

    /// Every position of the room as last committed, for reads.
    func all(_ roomID: RoomID) async throws -> [MicPosition] {
        try decode(try await tables.query("""
            SELECT position, user_id, locked, muted, muted_by FROM sealmic_mic_positions
            WHERE tenant_id = \(.tenant) AND room_id = \(roomID) ORDER BY position
            """))
    }

    /// Every position of the room, locked for this transaction (in position
    /// order, so two operations never lock in opposite orders).
    func lockAll(_ roomID: RoomID) async throws -> [MicPosition] {
        try decode(try await tables.query("""
            SELECT position, user_id, locked, muted, muted_by FROM sealmic_mic_positions
            WHERE tenant_id = \(.tenant) AND room_id = \(roomID) ORDER BY position FOR UPDATE
            """))
    }

    private func decode(_ rows: [TableRow]) throws -> [MicPosition] {
        try rows.decode((Int, String?, Bool, Bool, String?).self).map { MicPosition(position: $0, holder: $1, locked: $2, muted: $3, mutedBy: $4) }
    }

    /// In the order given: a move frees its old position before taking the new one.
    func save(_ positions: [MicPosition], _ roomID: RoomID, now: Date) async throws {
        for position in positions {
            try await tables.query("""
                UPDATE sealmic_mic_positions SET user_id = \(position.holder), locked = \(position.locked),
                       muted = \(position.muted), muted_by = \(position.mutedBy), updated_at = \(now)
                WHERE tenant_id = \(.tenant) AND room_id = \(roomID) AND position = \(position.position)
                """)
        }
    }

    /// What a mic move reads and writes.
    static let table = RoomRowTable<MicPosition>(name: "sealmic_mic_positions", key: "position", columns: ["position", "user_id", "locked", "muted", "muted_by"])
}

/// A mic position as its row's columns (`MicPositionStore.table`).
extension MicPosition: RoomRow {
    public init(columns: [String: JSONValue]) throws {
        guard let position = columns["position"]?.int64 else { throw PositionRowUnreadable() }
        self.init(position: Int(position), holder: columns["user_id"]?.string,
                  locked: columns["locked"] == .bool(true), muted: columns["muted"] == .bool(true), mutedBy: columns["muted_by"]?.string)
    }

    public var columns: [String: JSONValue] {
        ["position": .number(Double(position)), "user_id": holder.map(JSONValue.string) ?? .null, "locked": .bool(locked), "muted": .bool(muted),
         "muted_by": mutedBy.map(JSONValue.string) ?? .null]
    }
}

struct PositionRowUnreadable: Error {}
