import Foundation

/// A side effect to deliver after a transition commits, written to the outbox
/// in the transition's own transaction.
public struct OutboxMessage: Sendable, Equatable {
    /// Which deliverer handles it ("im", …).
    public var kind: String
    /// JSON text the deliverer understands.
    public var payload: String
    public var roomID: RoomID?

    public init(kind: String, payload: String, roomID: RoomID?) {
        self.kind = kind
        self.payload = payload
        self.roomID = roomID
    }

    /// An IM operation, performed through the tenant's IM provider.
    public static func im(_ effect: IMEffect, roomID: RoomID?) -> OutboxMessage {
        OutboxMessage(kind: IMEffect.outboxKind, payload: effect.json, roomID: roomID)
    }

    /// A live-provider operation, performed through the tenant's live provider.
    public static func live(_ effect: LiveEffect, roomID: RoomID?) -> OutboxMessage {
        OutboxMessage(kind: LiveEffect.outboxKind, payload: JSONText.encode(effect), roomID: roomID)
    }
}

/// Live-provider calls that can wait for the outbox.
public enum LiveEffect: Codable, Sendable, Equatable {
    case dropStream(String)

    public static let outboxKind = "live"

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

    public static let outboxKind = "im"

    var json: String {
        // Encoding an enum of strings and bools cannot fail.
        String(decoding: (try? JSONEncoder().encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    public func perform(on provider: any IMProvider) async throws {
        switch self {
        case .closeChatroom(let chatroom, let op, let ext):
            try await provider.closeChatroom(chatroom, operator: op, notifyExt: ext)
        case .chatroomMessage(let chatroom, let from, let type, let body, let persist):
            try await provider.sendChatroomMessage(chatroom, from: from, type: type, body: body, persist: persist)
        case .notification(let from, let to, let attach, let storeOffline):
            try await provider.sendNotification(from: from, to: to, attach: attach, storeOffline: storeOffline)
        case .queuePut(let chatroom, let key, let value, let op):
            try await provider.queuePut(chatroom, key: key, value: value, operator: op)
        }
    }
}

/// An outbox row as stored.
public struct OutboxEntry: Sendable, Equatable {
    public enum Status: String, Sendable, Codable, CaseIterable {
        case pending, delivered, dead
    }

    public var tenantID: TenantID
    public var id: Int64
    public var roomID: RoomID?
    public var kind: String
    public var payload: String
    public var status: Status
    public var attempts: Int
    public var nextAttemptAt: Date
    public var lastError: String?
    public var createdAt: Date
    public var deliveredAt: Date?
}
