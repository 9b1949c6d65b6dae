import Foundation
import Logging

/// A scenario plugin: its wire protocol, its own tables and its rules, as
/// small hooks in the spirit of Colyseus' Room. Everything that touches a
/// room's life (finding it, deciding it is live, locking it, opening and
/// closing its IM chatroom, writing the outbox, waking the dispatcher) is the
/// engine's: a plugin asks `RoomEngine` and returns side effects.
public protocol RoomPlugin: Sendable {
    associatedtype Settings: Sendable
    /// The creation data of one room (#28, item 4): given typed by a client
    /// route, or decoded once from the admin API's `options`
    /// (`creation(from:)`); checked by `prepareRoom`, then handed typed to
    /// `firstRows` or `roomCreated`: nothing parses it twice.
    associatedtype Creation: Sendable = NoCreation
    /// What the plugin keeps on each room (its picture, its type), set by
    /// `prepareRoom` (`spec.setAttributes`) and read typed
    /// (`room.attributes(as:)`); the list cache holds it decoded.
    associatedtype Attributes: Codable & Sendable = NoAttributes

    /// Stable id: URL segment, tenant-file table and schema folder `schema/<id>/`.
    var id: String { get }
    var wire: WireProtocol { get }
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

    /// Who may stand for a caller on this plugin's routes (`ClientCall.caller()`):
    /// a live session (the default), or also an account's id for shipped
    /// apps that send it instead (`.sessionOrAccid`).
    func callerRule(settings: Settings) -> CallerRule

    /// The plugin's wire answer for an engine refusal, or nil for the wire
    /// style's default.
    func clientError(for error: RoomError) -> ClientError?

    /// Decodes the admin API's creation data (`options`, already checked
    /// against `creationOptions`) into the plugin's `Creation`. Only the
    /// admin API's JSON is decoded: a client route hands its `Creation`
    /// typed (`ClientCall.createRoom(_:creating:of:…)`, #42 item 3). Throw
    /// `RoomError.invalidOptions(field: "options.…")` for missing or wrong
    /// data: the admin API answers 422 naming it.
    func creation(from options: JSONValue) throws -> Creation

    /// Checks the creation data and shapes the room (its TTL, reservation,
    /// attributes) before anything is written or any IM chatroom is opened,
    /// on every create path, whether a route gave the data typed or the
    /// admin API's options were decoded. It may complete `creation` with
    /// what the room's shape decides (a deadline from the TTL in force).
    func prepareRoom(_ spec: inout NewRoom, creation: inout Creation, settings: Settings, now: Date) throws

    /// Runs inside the engine's transaction that creates `room`, with its
    /// creation data: the plugin's own rows are born with the room, or the
    /// room is refused with them.
    func roomCreated(_ room: Room, creation: Creation, hook: HookContext<Settings>) async throws -> [OutboxMessage]

    /// The rows a room is born with, decided without I/O from the prepared
    /// room (`spec.id` is the room's) and its creation data: the engine
    /// writes them in the room's own create statement, and `roomCreated` is
    /// not called. nil (the default): `roomCreated` runs in the create's
    /// transaction instead, for a plugin whose creation reads or refuses
    /// under a unique index.
    func firstRows(of spec: NewRoom, creation: Creation, settings: Settings) -> FirstRows?

    /// The messages closing `closing` sends, decided without I/O: the engine
    /// writes them in the close's own statement, and `roomsClosing` is not
    /// called. nil (the default): `roomsClosing` runs in the close's
    /// transaction instead, for a plugin whose rows change when a room ends.
    func closingMessages(_ closing: [Room], reason: CloseReason, settings: Settings) -> [OutboxMessage]?

    /// Runs inside the engine's transaction that closes `closing` (all of this
    /// plugin, one tenant), before the engine closes their IM chatrooms; the
    /// returned side effects are written to the outbox in that transaction.
    func roomsClosing(_ closing: [Room], reason: CloseReason, hook: HookContext<Settings>) async throws -> [OutboxMessage]

    /// Runs inside the join transaction.
    func memberJoined(_ account: AccountID, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage]

    /// Runs inside the leave (or ban) transaction.
    func memberLeft(_ account: AccountID, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage]

    /// Runs inside a kick's or ban's transaction (#29), after `memberLeft`
    /// when the account had joined, and whether or not it had: an account
    /// can hold what the plugin keeps (a seat applied for from the IM
    /// chatroom) without joining. Free it; `hook.actor` took it out.
    func memberRemoved(_ account: AccountID, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage]

    /// What a kick or ban does to the plugin's rows and what the room hears,
    /// decided without I/O (`MemberRemoval`): the engine writes it in the
    /// kick's one statement, and `memberLeft`/`memberRemoved` are not called
    /// for it. nil (the default): they run in the kick's transaction.
    func removal(settings: Settings) -> MemberRemoval?

    /// What a moderator's mute or its lift shows on the plugin's rows,
    /// decided without I/O (`MemberMuting`): a room's first mute of an
    /// account is then written in one statement, and `memberMuted` is not
    /// called. nil (the default): `memberMuted` runs in the transaction.
    func muting(settings: Settings) -> MemberMuting?

    /// Runs inside a mute's transaction (`mutedBy` the moderator) or its
    /// lift's (`mutedBy` nil): show it on what the account holds (a seat
    /// stays muted whatever its own switch says).
    func memberMuted(_ account: AccountID, mutedBy: Actor?, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage]

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

    public func callerRule(settings: Settings) -> CallerRule { .session }

