import Foundation
import Logging
import PostgresNIO

/// A scenario plugin: small explicit hooks in the spirit of Colyseus' Room
/// and Nakama's match handler. The engine owns the lifecycle; a plugin adds
/// its wire protocol, its own tables and side effects of transitions.
public protocol RoomPlugin: Sendable {
    associatedtype Settings: Sendable

    /// Stable id: URL segment, tenant-file table and schema folder `schema/<id>/`.
    var id: String { get }
    var wire: WireStyle { get }
    var defaultPolicy: RoomPolicy { get }

    /// Reads this plugin's own settings from its table in a tenant file;
    /// problems are reported on the reader, never thrown.
    func readSettings(_ reader: SettingsReader) -> Settings

    func routes() -> [ClientRoute<Settings>]

    /// The plugin's wire answer for an engine refusal, or nil for the wire
    /// style's default.
    func clientError(for error: RoomError) -> ClientError?

    /// Runs inside the engine's transaction that creates `room` (the plugin's
    /// own rows for it are born with it).
    func roomCreated(_ room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage]

    /// Runs inside the engine's transaction that closes `rooms` (all of this
    /// plugin, one tenant); the returned side effects are written to the
    /// outbox in the same transaction.
    func roomsClosing(_ rooms: [Room], reason: CloseReason, hook: HookContext<Settings>) async throws -> [OutboxMessage]

    /// Runs inside the join transaction.
    func memberJoined(_ account: AccountID, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage]

    /// Runs inside the leave (or ban) transaction.
    func memberLeft(_ account: AccountID, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage]

    /// Runs inside the transaction that records a verified provider callback
    /// of a tenant that enables the plugin (a stream started or was cut).
    func providerEvent(_ event: ProviderEvent, hook: HookContext<Settings>) async throws -> [OutboxMessage]
}

extension RoomPlugin {
    public func clientError(for error: RoomError) -> ClientError? { nil }

    public func roomCreated(_ room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage] { [] }

    public func roomsClosing(_ rooms: [Room], reason: CloseReason, hook: HookContext<Settings>) async throws -> [OutboxMessage] { [] }

    public func memberJoined(_ account: AccountID, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage] { [] }

    public func memberLeft(_ account: AccountID, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage] { [] }

    public func providerEvent(_ event: ProviderEvent, hook: HookContext<Settings>) async throws -> [OutboxMessage] { [] }
}

/// What a hook may use: the engine's open transaction and the tenant's settings.
public struct HookContext<Settings: Sendable> {
    public let connection: PostgresConnection
    public let tenantID: TenantID
    public let settings: Settings
    public let now: Date
    /// Who asked for the transition (a host taking someone out, the sweeper, …).
    public let actor: Actor
    public let logger: Logger
}
