import Foundation
import PostgresNIO

/// The column list every room query selects, and its decoding.
enum RoomRows {
    static let columns = """
        tenant_id, room_id, plugin_id, name, owner, state, close_reason, capacity, created_at, expires_at, \
        closed_at, reserved_for, reserved_until, reservation_claimed_at, lapse_action, im_chatroom_id, attributes::text AS attributes
        """

    static func decode(_ row: PostgresRow) throws -> Room {
        let cells = row.makeRandomAccess()
        let closeReason = try cells["close_reason"].decode(String?.self).flatMap(CloseReason.init(rawValue:))
        let state: RoomState = try cells["state"].decode(String.self) == "closed" ? .closed(closeReason ?? .dissolved) : .open
        var reservation: Reservation?
        if let accounts = try cells["reserved_for"].decode([String]?.self),
           let until = try cells["reserved_until"].decode(Date?.self) {
            reservation = Reservation(
                accounts: accounts, until: until,
                claimedAt: try cells["reservation_claimed_at"].decode(Date?.self),
                onLapse: LapseAction(rawValue: try cells["lapse_action"].decode(String.self)) ?? .release)
        }
        return Room(
            tenantID: try cells["tenant_id"].decode(String.self),
            id: try cells["room_id"].decode(Int64.self),
            pluginID: try cells["plugin_id"].decode(String.self),
            name: try cells["name"].decode(String.self),
            owner: try cells["owner"].decode(String.self),
            state: state,
            capacity: try cells["capacity"].decode(Int.self),
            createdAt: try cells["created_at"].decode(Date.self),
            expiresAt: try cells["expires_at"].decode(Date.self),
            closedAt: try cells["closed_at"].decode(Date?.self),
            reservation: reservation,
            imChatroomID: try cells["im_chatroom_id"].decode(String?.self),
            attributes: try cells["attributes"].decode(String.self))
    }

    static func all(_ rows: [PostgresRow]) throws -> [Room] {
        try rows.map(decode)
    }

    /// Rows of a query on a transaction's connection, read to the end.
    static func all(_ rows: PostgresRowSequence) async throws -> [Room] {
        try all(try await rows.collect())
    }
}
