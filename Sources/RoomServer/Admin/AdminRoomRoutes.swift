import Foundation
import Hummingbird
import RoomCore

extension AdminAPI {
    struct CreateRoomBody: AdminBody {
        static let schema = "CreateRoom"
        let plugin: String?
        let name: String?
        let owner: String?
        let ttlSeconds: Int?
        /// The plugin's creation data (a device, a booking's student, a game's
        /// bonus); a plugin whose rooms need it refuses with 422 naming it.
        let options: JSONValue?
    }

    struct ExtendBody: AdminBody {
        static let schema = "Extend"
        let ttlSeconds: Int?
    }

    func registerRoomRoutes(_ group: RouterGroup<RoomRequestContext>) {
        group.get(use: listRooms)
        group.get(":room", use: showRoom)
        group.post(use: createRoom)
        group.post(":room/dissolve", use: dissolveRoom)
        group.post(":room/extend", use: extendRoom)
    }

    @Sendable func listRooms(_ request: Request, context: RoomRequestContext) async throws -> Page<RoomDTO> {
        let tenant = try context.authorizedTenant(tenants)
        let query = request.uri.queryParameters
        let state = query.get("state")
        if let state, !["open", "closed"].contains(state) { throw Problem.invalid("state", "must be open or closed") }
        let plugin = query.get("plugin")
        if let plugin, plugin.count > 64 { throw Problem.invalid("plugin", "must be at most 64 characters") }
        let owner = query.get("owner")
        if let owner, !(1...128).contains(owner.utf8.count) { throw Problem.invalid("owner", "must be 1-128 bytes") }
        let limit = try Self.limit(query.get("limit"))
        var before: Int64?
        if let cursor = query.get("cursor") {
            guard let value = DecimalText.int64(cursor) else { throw Problem.invalid("cursor", "must be a cursor from nextCursor") }
            before = value
        }
        let page = try await rooms.rooms(tenant.id, .init(state: state, pluginID: plugin, owner: owner, before: before, limit: limit + 1))
        let items = Array(page.prefix(limit))
        return Page(items: items.map(RoomDTO.init), nextCursor: page.count > limit ? items.last.map { String($0.id) } : nil)
    }

    @Sendable func showRoom(_ request: Request, context: RoomRequestContext) async throws -> RoomDetailDTO {
        let tenant = try context.authorizedTenant(tenants)
        let id = try context.parameters.requireInt64("room")
        guard let room = try await rooms.room(tenant.id, id) else { throw Problem.notFound("no room \(id) in tenant \(tenant.id)") }
        let members = try await rooms.members(tenant.id, id)
        let events = try await rooms.events(tenant.id, id)
        return RoomDetailDTO(
            room: RoomDTO(room),
            members: members.map { .init(accid: $0.accid, role: $0.role, status: $0.status.rawValue, joinedAt: $0.joinedAt) },
            events: events.map { .init(id: $0.id, at: $0.at, kind: $0.kind.stored, actor: $0.actor, detail: JSONValue.parse($0.detail) ?? .null) })
    }

    @Sendable func createRoom(_ request: Request, context: RoomRequestContext) async throws -> EditedResponse<RoomDTO> {
        let tenant = try context.authorizedTenant(tenants)
        let body = try await request.decodeJSON(CreateRoomBody.self, context: context)
        guard let plugin = body.plugin, !plugin.isEmpty else { throw Problem.invalid("plugin", "is required") }
        guard let name = body.name, !name.isEmpty else { throw Problem.invalid("name", "is required") }
        guard let owner = body.owner, !owner.isEmpty else { throw Problem.invalid("owner", "is required") }
        if let options = body.options, options.object == nil { throw Problem.invalid("options", "must be a JSON object") }
        // The options a plugin names in its contract, and no others: a
        // typo is refused, not silently ignored.
        if let hosted = registry[plugin], let declared = hosted.creationOptions["properties"]?.object,
           let unknown = body.options?.object?.keys.sorted().first(where: { declared[$0] == nil }) {
            throw Problem(.unprocessableContent, code: "invalid_options", detail: "options.\(unknown): is not an option of plugin \(plugin)",
                          field: "options.\(unknown)")
        }
        let room = try await services.engine.create(
            NewRoom(pluginID: plugin, name: name, owner: owner, ttlSeconds: body.ttlSeconds, options: body.options ?? .object([:])),
            in: tenant, by: .admin)
        return EditedResponse(status: .created, headers: [.location: "/admin/v1/tenants/\(tenant.id)/rooms/\(room.id)"], response: RoomDTO(room))
    }

    @Sendable func dissolveRoom(_ request: Request, context: RoomRequestContext) async throws -> RoomDTO {
        let tenant = try context.authorizedTenant(tenants)
        let id = try context.parameters.requireInt64("room")
        return RoomDTO(try await services.engine.dissolve(id, by: .admin, in: tenant, pluginID: nil))
    }

    @Sendable func extendRoom(_ request: Request, context: RoomRequestContext) async throws -> RoomDTO {
        let tenant = try context.authorizedTenant(tenants)
        let id = try context.parameters.requireInt64("room")
        let body = try await request.decodeJSON(ExtendBody.self, context: context)
        guard let ttl = body.ttlSeconds else { throw Problem.invalid("ttlSeconds", "is required") }
        return RoomDTO(try await services.engine.extend(id, bySeconds: ttl, by: .admin, in: tenant, pluginID: nil))
    }

    static func limit(_ text: String?) throws -> Int {
        guard let text else { return 50 }
        guard let limit = DecimalText.int(text), (1...200).contains(limit) else { throw Problem.invalid("limit", "must be between 1 and 200") }
        return limit
    }
}
