import Foundation

/// The engine's side of one client call, bound to its tenant and plugin
/// (#28, item 1). RoomKit declares it; the engine implements it, so a plugin
/// reaches rooms, accounts and its own rows only through what a call hands
/// it, and has no way to name another tenant or plugin.
public protocol PluginCallHost: Sendable {
    var rooms: any PluginRooms { get }
    var accounts: any PluginAccounts { get }
    var tables: PluginTables { get }
    var secrets: any PluginSecrets { get }
    func now() -> Date
    /// Counts `action` for the client's address; throws
    /// `RoomError.rateLimited` past the tenant's limit.
    func throttle(_ action: ClientAction) async throws
    func checkLogin(_ accid: AccountID, check: () async throws -> Bool) async throws -> Bool
    /// A room of the call's plugin (`spec.pluginID` is set to it).
    func createRoom(_ spec: NewRoom, by actor: Actor) async throws -> Room
    /// A room of the call's plugin owned by the account of `caller`'s live
    /// session, checked with the create (`ClientCall.createRoom(_:caller:…)`).
    func createRoom(_ spec: NewRoom, caller: CallerSession, replacingOpenRooms: Bool) async throws -> Room
    /// As `createRoom(_:by:)`, with the plugin's creation data typed.
    func createRoom<Plugin: RoomPlugin>(_ spec: NewRoom, creating creation: Plugin.Creation, of plugin: Plugin, settings: Plugin.Settings,
                                        by actor: Actor) async throws -> Room
    /// As `createRoom(_:caller:replacingOpenRooms:)`, with the plugin's creation data typed.
    func createRoom<Plugin: RoomPlugin>(_ spec: NewRoom, creating creation: Plugin.Creation, of plugin: Plugin, settings: Plugin.Settings,
                                        caller: CallerSession, replacingOpenRooms: Bool) async throws -> Room
    func createGuestWithSession(prefix: String, nickname: (String) -> String, avatar: String,
                                token: String, expiresAt: Date) async throws -> Account
}

/// What a client may create, counted per client address.
public enum ClientAction: Sendable {
    case newAccount
    /// Of the call's plugin.
    case newRoom

    public func key(pluginID: String) -> String {
        switch self {
        case .newAccount: "accounts"
        case .newRoom: "rooms:\(pluginID)"
        }
    }

    public var noun: String {
        switch self {
        case .newAccount: "new accounts from this address"
        case .newRoom: "new rooms from this address"
        }
    }
}

/// What a route reaches the engine by; plugins create accounts and rooms
/// only through these, so every route is limited the same way
/// (`PluginSeamTests` checks that no plugin goes around them).
extension ClientCall {
    public typealias Action = ClientAction

    /// This call's tenant's rooms of this plugin.
    public var rooms: any PluginRooms { host.rooms }

    /// This call's tenant's accounts, with sessions of this plugin.
    public var accounts: any PluginAccounts { host.accounts }

    /// This call's tenant's rows of this plugin's own tables.
    public var tables: PluginTables { host.tables }

    /// Seals secrets kept for showing again (never stored in clear).
    public var secrets: any PluginSecrets { host.secrets }

    /// The server's clock (tests move it).
    public func now() -> Date { host.now() }

    /// Counts the action for this client's address; throws
    /// `RoomError.rateLimited` past the tenant's limit for the plugin.
    public func throttle(_ action: Action) async throws {
        try await host.throttle(action)
    }

    /// `check` (a password's) for `accid`, within the failed-login limits
    /// of the account and this client's address.
    public func checkLogin(_ accid: AccountID, check: () async throws -> Bool) async throws -> Bool {
        try await host.checkLogin(accid, check: check)
    }

    /// A room of this call's plugin created for this client, within its
    /// address's limit, its creation data `plugin`'s defaults (no data).
    /// `counted`: the route called `throttle(.newRoom)` itself, before work
    /// it would otherwise have to undo.
    public func createRoom(_ spec: NewRoom, by actor: Actor, counted: Bool = false) async throws -> Room {
        try checkPlugin(of: spec, id: pluginID)
        if !counted { try await throttle(.newRoom) }
        return try await host.createRoom(spec, by: actor)
    }

