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
        try await tables.rows(of: Self.table, in: roomID)
    }

    /// Every position of the room, locked for this transaction (in position
    /// order, so two operations never lock in opposite orders).
    func lockAll(_ roomID: RoomID) async throws -> [MicPosition] {
        try await tables.rows(of: Self.table, in: roomID, locking: true)
    }

    /// In the order given: a move frees its old position before taking the new one.
    func save(_ positions: [MicPosition], _ roomID: RoomID, now: Date) async throws {
        try await tables.save(positions, to: Self.table, in: roomID, now: now)
    }

    /// What a mic move reads and writes: a `MicPosition`'s columns.
    static let table = RoomRowTable<MicPosition>(name: "sealmic_mic_positions", key: .position)
}

/// A mic position is its row (`MicPositionStore.table`): its coding keys
/// (`MicPosition.CodingKeys`) are the columns.
extension MicPosition: RoomRow {
    public typealias Column = CodingKeys
}
