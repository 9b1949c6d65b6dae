import Foundation
import Logging
import Metrics
import PostgresNIO

/// The room lifecycle for every plugin. Each transition is one transaction:
/// lock the room, ask `RoomLifecycle`, write the room, an audit event, the
/// plugin hook's work and its outbox entries, then wake the outbox
/// dispatcher. Provider calls whose answer is needed now (opening the IM
/// chatroom, the IM membership check) happen before the transaction opens.
public struct RoomEngine: Sendable {
    public let database: Database
    public let clock: any RoomClock
    public let registry: PluginRegistry
    /// The tenants in force, for the plugin settings hooks receive; nil in
    /// tools that run without tenant files (then hooks get default settings).
    public let tenants: (@Sendable (TenantID) -> Tenant?)
    /// Open-room lists in memory; forgotten here after each commit, so the
    /// instance that made a change lists it at once.
    public let listCache: RoomListCache
    /// Sessions and rooms lately seen, guessed from by creates and
    /// dissolves that check them in their own statement (`SessionCache`).
    let sessions: SessionCache
    let recentRooms: RecentRooms
    /// Each room's writers of this instance, one transaction at a time (#41).
    let writeQueue = RoomWriteQueue()
    /// A room's joins, batched (#41).
    let joinQueue = RoomJoinQueue()
    let sharedAnswers = SharedAnswers()
    /// Draws a room id (from the system's CSPRNG); tests draw their own.
    let drawRoomID: @Sendable () -> RoomID

    public init(database: Database, clock: any RoomClock, registry: PluginRegistry, tenants: @escaping @Sendable (TenantID) -> Tenant?,
                listCache: RoomListCache = RoomListCache(), sessions: SessionCache = SessionCache(), recentRooms: RecentRooms = RecentRooms(),
                drawRoomID: @escaping @Sendable () -> RoomID = { RoomID.random(in: RoomIDs.range) }) {
        self.database = database
        self.listCache = listCache
        self.sessions = sessions
        self.recentRooms = recentRooms
        self.drawRoomID = drawRoomID
        self.clock = clock
        self.registry = registry
        self.tenants = tenants
    }

    public var store: RoomStore { RoomStore(database: database) }

    // MARK: create

    /// Creates a room on every path (client route or admin API): the plugin
    /// checks and shapes it, the engine opens its IM chatroom if the plugin
    /// asks for one, and the room, its audit events and the plugin's rows are
    /// written in one transaction. If that fails, the chatroom is closed again.
    /// `preparation`: a client route's typed creation data; nil, the
    /// plugin decodes `spec.options` (the admin API's).
    public func create(_ spec: NewRoom, in tenant: Tenant, by actor: Actor, preparing preparation: RoomPreparation? = nil) async throws -> Room {
        guard let room = try await create(spec, in: tenant, by: actor, checking: nil, preparing: preparation) else { throw RoomError.notFound }
        return room
    }

