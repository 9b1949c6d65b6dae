import Foundation
import Hummingbird
import RoomCore

/// `GET /admin/v1/tenants/{tenant}/sessions` (#30, item 3): every room's
/// session facts, newest first, by plugin, room or when it opened.
extension AdminAPI {
    func registerSessionRoutes(_ tenantGroup: RouterGroup<RoomRequestContext>) {
        tenantGroup.get("sessions", use: listSessions)
    }

    @Sendable func listSessions(_ request: Request, context: RoomRequestContext) async throws -> Page<RoomSessionDTO> {
        let tenant = try context.authorizedTenant(tenants)
        let query = request.uri.queryParameters
        let plugin = query.get("plugin").map { String($0) }
        if let plugin, !TextRules.fits(plugin, 1...64) { throw Problem.invalid("plugin", "must be 1-64 characters") }
        var room: RoomID?
        if let text = query.get("room") {
            guard let id = DecimalText.int64(text), id >= 0 else { throw Problem.invalid("room", "must be a room id") }
            room = id
        }
        let from = try Self.time(query.get("from"), field: "from")
        let to = try Self.time(query.get("to"), field: "to")
        let before = try Self.cursor(query.get("cursor"), field: "cursor")
        let limit = try Self.limit(query.get("limit"))
        let page = try await rooms.sessions(tenant.id, .init(pluginID: plugin, roomID: room, from: from, to: to, before: before, limit: limit + 1))
        let items = Array(page.prefix(limit))
        let now = services.clock.now()
        return Page(items: items.map { RoomSessionDTO($0, now: now) }, nextCursor: page.count > limit ? items.last.map { String($0.room.id) } : nil)
    }

    static func time(_ text: String?, field: String) throws -> Date? {
        guard let text else { return nil }
        guard let date = parseTimestamp(text) else { throw Problem.invalid(field, "must be an RFC 3339 date-time such as 2026-11-24T10:00:00Z") }
        return date
    }
}

struct RoomSessionDTO: ResponseEncodable {
    let room: Int64
    let plugin: String
    let name: String
    let owner: String
    let state: String
    let openedAt: Date
    let closedAt: Date?
    let closeReason: String?
    let durationSeconds: Int
    let members: Int
    let totalJoins: Int
    let peakMembers: Int
    let messages: Int64?

    init(_ session: RoomSession, now: Date) {
        room = session.room.id
        plugin = session.room.pluginID
        name = session.room.name
        owner = session.room.owner
        state = session.room.state.name
        openedAt = session.room.createdAt
        closedAt = session.room.closedAt
        if case .closed(let reason) = session.room.state { closeReason = reason.rawValue } else { closeReason = nil }
        durationSeconds = session.durationSeconds(now: now)
        members = session.members
        totalJoins = session.totalJoins
        peakMembers = session.peakMembers
        messages = session.messages
    }

    /// Every key is always there, null when empty (as the contract states).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(room, forKey: .room)
        try container.encode(plugin, forKey: .plugin)
        try container.encode(name, forKey: .name)
        try container.encode(owner, forKey: .owner)
        try container.encode(state, forKey: .state)
        try container.encode(openedAt, forKey: .openedAt)
        try container.encode(closedAt, forKey: .closedAt)
        try container.encode(closeReason, forKey: .closeReason)
        try container.encode(durationSeconds, forKey: .durationSeconds)
        try container.encode(members, forKey: .members)
        try container.encode(totalJoins, forKey: .totalJoins)
        try container.encode(peakMembers, forKey: .peakMembers)
        try container.encode(messages, forKey: .messages)
    }

    enum CodingKeys: String, CodingKey {
        case room, plugin, name, owner, state, openedAt, closedAt, closeReason, durationSeconds, members, totalJoins, peakMembers, messages
    }
}
