import Foundation

/// A side effect to deliver after a transition commits, written to the outbox
/// in the transition's own transaction.
public struct OutboxMessage: Sendable, Equatable {
    public var effect: OutboxEffect
    public var roomID: RoomID?

    public init(_ effect: OutboxEffect, roomID: RoomID?) {
        self.effect = effect
        self.roomID = roomID
    }

    /// An IM operation, performed through the tenant's IM provider.
    public static func im(_ effect: IMEffect, roomID: RoomID?) -> OutboxMessage {
        OutboxMessage(.im(effect), roomID: roomID)
    }

    /// A live-provider operation, performed through the tenant's live provider.
    public static func live(_ effect: LiveEffect, roomID: RoomID?) -> OutboxMessage {
        OutboxMessage(.live(effect), roomID: roomID)
    }
}

/// Every side effect the outbox delivers: the deliverer switches on this,
/// never on strings. Stored as its `kind` and the inner effect's JSON, read
/// back once when an entry is claimed.
public enum OutboxEffect: Sendable, Equatable {
    case im(IMEffect)
    case live(LiveEffect)
    /// A POST to one of the tenant's webhook endpoints.
    case webhook(WebhookDelivery)
    /// A plugin's event: never stored as such. Writing it to the outbox
    /// records it on the room's timeline and turns it into one `.webhook`
    /// entry per endpoint that wants it.
    case event(PluginEvent)

    public var kind: String {
        switch self {
        case .im: "im"
        case .live: "live"
        case .webhook: "webhook"
        case .event: "event"
        }
    }

    /// Per-room order holds within a lane: the tenant's providers share one,
    /// each webhook endpoint has its own.
    package var lane: String {
        switch self {
        case .im, .live, .event: ""
        case .webhook(let delivery): "webhook:" + delivery.endpoint
        }
    }

    /// The inner effect as JSON text (what the admin API shows as `payload`).
    package var payload: String {
        switch self {
        case .im(.closeChatroom(let chatroom, let op, let notice)):
            // Written by hand: every closed room has one (a sweep writes a
            // thousand a batch), and JSONEncoder's generic path was a quarter
            // of the sweeper's CPU (#19). Same keys, sorted, as the encoder's.
            #"{"closeChatroom":{"chatroom":\#(JSONValue.literal(chatroom)),\#(notice.map { #""notifyExt":\#(JSONValue.literal($0)),"# } ?? "")"operator":\#(JSONValue.literal(op))}}"#
        case .im(let effect): JSONText.encode(effect)
        case .live(let effect): JSONText.encode(effect)
        case .webhook(let delivery): JSONText.encode(delivery)
        case .event(let event): JSONText.encode(event)
        }
    }

    /// nil for a kind or payload this build cannot read.
    package static func decode(kind: String, payload: String) -> OutboxEffect? {
        let data = Data(payload.utf8)
        switch kind {
        case "im": return (try? JSONDecoder().decode(IMEffect.self, from: data)).map(OutboxEffect.im)
        case "live": return (try? JSONDecoder().decode(LiveEffect.self, from: data)).map(OutboxEffect.live)
        case "webhook": return (try? JSONDecoder().decode(WebhookDelivery.self, from: data)).map(OutboxEffect.webhook)
        default: return nil
        }
    }
}

/// Live-provider calls that can wait for the outbox.
public enum LiveEffect: Codable, Sendable, Equatable {
    case dropStream(String)

    public func perform(on provider: any LiveProvider) async throws {
        switch self {
        case .dropStream(let stream): try await provider.dropStream(stream)
        }
    }
}

/// IM provider calls that can wait for the outbox (nobody needs their answer now).
public enum IMEffect: Codable, Sendable, Equatable {
    case closeChatroom(chatroom: String, operator: AccountID, notifyExt: String?)
    case chatroomMessage(chatroom: String, from: AccountID, type: String, body: String, persist: Bool)
    case notification(from: AccountID, to: AccountID, attach: String, storeOffline: Bool)
    case queuePut(chatroom: String, key: String, value: String, operator: AccountID)
    case revokeTokens(accid: AccountID)
    case removeFromChatroom(chatroom: String, accid: AccountID, operator: AccountID, keepOut: ChatroomKeepOut?)
    case readmitToChatroom(chatroom: String, accid: AccountID, operator: AccountID)
    case muteMember(chatroom: String, accid: AccountID, operator: AccountID, minutes: Int?)
    case unmuteMember(chatroom: String, accid: AccountID, operator: AccountID)

    /// `idempotencyKey` is the outbox entry's, the same on every attempt.
    public func perform(on provider: any IMProvider, idempotencyKey: String) async throws {
        switch self {
        case .closeChatroom(let chatroom, let op, let ext):
            try await provider.closeChatroom(chatroom, operator: op, notifyExt: ext)
        case .chatroomMessage(let chatroom, let from, let type, let body, let persist):
            try await provider.sendChatroomMessage(chatroom, from: from, type: type, body: body, persist: persist, messageID: idempotencyKey)
        case .notification(let from, let to, let attach, let storeOffline):
            try await provider.sendNotification(from: from, to: to, attach: attach, storeOffline: storeOffline)
        case .queuePut(let chatroom, let key, let value, let op):
            try await provider.queuePut(chatroom, key: key, value: value, operator: op)
        case .revokeTokens(let accid):
            try await provider.revokeTokens(accid: accid)
        case .removeFromChatroom(let chatroom, let accid, let op, let keepOut):
            try await provider.removeFromChatroom(chatroom, accid: accid, operator: op, keepOut: keepOut)
        case .readmitToChatroom(let chatroom, let accid, let op):
            try await provider.readmitToChatroom(chatroom, accid: accid, operator: op)
        case .muteMember(let chatroom, let accid, let op, let minutes):
            try await provider.muteMember(chatroom, accid: accid, operator: op, minutes: minutes)
        case .unmuteMember(let chatroom, let accid, let op):
            try await provider.unmuteMember(chatroom, accid: accid, operator: op)
        }
    }
}
