import Foundation
import Logging
import PostgresNIO

/// The SQL of each transition, run on the engine's open transaction.
struct RoomWrites {
    let connection: PostgresConnection
    let logger: Logger

    /// The room row locked for this transaction, with what the lifecycle needs.
    func lockSnapshot(_ tenantID: TenantID, _ roomID: RoomID, account: AccountID?) async throws -> RoomLifecycle.Snapshot? {
        let rows = try await connection.query("""
            SELECT \(unescaped: RoomRows.columns), joined_count,
                   (SELECT status FROM room_members m
                     WHERE m.tenant_id = r.tenant_id AND m.room_id = r.room_id AND m.accid = \(account)) AS member_status
            FROM rooms r WHERE tenant_id = \(tenantID) AND room_id = \(roomID)
            FOR UPDATE
            """, logger: logger).collect()
        for row in rows {
            let cells = row.makeRandomAccess()
            return RoomLifecycle.Snapshot(
                room: try RoomRows.decode(row),
                joinedCount: try cells["joined_count"].decode(Int.self),
                memberStatus: try cells["member_status"].decode(String?.self).flatMap(MemberStatus.init(rawValue:)))
        }
        return nil
    }

    func insertRoom(_ spec: NewRoom, tenantID: TenantID, capacity: Int, now: Date, expiresAt: Date) async throws -> Room {
        let reservation = spec.reservation
        let rows = try await connection.query("""
            INSERT INTO rooms (tenant_id, room_id, plugin_id, name, owner, state, capacity, created_at, expires_at,
                               reserved_for, reserved_until, lapse_action, im_chatroom_id, attributes)
            VALUES (\(tenantID), coalesce(\(spec.id), nextval('room_ids')), \(spec.pluginID), \(spec.name), \(spec.owner), 'open', \(capacity), \(now), \(expiresAt),
                    \(reservation?.accounts), \(reservation?.until), \(reservation?.onLapse.rawValue ?? LapseAction.release.rawValue),
                    \(spec.imChatroomID), \(spec.attributes)::jsonb)
            RETURNING \(unescaped: RoomRows.columns)
            """, logger: logger)
        guard let room = try await RoomRows.all(rows).first else { throw RoomError.notFound }
        return room
    }

    func join(_ room: Room, _ account: AccountID, role: String, claimsReservation: Bool, now: Date) async throws {
        try await connection.query("""
            INSERT INTO room_members (tenant_id, room_id, accid, role, status, joined_at, updated_at)
            VALUES (\(room.tenantID), \(room.id), \(account), \(role), 'joined', \(now), \(now))
            ON CONFLICT (tenant_id, room_id, accid)
            DO UPDATE SET status = 'joined', role = EXCLUDED.role, joined_at = EXCLUDED.joined_at, updated_at = EXCLUDED.updated_at
            """, logger: logger)
        try await connection.query("""
            UPDATE rooms SET joined_count = joined_count + 1, version = version + 1,
                   reservation_claimed_at = CASE WHEN \(claimsReservation) THEN \(now) ELSE reservation_claimed_at END
            WHERE tenant_id = \(room.tenantID) AND room_id = \(room.id)
            """, logger: logger)
    }

    /// Leave and ban both take the account out of the room.
    func removeMember(_ room: Room, _ account: AccountID, status: MemberStatus, wasJoined: Bool, now: Date) async throws {
        try await connection.query("""
            INSERT INTO room_members (tenant_id, room_id, accid, status, joined_at, updated_at)
            VALUES (\(room.tenantID), \(room.id), \(account), \(status.rawValue), \(now), \(now))
            ON CONFLICT (tenant_id, room_id, accid) DO UPDATE SET status = EXCLUDED.status, updated_at = EXCLUDED.updated_at
            """, logger: logger)
        if wasJoined {
            try await connection.query("""
                UPDATE rooms SET joined_count = joined_count - 1, version = version + 1
                WHERE tenant_id = \(room.tenantID) AND room_id = \(room.id)
                """, logger: logger)
        }
    }

    func close(_ room: Room, reason: CloseReason, now: Date) async throws {
        try await connection.query("""
            UPDATE rooms SET state = 'closed', close_reason = \(reason.rawValue), closed_at = \(now), version = version + 1
            WHERE tenant_id = \(room.tenantID) AND room_id = \(room.id)
            """, logger: logger)
    }

    func reserve(_ room: Room, _ reservation: Reservation) async throws {
        try await connection.query("""
            UPDATE rooms SET reserved_for = \(reservation.accounts), reserved_until = \(reservation.until),
                   reservation_claimed_at = NULL, lapse_action = \(reservation.onLapse.rawValue), version = version + 1
            WHERE tenant_id = \(room.tenantID) AND room_id = \(room.id)
            """, logger: logger)
    }

    func releaseReservation(_ room: Room) async throws {
        try await connection.query("""
            UPDATE rooms SET reserved_for = NULL, reserved_until = NULL, reservation_claimed_at = NULL, version = version + 1
            WHERE tenant_id = \(room.tenantID) AND room_id = \(room.id)
            """, logger: logger)
    }

    func extend(_ room: Room, to expiry: Date) async throws {
        try await connection.query("""
            UPDATE rooms SET expires_at = \(expiry), version = version + 1
            WHERE tenant_id = \(room.tenantID) AND room_id = \(room.id)
            """, logger: logger)
    }

    func event(_ room: Room, kind: String, actor: Actor, detail: [String: String] = [:], at: Date) async throws {
        try await connection.query("""
            INSERT INTO room_events (tenant_id, room_id, at, kind, actor, detail)
            VALUES (\(room.tenantID), \(room.id), \(at), \(kind), \(actor.description), \(JSONValue.object(detail.mapValues(JSONValue.string)).jsonText)::jsonb)
            """, logger: logger)
    }

    /// One multi-row insert for a batch of rooms (the sweeper closes hundreds at once).
    func events(_ rooms: [Room], kind: String, actor: Actor, detail: [String: String], at: Date) async throws {
        guard !rooms.isEmpty else { return }
        try await connection.query("""
            INSERT INTO room_events (tenant_id, room_id, at, kind, actor, detail)
            SELECT t, r, \(at), \(kind), \(actor.description), \(JSONValue.object(detail.mapValues(JSONValue.string)).jsonText)::jsonb
            FROM unnest(\(rooms.map(\.tenantID))::text[], \(rooms.map(\.id))::bigint[]) AS u(t, r)
            """, logger: logger)
    }

    func enqueue(_ messages: [OutboxMessage], tenantID: TenantID, now: Date) async throws {
        try await OutboxStore.enqueue(messages, tenantID: tenantID, now: now, on: connection, logger: logger)
    }
}
