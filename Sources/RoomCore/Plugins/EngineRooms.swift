import Foundation

/// `PluginRooms` on the engine, for one tenant and plugin: a room of
/// another tenant or plugin is "not found" through it.
struct EngineRooms: PluginRooms {
    let engine: RoomEngine
    let tenant: Tenant
    let pluginID: String
    /// The plugin's own tables, for `mutate`'s `tx.tables` and `change`'s rows.
    let tables: Set<String>

    func live(_ roomID: RoomID) async throws -> Room {
        try await engine.liveRoom(roomID, in: tenant, pluginID: pluginID)
    }

    func find(_ roomID: RoomID) async throws -> Room? {
        guard let room = try await engine.store.room(tenant.id, roomID), room.pluginID == pluginID else { return nil }
        return room
    }

    func enter(_ roomID: RoomID, as account: AccountID) async throws -> Room {
        let room = try await live(roomID)
        if try await BanStore(database: engine.database).isBanned(tenant.id, accid: account, roomID: roomID, now: engine.clock.now()) {
            throw RoomError.banned
        }
        return room
    }

    func members(_ room: Room) async throws -> [RoomMember] {
        guard room.tenantID == tenant.id, room.pluginID == pluginID else { return [] }
        return try await engine.store.members(tenant.id, room.id)
    }

    func joinedMembers(_ room: Room, newest: Int, always: [AccountID]) async throws -> (members: [RoomMember], joined: Int) {
        guard room.tenantID == tenant.id, room.pluginID == pluginID else { return ([], 0) }
        return try await engine.store.joinedMembers(tenant.id, room.id, newest: newest, always: always)
    }

    func stream(_ name: String) async throws -> (live: Bool, at: Date)? {
        try await ProviderStateStore(database: engine.database).stream(tenant.id, name)
    }

    func isLive(_ room: Room) -> Bool { engine.isLive(room) }

    func change<Row: RoomRow, Result: Sendable>(
        _ roomID: RoomID, rows table: RoomRowTable<Row>, members: [AccountID], caller: CallerSession?,
        _ decide: (RoomSnapshot<Row>) throws -> (RoomChange<Row>, Result)
    ) async throws -> Result {
        // The rows a change writes are the plugin's own, as every statement's are.
        guard tables.contains(table.name) else { throw TableStatementRefused(reason: "\(table.name) is not one of the plugin's tables") }
        return try await engine.change(roomID, in: tenant, pluginID: pluginID, rows: table, members: members, caller: caller, decide)
    }

    func onLockedRow<Row: RoomRow, Result: Sendable>(
        _ roomID: RoomID, rows table: RoomRowTable<Row>, key: String, enteringAs account: AccountID,
        _ decide: (Row?, PluginTables) async throws -> Result
    ) async throws -> Result {
        try await engine.onLockedRow(roomID, in: tenant, pluginID: pluginID, tables: tables, rows: table, key: key, enteringAs: account, decide)
    }

    func mutate<Result: Sendable>(_ roomID: RoomID, _ body: (RoomTransaction) async throws -> Result) async throws -> Result {
        try await engine.mutate(roomID, in: tenant, pluginID: pluginID, tables: tables, body)
    }

    func join(_ roomID: RoomID, account: AccountID, role: String) async throws -> JoinOutcome {
        try await engine.join(roomID, account: account, role: role, in: tenant, pluginID: pluginID)
    }

    func join<Answer: Sendable>(_ roomID: RoomID, account: AccountID, role: String, answer name: String,
                                _ answer: @escaping @Sendable (Room) async throws -> Answer) async throws -> Answer {
        try await engine.join(roomID, account: account, role: role, in: tenant, pluginID: pluginID, answer: name, answer)
    }

    func join<Answer: Sendable>(_ roomID: RoomID, caller: CallerSession, role: String, answer name: String,
                                _ answer: @escaping @Sendable (Room) async throws -> Answer) async throws -> Answer {
        try await engine.join(roomID, caller: caller, role: role, in: tenant, pluginID: pluginID, answer: name, answer)
    }

    func leave(_ roomID: RoomID, account: AccountID, by actor: Actor?) async throws {
        try await engine.leave(roomID, account: account, by: actor, in: tenant, pluginID: pluginID)
    }

    @discardableResult
    func kick(_ roomID: RoomID, account: AccountID, forSeconds seconds: Int?, reason: String, by actor: Actor) async throws -> Int64? {
        try await engine.kick(roomID, account: account, forSeconds: seconds, reason: reason, by: actor, in: tenant, pluginID: pluginID)?.id
    }

    @discardableResult
    func dissolve(_ roomID: RoomID, by actor: Actor) async throws -> Room {
        try await engine.dissolve(roomID, by: actor, in: tenant, pluginID: pluginID)
    }

    func dissolve(_ roomID: RoomID, caller: CallerSession) async throws -> Room {
        try await engine.dissolve(roomID, caller: caller, in: tenant, pluginID: pluginID)
    }

    func list(limit: Int, offset: Int) async throws -> (rooms: [ListedRoom], total: Int) {
        try await engine.openRooms(tenant.id, pluginID: pluginID, limit: limit, offset: offset,
                                   attributes: tenant.plugin(pluginID)?.plugin.decodeAttributes)
    }
}

/// `PluginAccounts` on the engine's account store, for one tenant and plugin.
struct EngineAccounts: PluginAccounts {
    let store: AccountStore
    let tenantID: TenantID
    let pluginID: String
    let keyring: TokenKeyring
    let maxAccounts: Int?

    func account(_ accid: AccountID) async throws -> Account? {
        try await store.account(tenantID, accid)
    }

    func actingAs(_ accid: AccountID) async throws -> Account? {
        guard let account = try await store.account(tenantID, accid) else { return nil }
        let banned = try await BanStore(database: store.database).isBanned(tenantID, accid: accid, roomID: nil, now: store.clock.now())
        return banned ? nil : account
    }

    func resolve(sid: String, renewSeconds: Int?) async throws -> (Account, expiresAt: Date)? {
        try await store.resolve(tenantID, sid: sid, pluginID: pluginID, renewSeconds: renewSeconds)
    }

    func resolveSigned(token: String) async throws -> Account? {
        try await store.resolveSigned(tenantID, token: token, pluginID: pluginID, keyring: keyring)
    }

    func signedSessionToken(ttlSeconds: Int) async throws -> (token: String, expiresAt: Date) {
        try await store.signedSessionToken(tenantID, ttlSeconds: ttlSeconds, keyring: keyring)
    }

    func openSession(accid: AccountID, ttlSeconds: Int) async throws -> (sid: String, expiresAt: Date) {
        try await store.openSession(tenantID, accid: accid, pluginID: pluginID, ttlSeconds: ttlSeconds)
    }

    func create(_ account: Account, passwordHash: String?) async throws -> Bool {
        try await store.create(tenantID, account, passwordHash: passwordHash, quota: maxAccounts)
    }

    func accountWithPassword(_ accid: AccountID) async throws -> (Account, passwordHash: String?)? {
        try await store.accountWithPassword(tenantID, accid)
    }

    func delete(_ accid: AccountID) async throws {
        try await store.delete(tenantID, accid)
    }

    @discardableResult
    func revokeAccess(_ accid: AccountID) async throws -> Int {
        try await store.revokeAccess(tenantID, accid: accid)
    }
}
