import Foundation
import PostgresNIO

/// The statement that closes rooms: their rows, their `closed` events, the
/// webhooks that want them and the close's side effects. Two forms: on rooms
/// the caller's transaction has locked (a sweep's batch, a close whose
/// plugin hook wrote rows), or on one room read without a lock, applied only
/// if the room is still open at the version read (#28, item 3: a dissolve is
/// then its read, this statement and its commit probe).
struct RoomClose {
    let rooms: [Room]
    let reason: CloseReason
    let actor: Actor
    let now: Date
    let outbox: OutboxRows
    /// The one room's IM effects (its chatroom's close), applied by the
    /// guarded statement itself when nothing of the room waits in its IM lane.
    private(set) var chatroomEffects: ChatroomEffectsInStatement?

    /// `chatrooms`: the tenant's IM when its chatrooms are rows of this
    /// database; the one room's chatroom is then closed by the guarded
    /// statement itself, unless the plugin's closing messages go first.
    init(rooms: [Room], reason: CloseReason, actor: Actor, now: Date, effects: [(tenantID: TenantID, messages: [OutboxMessage])],
         webhooks: (TenantID) -> [WebhookEndpoint], chatrooms: (any ChatroomsInRoomDatabase)? = nil) {
        self.rooms = rooms
        self.reason = reason
        self.actor = actor
        self.now = now
        var effects = effects
        if rooms.count == 1, effects.count == 1, effects[0].tenantID == rooms[0].tenantID {
            chatroomEffects = ChatroomEffectsInStatement.take(from: &effects[0].messages, room: rooms[0], chatrooms: chatrooms, now: now)
        }
        var outbox = OutboxRows()
        let places = rooms.map { EventNotice.Place(tenantID: $0.tenantID, roomID: $0.id, pluginID: $0.pluginID) }
        for (tenantID, messages) in EventNotice.engineEvent(places, kind: .closed, actor: actor, detail: ["reason": reason.rawValue], at: now,
                                                             webhooks: webhooks) {
            outbox.add(messages, tenantID: tenantID, webhooks: webhooks(tenantID), now: now)
        }
        for (tenantID, messages) in effects { outbox.add(messages, tenantID: tenantID, webhooks: webhooks(tenantID), now: now) }
        self.outbox = outbox
    }

    private var detail: String { JSONValue.object(["reason": .string(reason.rawValue)]).jsonText }

    /// On rooms this transaction has locked; the plugins' timeline events
    /// follow in a statement of their own (`OutboxRows.writeTimeline`).
    var lockedQuery: PostgresQuery {
        precondition(chatroomEffects == nil, "a batch's chatrooms are closed by the outbox")
        return """
        -- cross-tenant: a sweep closes its batch of rooms, of any tenants, in one statement
        WITH closed AS (
            UPDATE rooms r SET state = 'closed', close_reason = \(reason.rawValue), closed_at = \(now), version = r.version + 1
            FROM unnest(\(rooms.map(\.tenantID))::text[], \(rooms.map(\.id))::bigint[]) AS u(t, id)
            WHERE r.tenant_id = u.t AND r.room_id = u.id
            RETURNING r.tenant_id, r.room_id
        ), queued AS (
            \(outboxInsert: outbox, at: now)
        )
        INSERT INTO room_events (tenant_id, room_id, at, kind, actor, detail)
        SELECT tenant_id, room_id, \(now), \(RoomEventKind.closed.stored), \(actor.description), \(detail)::jsonb FROM closed
        """
    }

    /// On the one room, read without a lock: everything is written only if
    /// it is still open at `version`; returns a row if it was. A racing
    /// writer makes this statement wait on the room's row, then find the
    /// version moved and write nothing (`RoomEngine.change` does the same).
    /// With `caller`: and only while that guessed session is live and its
    /// account not banned from the room (what the read would have checked).
    func closeGuarded(version: Int64, caller: SessionGuess? = nil, on statement: RoomStatement) async throws -> Bool {
        let rows = try await statement.run(guardedQuery(version: version, caller: caller), writing: rooms, listed: true).decode((Int, Int).self)
        guard let (closed, applied) = rows.first else { return false }
        // Counted once the commit is known (`database.query` confirms it).
        if applied > 0 { chatroomEffects?.countApplied() }
        return closed == 1
    }

    private func guardedQuery(version: Int64, caller: SessionGuess?) -> PostgresQuery {
        let room = rooms[0]
        return """
            WITH closed AS (
                UPDATE rooms SET state = 'closed', close_reason = \(reason.rawValue), closed_at = \(now), version = version + 1
                WHERE tenant_id = \(room.tenantID) AND room_id = \(room.id) AND version = \(version) AND state = 'open'
                  AND \(callerCheck: caller, room: room, now: now)
                RETURNING tenant_id, room_id
            ), event AS (
                INSERT INTO room_events (tenant_id, room_id, at, kind, actor, detail)
                SELECT tenant_id, room_id, \(now), \(RoomEventKind.closed.stored), \(actor.description), \(detail)::jsonb FROM closed
            ), timeline AS (
                \(timelineInsert: outbox, at: now, onlyIf: "closed")
            ), queued AS (
                \(outboxInsert: outbox, at: now, onlyIf: "closed")
            )\(chatroomEffects: chatroomEffects, onlyIf: "closed", at: now)
            SELECT count(*)::int\(chatroomEffectsApplied: chatroomEffects) FROM closed
            """
    }
}

extension PostgresQuery.StringInterpolation {
    fileprivate mutating func appendInterpolation(callerCheck caller: SessionGuess?, room: Room, now: Date) {
        guard let caller else { return appendLiteral("true") }
        appendInterpolation(live: caller, tenantID: room.tenantID, now: now)
        appendLiteral(" AND NOT roomkeeper_banned(")
        appendInterpolation(room.tenantID)
        appendLiteral(", ")
        appendInterpolation(caller.accid)
        appendLiteral(", ")
        appendInterpolation(room.id)
        appendLiteral(", ")
        appendInterpolation(now)
        appendLiteral(")")
    }
}
