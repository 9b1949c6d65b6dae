import Foundation
import Logging
import PostgresNIO

/// A plugin with its `Settings` type erased, so the registry can hold plugins
/// of different settings types. Settings travel as `any Sendable` and are
/// cast back by the closures built from the concrete plugin.
public struct AnyRoomPlugin: Sendable {
    public let id: String
    public let wire: WireStyle
    public let defaultPolicy: RoomPolicy
    public let routes: [ErasedRoute]

    let readSettings: @Sendable (SettingsReader) -> any Sendable
    let mapError: @Sendable (RoomError) -> ClientError?
    let created: @Sendable (Room, ErasedHook) async throws -> [OutboxMessage]
    let closing: @Sendable ([Room], CloseReason, ErasedHook) async throws -> [OutboxMessage]
    let joined: @Sendable (AccountID, Room, ErasedHook) async throws -> [OutboxMessage]
    let left: @Sendable (AccountID, Room, ErasedHook) async throws -> [OutboxMessage]
    let providerEvent: @Sendable (ProviderEvent, ErasedHook) async throws -> [OutboxMessage]

    public struct ErasedRoute: Sendable {
        public let path: String
        public let methods: [ClientRoute<Never>.Method]
        public let handle: @Sendable (_ settings: any Sendable, _ make: ErasedCallParts) async throws -> any Encodable & Sendable
    }

    /// The request-specific parts of a `ClientCall`, without settings.
    public struct ErasedCallParts: Sendable {
        public let tenant: Tenant
        public let policy: RoomPolicy
        public let parameters: WireParameters
        public let headers: [String: String]
        public let services: RoomServices
        public let logger: Logger

        public init(tenant: Tenant, policy: RoomPolicy, parameters: WireParameters, headers: [String: String], services: RoomServices, logger: Logger) {
            self.tenant = tenant
            self.policy = policy
            self.parameters = parameters
            self.headers = headers
            self.services = services
            self.logger = logger
        }
    }

    struct ErasedHook {
        let connection: PostgresConnection
        let tenantID: TenantID
        let settings: any Sendable
        let now: Date
        let actor: Actor
        let logger: Logger
    }

    struct SettingsMismatch: Error {}

    public init<Plugin: RoomPlugin>(_ plugin: Plugin) {
        @Sendable func typed(_ hook: ErasedHook) throws -> HookContext<Plugin.Settings> {
            guard let settings = hook.settings as? Plugin.Settings else { throw SettingsMismatch() }
            return HookContext(connection: hook.connection, tenantID: hook.tenantID, settings: settings, now: hook.now, actor: hook.actor, logger: hook.logger)
        }
        id = plugin.id
        wire = plugin.wire
        defaultPolicy = plugin.defaultPolicy
        readSettings = { plugin.readSettings($0) }
        mapError = { plugin.clientError(for: $0) }
        created = { room, hook in try await plugin.roomCreated(room, hook: try typed(hook)) }
        closing = { rooms, reason, hook in try await plugin.roomsClosing(rooms, reason: reason, hook: try typed(hook)) }
        joined = { account, room, hook in try await plugin.memberJoined(account, room: room, hook: try typed(hook)) }
        left = { account, room, hook in try await plugin.memberLeft(account, room: room, hook: try typed(hook)) }
        providerEvent = { event, hook in try await plugin.providerEvent(event, hook: try typed(hook)) }
        routes = plugin.routes().map { route in
            ErasedRoute(path: route.path, methods: route.methods.map { ClientRoute<Never>.Method(rawValue: $0.rawValue)! }) { settings, parts in
                guard let settings = settings as? Plugin.Settings else { throw SettingsMismatch() }
                return try await route.handle(ClientCall(
                    tenant: parts.tenant, settings: settings, policy: parts.policy, parameters: parts.parameters,
                    headers: parts.headers, services: parts.services, logger: parts.logger))
            }
        }
    }

    public func clientError(for error: RoomError) -> ClientError? { mapError(error) }
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
