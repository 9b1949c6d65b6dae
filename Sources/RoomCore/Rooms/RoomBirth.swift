import Foundation
import PostgresNIO

/// A room's create as one statement (#28, item 3): the room, its owner's
/// membership, its timeline (created, reserved, the owner joined), its
/// chatroom when the tenant's IM keeps chatrooms in this database, the
/// plugin's first rows, and the outbox entries of the webhooks that want
/// those events. Sent alone it is the whole create, with its commit probe:
/// 2 round trips where a create was 6 (the chatroom's insert and probe,
/// BEGIN, the room, the plugin's rows, COMMIT). Inside the create's
/// transaction it is the part after the limits check.
struct RoomBirth {
    /// The prepared creation, its `id` set.
    let spec: NewRoom
    let tenantID: TenantID
    let capacity: Int
    let now: Date
    let expiresAt: Date
    let actor: Actor
    let firstRows: FirstRows?
    /// Writes the chatroom row (`spec.imChatroomID`) in the statement.
    let chatrooms: (any ChatroomsInRoomDatabase)?
    let webhooks: [WebhookEndpoint]
    /// A create by a client's session guessed from `SessionCache`: nothing
    /// is written unless the statement finds the guess still true.
    var creatorCheck: CreatorCheck? = nil
    /// The creator's one open room of the plugin (`rooms_one_open_per_owner`).
    var soleOpen = false

    var events: [(kind: RoomEventKind, detail: [String: String])] {
        var events: [(kind: RoomEventKind, detail: [String: String])] = [(.created, ["name": spec.name, "owner": spec.owner])]
        if let reservation = spec.reservation { events.append((.reserved, ["accounts": reservation.accounts.joined(separator: ",")])) }
        if spec.ownerJoins { events.append((.joined, ["role": "owner", "account": spec.owner])) }
        return events
    }

    /// The webhook deliveries of the room's events, for the endpoints that want them.
    var notices: OutboxRows {
        var outbox = OutboxRows()
        let place = EventNotice.Place(tenantID: tenantID, roomID: spec.id ?? 0, pluginID: spec.pluginID)
        for event in events {
            for (tenant, messages) in EventNotice.engineEvent([place], kind: event.kind, actor: actor, detail: event.detail, at: now, webhooks: { _ in webhooks }) {
                outbox.add(messages, tenantID: tenant, webhooks: webhooks, now: now)
            }
        }
        return outbox
    }

    var query: PostgresQuery {
        let reservation = spec.reservation
        let events = events
        let details = events.map { JSONValue.object($0.detail.mapValues(JSONValue.string)).jsonText }
        let joins = spec.ownerJoins ? 1 : 0
        return """
            WITH room AS (
                INSERT INTO rooms (tenant_id, room_id, plugin_id, name, owner, state, capacity, created_at, expires_at,
                                   reserved_for, reserved_until, lapse_action, im_chatroom_id, attributes, joined_count, total_joins, peak_members, sole_open)
                SELECT \(tenantID), \(spec.id), \(spec.pluginID), \(spec.name), \(spec.owner), 'open', \(capacity), \(now), \(expiresAt),
                       \(reservation?.accounts), \(reservation?.until), \(reservation?.onLapse.rawValue ?? LapseAction.release.rawValue),
                       \(spec.imChatroomID), \(spec.attributes)::jsonb, \(joins), \(joins), \(joins), \(soleOpen)
                WHERE roomkeeper_creator_admitted(\(tenantID), \(spec.owner), \(AccountLock.key(tenantID, spec.owner)), \(now))
                  AND \(creatorCheck, tenantID: tenantID, now: now)
                RETURNING \(unescaped: RoomRows.columns), version
            ), owner_joined AS (
                INSERT INTO room_members (tenant_id, room_id, accid, role, status, joined_at, updated_at)
                SELECT tenant_id, room_id, owner, 'owner', 'joined', \(now), \(now) FROM room WHERE \(spec.ownerJoins)
            ), events AS (
                INSERT INTO room_events (tenant_id, room_id, at, kind, actor, detail)
                SELECT room.tenant_id, room.room_id, \(now), e.kind, \(actor.description), e.detail::jsonb
                FROM room, unnest(\(events.map(\.kind.stored))::text[], \(details)::text[]) WITH ORDINALITY AS e(kind, detail, n)
                ORDER BY e.n
            ), queued AS (
                \(outboxInsert: notices, at: now, onlyIf: "room")
            ), chatroom AS (
                \(chatroomInsert: chatrooms, at: now)
            ), first_rows AS (
                \(firstRowsInsert: firstRows, at: now)
            )
            SELECT * FROM room
            """
    }
}

extension PostgresQuery.StringInterpolation {
    /// The chatroom of the CTE `room`, or a statement that writes nothing.
    fileprivate mutating func appendInterpolation(chatroomInsert chatrooms: (any ChatroomsInRoomDatabase)?, at now: Date) {
        guard let chatrooms else { return appendLiteral("SELECT 1") }
        chatrooms.appendChatroomInsert(to: &self, fromRooms: "room", now: now)
    }

    /// The plugin's first rows of the CTE `room`, stamped `now`, or a
    /// statement that writes nothing. The table and column names are plain
    /// identifiers (`RoomRowTable` checks them) of the plugin's own table.
    fileprivate mutating func appendInterpolation(firstRowsInsert rows: FirstRows?, at now: Date) {
        guard let rows, let table = rows.table else { return appendLiteral("SELECT 1") }
        let columns = rows.columns + (rows.stamp.map { [$0] } ?? [])
        let values = rows.columns.map { "x." + $0 } + (rows.stamp == nil ? [] : ["room.created_at"])
        appendLiteral("INSERT INTO \(table) (tenant_id, room_id, \(columns.joined(separator: ", "))) SELECT room.tenant_id, room.room_id, ")
        appendLiteral(values.joined(separator: ", "))
        appendLiteral(" FROM room, jsonb_populate_recordset(NULL::\(table), ")
        appendInterpolation(rows.rowsJSON)
        appendLiteral("::jsonb) AS x")
    }
}
