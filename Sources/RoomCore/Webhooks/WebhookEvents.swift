import Foundation

/// The event types Roomkeeper itself produces; each plugin adds its own
/// (`RoomPlugin.eventTypes`, named `<plugin>.<thing>.<what happened>`).
public enum WebhookEventTypes {
    public static let test = "webhook.test"
    public static let outboxDead = "outbox.dead"

    /// The engine's own types: each room event's (`RoomEventKind.webhook`)
    /// and the outbox's and endpoints' own.
    public static let core: [String] = RoomEventKind.engine.compactMap { $0.webhook?.type } + [outboxDead, test]
}

extension RoomEventKind {
    /// The one switch from a room event to the webhook it is sent as, and
    /// what that adds to the event's data (a member who left did so for a
    /// reason). nil for what only the timeline keeps (`deadline`) and for a
    /// plugin's events, which carry their own type.
    public var webhook: (type: String, extra: [String: JSONValue])? {
        switch self {
        case .created: ("room.created", [:])
        case .reserved: ("room.reserved", [:])
        case .reservationLapsed: ("room.lapsed", [:])
        case .extended: ("room.extended", [:])
        case .closed: ("room.closed", [:])
        case .joined: ("member.joined", [:])
        case .left: ("member.left", ["reason": .string("left")])
        case .kicked: ("member.kicked", [:])
        case .banned: ("member.banned", [:])
        case .unbanned: ("member.unbanned", [:])
        case .muted: ("member.muted", [:])
        case .unmuted: ("member.unmuted", [:])
        case .deadline, .plugin: nil
        }
    }
}

/// One event about to be written, before it is fanned out to endpoints.
struct EventNotice {
    var tenantID: TenantID
    var roomID: RoomID?
    var type: String
    var at: Date
    var data: [String: JSONValue]

    /// One outbox message per endpoint that wants this event, sharing one id.
    func deliveries(to endpoints: [WebhookEndpoint]) -> [OutboxMessage] {
        let wanting = endpoints.filter { $0.wants(type) }
        guard !wanting.isEmpty else { return [] }
        let body = self.body
        let id = Self.messageID(forBody: body)
        return wanting.map { endpoint in
            OutboxMessage(.webhook(WebhookDelivery(endpoint: endpoint.name, id: id, type: type, body: body)), roomID: roomID)
        }
    }

    /// The `webhook-id` of an event: derived from its body, so the event
    /// feed gives each event the id its webhooks carried without storing it
    /// (#30: "same ids and bodies"). Two events share one only if their
    /// bodies are equal to the millisecond: the same act, told twice.
    static func messageID(forBody body: String) -> String {
        "msg_" + Secrets.sha256Hex(body).prefix(32)
    }

    /// The webhook's body, and the event feed's (#30): one writer for both.
    var body: String {
        var data = data
        data["tenant"] = .string(tenantID)
        if let roomID { data["roomId"] = .number(Double(roomID)) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let object = JSONValue.object(["type": .string(type), "timestamp": .string(Self.timestamp(at)), "data": .object(data)])
        return String(decoding: (try? encoder.encode(object)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// Where an engine event happened.
    struct Place {
        let tenantID: TenantID
        let roomID: RoomID
        let pluginID: String
    }

    /// The webhook entries of an engine timeline event (`kind`) at `places`,
    /// by tenant, for the endpoints of each place's tenant that want it (none
    /// for most tenants): one writer for every statement that records one.
    static func engineEvent(_ places: [Place], kind: RoomEventKind, actor: Actor, detail: [String: String], at: Date,
                            webhooks: (TenantID) -> [WebhookEndpoint]) -> [(tenantID: TenantID, messages: [OutboxMessage])] {
        guard let (type, extra) = kind.webhook else { return [] }
        var found: [(tenantID: TenantID, messages: [OutboxMessage])] = []
        for (tenantID, group) in Dictionary(grouping: places, by: \.tenantID).sorted(by: { $0.key < $1.key }) {
            let endpoints = webhooks(tenantID)
            guard endpoints.contains(where: { $0.wants(type) }) else { continue }
            found.append((tenantID, group.flatMap { place in
                let data = engineData(detail.mapValues(JSONValue.string), extra: extra, plugin: place.pluginID, actor: actor.description)
                return EventNotice(tenantID: tenantID, roomID: place.roomID, type: type, at: at, data: data).deliveries(to: endpoints)
            }))
        }
        return found
    }

    /// What an engine event's data says: its detail, what its type adds,
    /// the room's plugin and who acted.
    static func engineData(_ detail: [String: JSONValue], extra: [String: JSONValue], plugin: String?, actor: String) -> [String: JSONValue] {
        var data = detail.merging(extra) { _, new in new }
        if let plugin { data["plugin"] = .string(plugin) }
        data["actor"] = .string(actor)
        return data
    }

    /// Milliseconds, from the time as PostgreSQL keeps it (whole
    /// microseconds, truncated as PostgresNIO writes it), so a webhook sent
    /// at the event and the feed read from its row say the same time.
    static func timestamp(_ date: Date) -> String {
        let start = Date(timeIntervalSince1970: 946_684_800)  // PostgreSQL's epoch, 2000-01-01
        let stored = Date(timeInterval: Double(Int64(date.timeIntervalSince(start) * 1_000_000)) / 1_000_000, since: start)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: stored)
    }
}