    /// As `createRoom(_:by:counted:)`, with `creation`, `plugin`'s typed
    /// creation data as the route built it (#42 item 3: never JSON); `plugin`
    /// is this call's (its id is checked).
    public func createRoom<Plugin: RoomPlugin>(_ spec: NewRoom, creating creation: Plugin.Creation, of plugin: Plugin, by actor: Actor,
                                               counted: Bool = false) async throws -> Room where Plugin.Settings == Settings {
        try checkPlugin(of: spec, id: plugin.id)
        if !counted { try await throttle(.newRoom) }
        return try await host.createRoom(spec, creating: creation, of: plugin, settings: settings, by: actor)
    }

    /// A room of this call's plugin owned by the account of `caller`'s live
    /// session (`spec.owner` is set to it), refused with the caller's
    /// `refusal` without one, within this client's address's limit. The
    /// session is checked with the create: on an instance that has seen it,
    /// the create is one statement. `replacingOpenRooms`: the account's open
    /// rooms of this plugin are dissolved first (one open room a creator).
    public func createRoom(_ spec: NewRoom, caller: CallerSession, replacingOpenRooms: Bool = false) async throws -> Room {
        try checkPlugin(of: spec, id: pluginID)
        guard caller.sid != nil else { throw caller.refusal }
        try await throttle(.newRoom)
        return try await host.createRoom(spec, caller: caller, replacingOpenRooms: replacingOpenRooms)
    }

    /// As `createRoom(_:caller:replacingOpenRooms:)`, with `plugin`'s typed creation data.
    public func createRoom<Plugin: RoomPlugin>(_ spec: NewRoom, creating creation: Plugin.Creation, of plugin: Plugin, caller: CallerSession,
                                               replacingOpenRooms: Bool = false) async throws -> Room where Plugin.Settings == Settings {
        try checkPlugin(of: spec, id: plugin.id)
        guard caller.sid != nil else { throw caller.refusal }
        try await throttle(.newRoom)
        return try await host.createRoom(spec, creating: creation, of: plugin, settings: settings, caller: caller, replacingOpenRooms: replacingOpenRooms)
    }

    /// A route creates rooms of its own plugin only, and hands their
    /// creation data typed: JSON `options` are the admin API's (#42 item 3).
    private func checkPlugin(of spec: NewRoom, id: String) throws {
        guard id == pluginID else { throw RoomError.pluginNotEnabled(id) }
        guard spec.pluginID.isEmpty || spec.pluginID == pluginID else { throw RoomError.pluginNotEnabled(spec.pluginID) }
        guard spec.options.object?.isEmpty == true else { throw ClientRouteOptionsRefused(plugin: pluginID) }
    }

    /// A new guest account and its first session (`token`, made by the
    /// caller), written together, within this client's address's limit.
    public func createGuestWithSession(prefix: String, nickname: (String) -> String, avatar: String,
                                       token: String, expiresAt: Date) async throws -> Account {
        try await throttle(.newAccount)
        return try await host.createGuestWithSession(prefix: prefix, nickname: nickname, avatar: avatar, token: token, expiresAt: expiresAt)
    }
}

/// A client route passed JSON creation data: a defect of the plugin (its
/// `Creation` goes typed), answered as an internal error.
public struct ClientRouteOptionsRefused: Error, CustomStringConvertible {
    public let plugin: String
    public var description: String { "a client route of \(plugin) passed creation data as JSON options; pass its Creation typed" }
}

/// What a plugin sees of its tenant: who it is. Not its admin keys,
/// webhooks or other plugins, nor its media providers themselves: a route
/// reaches those through handles scoped to a room or an account
/// (`ClientCall.chatroom(of:)`, `stream(_:of:)`, `im(of:)`: RoomMedia.swift).
public struct PluginTenant: Sendable {
    public let id: TenantID
    public let name: String
    let im: any IMProvider
    let live: any LiveProvider
    let intercom: any IntercomProvider

    public init(id: TenantID, name: String, im: any IMProvider, live: any LiveProvider, intercom: any IntercomProvider) {
        self.id = id
        self.name = name
        self.im = im
        self.live = live
        self.intercom = intercom
    }
}
