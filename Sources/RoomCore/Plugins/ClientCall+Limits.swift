import Foundation

/// What a client may create, counted per client address: plugins create
/// accounts and rooms only through these, so every route is limited the
/// same way (`PluginSeamTests` checks that no plugin goes around them).
extension ClientCall {
    public enum Action: Sendable {
        case newAccount
        /// Of the call's plugin.
        case newRoom

        func key(pluginID: String) -> String {
            switch self {
            case .newAccount: "accounts"
            case .newRoom: "rooms:\(pluginID)"
            }
        }

        var noun: String {
            switch self {
            case .newAccount: "new accounts from this address"
            case .newRoom: "new rooms from this address"
            }
        }
    }

    /// Counts the action for this client's address; throws
    /// `RoomError.rateLimited` past the tenant's limit for the plugin.
    public func throttle(_ action: Action) async throws {
        let limit: RateLimit? = switch action {
        case .newAccount: policy.accountsPerAddress
        case .newRoom: policy.roomsPerAddress
        }
        guard let limit else { return }
        let admitted = try await RateCounter(database: services.database)
            .admit(tenant.id, action: action.key(pluginID: pluginID), subject: clientAddress, limit: limit, now: services.clock.now())
        guard admitted else { throw RoomError.rateLimited(action: action.noun, limit: limit) }
    }

    /// `check` (a password's) for `accid`, within the failed-login limits
    /// of the account and this client's address (`FailedLogins`).
    public func checkLogin(_ accid: AccountID, check: () async throws -> Bool) async throws -> Bool {
        try await FailedLogins(database: services.database, door: "password:\(pluginID)")
            .attempt(tenant.id, accid: accid, address: clientAddress, now: services.clock.now(), check: check)
    }

    /// A room of this call's plugin created for this client, within its
    /// address's limit. `counted`: the route called `throttle(.newRoom)`
    /// itself, before work it would otherwise have to undo.
    public func createRoom(_ spec: NewRoom, by actor: Actor, counted: Bool = false) async throws -> Room {
        var spec = spec
        guard spec.pluginID.isEmpty || spec.pluginID == pluginID else { throw RoomError.pluginNotEnabled(spec.pluginID) }
        spec.pluginID = pluginID
        if !counted { try await throttle(.newRoom) }
        return try await services.engine.create(spec, in: tenant, by: actor)
    }

    /// A new guest account and its first session (`token`, made by the
    /// caller), written together, within this client's address's limit.
    public func createGuestWithSession(prefix: String, nickname: (String) -> String, avatar: String,
                                       token: String, expiresAt: Date) async throws -> Account {
        try await throttle(.newAccount)
        return try await AccountStore(database: services.database, clock: services.clock)
            .createGuestWithSession(tenant.id, prefix: prefix, nickname: nickname, avatar: avatar, pluginID: pluginID, token: token, expiresAt: expiresAt)
    }
}
