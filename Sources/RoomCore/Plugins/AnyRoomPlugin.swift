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
    /// Path and methods of each client route, for mounting them once.
    public let routeSignatures: [(path: String, methods: [ClientMethod], effect: ClientRouteEffect)]

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
        routeSignatures = plugin.routes().map { ($0.path, $0.methods, $0.effect) }
        binder = { reader in BoundPlugin(plugin, settings: plugin.readSettings(reader)) }
    }

    /// Reads the tenant's settings for this plugin and binds them, once.
    public func bind(_ reader: SettingsReader) -> BoundPlugin { binder(reader) }

    /// Bound to default settings: for rooms of a plugin the tenant no longer
    /// enables, so they still close cleanly.
    public func boundToDefaults() -> BoundPlugin { binder(SettingsReader(file: "", path: "", table: [:])) }
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

    /// One handler per route, in the order of `AnyRoomPlugin.routeSignatures`.
    let routeHandlers: [@Sendable (ClientCallParts) async throws -> any Encodable & Sendable]
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
        routeHandlers = plugin.routes().map { route in
            { parts in try await route.handle(parts.call(pluginID: plugin.id, settings: settings, tables: plugin.tables)) }
        }
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
        muted = { account, by, room, parts in try await plugin.memberMuted(account, mutedBy: by, room: room, hook: hook(parts)) }
        providerEvent = { event, parts in try await plugin.providerEvent(event, hook: hook(parts)) }
    }

    public func clientError(for error: RoomError) -> ClientError? { mapError(error) }

    /// Runs the route at `index` of the plugin's routes.
    public func handle(route index: Int, _ parts: ClientCallParts) async throws -> any Encodable & Sendable {
        try await routeHandlers[index](parts)
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

    /// The call a route of plugin `pluginID` gets, its handles bound to the
    /// tenant and plugin (tests make calls the same way).
    public func call<Settings: Sendable>(pluginID: String, settings: Settings, tables: [String]) -> ClientCall<Settings> {
        let host = EngineCallHost(services: services, tenant: tenant, pluginID: pluginID, policy: policy, clientAddress: clientAddress, ownTables: Set(tables))
        return ClientCall(tenant: tenant.pluginView(database: services.database, clock: services.clock), pluginID: pluginID, settings: settings, policy: policy, parameters: parameters, headers: headers,
                          clientAddress: clientAddress, logger: logger, host: host)
    }
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
