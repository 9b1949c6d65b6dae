import Foundation

/// The event types Roomkeeper itself produces; each plugin adds its own
/// (`RoomPlugin.eventTypes`, named `<plugin>.<thing>.<what happened>`).
public enum WebhookEventTypes {
    public static let test = "webhook.test"
    public static let outboxDead = "outbox.dead"

    public static let core: [String] = [
        "room.created", "room.reserved", "room.lapsed", "room.extended", "room.closed",
        "member.joined", "member.left", "member.kicked", "member.banned", "member.unbanned", "member.muted", "member.unmuted", outboxDead, test,
    ]

    /// The webhook type of a room timeline kind the engine writes, and what
    /// it adds to the event's data (a ban is a member leaving, for a reason).
    static func type(ofTimelineKind kind: String) -> (type: String, extra: [String: JSONValue])? {
        switch kind {
        case "created": ("room.created", [:])
        case "reserved": ("room.reserved", [:])
        case "reservation-lapsed": ("room.lapsed", [:])
        case "extended": ("room.extended", [:])
        case "closed": ("room.closed", [:])
        case "joined": ("member.joined", [:])
        case "left": ("member.left", ["reason": .string("left")])
        case "kicked": ("member.kicked", [:])
        case "banned": ("member.banned", [:])
        case "unbanned": ("member.unbanned", [:])
        case "muted": ("member.muted", [:])
        case "unmuted": ("member.unmuted", [:])
        default: nil
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
        let id = StandardWebhooks.newMessageID()
        var data = data
        data["tenant"] = .string(tenantID)
        if let roomID { data["roomId"] = .number(Double(roomID)) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let object = JSONValue.object(["type": .string(type), "timestamp": .string(Self.timestamp(at)), "data": .object(data)])
        let body = String(decoding: (try? encoder.encode(object)) ?? Data("{}".utf8), as: UTF8.self)
        return wanting.map { endpoint in
            OutboxMessage(.webhook(WebhookDelivery(endpoint: endpoint.name, id: id, type: type, body: body)), roomID: roomID)
        }
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