    /// With `check`: nil when the check failed (nothing was written) or
    /// when this create cannot be one statement (nothing was tried).
    /// `soleOpen`: the room is its creator's one open room of the plugin
    /// (`rooms_one_open_per_owner`); `OwnerHasOpenRoom` when another is.
    func create(_ spec: NewRoom, in tenant: Tenant, by actor: Actor, checking check: CreatorCheck?, soleOpen: Bool = false,
                preparing preparation: RoomPreparation? = nil) async throws -> Room? {
        guard let enabled = tenant.plugin(spec.pluginID) else { throw RoomError.pluginNotEnabled(spec.pluginID) }
        // A route's typed data is its own plugin's (`ClientCall.createRoom(_:creating:of:…)` checks it too).
        if let preparation, preparation.pluginID != spec.pluginID { throw RoomError.pluginNotEnabled(preparation.pluginID) }
        let now = clock.now()
        var spec = spec
        // The plugin sees the TTL in force (its own, or the tenant's policy),
        // and only one in range: headset-live turned an unchecked TTL of
        // 10^13 s into a date whose encoding trapped the process (#27).
        let asked = spec.ttlSeconds ?? enabled.policy.ttlSeconds
        guard RoomLifecycle.ttlRange.contains(asked) else { throw RoomError.invalid(field: "ttlSeconds", reason: RoomLifecycle.ttlRangeText) }
        spec.ttlSeconds = asked
        let creation = try (preparation?.prepare ?? enabled.plugin.prepare)(&spec, now)
        // Lengths in Unicode scalars, as the admin contract states them.
        guard TextRules.fits(spec.name, 1...128), !TextRules.trimmed(spec.name).isEmpty else {
            throw RoomError.invalid(field: "name", reason: "must be 1-128 characters, not only blanks")
        }
        spec.name = TextRules.trimmed(spec.name)
        guard TextRules.fits(spec.owner, 1...128) else { throw RoomError.invalid(field: "owner", reason: "must be 1-128 characters") }
        let ttl = spec.ttlSeconds ?? enabled.policy.ttlSeconds
        guard RoomLifecycle.ttlRange.contains(ttl) else { throw RoomError.invalid(field: "ttlSeconds", reason: RoomLifecycle.ttlRangeText) }
        let capacity = spec.capacity ?? enabled.policy.capacity
        guard (1...1_000_000).contains(capacity) else { throw RoomError.invalid(field: "capacity", reason: "must be between 1 and 1000000") }

        // A drawn id is checked by the primary key (and the IM chatroom's own
        // key), not by a query first: a collision, one in millions, draws again.
        let drawsID = spec.id == nil
        for attempt in 1... {
            do {
                return try await create(spec, creation: creation, enabled: enabled, tenant: tenant, by: actor, capacity: capacity, ttl: ttl, now: now,
                                        checking: check, soleOpen: soleOpen)
            } catch let error as RoomIDTaken where drawsID && attempt < 8 {
                database.logger.info("drawn room id was taken; drawing again", metadata: ["id": "\(error.id)"])
            } catch is RoomIDTaken {
                throw RoomError.invalid(field: "id", reason: "room id is taken")
            }
        }
        fatalError("unreachable")
    }

