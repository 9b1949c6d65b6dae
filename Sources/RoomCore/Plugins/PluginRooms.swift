import Foundation

/// The rooms a route may reach: its tenant's rooms of its own plugin (#28,
/// item 1). Bound once per call, so no plugin passes a tenant or its own id,
/// and none can name another plugin's or tenant's rooms: a room of either
/// is "not found" here.
public struct PluginRooms: Sendable {
    let engine: RoomEngine
    let tenant: Tenant
    public let pluginID: String
    /// The plugin's own tables, for `mutate`'s `tx.tables`.
    let tables: Set<String>

    init(engine: RoomEngine, tenant: Tenant, pluginID: String, tables: Set<String>) {
        self.engine = engine
        self.tenant = tenant
        self.pluginID = pluginID
        self.tables = tables
    }

    /// The room if it is live now (no lock: for reads).
    public func live(_ roomID: RoomID) async throws -> Room {
        try await engine.liveRoom(roomID, in: tenant, pluginID: pluginID)
    }

    /// The room in whatever state, or nil (for reads that show closed rooms).
    public func find(_ roomID: RoomID) async throws -> Room? {
        guard let room = try await engine.store.room(tenant.id, roomID), room.pluginID == pluginID else { return nil }
        return room
    }

    /// The room's members (joined, left, banned) as last committed.
    public func members(_ room: Room) async throws -> [RoomMember] {
        guard room.tenantID == tenant.id, room.pluginID == pluginID else { return [] }
        return try await engine.store.members(tenant.id, room.id)
    }

    /// What the tenant's live provider last reported of a stream (its
    /// verified callbacks), or nil.
    public func stream(_ name: String) async throws -> (live: Bool, at: Date)? {
        try await ProviderStateStore(database: engine.database).stream(tenant.id, name)
    }

    /// Is the room live now, by the engine's one definition?
    public func isLive(_ room: Room) -> Bool { engine.isLive(room) }

    /// A change of the room's plugin rows, decided on one read and written
    /// once (`RoomEngine.change`). `caller`: the request's session (its `sid`
    /// of this plugin), refused with `refusal` unless live.
    public func change<Row: RoomRow, Result: Sendable>(
        _ roomID: RoomID, rows table: RoomRowTable<Row>, members: [AccountID] = [], caller: CallerSession? = nil,
        _ decide: (RoomSnapshot<Row>) throws -> (RoomChange<Row>, Result)
    ) async throws -> Result {
        // The rows a change writes are the plugin's own, as every statement's are.
        guard tables.contains(table.name) else { throw TableStatementRefused(reason: "\(table.name) is not one of the plugin's tables") }
        return try await engine.change(roomID, in: tenant, pluginID: pluginID, rows: table, members: members, caller: caller, decide)
    }

    /// The plugin's tables on the live room, locked (`RoomEngine.mutate`).
    public func mutate<Result: Sendable>(_ roomID: RoomID, _ body: (RoomTransaction) async throws -> Result) async throws -> Result {
        try await engine.mutate(roomID, in: tenant, pluginID: pluginID, tables: tables, body)
    }

    public func join(_ roomID: RoomID, account: AccountID, role: String = "member") async throws -> RoomEngine.JoinOutcome {
        try await engine.join(roomID, account: account, role: role, in: tenant, pluginID: pluginID)
    }

    /// `actor`: someone else taking the account out (a host's kick).
    public func leave(_ roomID: RoomID, account: AccountID, by actor: Actor? = nil) async throws {
        try await engine.leave(roomID, account: account, by: actor, in: tenant, pluginID: pluginID)
    }

    @discardableResult
    public func dissolve(_ roomID: RoomID, by actor: Actor) async throws -> Room {
        try await engine.dissolve(roomID, by: actor, in: tenant, pluginID: pluginID)
    }

    /// A page of the plugin's open rooms, newest first, and how many there are.
    public func list(limit: Int, offset: Int = 0) async throws -> (rooms: [RoomListCache.Listed], total: Int) {
        try await engine.openRooms(tenant.id, pluginID: pluginID, limit: limit, offset: offset)
    }
}
