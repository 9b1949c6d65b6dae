import Foundation
import Hummingbird
import RoomCore

/// Kicks, bans and mutes (#29): a room's member taken out (and kept out for
/// a while), bans of one room or of the whole tenant, mutes of a room's
/// member, listed and lifted.
extension AdminAPI {
    struct KickBody: AdminBody {
        static let schema = "Kick"
        let durationSeconds: Int?
        let reason: String?
    }

    struct BanBody: AdminBody {
        static let schema = "NewBan"
        let account: String?
        let durationSeconds: Int?
        let reason: String?
    }

    /// A year and a day at most: a longer ban is one without an end.
    static let longestBan = 366 * 86_400

    static func duration(_ seconds: Int?) throws -> Int? {
        guard let seconds else { return nil }
        guard (1...longestBan).contains(seconds) else { throw Problem.invalid("durationSeconds", "must be between 1 and \(longestBan) seconds") }
        return seconds
    }

    static func reason(_ text: String?) throws -> String {
        guard let text else { return "" }
        guard TextRules.fits(text, 0...256) else { throw Problem.invalid("reason", "must be at most 256 characters without NUL") }
        return text
    }

    /// A new ban's account, end and reason, from its body.
    func newBan(_ request: Request, context: RoomRequestContext) async throws -> (account: AccountID, until: Date?, reason: String) {
        let body = try await request.decodeJSON(BanBody.self, context: context)
        let account = try Self.account(body.account, field: "account")
        let until = try Self.duration(body.durationSeconds).map { services.clock.now().addingTimeInterval(TimeInterval($0)) }
        return (account, until, try Self.reason(body.reason))
    }

    static func account(_ text: String?, field: String) throws -> AccountID {
        guard let text, TextRules.fits(text, 1...128) else { throw Problem.invalid(field, "must be 1-128 characters without NUL") }
        return text
    }

    func registerModerationRoutes(rooms group: RouterGroup<RoomRequestContext>, tenant tenantGroup: RouterGroup<RoomRequestContext>) {
        group.post(":room/members/:account/kick", use: kickMember)
        group.get(":room/bans", use: listRoomBans)
        group.get(":room/mutes", use: listRoomMutes)
        group.post(":room/mutes", use: muteMember)
        group.delete(":room/mutes/:mute", use: liftRoomMute)
        group.post(":room/bans", use: banMember)
        group.delete(":room/bans/:ban", use: liftRoomBan)
        tenantGroup.get("bans", use: listTenantBans)
        tenantGroup.post("bans", use: banFromTenant)
        tenantGroup.delete("bans/:ban", use: liftTenantBan)
    }

    @Sendable func kickMember(_ request: Request, context: RoomRequestContext) async throws -> KickedDTO {
        let tenant = try context.authorizedTenant(tenants)
        let roomID = try context.parameters.requireInt64("room")
        let account = try Self.account(try context.parameters.text("account"), field: "account")
        let body = try await request.decodeJSON(KickBody.self, context: context)
        let seconds = try Self.duration(body.durationSeconds)
        let ban = try await services.engine.kick(roomID, account: account, forSeconds: seconds, reason: try Self.reason(body.reason), by: .admin,
                                                 in: tenant, pluginID: nil)
        return KickedDTO(account: account, room: roomID, ban: ban.map { BanDTO($0, now: services.clock.now()) })
    }

    @Sendable func listRoomBans(_ request: Request, context: RoomRequestContext) async throws -> Page<BanDTO> {
        let tenant = try context.authorizedTenant(tenants)
        let roomID = try context.parameters.requireInt64("room")
        guard try await services.engine.store.room(tenant.id, roomID) != nil else { throw Problem.notFound("no room \(roomID) in tenant \(tenant.id)") }
        return try await bans(tenant, scope: BanStore.Filter.Scope.room(roomID), request)
    }

    @Sendable func listRoomMutes(_ request: Request, context: RoomRequestContext) async throws -> Page<BanDTO> {
        let tenant = try context.authorizedTenant(tenants)
        let roomID = try context.parameters.requireInt64("room")
        guard try await services.engine.store.room(tenant.id, roomID) != nil else { throw Problem.notFound("no room \(roomID) in tenant \(tenant.id)") }
        return try await bans(tenant, scope: BanStore.Filter.Scope.room(roomID), kind: .mute, request)
    }

    @Sendable func muteMember(_ request: Request, context: RoomRequestContext) async throws -> EditedResponse<BanDTO> {
        try await placeInRoom(.mute, request, context: context)
    }

    @Sendable func liftRoomMute(_ request: Request, context: RoomRequestContext) async throws -> BanDTO {
        let tenant = try context.authorizedTenant(tenants)
        let roomID = try context.parameters.requireInt64("room")
        return try await lift(tenant, ban: try context.parameters.requireInt64("mute"), kind: .mute, roomID: roomID)
    }

    @Sendable func banMember(_ request: Request, context: RoomRequestContext) async throws -> EditedResponse<BanDTO> {
        try await placeInRoom(.ban, request, context: context)
    }

    /// A room's new ban or mute from its body, answered 201 at its own path.
    private func placeInRoom(_ kind: Ban.Kind, _ request: Request, context: RoomRequestContext) async throws -> EditedResponse<BanDTO> {
        let tenant = try context.authorizedTenant(tenants)
        let roomID = try context.parameters.requireInt64("room")
        let new = try await newBan(request, context: context)
        let placed = switch kind {
        case .mute: try await services.engine.mute(roomID, account: new.account, until: new.until, reason: new.reason, by: .admin, in: tenant, pluginID: nil)
        case .ban: try await services.engine.ban(roomID, account: new.account, until: new.until, reason: new.reason, by: .admin, in: tenant, pluginID: nil)
        }
        let collection = kind == .mute ? "mutes" : "bans"
        return EditedResponse(status: .created, headers: [.location: "/admin/v1/tenants/\(tenant.id)/rooms/\(roomID)/\(collection)/\(placed.id)"],
                              response: BanDTO(placed, now: services.clock.now()))
    }

