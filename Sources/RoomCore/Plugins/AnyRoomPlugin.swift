import Foundation
import Logging
import PostgresNIO

/// A plugin as this build registers it, before any tenant binds it. It can
/// only tell what it is and bind itself to a tenant's settings.
public struct AnyRoomPlugin: Sendable {
    public let id: String
    public let wire: WireProtocol
    public let defaultPolicy: RoomPolicy
    public let chatroom: ChatroomPolicy
    public let eventTypes: [String]
    public let accountReferences: [AccountReference]
    /// The plugin's own tables (`RoomPlugin.tables`).
    public let tables: [String]
    public let creationOptions: JSONValue
    /// Path and methods of each client route, for mounting them once. A
    /// route is known by its path (`BoundPlugin.handle(route:_:)`).
    public let routeSignatures: [ClientRouteSignature]

    private let binder: @Sendable (SettingsReader) -> BoundPlugin

    public init<Plugin: RoomPlugin>(_ plugin: Plugin) {
        id = plugin.id
        wire = plugin.wire
        defaultPolicy = plugin.defaultPolicy
        chatroom = plugin.chatroom
        eventTypes = plugin.eventTypes
        accountReferences = plugin.accountReferences
        tables = plugin.tables
        creationOptions = plugin.creationOptions
        let routes = plugin.routes()
        routeSignatures = routes.map { ClientRouteSignature(path: $0.path, methods: $0.methods, effect: $0.effect) }
        // Two routes at one path: the router would answer one and hide the other.
        precondition(Set(routes.map(\.path)).count == routes.count, "plugin \(plugin.id) declares a route path twice")
        binder = { reader in BoundPlugin(plugin, settings: plugin.readSettings(reader)) }
    }

    /// Reads the tenant's settings for this plugin and binds them, once.
    public func bind(_ reader: SettingsReader) -> BoundPlugin { binder(reader) }

    /// Bound to default settings: for rooms of a plugin the tenant no longer
    /// enables, so they still close cleanly.
    public func boundToDefaults() -> BoundPlugin { binder(SettingsReader(file: "", path: "", table: [:])) }
}

/// What the server mounts of a route, before any tenant binds its plugin.
public struct ClientRouteSignature: Sendable {
    public let path: String
    public let methods: [ClientMethod]
    public let effect: ClientRouteEffect
}

/// The parts of a hook call that are not settings.
struct HookParts {
    /// The commit's writes: a hook's engine writes (a deadline) tell its ledger.
    let writes: RoomWrites
    let tenantID: TenantID
    let now: Date
    let actor: Actor
    let logger: Logger

    var connection: PostgresConnection { writes.connection }
}

/// A plugin bound to one tenant's settings. The closures capture the typed
/// plugin and its typed settings, so nothing is cast back at run time.
public struct BoundPlugin: Sendable {
    public let id: String
    public let wire: WireProtocol
    public let chatroom: ChatroomPolicy
    public let eventTypes: [String]
    /// The settings as read, for operators and tests (`String(describing:)`).
    public let settingsDescription: String
    /// `RoomPlugin.Attributes` from a room's stored text, for the list cache.
    let decodeAttributes: AttributesDecoder

    /// Each route's handler by its path.
    let routeHandlers: [String: @Sendable (ClientCallParts) async throws -> any Encodable & Sendable]
    let mapError: @Sendable (RoomError) -> ClientError?
    /// `creation(from:)` on the request's options, then `prepareRoom`: the
    /// room shaped, its typed creation data kept in the returned
    /// `PreparedCreation` for the create's next steps.
    let prepare: @Sendable (inout NewRoom, Date) throws -> PreparedCreation
    let closing: @Sendable ([Room], CloseReason, HookParts) async throws -> [OutboxMessage]
    /// `RoomPlugin.closingMessages`: non-nil, the engine writes closes in one
    /// statement without `closing`.
    let closingMessages: @Sendable ([Room], CloseReason) -> [OutboxMessage]?
    let joined: @Sendable (AccountID, Room, HookParts) async throws -> [OutboxMessage]
    let left: @Sendable (AccountID, Room, HookParts) async throws -> [OutboxMessage]
    let removed: @Sendable (AccountID, Room, HookParts) async throws -> [OutboxMessage]
    let muted: @Sendable (AccountID, Actor?, Room, HookParts) async throws -> [OutboxMessage]
    /// `RoomPlugin.muting`: non-nil, a room's first mute is one statement, and
    /// `muted` applies the same decision in a transaction (lifts).
    let muting: MemberMuting?
    /// `RoomPlugin.removal`: non-nil, a kick is one statement without `left` and `removed`.
    let removal: MemberRemoval?
    let providerEvent: @Sendable (ProviderEvent, HookParts) async throws -> [OutboxMessage]

