import Foundation
import Logging
import PostgresNIO

/// Side effects ready for the outbox, of one or more tenants, so that one
/// statement can write them: on their own (`OutboxStore.enqueue`) or as part
/// of the statement that closes rooms (one round trip for both). A plugin's
/// `.event` becomes a timeline row and a delivery to each endpoint that
/// wants it.
struct OutboxRows {
    private(set) var tenants: [TenantID] = []
    private(set) var rooms: [RoomID] = []
    private(set) var kinds: [String] = []
    private(set) var lanes: [String] = []
    private(set) var payloads: [String] = []
    /// The trace of the code that queued each row (#30), "" with tracing off.
    private(set) var traceParents: [String] = []
    private var timeline: [(tenantID: TenantID, roomID: RoomID, event: PluginEvent)] = []

    var isEmpty: Bool { tenants.isEmpty }

    /// In order: per-room order holds within each lane.
    mutating func add(_ messages: [OutboxMessage], tenantID: TenantID, webhooks: [WebhookEndpoint], now: Date) {
        for message in messages {
            guard case .event(let event) = message.effect else {
                append(message, tenantID: tenantID)
                continue
            }
            if let roomID = message.roomID { timeline.append((tenantID, roomID, event)) }
            for delivery in EventNotice(tenantID: tenantID, roomID: message.roomID, type: event.type, at: now, data: event.data).deliveries(to: webhooks) {
                append(delivery, tenantID: tenantID)
            }
        }
    }

    /// The engine's own event of a room's change (a kick) as a timeline row,
    /// before the plugin's, and its deliveries to the endpoints that want it.
    mutating func addEngineEvent(_ room: Room, kind: RoomEventKind, actor: Actor, detail: [String: String], webhooks: [WebhookEndpoint], now: Date) {
        timeline.append((room.tenantID, room.id, PluginEvent(type: kind.stored, actor: actor.description, data: detail.mapValues(JSONValue.string))))
        let place = EventNotice.Place(tenantID: room.tenantID, roomID: room.id, pluginID: room.pluginID)
        for (tenantID, messages) in EventNotice.engineEvent([place], kind: kind, actor: actor, detail: detail, at: now, webhooks: { _ in webhooks }) {
            messages.forEach { append($0, tenantID: tenantID) }
        }
    }

    /// A tenant-wide event (a tenant ban or its lift): a row of the
    /// tenant's own timeline, which no room owns, and its deliveries.
    mutating func addTenantEvent(_ kind: RoomEventKind, tenantID: TenantID, actor: Actor, detail: [String: JSONValue],
                                 webhooks: [WebhookEndpoint], now: Date) {
        timeline.append((tenantID, EventFeed.tenantTimeline, PluginEvent(type: kind.stored, actor: actor.description, data: detail)))
        guard let type = kind.webhook?.type else { return }
        let data = EventNotice.engineData(detail, extra: [:], plugin: nil, actor: actor.description)
        for delivery in EventNotice(tenantID: tenantID, roomID: nil, type: type, at: now, data: data).deliveries(to: webhooks) {
            append(delivery, tenantID: tenantID)
        }
    }

    /// `other`'s rows after these, in order.
    mutating func append(_ other: OutboxRows) {
        tenants += other.tenants
        rooms += other.rooms
        kinds += other.kinds
        lanes += other.lanes
        payloads += other.payloads
        traceParents += other.traceParents
        timeline += other.timeline
    }

    private mutating func append(_ message: OutboxMessage, tenantID: TenantID) {
        traceParents.append(TraceCarrier.currentTraceParent() ?? "")
        tenants.append(tenantID)
        rooms.append(message.roomID ?? 0)
        kinds.append(message.effect.kind)
        lanes.append(message.effect.lane)
        payloads.append(message.effect.payload)
    }

    var hasTimeline: Bool { !timeline.isEmpty }

    /// The plugin events' timeline rows, in order, in a statement of their own
    /// (after the room's own events of the transition).
    func writeTimeline(at now: Date, on connection: PostgresConnection, logger: Logger) async throws {
        guard !timeline.isEmpty else { return }
        try await connection.run("\(timelineInsert: self, at: now)", logger: logger)
    }

    fileprivate var timelineColumns: (tenants: [TenantID], rooms: [RoomID], types: [String], actors: [String], details: [String]) {
        (timeline.map(\.tenantID), timeline.map(\.roomID), timeline.map(\.event.type), timeline.map(\.event.actor),
         timeline.map { JSONValue.object($0.event.data).jsonText })
    }
}

extension PostgresQuery.StringInterpolation {
    /// `INSERT INTO outbox …` of every row of `rows`, in order, spliced into
    /// a larger statement with its values bound (no RETURNING: the caller
    /// adds it if it wants the ids).
    /// `onlyIf`: a CTE of the same statement; rows are written only if it
    /// returned one (a change guarded by the room's version).
    mutating func appendInterpolation(outboxInsert rows: OutboxRows, at now: Date, onlyIf guardCTE: String? = nil) {
        appendLiteral("""
            -- cross-tenant: the side effects of the tenants whose rooms a statement changed, each row naming its tenant
            INSERT INTO outbox (tenant_id, room_id, kind, lane, payload, next_attempt_at, created_at, trace_parent)
            SELECT t, NULLIF(r, 0), k, l, p::jsonb, 
            """)
        appendInterpolation(now)
        appendLiteral(", ")
        appendInterpolation(now)
        appendLiteral(", NULLIF(tp, '') FROM unnest(")
        appendInterpolation(rows.tenants)
        appendLiteral("::text[], ")
        appendInterpolation(rows.rooms)
        appendLiteral("::bigint[], ")
        appendInterpolation(rows.kinds)
        appendLiteral("::text[], ")
        appendInterpolation(rows.lanes)
        appendLiteral("::text[], ")
        appendInterpolation(rows.payloads)
        appendLiteral("::text[], ")
        appendInterpolation(rows.traceParents)
        appendLiteral("::text[]) WITH ORDINALITY AS u(t, r, k, l, p, tp, n)")
        if let guardCTE { appendLiteral(" WHERE EXISTS (SELECT 1 FROM \(guardCTE))") }
        appendLiteral(" ORDER BY n")
    }
}

extension PostgresQuery.StringInterpolation {
    /// `INSERT INTO room_events …` of the plugin events among `rows`, in order.
    mutating func appendInterpolation(timelineInsert rows: OutboxRows, at now: Date, onlyIf guardCTE: String? = nil) {
        let columns = rows.timelineColumns
        appendLiteral("""
            -- cross-tenant: the events of the tenants whose side effects these are, each row naming its tenant
            INSERT INTO room_events (tenant_id, room_id, at, kind, actor, detail) SELECT t, r, 
            """)
        appendInterpolation(now)
        appendLiteral(", k, a, d::jsonb FROM unnest(")
        appendInterpolation(columns.tenants)
        appendLiteral("::text[], ")
        appendInterpolation(columns.rooms)
        appendLiteral("::bigint[], ")
        appendInterpolation(columns.types)
        appendLiteral("::text[], ")
        appendInterpolation(columns.actors)
        appendLiteral("::text[], ")
        appendInterpolation(columns.details)
        appendLiteral("::text[]) WITH ORDINALITY AS u(t, r, k, a, d, n)")
        if let guardCTE { appendLiteral(" WHERE EXISTS (SELECT 1 FROM \(guardCTE))") }
        appendLiteral(" ORDER BY n")
    }
}
