import Foundation

/// What a client may create, counted per client address: plugins create
/// accounts and rooms only through these, so every route is limited the
/// same way (`PluginSeamTests` checks that no plugin goes around them).
extension ClientCall {
    public enum Action: Sendable {
        case newAccount
        case newRoom(pluginID: String)

        var key: String {
            switch self {
            case .newAccount: "accounts"
            case .newRoom(let pluginID): "rooms:\(pluginID)"
            }
        }

        var noun: String {
            switch self {
            case .newAccount: "new accounts"
            case .newRoom: "new rooms"
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
            .admit(tenant.id, action: action.key, subject: clientAddress, limit: limit, now: services.clock.now())
        guard admitted else { throw RoomError.rateLimited(action: action.noun, limit: limit) }
    }

    /// A room created for this client, within its address's limit.
    /// `counted`: the route called `throttle(.newRoom)` itself, before work
    /// it would otherwise have to undo.
    public func createRoom(_ spec: NewRoom, by actor: Actor, counted: Bool = false) async throws -> Room {
        if !counted { try await throttle(.newRoom(pluginID: spec.pluginID)) }
        return try await services.engine.create(spec, in: tenant, by: actor)
    }

    /// A new guest account for this client, within its address's limit.
    public func createGuest(prefix: String, nickname: (String) -> String, avatar: String) async throws -> Account {
        try await throttle(.newAccount)
        return try await AccountStore(database: services.database, clock: services.clock)
            .createGuest(tenant.id, prefix: prefix, nickname: nickname, avatar: avatar)
    }
}
