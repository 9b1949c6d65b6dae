import Foundation
import Logging
import PostgresNIO
import RoomCore

/// The seat rows of one room, on the caller's transaction.
struct SeatStore {
    let connection: PostgresConnection
    let logger: Logger

    func create(_ room: Room, seats: Int, now: Date) async throws {
        try await connection.run("""
            INSERT INTO audio_chatroom_seats (tenant_id, room_id, seat_index, updated_at)
            SELECT \(room.tenantID), \(room.id), i, \(now) FROM generate_series(0, \(seats - 1)) AS i
            """, logger: logger)
    }

    /// Every seat of the room, locked for this transaction (index order, so
    /// two operations never lock in opposite orders).
    func lockAll(_ tenantID: TenantID, _ roomID: RoomID) async throws -> [MicSeat] {
        try Self.decode(try await connection.run("""
            SELECT \(unescaped: Self.columns) FROM audio_chatroom_seats WHERE tenant_id = \(tenantID) AND room_id = \(roomID)
            ORDER BY seat_index FOR UPDATE
            """, logger: logger).collect())
    }

    /// Every seat of the room as last committed, for reads.
    static func seats(_ tenantID: TenantID, _ roomID: RoomID, database: Database) async throws -> [MicSeat] {
        try decode(try await database.query("""
            SELECT \(unescaped: columns) FROM audio_chatroom_seats WHERE tenant_id = \(tenantID) AND room_id = \(roomID) ORDER BY seat_index
            """))
    }

    static let columns = "seat_index, phase, member_account, member_nick, member_avatar, closed, masked, self_muted, reason"

    static func decode(_ rows: [PostgresRow]) throws -> [MicSeat] {
        try rows.decode((Int, String, String?, String?, String?, Bool, Bool, Bool, Int).self).map {
            index, phase, account, nick, avatar, closed, masked, selfMuted, reason in
            MicSeat(index: index, phase: MicSeat.Phase(rawValue: phase) ?? .empty,
                    member: account.map { SeatMember(account: $0, nick: nick ?? "", avatar: avatar ?? "") },
                    closed: closed, masked: masked, selfMuted: selfMuted, reason: reason)
        }
    }

    func save(_ seat: MicSeat, _ tenantID: TenantID, _ roomID: RoomID, now: Date) async throws {
        try await connection.run("""
            UPDATE audio_chatroom_seats SET phase = \(seat.phase.rawValue), member_account = \(seat.member?.account),
                   member_nick = \(seat.member?.nick), member_avatar = \(seat.member?.avatar), closed = \(seat.closed),
                   masked = \(seat.masked), self_muted = \(seat.selfMuted), reason = \(seat.reason), updated_at = \(now)
            WHERE tenant_id = \(tenantID) AND room_id = \(roomID) AND seat_index = \(seat.index)
            """, logger: logger)
    }
}