    public func prepareRoom(_ spec: inout NewRoom, creation: inout Creation, settings: Settings, now: Date) throws {}

    public func roomCreated(_ room: Room, creation: Creation, hook: HookContext<Settings>) async throws -> [OutboxMessage] { [] }

    public func roomsClosing(_ closing: [Room], reason: CloseReason, hook: HookContext<Settings>) async throws -> [OutboxMessage] { [] }

    public func firstRows(of spec: NewRoom, creation: Creation, settings: Settings) -> FirstRows? { nil }

    public func closingMessages(_ closing: [Room], reason: CloseReason, settings: Settings) -> [OutboxMessage]? { nil }

    public func memberJoined(_ account: AccountID, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage] { [] }

    public func memberLeft(_ account: AccountID, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage] { [] }

    public func memberRemoved(_ account: AccountID, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage] { [] }

    public func memberMuted(_ account: AccountID, mutedBy: Actor?, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage] { [] }

    public func removal(settings: Settings) -> MemberRemoval? { nil }

    public func muting(settings: Settings) -> MemberMuting? { nil }

    public func providerEvent(_ event: ProviderEvent, hook: HookContext<Settings>) async throws -> [OutboxMessage] { [] }
}

extension RoomPlugin where Creation == NoCreation {
    /// A plugin whose rooms take no creation data.
    public func creation(from options: JSONValue) throws -> NoCreation { NoCreation() }
}

/// The creation data of a plugin whose rooms take none.
public struct NoCreation: Sendable, Equatable {
    public init() {}
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
    /// The engine's write of a room's expiry, on the same transaction (`RoomDeadline.set`).
    let setDeadline: @Sendable (RoomID, Date, String) async throws -> Void

    /// Made by the engine for each hook call.
    public init(tables: PluginTables, tenantID: TenantID, settings: Settings, now: Date, actor: Actor, logger: Logger,
                setDeadline: @escaping @Sendable (RoomID, Date, String) async throws -> Void) {
        self.tables = tables
        self.tenantID = tenantID
        self.settings = settings
        self.now = now
        self.actor = actor
        self.logger = logger
        self.setDeadline = setDeadline
    }
}

/// Moves an open room's expiry inside a plugin hook's transaction (a live
/// room idles towards an early expiry until its stream starts), with an
/// audit event. The sweeper then expires it as any other room.
public enum RoomDeadline {
    /// `expiry` is kept between now and the longest TTL from now: a date a
    /// plugin derived from input can be anything, and one PostgreSQL's
    /// timestamp cannot hold traps the process when it is encoded (#27).
    public static func set<Settings>(_ roomID: RoomID, to expiry: Date, reason: String, hook: HookContext<Settings>) async throws {
        try await hook.setDeadline(roomID, StorableDate.clamped(expiry, from: hook.now), reason)
    }
}

/// A live room locked for one plugin change: the plugin's statements run
/// on `tables`, in the lock's transaction; side effects are emitted here and
/// written by the engine.
public final class RoomTransaction {
    /// The room as locked, live (its attributes as this transaction left them).
    public private(set) var room: Room
    /// The plugin's own tables, in this transaction.
    public let tables: PluginTables
    public let now: Date
    public let logger: Logger
    private let writes: any RoomTransactionWrites
    /// What the plugin emitted, for the engine to write to the outbox.
    public private(set) var effects: [OutboxMessage] = []

    /// Made by the engine once it holds the room's lock.
    public init(room: Room, tables: PluginTables, now: Date, logger: Logger, writes: any RoomTransactionWrites) {
        self.room = room
        self.tables = tables
        self.now = now
        self.logger = logger
        self.writes = writes
    }

    public func emit(_ messages: [OutboxMessage]) {
        effects += messages
    }

    public func emit(_ message: OutboxMessage) {
        effects.append(message)
    }

    /// Which of `accounts` are joined members now (read under the room's lock).
    public func joined(among accounts: [AccountID]) async throws -> Set<AccountID> {
        try await writes.joined(room, among: accounts)
    }

    /// Changes the room's attributes as `plugin`'s typed `Attributes`
    /// (#42 item 3: never an untyped patch): read as locked, changed by
    /// `change`, written whole in this transaction; lists show it at once.
    /// The engine refuses a value its plugin's own type cannot read.
    public func updateAttributes<Plugin: RoomPlugin>(of plugin: Plugin.Type, _ change: (inout Plugin.Attributes) throws -> Void) async throws {
        guard var value = room.attributes(as: Plugin.Attributes.self) else {
            throw RoomAttributesUnreadable(room: room.id, type: "\(Plugin.Attributes.self)")
        }
        try change(&value)
        let text = try AttributeCoding.encode(value)
        try await writes.setAttributes(room, text: text)
        room.attributes = text
    }
}

/// The engine's room reads and writes inside a `RoomTransaction`.
public protocol RoomTransactionWrites {
    func joined(_ room: Room, among accounts: [AccountID]) async throws -> Set<AccountID>
    /// Writes the room's whole attributes (`text`, a JSON object).
    func setAttributes(_ room: Room, text: String) async throws
}

/// A room's stored attributes are not the plugin's `Attributes` (written
/// before a field without a default was added): a defect, answered as an
/// internal error rather than overwritten.
public struct RoomAttributesUnreadable: Error, CustomStringConvertible {
    public let room: RoomID
    public let type: String
    public var description: String { "room \(room)'s attributes do not decode as \(type)" }
}
