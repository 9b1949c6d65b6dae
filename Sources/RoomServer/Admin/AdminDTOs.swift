import Foundation
import Hummingbird
import RoomCore

/// The admin API's JSON shapes.
struct TenantDTO: ResponseEncodable {
    struct Plugin: Encodable {
        let id: String
        let wire: String
        let roomTTLSeconds: Int
        let capacity: Int
        let joinRequiresIM: Bool
    }

    let id: String
    let name: String
    let imProvider: String
    let liveProvider: String
    let intercomProvider: String
    let plugins: [Plugin]

    init(_ tenant: Tenant) {
        id = tenant.id
        name = tenant.name
        imProvider = tenant.im.kind
        liveProvider = tenant.live.kind
        intercomProvider = tenant.intercom.kind
        plugins = tenant.plugins.values.sorted { $0.plugin.id < $1.plugin.id }.map {
            Plugin(id: $0.plugin.id, wire: $0.plugin.wire.name, roomTTLSeconds: $0.policy.ttlSeconds,
                   capacity: $0.policy.capacity, joinRequiresIM: $0.policy.joinRequiresIM)
        }
    }
}

struct RoomDTO: ResponseEncodable {
    struct ReservationDTO: Encodable {
        let accounts: [String]
        let until: Date
        let claimedAt: Date?
        let onLapse: String
    }

    let tenant: String
    let id: Int64
    let plugin: String
    let name: String
    let owner: String
    let state: String
    let closeReason: String?
    let capacity: Int
    let createdAt: Date
    let expiresAt: Date
    let closedAt: Date?
    let reservation: ReservationDTO?
    let imChatroomId: String?
    let attributes: JSONValue

    init(_ room: Room) {
        tenant = room.tenantID
        id = room.id
        plugin = room.pluginID
        name = room.name
        owner = room.owner
        state = room.state.name
        if case .closed(let reason) = room.state { closeReason = reason.rawValue } else { closeReason = nil }
        capacity = room.capacity
        createdAt = room.createdAt
        expiresAt = room.expiresAt
        closedAt = room.closedAt
        reservation = room.reservation.map {
            ReservationDTO(accounts: $0.accounts, until: $0.until, claimedAt: $0.claimedAt, onLapse: $0.onLapse.rawValue)
        }
        imChatroomId = room.imChatroomID
        attributes = JSONValue.parse(room.attributes) ?? .object([:])
    }
}

struct RoomDetailDTO: ResponseEncodable {
    struct Member: Encodable {
        let accid: String
        let role: String
        let status: String
        let joinedAt: Date
    }

    struct Event: Encodable {
        let id: Int64
        let at: Date
        let kind: String
        let actor: String
        let detail: JSONValue
    }

    let room: RoomDTO
    let members: [Member]
    let events: [Event]
}

struct OutboxDTO: ResponseEncodable {
    let id: Int64
    let roomId: Int64?
    let kind: String
    let payload: JSONValue
    let status: String
    let attempts: Int
    let nextAttemptAt: Date
    let lastError: String?
    let createdAt: Date
    let deliveredAt: Date?

    init(_ entry: OutboxEntry) {
        id = entry.id
        roomId = entry.roomID
        kind = entry.kind
        payload = JSONValue.parse(entry.payload) ?? .null
        status = entry.status.rawValue
        attempts = entry.attempts
        nextAttemptAt = entry.nextAttemptAt
        lastError = entry.lastError
        createdAt = entry.createdAt
        deliveredAt = entry.deliveredAt
    }
}

/// A page of a list, newest first; `nextCursor` fetches the next page.
struct Page<Item: Encodable>: ResponseEncodable {
    let items: [Item]
    let nextCursor: String?

    /// `nextCursor` is always there, null on the last page (the contract
    /// requires it; synthesized coding would leave it out).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(nextCursor, forKey: .nextCursor)
    }

    private enum CodingKeys: String, CodingKey { case items, nextCursor }
}
