import Foundation
import PostgresNIO

/// The column list every room query selects, and its decoding.
enum RoomRows {
    static let columns = """
        tenant_id, room_id, plugin_id, name, owner, state, close_reason, capacity, created_at, expires_at, \
        closed_at, reserved_for, reserved_until, reservation_claimed_at, lapse_action, im_chatroom_id, attributes::text AS attributes
        """

    /// By position, in the order of `columns` (which every room query
    /// selects first): looking cells up by name was a sixth of a sweep's CPU.
    static func decode(_ row: PostgresRow) throws -> Room {
        let cells = row.makeRandomAccess()
        let closeReason = try cells[6].decode(String?.self).flatMap(CloseReason.init(rawValue:))
        let state: RoomState = try cells[5].decode(String.self) == "closed" ? .closed(closeReason ?? .dissolved) : .open
        var reservation: Reservation?
        if let accounts = try cells[11].decode([String]?.self),
           let until = try cells[12].decode(Date?.self) {
            reservation = Reservation(
                accounts: accounts, until: until,
                claimedAt: try cells[13].decode(Date?.self),
                onLapse: LapseAction(rawValue: try cells[14].decode(String.self)) ?? .release)
        }
        return Room(
            tenantID: try cells[0].decode(String.self),
            id: try cells[1].decode(Int64.self),
            pluginID: try cells[2].decode(String.self),
            name: try cells[3].decode(String.self),
            owner: try cells[4].decode(String.self),
            state: state,
            capacity: try cells[7].decode(Int.self),
            createdAt: try cells[8].decode(Date.self),
            expiresAt: try cells[9].decode(Date.self),
            closedAt: try cells[10].decode(Date?.self),
            reservation: reservation,
            imChatroomID: try cells[15].decode(String?.self),
            attributes: try cells[16].decode(String.self))
    }

    static func all(_ rows: [PostgresRow]) throws -> [Room] {
        try rows.map(decode)
    }

    /// Rows of a query on a transaction's connection, read to the end.
    static func all(_ rows: QueryRows) async throws -> [Room] {
        try all(try await rows.collect())
    }
}