    @Sendable func liftRoomBan(_ request: Request, context: RoomRequestContext) async throws -> BanDTO {
        let tenant = try context.authorizedTenant(tenants)
        let roomID = try context.parameters.requireInt64("room")
        return try await lift(tenant, ban: try context.parameters.requireInt64("ban"), roomID: roomID)
    }

    @Sendable func listTenantBans(_ request: Request, context: RoomRequestContext) async throws -> Page<BanDTO> {
        let tenant = try context.authorizedTenant(tenants)
        return try await bans(tenant, scope: BanStore.Filter.Scope.tenant, request)
    }

    @Sendable func banFromTenant(_ request: Request, context: RoomRequestContext) async throws -> EditedResponse<BanDTO> {
        let tenant = try context.authorizedTenant(tenants)
        let new = try await newBan(request, context: context)
        let ban = try await services.engine.banFromTenant(new.account, until: new.until, reason: new.reason, by: .admin, in: tenant)
        return EditedResponse(status: .created, headers: [.location: "/admin/v1/tenants/\(tenant.id)/bans/\(ban.id)"],
                              response: BanDTO(ban, now: services.clock.now()))
    }

    @Sendable func liftTenantBan(_ request: Request, context: RoomRequestContext) async throws -> BanDTO {
        let tenant = try context.authorizedTenant(tenants)
        return try await lift(tenant, ban: try context.parameters.requireInt64("ban"), roomID: nil)
    }

    /// A page of bans, newest first: `account`, `active` (only those in
    /// force now), `cursor`, `limit`.
    private func bans(_ tenant: Tenant, scope: BanStore.Filter.Scope, kind: Ban.Kind = .ban, _ request: Request) async throws -> Page<BanDTO> {
        let query = request.uri.queryParameters
        let account = try query.get("account").map { try Self.account($0, field: "account") }
        let now = services.clock.now()
        var inForce: Date?
        if let active = query.get("active") {
            guard ["true", "false"].contains(active) else { throw Problem.invalid("active", "must be true or false") }
            if active == "true" { inForce = now }
        }
        let limit = try Self.limit(query.get("limit"))
        var before: Int64?
        if let cursor = query.get("cursor") {
            guard let value = DecimalText.int64(cursor) else { throw Problem.invalid("cursor", "must be a cursor from nextCursor") }
            before = value
        }
        let page = try await BanStore(database: services.database)
            .bans(tenant.id, .init(scope: scope, kind: kind, accid: account, inForceAt: inForce, before: before, limit: limit + 1))
        let items = Array(page.prefix(limit))
        return Page(items: items.map { BanDTO($0, now: now) }, nextCursor: page.count > limit ? items.last.map { String($0.id) } : nil)
    }

    /// Lifts a ban (or mute) of this scope (a room's, or the tenant's) that is in force.
    private func lift(_ tenant: Tenant, ban id: Int64, kind: Ban.Kind = .ban, roomID: RoomID?) async throws -> BanDTO {
        guard let ban = try await BanStore(database: services.database).ban(tenant.id, id), ban.roomID == roomID, ban.kind == kind,
              ban.isInForce(at: services.clock.now()) else {
            throw Problem.notFound("no \(kind.rawValue) \(id) in force here")
        }
        guard let lifted = try await services.engine.lift(id, by: .admin, in: tenant) else { throw Problem.notFound("no \(kind.rawValue) \(id) in force here") }
        return BanDTO(lifted, now: services.clock.now())
    }
}

struct BanDTO: ResponseEncodable {
    let id: String
    let account: String
    /// Null for a ban of the whole tenant.
    let room: Int64?
    let reason: String
    let expiresAt: Date?
    let createdAt: Date
    let createdBy: String
    let liftedAt: Date?
    let liftedBy: String?
    let active: Bool

    init(_ ban: Ban, now: Date) {
        id = String(ban.id)
        account = ban.accid
        room = ban.roomID
        reason = ban.reason
        expiresAt = ban.expiresAt
        createdAt = ban.createdAt
        createdBy = ban.createdBy
        liftedAt = ban.liftedAt
        liftedBy = ban.liftedBy
        active = ban.isInForce(at: now)
    }

    /// Every key is always there, null when empty (as the contract states).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(account, forKey: .account)
        try container.encode(room, forKey: .room)
        try container.encode(reason, forKey: .reason)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(createdBy, forKey: .createdBy)
        try container.encode(liftedAt, forKey: .liftedAt)
        try container.encode(liftedBy, forKey: .liftedBy)
        try container.encode(active, forKey: .active)
    }

    enum CodingKeys: String, CodingKey {
        case id, account, room, reason, expiresAt, createdAt, createdBy, liftedAt, liftedBy, active
    }
}

struct KickedDTO: ResponseEncodable {
    let account: String
    let room: Int64
    /// The ban that keeps the account out for the kick's duration; null without one.
    let ban: BanDTO?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(account, forKey: .account)
        try container.encode(room, forKey: .room)
        try container.encode(ban, forKey: .ban)
    }

    enum CodingKeys: String, CodingKey { case account, room, ban }
}
