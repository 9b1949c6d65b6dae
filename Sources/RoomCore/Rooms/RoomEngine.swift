import Foundation
import Logging
import Metrics
import PostgresNIO

/// The room lifecycle for every plugin. Each transition is one transaction:
/// lock the room, ask `RoomLifecycle`, write the room, an audit event, the
/// plugin hook's work and its outbox entries. Provider calls whose answer is
/// needed now (the IM membership check) happen before the transaction opens.
public struct RoomEngine: Sendable {
    public let database: Database
    public let clock: any RoomClock
    public let registry: PluginRegistry
    /// The tenants in force, for the plugin settings hooks receive; nil in
    /// tools that run without tenant files (then hooks get default settings).
    public let tenants: (@Sendable (TenantID) -> Tenant?)

    public init(database: Database, clock: any RoomClock, registry: PluginRegistry, tenants: @escaping @Sendable (TenantID) -> Tenant?) {
        self.database = database
        self.clock = clock
        self.registry = registry
        self.tenants = tenants
    }

    public var store: RoomStore { RoomStore(database: database) }

    // MARK: create

    public func create(_ spec: NewRoom, in tenant: Tenant, by actor: Actor) async throws -> Room {
        guard let enabled = tenant.plugin(spec.pluginID) else { throw RoomError.pluginNotEnabled(spec.pluginID) }
        let name = spec.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...128).contains(name.count) else { throw RoomError.invalid(field: "name", reason: "must be 1-128 characters") }
        guard !spec.owner.isEmpty else { throw RoomError.invalid(field: "owner", reason: "is required") }
        let ttl = spec.ttlSeconds ?? enabled.policy.ttlSeconds
        guard ttl > 0 else { throw RoomError.invalid(field: "ttlSeconds", reason: "must be a positive number of seconds") }
        let capacity = spec.capacity ?? enabled.policy.capacity
        guard capacity > 0 else { throw RoomError.invalid(field: "capacity", reason: "must be at least 1") }
        var spec = spec
        spec.name = name
        let now = clock.now()
        let room = try await database.transaction { connection in
            let writes = RoomWrites(connection: connection, logger: database.logger)
            let room = try await writes.insertRoom(spec, tenantID: tenant.id, capacity: capacity, now: now, expiresAt: now.addingTimeInterval(TimeInterval(ttl)))
            try await writes.event(room, kind: "created", actor: actor, detail: ["name": room.name, "owner": room.owner], at: now)
            if let reservation = room.reservation {
                try await writes.event(room, kind: "reserved", actor: actor, detail: ["accounts": reservation.accounts.joined(separator: ",")], at: now)
            }
            if spec.ownerJoins {
                try await writes.join(room, room.owner, role: "owner", claimsReservation: false, now: now)
                try await writes.event(room, kind: "joined", actor: actor, detail: ["role": "owner"], at: now)
            }
            let hook = AnyRoomPlugin.ErasedHook(connection: connection, tenantID: tenant.id, settings: enabled.settings, now: now, actor: actor, logger: database.logger)
            try await writes.enqueue(try await enabled.plugin.created(room, hook), tenantID: tenant.id, now: now)
            return room
        }
        Self.transitions.increment(kind: "created", plugin: room.pluginID)
        return room
    }

    /// A room with an IM chatroom of the same id: the shipped apps enter the
    /// IM chatroom by the room id the server gave them. A provider that picks
    /// its own numeric ids (NetEase) gives the room its chatroom's id. If the
    /// room cannot be created, the chatroom is closed again.
    public func createWithChatroom(_ spec: NewRoom, in tenant: Tenant, by actor: Actor) async throws -> Room {
        var spec = spec
        let roomID = try await allocateRoomID()
        let chatroom = try await tenant.im.createChatroom(name: spec.name, creator: spec.owner, id: String(roomID))
        spec.id = Int64(chatroom).flatMap { $0 > 0 ? $0 : nil } ?? roomID
        spec.imChatroomID = chatroom
        do {
            return try await create(spec, in: tenant, by: actor)
        } catch {
            if let chatroom = spec.imChatroomID {
                try? await tenant.im.closeChatroom(chatroom, operator: spec.owner, notifyExt: nil)
            }
            throw error
        }
    }

    /// Takes a room id before the room exists (see `NewRoom.id`).
    public func allocateRoomID() async throws -> RoomID {
        let rows = try await database.query("SELECT nextval('room_ids')")
        for id in try rows.decode(Int64.self) { return id }
        throw RoomError.invalid(field: "id", reason: "no room id could be allocated")
    }

    // MARK: transitions on one room

    public enum JoinOutcome: Sendable, Equatable {
        case joined(Room)
        case alreadyJoined(Room)

        public var room: Room {
            switch self {
            case .joined(let room), .alreadyJoined(let room): room
            }
        }
    }

    /// `pluginID`: the plugin asking; a room of another plugin is "not found" to it.
    public func join(_ roomID: RoomID, account: AccountID, role: String = "member", in tenant: Tenant, pluginID: String?) async throws -> JoinOutcome {
        let inIMChatroom = try await imMembership(roomID, account: account, in: tenant, pluginID: pluginID)
        var outcome: JoinOutcome?
        _ = try await transition(roomID, in: tenant, pluginID: pluginID, account: account, .join(account, inIMChatroom: inIMChatroom)) { writes, room, decision, hook in
            switch decision {
            case .alreadyJoined:
                outcome = .alreadyJoined(room)
                return []
            case .join(let claims):
                try await writes.join(room, account, role: role, claimsReservation: claims, now: hook.now)
                try await writes.event(room, kind: "joined", actor: .account(account), detail: ["role": role], at: hook.now)
                outcome = .joined(room)
                return try await hook.plugin.joined(account, room, hook.erased)
            default:
                return []
            }
        }
        if let outcome { return outcome }
        return .alreadyJoined(try await requireRoom(roomID, in: tenant, pluginID: pluginID))
    }

    /// The account leaves; `actor` is someone else when they take it out (a
    /// host's kick that does not ban), and plugins see who in the hook.
    public func leave(_ roomID: RoomID, account: AccountID, by actor: Actor? = nil, in tenant: Tenant, pluginID: String?) async throws {
        let actor = actor ?? .account(account)
        _ = try await transition(roomID, in: tenant, pluginID: pluginID, account: account, actor: actor, .leave(account)) { writes, room, _, hook in
            try await writes.removeMember(room, account, status: .left, wasJoined: true, now: hook.now)
            try await writes.event(room, kind: "left", actor: actor, at: hook.now)
            return try await hook.plugin.left(account, room, hook.erased)
        }
    }

    /// Takes the account out of the room and keeps it out.
    public func ban(_ roomID: RoomID, account: AccountID, by actor: Actor, in tenant: Tenant, pluginID: String?) async throws {
        _ = try await transition(roomID, in: tenant, pluginID: pluginID, account: account, .ban(account, by: actor)) { writes, room, _, hook in
            let wasJoined = hook.snapshot.memberStatus == .joined
            try await writes.removeMember(room, account, status: .banned, wasJoined: wasJoined, now: hook.now)
            try await writes.event(room, kind: "banned", actor: actor, detail: ["account": account], at: hook.now)
            return wasJoined ? try await hook.plugin.left(account, room, hook.erased) : []
        }
    }

    public func reserve(_ roomID: RoomID, for accounts: [AccountID], until: Date, onLapse: LapseAction, by actor: Actor, in tenant: Tenant, pluginID: String?) async throws -> Room {
        try await transition(roomID, in: tenant, pluginID: pluginID, account: nil, .reserve(accounts, until: until, onLapse: onLapse, by: actor)) { writes, room, decision, hook in
            guard case .reserve(let reservation) = decision else { return [] }
            try await writes.reserve(room, reservation)
            try await writes.event(room, kind: "reserved", actor: actor, detail: ["accounts": accounts.joined(separator: ","), "onLapse": onLapse.rawValue], at: hook.now)
            return []
        }
    }

    public func dissolve(_ roomID: RoomID, by actor: Actor, in tenant: Tenant, pluginID: String?) async throws -> Room {
        try await transition(roomID, in: tenant, pluginID: pluginID, account: nil, .dissolve(by: actor)) { writes, room, _, hook in
            try await writes.close(room, reason: .dissolved, now: hook.now)
            try await writes.event(room, kind: "closed", actor: actor, detail: ["reason": CloseReason.dissolved.rawValue], at: hook.now)
            return try await hook.plugin.closing([room], .dissolved, hook.erased)
        }
    }

    public func extend(_ roomID: RoomID, bySeconds seconds: Int, by actor: Actor, in tenant: Tenant, pluginID: String?) async throws -> Room {
        try await transition(roomID, in: tenant, pluginID: pluginID, account: nil, .extend(seconds: seconds, by: actor)) { writes, room, decision, hook in
            guard case .extend(let expiry) = decision else { return [] }
            try await writes.extend(room, to: expiry)
            try await writes.event(room, kind: "extended", actor: actor, detail: ["expiresAt": ISO8601DateFormatter().string(from: expiry)], at: hook.now)
            return []
        }
    }

    // MARK: machinery

    struct Hook {
        let plugin: AnyRoomPlugin
        let erased: AnyRoomPlugin.ErasedHook
        let snapshot: RoomLifecycle.Snapshot
        var now: Date { erased.now }
    }

    /// Lock, decide, apply, enqueue: one transaction. Returns the room as it is after.
    private func transition(
        _ roomID: RoomID, in tenant: Tenant, pluginID: String?, account: AccountID?, actor: Actor? = nil, _ command: RoomLifecycle.Command,
        apply: (RoomWrites, Room, RoomLifecycle.Transition, Hook) async throws -> [OutboxMessage]
    ) async throws -> Room {
        let now = clock.now()
        let (kind, room): (String, Room) = try await database.transaction { connection in
            let writes = RoomWrites(connection: connection, logger: database.logger)
            guard let snapshot = try await writes.lockSnapshot(tenant.id, roomID, account: account),
                  pluginID == nil || snapshot.room.pluginID == pluginID else { throw RoomError.notFound }
            let decision = try RoomLifecycle.decide(command, on: snapshot, now: now).get()
            let hook = try hook(for: snapshot, connection: connection, now: now, actor: actor ?? Self.actor(of: command))
            let messages = try await apply(writes, snapshot.room, decision, hook)
            try await writes.enqueue(messages, tenantID: tenant.id, now: now)
            return (Self.name(of: decision), Self.room(snapshot.room, after: decision, now: now))
        }
        if kind != "none" { Self.transitions.increment(kind: kind, plugin: pluginID ?? "admin") }
        return room
    }

    /// The room as a transition leaves it (what the writes above stored), so
    /// callers get it without reading it again.
    static func room(_ room: Room, after transition: RoomLifecycle.Transition, now: Date) -> Room {
        var room = room
        switch transition {
        case .close(let reason):
            room.state = .closed(reason)
            room.closedAt = now
        case .reserve(let reservation): room.reservation = reservation
        case .releaseReservation: room.reservation = nil
        case .extend(let expiry): room.expiresAt = expiry
        case .join(let claims): if claims { room.reservation?.claimedAt = now }
        case .alreadyJoined, .leave, .ban, .nothing: break
        }
        return room
    }

    private func hook(for snapshot: RoomLifecycle.Snapshot, connection: PostgresConnection, now: Date, actor: Actor) throws -> Hook {
        let (plugin, settings) = try pluginAndSettings(snapshot.room.tenantID, snapshot.room.pluginID)
        return Hook(
            plugin: plugin,
            erased: .init(connection: connection, tenantID: snapshot.room.tenantID, settings: settings, now: now, actor: actor, logger: database.logger),
            snapshot: snapshot)
    }

    /// The plugin and the tenant's settings for it; a plugin the tenant no
    /// longer enables still gets its default settings, so its rooms close cleanly.
    func pluginAndSettings(_ tenantID: TenantID, _ pluginID: String) throws -> (AnyRoomPlugin, any Sendable) {
        if let enabled = tenants(tenantID)?.plugin(pluginID) { return (enabled.plugin, enabled.settings) }
        guard let plugin = registry[pluginID] else { throw RoomError.pluginNotEnabled(pluginID) }
        return (plugin, plugin.readSettings(SettingsReader(file: "", path: "", table: [:])))
    }

    private func imMembership(_ roomID: RoomID, account: AccountID, in tenant: Tenant, pluginID: String?) async throws -> Bool? {
        guard let room = try await store.room(tenant.id, roomID), pluginID == nil || room.pluginID == pluginID else { throw RoomError.notFound }
        guard let policy = tenant.plugin(room.pluginID)?.policy, policy.joinRequiresIM, room.isOpen else { return nil }
        guard let chatroom = room.imChatroomID else { return false }
        return try await tenant.im.isMember(account, of: chatroom)
    }

    private func requireRoom(_ roomID: RoomID, in tenant: Tenant, pluginID: String?) async throws -> Room {
        guard let room = try await store.room(tenant.id, roomID), pluginID == nil || room.pluginID == pluginID else { throw RoomError.notFound }
        return room
    }

    /// Who asks for `command` when the caller does not say.
    static func actor(of command: RoomLifecycle.Command) -> Actor {
        switch command {
        case .join(let account, _), .leave(let account): .account(account)
        case .ban(_, let actor), .reserve(_, _, _, let actor), .dissolve(let actor), .extend(_, let actor): actor
        case .expire, .lapse: .system
        }
    }

    static func name(of transition: RoomLifecycle.Transition) -> String {
        switch transition {
        case .join: "joined"
        case .alreadyJoined, .nothing: "none"
        case .leave: "left"
        case .ban: "banned"
        case .reserve: "reserved"
        case .close(let reason): reason.rawValue
        case .releaseReservation: "released"
        case .extend: "extended"
        }
    }

    static let transitions = TransitionCounter()
}

/// `roomkeeper_room_transitions_total{kind, plugin}`.
struct TransitionCounter: Sendable {
    func increment(kind: String, plugin: String, by amount: Int = 1) {
        Counter(label: "roomkeeper_room_transitions_total", dimensions: [("kind", kind), ("plugin", plugin)]).increment(by: amount)
    }
}