    init<Plugin: RoomPlugin>(_ plugin: Plugin, settings: Plugin.Settings) {
        @Sendable func hook(_ parts: HookParts) -> HookContext<Plugin.Settings> { parts.context(of: plugin, settings: settings) }
        id = plugin.id
        wire = plugin.wire
        chatroom = plugin.chatroom
        eventTypes = plugin.eventTypes
        settingsDescription = String(describing: settings)
        decodeAttributes = AttributesDecoder(Plugin.Attributes.self)
        var handlers: [String: @Sendable (ClientCallParts) async throws -> any Encodable & Sendable] = [:]
        for route in plugin.routes() {
            handlers[route.path] = { @Sendable parts in try await route.handle(parts.call(of: plugin, settings: settings)) }
        }
        routeHandlers = handlers
        mapError = { plugin.clientError(for: $0) }
        prepare = { spec, now in
            try PreparedCreation(plugin, settings: settings, creation: plugin.creation(from: spec.options), spec: &spec, now: now)
        }
        closing = { rooms, reason, parts in try await plugin.roomsClosing(rooms, reason: reason, hook: hook(parts)) }
        closingMessages = { rooms, reason in plugin.closingMessages(rooms, reason: reason, settings: settings) }
        joined = { account, room, parts in try await plugin.memberJoined(account, room: room, hook: hook(parts)) }
        left = { account, room, parts in try await plugin.memberLeft(account, room: room, hook: hook(parts)) }
        removed = { account, room, parts in try await plugin.memberRemoved(account, room: room, hook: hook(parts)) }
        removal = plugin.removal(settings: settings)
        let muting = plugin.muting(settings: settings)
        self.muting = muting
        if let rule = muting?.rows {
            muted = { account, by, room, parts in
                try await rule.apply(MemberMuting.Muted(account: account, room: room, mutedBy: by, actor: parts.actor), in: room.id,
                                     tables: hook(parts).tables, now: parts.now)
            }
        } else {
            muted = { account, by, room, parts in try await plugin.memberMuted(account, mutedBy: by, room: room, hook: hook(parts)) }
        }
        providerEvent = { event, parts in try await plugin.providerEvent(event, hook: hook(parts)) }
    }

    public func clientError(for error: RoomError) -> ClientError? { mapError(error) }

    /// Runs the plugin's route at `path` (as declared, `/room/create`).
    public func handle(route path: String, _ parts: ClientCallParts) async throws -> any Encodable & Sendable {
        guard let handler = routeHandlers[path] else { throw RouteNotDeclared(plugin: id, path: path) }
        return try await handler(parts)
    }
}

/// The request-specific parts of a `ClientCall`; the bound plugin adds its settings.
public struct ClientCallParts: Sendable {
    public let tenant: Tenant
    public let policy: RoomPolicy
    public let parameters: WireParameters
    public let headers: [String: String]
    public let clientAddress: String
    public let services: RoomServices
    public let logger: Logger

    public init(tenant: Tenant, policy: RoomPolicy, parameters: WireParameters, headers: [String: String], clientAddress: String,
                services: RoomServices, logger: Logger) {
        self.tenant = tenant
        self.policy = policy
        self.parameters = parameters
        self.headers = headers
        self.clientAddress = clientAddress
        self.services = services
        self.logger = logger
    }

    /// The call a route of `plugin` gets, its handles bound to the tenant
    /// and plugin, its caller read the way the plugin's wire carries it.
    public func call<Plugin: RoomPlugin>(of plugin: Plugin, settings: Plugin.Settings) -> ClientCall<Plugin.Settings> {
        call(pluginID: plugin.id, settings: settings, tables: plugin.tables, wire: plugin.wire, callerRule: plugin.callerRule(settings: settings))
    }

    /// The call a route of plugin `pluginID` gets (tests make calls the same way).
    public func call<Settings: Sendable>(pluginID: String, settings: Settings, tables: [String], wire: WireProtocol = .netease,
                                         callerRule: CallerRule = .session) -> ClientCall<Settings> {
        let host = EngineCallHost(services: services, tenant: tenant, pluginID: pluginID, policy: policy, clientAddress: clientAddress, ownTables: Set(tables))
        return ClientCall(tenant: tenant.pluginView(database: services.database, clock: services.clock), pluginID: pluginID, settings: settings, policy: policy, parameters: parameters, headers: headers,
                          clientAddress: clientAddress, logger: logger, host: host, wire: wire, callerRule: callerRule)
    }
}

/// A path no route of the plugin declares: the router mounts only declared
/// ones, so reaching this is the server's own mistake.
struct RouteNotDeclared: Error, CustomStringConvertible {
    let plugin: String
    let path: String

    var description: String { "plugin \(plugin) declares no route \(path)" }
}

/// Every plugin this build knows, registered once at start-up; each tenant
/// enables a subset in its file.
public struct PluginRegistry: Sendable {
    public let plugins: [AnyRoomPlugin]

    public init(_ plugins: [AnyRoomPlugin]) {
        self.plugins = plugins
    }

    public subscript(id: String) -> AnyRoomPlugin? {
        plugins.first { $0.id == id }
    }

    public var ids: [String] { plugins.map(\.id) }
}