    private func create(_ spec: NewRoom, creation: PreparedCreation, enabled: EnabledPlugin, tenant: Tenant, by actor: Actor, capacity: Int, ttl: Int, now: Date,
                        checking check: CreatorCheck?, soleOpen: Bool) async throws -> Room? {
        var spec = spec
        // A chatroom kept in this database is written by the room's own
        // statement; a vendor's is opened first (its id may become the room's).
        let inDatabase = tenant.chatroomsInRoomDatabase.flatMap { chatrooms -> (any ChatroomsInRoomDatabase)? in
            guard case .perRoom = enabled.plugin.chatroom, spec.imChatroomID == nil else { return nil }
            return chatrooms
        }
        // A guess is only worth one statement: not a vendor's chatroom opened on it.
        if check != nil, inDatabase == nil, case .perRoom = enabled.plugin.chatroom, spec.imChatroomID == nil { return nil }
        let chatroom = inDatabase == nil ? try await openChatroom(&spec, plugin: enabled.plugin, tenant: tenant) : nil
        if spec.id == nil { spec.id = drawRoomID() }
        if inDatabase != nil { spec.imChatroomID = spec.id.map(String.init) }
        let firstRows = try creation.firstRows(spec)
        // One statement when nothing needs a transaction around it: no
        // limits to count under a lock, no creation hook, no audit row.
        let oneStatement = firstRows != nil && !enabled.policy.limitsRooms && actor != .admin
        if check != nil, !oneStatement { return nil }
        var birth = RoomBirth(spec: spec, tenantID: tenant.id, capacity: capacity, now: now, expiresAt: now.addingTimeInterval(TimeInterval(ttl)),
                              actor: actor, firstRows: firstRows, chatrooms: inDatabase, webhooks: tenant.webhooks)
        birth.creatorCheck = check
        birth.soleOpen = soleOpen
        do {
            let room: Room
            var bornVersion: Int64?
            if oneStatement {
                // No row: the guess was wrong, or the owner is banned from the tenant.
                let born: PostgresRow? = try await commitStatement { statement in
                    guard let born = try await statement.run(birth.query, writing: [], listed: true).first else { return nil }
                    statement.ledger.record(RoomTransition(.created), [try RoomRows.decode(born)])
                    return born
                }
                guard let born else {
                    if check != nil { return nil }
                    throw RoomError.banned
                }
                room = try RoomRows.decode(born)
                bornVersion = try born.makeRandomAccess()[17].decode(Int64.self)
            } else {
                room = try await commit(.transaction) { writes in
                    try await writes.checkRoomLimits(tenant.id, pluginID: spec.pluginID, owner: spec.owner, policy: enabled.policy, now: now)
                    guard let born = try await writes.connection.run(birth.query, logger: database.logger).collect().first else { throw RoomError.banned }
                    let room = try RoomRows.decode(born)
                    writes.ledger.record(RoomTransition(.created), [room])
                    if firstRows == nil {
                        let parts = HookParts(writes: writes, tenantID: tenant.id, now: now, actor: actor, logger: database.logger)
                        try await writes.enqueue(try await creation.created(room, parts), tenantID: tenant.id, now: now)
                    }
                    if actor == .admin {
                        try await writes.audit(AuditAct(tenantID: tenant.id, action: .roomCreate, target: "room:\(room.id)",
                                                        detail: ["plugin": room.pluginID, "owner": room.owner, "name": room.name]), by: actor, now: now)
                    }
                    return room
                }
            }
            if let bornVersion { recentRooms.remember(room, version: bornVersion, joinedCount: spec.ownerJoins ? 1 : 0) }
            return room
        } catch {
            if let chatroom {
                try? await tenant.im.closeChatroom(chatroom, operator: spec.owner, notifyExt: nil)
            }
            if let taken = error as? PSQLError, taken.serverInfo?[.sqlState] == "23505" {
                switch taken.serverInfo?[.constraintName] {
                case "rooms_pkey", "im_chatrooms_pkey": throw RoomIDTaken(id: spec.id ?? 0)
                // A guess found wrong writes nothing: the create goes the long way.
                case "rooms_one_open_per_owner": if check != nil { return nil } else { throw OwnerHasOpenRoom() }
                default: break
                }
            }
            throw error
        }
    }

    /// A plugin whose rooms have an IM chatroom gets one with the room's id
    /// (the shipped apps enter it by the room id). A provider that picks its
    /// own numeric ids (NetEase) gives the room its chatroom's id.
    private func openChatroom(_ spec: inout NewRoom, plugin: BoundPlugin, tenant: Tenant) async throws -> String? {
        guard case .perRoom = plugin.chatroom, spec.imChatroomID == nil else { return nil }
        let roomID = spec.id ?? drawRoomID()
        let chatroom: String
        do {
            chatroom = try await tenant.im.createChatroom(name: spec.name, creator: spec.owner, id: String(roomID))
        } catch IMError.rejected(_, 409, _) {
            throw RoomIDTaken(id: roomID)
        }
        spec.id = Int64(chatroom).flatMap { $0 > 0 ? $0 : nil } ?? roomID
        spec.imChatroomID = chatroom
        return chatroom
    }

    /// Room ids are random (from the system's CSPRNG), so they cannot be
    /// enumerated or guessed from one another: nine or ten digits, below 2^31,
    /// as the shipped apps hold room ids in 32-bit integers.
    struct RoomIDTaken: Error {
        let id: RoomID
    }

    /// A `soleOpen` create lost to another open room of its creator,
    /// committed after the create read the creator's rooms.
    struct OwnerHasOpenRoom: Error {}

