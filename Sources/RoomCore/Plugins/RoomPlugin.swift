import Foundation
import Logging

/// A scenario plugin: its wire protocol, its own tables and its rules, as
/// small hooks in the spirit of Colyseus' Room. Everything that touches a
/// room's life (finding it, deciding it is live, locking it, opening and
/// closing its IM chatroom, writing the outbox, waking the dispatcher) is the
/// engine's: a plugin asks `RoomEngine` and returns side effects.
public protocol RoomPlugin: Sendable {
    associatedtype Settings: Sendable

    /// Stable id: URL segment, tenant-file table and schema folder `schema/<id>/`.
    var id: String { get }
    var wire: WireStyle { get }
    var defaultPolicy: RoomPolicy { get }
    /// Whether the engine gives each room an IM chatroom (opened on every
    /// create path, closed on every close path).
    var chatroom: ChatroomPolicy { get }
    /// The webhook event types this plugin emits (`OutboxMessage.event`),
    /// named `<id>.<thing>.<what happened>`: tenants subscribe to them by name.
    var eventTypes: [String] { get }
    /// Rows of the plugin's tables that keep an account in use: the
    /// retention purge never removes a guest they name.
    var accountReferences: [AccountReference] { get }
    /// The plugin's own tables (created by `schema/<id>/`): the only ones
    /// its statements may write, through `PluginTables` (#28, item 1).
    var tables: [String] { get }
    /// The JSON Schema of the creation data (`options`) the admin API takes
    /// for this plugin's rooms: an object whose `properties` are every
    /// option it reads, described exactly as `prepareRoom` checks them
    /// (lengths in Unicode scalars, as JSON Schema counts). The contract
    /// publishes it, and the admin API refuses options it does not name.
    var creationOptions: JSONValue { get }

    /// Reads this plugin's own settings from its table in a tenant file, once,
    /// when tenants load; problems are reported on the reader, never thrown.
    func readSettings(_ reader: SettingsReader) -> Settings

    func routes() -> [ClientRoute<Settings>]

    /// The plugin's wire answer for an engine refusal, or nil for the wire
    /// style's default.
    func clientError(for error: RoomError) -> ClientError?

    /// Checks the creation data and shapes the room before anything is
    /// written or any IM chatroom is opened, on every create path (a client
    /// route or the admin API). Throw `RoomError.invalid(field: "options.…")`
    /// for missing or wrong data: the admin API answers 422 naming it.
    func prepareRoom(_ spec: inout NewRoom, settings: Settings, now: Date) throws

    /// Runs inside the engine's transaction that creates `room`, with the
    /// creation data (`spec.options`): the plugin's own rows are born with the
    /// room, or the room is refused with them.
    func roomCreated(_ room: Room, options: JSONValue, hook: HookContext<Settings>) async throws -> [OutboxMessage]

    /// Runs inside the engine's transaction that closes `closing` (all of this
    /// plugin, one tenant), before the engine closes their IM chatrooms; the
    /// returned side effects are written to the outbox in that transaction.
    func roomsClosing(_ closing: [Room], reason: CloseReason, hook: HookContext<Settings>) async throws -> [OutboxMessage]

    /// Runs inside the join transaction.
    func memberJoined(_ account: AccountID, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage]

    /// Runs inside the leave (or ban) transaction.
    func memberLeft(_ account: AccountID, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage]

    /// Runs inside the transaction that records a verified provider callback
    /// of a tenant that enables the plugin (a stream started or was cut).
    func providerEvent(_ event: ProviderEvent, hook: HookContext<Settings>) async throws -> [OutboxMessage]
}

extension RoomPlugin {
    public var chatroom: ChatroomPolicy { .none }

    public var eventTypes: [String] { [] }

    public var accountReferences: [AccountReference] { [] }

    public var tables: [String] { [] }

    public var creationOptions: JSONValue { .object(["type": "object", "properties": .object([:])]) }

    public func clientError(for error: RoomError) -> ClientError? { nil }

    public func prepareRoom(_ spec: inout NewRoom, settings: Settings, now: Date) throws {}

    public func roomCreated(_ room: Room, options: JSONValue, hook: HookContext<Settings>) async throws -> [OutboxMessage] { [] }

    public func roomsClosing(_ closing: [Room], reason: CloseReason, hook: HookContext<Settings>) async throws -> [OutboxMessage] { [] }

    public func memberJoined(_ account: AccountID, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage] { [] }

    public func memberLeft(_ account: AccountID, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage] { [] }

    public func providerEvent(_ event: ProviderEvent, hook: HookContext<Settings>) async throws -> [OutboxMessage] { [] }
}

/// Which rooms of a plugin have an IM chatroom. The engine owns it: the
/// chatroom's id is the room's (the shipped apps enter it by the room id),
/// and it is closed after the plugin's own closing messages.
public enum ChatroomPolicy: Sendable, Equatable {
    case none
    /// Every room gets one; `closeNotice` is the `notifyExt` its members
    /// receive when it closes.
    case perRoom(closeNotice: String?)
}

/// What a hook may use: the plugin's tables on the engine's open
/// transaction, room deadlines, and the tenant's settings.
public struct HookContext<Settings: Sendable> {
    /// The plugin's own tables, on the transaction of the hook's transition.
    public let tables: PluginTables
    public let tenantID: TenantID
    public let settings: Settings
    public let now: Date
    /// Who asked for the transition (a host taking someone out, the sweeper, …).
    public let actor: Actor
    public let logger: Logger
    /// The engine's room writes a hook may ask for, on the same transaction.
    let rooms: HookRooms
}

/// Room writes the engine offers a hook, on the hook's transaction.
struct HookRooms: Sendable {
    /// Moves an open room's expiry (`RoomDeadline.set`).
    let setDeadline: @Sendable (RoomID, Date, String) async throws -> Void
}
