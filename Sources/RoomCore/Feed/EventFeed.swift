import Foundation
import PostgresNIO

/// One event of a tenant's feed: a room's timeline row, with its place in
/// the feed (`cursor`) and the webhook type it is sent as.
public struct FeedEvent: Sendable, Equatable {
    public var cursor: Int64
    public var eventID: Int64
    public var roomID: RoomID
    public var pluginID: String?
    public var kind: RoomEventKind
    public var at: Date
    public var actor: String
    public var detail: String

    /// The webhook type: the engine's own events are mapped
    /// (`joined` → `member.joined`), a plugin's are named by the plugin.
    public var type: String { kind.webhook?.type ?? kind.stored }

    /// The `webhook-id` a webhook of this event carries (`EventNotice.messageID`).
    public func webhookID(tenantID: TenantID) -> String {
        EventNotice.messageID(forBody: body(tenantID: tenantID))
    }

    /// The body a webhook of this event carries, byte for byte.
    public func body(tenantID: TenantID) -> String {
        let fields = JSONValue.parse(detail)?.object ?? [:]
        let data = if let (_, extra) = kind.webhook {
            EventNotice.engineData(fields, extra: extra, plugin: pluginID, actor: actor)
        } else {
            fields
        }
        return EventNotice(tenantID: tenantID, roomID: roomID == EventFeed.tenantTimeline ? nil : roomID, type: type, at: at, data: data).body
    }
}

/// The event feed (#30, item 4; schema/core/0019_event_feed.sql): every room
/// event of a tenant, once each and in each room's order, behind a cursor
/// that never skips an event committed later with a smaller id.
public struct EventFeed: Sendable {
    public let database: Database

    /// The `room_id` of the tenant's own timeline: events no room owns (a
    /// tenant-wide ban and its lift), in the feed with the rooms' and sent
    /// without a `roomId`. No room has it (room ids are drawn from
    /// `RoomIDs.range`).
    public static let tenantTimeline: RoomID = 0

    public init(database: Database) {
        self.database = database
    }

    /// Events after `cursor`, oldest first. Stamps what became safe to give
    /// a place first (committed before anything is read: a place once read
    /// is never given again).
    public func page(_ tenantID: TenantID, after cursor: Int64, limit: Int) async throws -> [FeedEvent] {
        // 2,000 a call: a backlog (a feed never read, a week of events) is
        // stamped over a few calls, none of which holds the lock for long.
        try await database.query("SELECT roomkeeper_feed_stamp(\(tenantID), 2000)")
        let rows = try await database.query("""
            SELECT e.feed_seq, e.event_id, e.room_id, r.plugin_id, e.kind, e.at, e.actor, e.detail::text
            FROM room_events e LEFT JOIN rooms r ON r.tenant_id = e.tenant_id AND r.room_id = e.room_id
            WHERE e.tenant_id = \(tenantID) AND e.feed_seq > \(cursor)
            ORDER BY e.feed_seq LIMIT \(limit)
            """)
        return try rows.decode((Int64, Int64, Int64, String?, String, Date, String, String).self).map {
            FeedEvent(cursor: $0, eventID: $1, roomID: $2, pluginID: $3, kind: RoomEventKind(stored: $4), at: $5, actor: $6, detail: $7)
        }
    }
}