    // MARK: transitions on one room

    public typealias JoinOutcome = RoomKit.JoinOutcome

    /// The account leaves; `actor` is someone else when they take it out (a
    /// host's kick that does not ban), and plugins see who in the hook.
    public func leave(_ roomID: RoomID, account: AccountID, by actor: Actor? = nil, in tenant: Tenant, pluginID: String?) async throws {
        let actor = actor ?? .account(account)
        _ = try await transition(roomID, in: tenant, pluginID: pluginID, account: account, actor: actor, .leave(account)) { writes, room, _, hook in
            try await writes.removeMember(room, account, status: .left, wasJoined: true, now: hook.now)
            try await writes.event(room, kind: .left, actor: actor, detail: ["account": account], at: hook.now)
            return try await hook.plugin.left(account, room, hook.parts)
        }
    }

    public func reserve(_ roomID: RoomID, for accounts: [AccountID], until: Date, onLapse: LapseAction, by actor: Actor, in tenant: Tenant, pluginID: String?) async throws -> Room {
        try await transition(roomID, in: tenant, pluginID: pluginID, account: nil, .reserve(accounts, until: until, onLapse: onLapse, by: actor)) { writes, room, decision, hook in
            guard case .reserve(let reservation) = decision else { return [] }
            try await writes.reserve(room, reservation)
            try await writes.event(room, kind: .reserved, actor: actor, detail: ["accounts": accounts.joined(separator: ","), "onLapse": onLapse.rawValue], at: hook.now)
            return []
        }
    }

    /// Closes the room by the one close path the sweeper also takes: without
    /// a lock when its plugin's closing needs no hook and no audit row is
    /// written with it (`dissolveUnlocked`), else in a transaction.
    public func dissolve(_ roomID: RoomID, by actor: Actor, in tenant: Tenant, pluginID: String?) async throws -> Room {
        if actor != .admin, let closed = try await dissolveUnlocked(roomID, by: .actor(actor), in: tenant, pluginID: pluginID) { return closed }
        return try await transition(roomID, in: tenant, pluginID: pluginID, account: nil, .dissolve(by: actor)) { writes, room, _, hook in
            // The close writes its side effects itself, in its own statement.
            try await self.closeRooms([room], reason: .dissolved, actor: actor, writes: writes, now: hook.now)
            if actor == .admin {
                try await writes.audit(AuditAct(tenantID: tenant.id, action: .roomDissolve, target: "room:\(room.id)"), by: actor, now: hook.now)
            }
            return []
        }
    }

    public func extend(_ roomID: RoomID, bySeconds seconds: Int, by actor: Actor, in tenant: Tenant, pluginID: String?) async throws -> Room {
        try await transition(roomID, in: tenant, pluginID: pluginID, account: nil, .extend(seconds: seconds, by: actor)) { writes, room, decision, hook in
            guard case .extend(let expiry) = decision else { return [] }
            try await writes.extend(room, to: expiry)
            let until = ISO8601DateFormatter().string(from: expiry)
            try await writes.event(room, kind: .extended, actor: actor, detail: ["expiresAt": until], at: hook.now)
            if actor == .admin {
                try await writes.audit(AuditAct(tenantID: tenant.id, action: .roomExtend, target: "room:\(room.id)",
                                                detail: ["seconds": String(seconds), "expiresAt": until]), by: actor, now: hook.now)
            }
            return []
        }
    }

    // MARK: machinery

    struct Hook {
        let plugin: BoundPlugin
        let parts: HookParts
        let snapshot: RoomLifecycle.Snapshot
        var now: Date { parts.now }
    }

