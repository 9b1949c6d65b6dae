import Foundation

/// The engine's side of a client call (`PluginCallHost`): every handle it
/// gives out is bound to the call's tenant and plugin.
struct EngineCallHost: PluginCallHost {
    let services: RoomServices
    let tenant: Tenant
    let pluginID: String
    let policy: RoomPolicy
    let clientAddress: String
    /// The plugin's own tables (`RoomPlugin.tables`).
    let ownTables: Set<String>

    var rooms: any PluginRooms { EngineRooms(engine: services.engine, tenant: tenant, pluginID: pluginID, tables: ownTables) }

    var accounts: any PluginAccounts {
        EngineAccounts(store: AccountStore(database: services.database, clock: services.clock), tenantID: tenant.id, pluginID: pluginID,
                       keyring: services.tokenKeys, maxAccounts: tenant.maxAccounts)
    }

    var tables: PluginTables { PostgresTableRunner.pool(services.database, tenantID: tenant.id, tables: ownTables) }

    var secrets: any PluginSecrets { EngineSecrets(box: services.secrets, database: services.database) }

    func now() -> Date { services.clock.now() }

    func throttle(_ action: ClientAction) async throws {
        let limit: RateLimit? = switch action {
        case .newAccount: policy.accountsPerAddress
        case .newRoom: policy.roomsPerAddress
        }
        guard let limit else { return }
        let admitted = try await RateCounter(database: services.database)
            .admit(tenant.id, action: action.key(pluginID: pluginID), subject: AddressSubject.of(clientAddress), limit: limit, now: services.clock.now())
        guard admitted else { throw RoomError.rateLimited(action: action.noun, limit: limit) }
    }

    func checkLogin(_ accid: AccountID, check: () async throws -> Bool) async throws -> Bool {
        try await FailedLogins(database: services.database, door: "password:\(pluginID)")
            .attempt(tenant.id, accid: accid, address: clientAddress, now: services.clock.now(), check: check)
    }

    func createRoom(_ spec: NewRoom, by actor: Actor) async throws -> Room {
        var spec = spec
        spec.pluginID = pluginID
        return try await services.engine.create(spec, in: tenant, by: actor)
    }

    func createRoom(_ spec: NewRoom, caller: CallerSession, replacingOpenRooms: Bool) async throws -> Room {
        var spec = spec
        spec.pluginID = pluginID
        return try await services.engine.create(spec, caller: caller, replacingOpenRooms: replacingOpenRooms, in: tenant)
    }

    func createRoom<Plugin: RoomPlugin>(_ spec: NewRoom, creating creation: Plugin.Creation, of plugin: Plugin, settings: Plugin.Settings,
                                        by actor: Actor) async throws -> Room {
        var spec = spec
        spec.pluginID = pluginID
        return try await services.engine.create(spec, in: tenant, by: actor, preparing: .typed(creation, of: plugin, settings: settings))
    }

    func createRoom<Plugin: RoomPlugin>(_ spec: NewRoom, creating creation: Plugin.Creation, of plugin: Plugin, settings: Plugin.Settings,
                                        caller: CallerSession, replacingOpenRooms: Bool) async throws -> Room {
        var spec = spec
        spec.pluginID = pluginID
        return try await services.engine.create(spec, caller: caller, replacingOpenRooms: replacingOpenRooms, in: tenant,
                                                preparing: .typed(creation, of: plugin, settings: settings))
    }

    func createGuestWithSession(prefix: String, nickname: (String) -> String, avatar: String,
                                token: String, expiresAt: Date) async throws -> Account {
        try await AccountStore(database: services.database, clock: services.clock)
            .createGuestWithSession(tenant.id, prefix: prefix, nickname: nickname, avatar: avatar, pluginID: pluginID, token: token, expiresAt: expiresAt,
                                    quota: tenant.maxAccounts)
    }
}

extension Tenant {
    /// What a plugin sees of this tenant: its IM issues no token to an
    /// account banned from the tenant (`BanCheckedIM`).
    func pluginView(database: Database, clock: any RoomClock) -> PluginTenant {
        PluginTenant(id: id, name: name, im: BanCheckedIM(base: im, tenantID: id, bans: BanStore(database: database), clock: clock),
                     live: live, intercom: intercom)
    }
}

/// `PluginSecrets` with the server's key, kept in the database.
struct EngineSecrets: PluginSecrets {
    let box: SecretBox
    let database: Database

    func seal(_ secret: String) async throws -> String {
        try await box.seal(secret, database: database)
    }

    func open(_ sealed: String) async throws -> String? {
        try await box.open(sealed, database: database)
    }
}
