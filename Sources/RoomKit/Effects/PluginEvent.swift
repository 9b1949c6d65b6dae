import Foundation

/// An event a plugin emits from a hook or a `RoomTransaction`: recorded on
/// the room's timeline and sent to the tenant's endpoints that want it, in
/// the transition's transaction, in order with everything else the room did.
public struct PluginEvent: Codable, Sendable, Equatable {
    /// `<plugin>.<…>`, one of the plugin's `eventTypes`.
    public var type: String
    public var actor: String
    public var data: [String: JSONValue]

    public init(type: String, actor: String = Actor.system.description, data: [String: JSONValue]) {
        self.type = type
        self.actor = actor
        self.data = data
    }
}

extension OutboxMessage {
    /// A plugin's own event about `roomID` (see `PluginEvent`).
    public static func event(_ type: String, roomID: RoomID, actor: Actor = .system, data: [String: JSONValue]) -> OutboxMessage {
        OutboxMessage(.event(PluginEvent(type: type, actor: actor.description, data: data)), roomID: roomID)
    }
}

/// What one webhook delivery sends: fixed when the event is written, so every
/// attempt and every replay sends the same bytes under the same id.
public struct WebhookDelivery: Codable, Sendable, Equatable {
    public var endpoint: String
    /// `webhook-id`: one per event, the same at every endpoint and on every attempt.
    public var id: String
    public var type: String
    /// The JSON body: `{"type", "timestamp", "data"}`.
    public var body: String

    public init(endpoint: String, id: String, type: String, body: String) {
        self.endpoint = endpoint
        self.id = id
        self.type = type
        self.body = body
    }
}