    /// Lock, decide, apply, enqueue: one transaction, which may carry other
    /// writers of the room queued meanwhile (`RoomWriteQueue`).
    /// Returns the room as it is after. `counted`: the event kind the write
    /// is, when the decision alone does not say (a kick and a ban are both
    /// the lifecycle's `.ban`; the metrics say which, as the timeline does).
    func transition(
        _ roomID: RoomID, in tenant: Tenant, pluginID: String?, account: AccountID?, actor: Actor? = nil, _ command: RoomLifecycle.Command,
        counted: RoomEventKind? = nil,
        apply: (RoomWrites, Room, RoomLifecycle.Transition, Hook) async throws -> [OutboxMessage]
    ) async throws -> Room {
        let now = clock.now()
        return try await commit(.queued(.init(tenant: tenant.id, room: roomID))) { writes in
            guard let snapshot = try await writes.lockSnapshot(tenant.id, roomID, account: account, now: now),
                  pluginID == nil || snapshot.room.pluginID == pluginID else { throw RoomError.notFound }
            let decision = try RoomLifecycle.decide(command, on: snapshot, now: now).get()
            let parts = HookParts(writes: writes, tenantID: snapshot.room.tenantID, now: now, actor: actor ?? Self.actor(of: command), logger: database.logger)
            let hook = Hook(plugin: try plugin(snapshot.room.tenantID, snapshot.room.pluginID), parts: parts, snapshot: snapshot)
            let messages = try await apply(writes, snapshot.room, decision, hook)
            try await writes.enqueue(messages, tenantID: tenant.id, now: now)
            let room = Self.room(snapshot.room, after: decision, now: now)
            if let transition = counted.map(RoomTransition.init) ?? Self.counted(decision) { writes.ledger.record(transition, [room]) }
            return room
        }
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

    /// The tenant's bound plugin; a plugin the tenant no longer enables still
    /// gets its default settings, so its rooms close cleanly.
    func plugin(_ tenantID: TenantID, _ pluginID: String) throws -> BoundPlugin {
        if let enabled = tenants(tenantID)?.plugin(pluginID) { return enabled.plugin }
        guard let plugin = registry[pluginID] else { throw RoomError.pluginNotEnabled(pluginID) }
        return plugin.boundToDefaults()
    }

    func imMembership(_ roomID: RoomID, account: AccountID, in tenant: Tenant, pluginID: String?) async throws -> Bool? {
        // No IM check, nothing to read first: the transition finds the room
        // (a hot room's joins read it twice, #41).
        if let pluginID, let policy = tenant.plugin(pluginID)?.policy, !policy.joinRequiresIM { return nil }
        guard let room = try await store.room(tenant.id, roomID), pluginID == nil || room.pluginID == pluginID else { throw RoomError.notFound }
        guard let policy = tenant.plugin(room.pluginID)?.policy, policy.joinRequiresIM, room.isOpen else { return nil }
        guard let chatroom = room.imChatroomID else { return false }
        return try await tenant.im.isMember(account, of: chatroom)
    }

    /// Who asks for `command` when the caller does not say.
    static func actor(of command: RoomLifecycle.Command) -> Actor {
        switch command {
        case .join(let account, _), .leave(let account): .account(account)
        case .ban(_, let actor), .reserve(_, _, _, let actor), .dissolve(let actor), .extend(_, let actor): actor
        case .expire, .lapse: .system
        }
    }

    /// A decision as the timeline names it; nil when nothing changed.
    static func counted(_ transition: RoomLifecycle.Transition) -> RoomTransition? {
        switch transition {
        case .join: RoomTransition(.joined)
        case .alreadyJoined, .nothing: nil
        case .leave: RoomTransition(.left)
        case .ban: RoomTransition(.banned)
        case .reserve: RoomTransition(.reserved)
        case .close(let reason): .closed(reason)
        case .releaseReservation: RoomTransition(.reservationLapsed)
        case .extend: RoomTransition(.extended)
        }
    }

    static let transitions = TransitionCounter()
}

/// Where room ids are drawn from.
public enum RoomIDs {
    public static let range: ClosedRange<RoomID> = 100_000_000...2_147_483_647
}
