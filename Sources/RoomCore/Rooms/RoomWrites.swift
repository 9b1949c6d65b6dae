import Foundation
import Logging
import PostgresNIO

/// The SQL of each transition, run on the engine's open transaction
/// (`RoomEngine.commit`). Each write of a room tells the commit's ledger.
extension RoomWrites {
    /// The room row locked for this transaction, with what the lifecycle
    /// needs. The lock is taken in a statement of its own: under READ
    /// COMMITTED a statement that waited for the lock re-reads the locked row
    /// but not its subqueries, so the membership is read by the next
    /// statement, which sees every commit made before the lock was granted.
    func lockSnapshot(_ tenantID: TenantID, _ roomID: RoomID, account: AccountID?, now: Date) async throws -> RoomLifecycle.Snapshot? {
        guard let (room, joinedCount) = try await lockedRow(tenantID, roomID, account: account) else { return nil }
        var status: MemberStatus?
        if let account {
            // Banned is what `roomkeeper_banned` says now (#29), whatever the
            // membership row says: a ban that ended lets the account back in.
            let members = try await connection.run("""
                SELECT (SELECT status FROM room_members WHERE tenant_id = \(tenantID) AND room_id = \(roomID) AND accid = \(account)),
                       roomkeeper_banned(\(tenantID), \(account), \(roomID), \(now))
                """, logger: logger).collect()
            if let (stored, banned) = try members.decode((String?, Bool).self).first {
                status = Self.memberStatus(stored: stored, banned: banned)
            }
        }
        return RoomLifecycle.Snapshot(room: room, joinedCount: joinedCount, memberStatus: status)
    }

    /// The room row locked for a plugin's change of its own rows, its
    /// version bumped in the same statement: a change decided on an earlier
    /// read (`RoomEngine.change`) then finds the version moved and decides
    /// again, instead of overwriting what this transaction wrote.
    func lockRoomBumpingVersion(_ tenantID: TenantID, _ roomID: RoomID) async throws -> Room? {
        try await bumpingVersion("""
            UPDATE rooms SET version = version + 1 WHERE tenant_id = \(tenantID) AND room_id = \(roomID)
            RETURNING \(unescaped: RoomRows.columns)
            """)
    }

    /// The room of ban (or mute) `banID`, locked and its version bumped as
    /// `lockRoomBumpingVersion` does, before anything locks the ban's row:
    /// nil for a tenant's ban (or a room retention deleted).
    func lockRoomOfBanBumpingVersion(_ tenantID: TenantID, banID: Int64) async throws -> Room? {
        try await bumpingVersion("""
            UPDATE rooms SET version = version + 1
            WHERE tenant_id = \(tenantID) AND room_id = (SELECT room_id FROM bans WHERE tenant_id = \(tenantID) AND ban_id = \(banID))
            RETURNING \(unescaped: RoomRows.columns)
            """)
    }

    /// Runs a version bump of at most one room and records it in the ledger.
    private func bumpingVersion(_ update: PostgresQuery) async throws -> Room? {
        let room = try await connection.run(update, logger: logger).collect().first.map(RoomRows.decode)
        ledger.touch(room.map { [$0] } ?? [], listed: false)
        return room
    }

    /// With `account`, the statement also takes that account's lock, shared
    /// (`AccountLock`): a tenant ban holds it exclusively until it commits,
    /// so the next statement either runs after the ban and sees it, or the
    /// ban waits for this transaction and then finds what it joined. (SQL
    /// may call the lock without an account too: a shared lock of nobody.)
    private func lockedRow(_ tenantID: TenantID, _ roomID: RoomID, account: AccountID?) async throws -> (room: Room, joinedCount: Int)? {
        let rows = try await connection.run("""
            SELECT \(unescaped: RoomRows.columns), joined_count,
                   \(account != nil) AND pg_advisory_xact_lock_shared(\(AccountLock.key(tenantID, account ?? ""))) IS NULL
            FROM rooms WHERE tenant_id = \(tenantID) AND room_id = \(roomID) FOR UPDATE
            """, logger: logger).collect()
        guard let row = rows.first else { return nil }
        return (try RoomRows.decode(row), try row.makeRandomAccess()["joined_count"].decode(Int.self))
    }

    /// Which of `accounts` are joined members of the room now.
    func joined(_ room: Room, among accounts: [AccountID]) async throws -> Set<AccountID> {
        guard !accounts.isEmpty else { return [] }
        let rows = try await connection.run("""
            SELECT accid FROM room_members
            WHERE tenant_id = \(room.tenantID) AND room_id = \(room.id) AND status = 'joined' AND accid = ANY(\(accounts))
            """, logger: logger).collect()
        return Set(try rows.decode(String.self))
    }

    /// The room's whole attributes, under its lock (`mutate`): what a
    /// plugin changed of its typed `Attributes`.
    func setAttributes(_ room: Room, text: String) async throws {
        try await connection.run("""
            UPDATE rooms SET attributes = \(text)::jsonb, version = version + 1
            WHERE tenant_id = \(room.tenantID) AND room_id = \(room.id)
            """, logger: logger)
        // A list shows the attributes (SealMic's `bgId`).
        ledger.touch([room], listed: true)
    }

    /// Refuses a create beyond the policy's live rooms of the plugin in the
    /// tenant, or of one owner. Creates of one tenant and plugin wait for each
    /// other here (an advisory lock held to commit), so concurrent creates
    /// cannot pass either limit.
    func checkRoomLimits(_ tenantID: TenantID, pluginID: String, owner: AccountID, policy: RoomPolicy, now: Date) async throws {
        guard policy.limitsRooms else { return }
        try await connection.run("SELECT pg_advisory_xact_lock(hashtext(\(tenantID + "/" + pluginID + "/rooms")))", logger: logger)
        let rows = try await connection.run("""
            SELECT count(*)::int, count(*) FILTER (WHERE owner = \(owner))::int FROM rooms
            WHERE tenant_id = \(tenantID) AND plugin_id = \(pluginID) AND state = 'open' AND expires_at > \(now)
            """, logger: logger).collect()
        guard let (all, owned) = try rows.decode((Int, Int).self).first else { return }
        if let limit = policy.maxRooms, all >= limit { throw RoomError.tooManyRooms(limit: limit) }
        if let limit = policy.maxRoomsPerOwner, owned >= limit { throw RoomError.tooManyRoomsForOwner(limit: limit) }
    }

    /// Banned is what `roomkeeper_banned` says now (#29), whatever the
    /// membership row says: a ban that ended lets the account back in.
    private static func memberStatus(stored: String?, banned: Bool) -> MemberStatus? {
        banned ? .banned : stored.flatMap(MemberStatus.init(rawValue:)).map { $0 == .banned ? .left : $0 }
    }

    /// The room row locked for a batch of joins, each account's lock taken
    /// shared in the same statement (as `lockedRow` does for one); then, in
    /// a statement of its own (so it reads what the locks waited for), each
    /// account's membership: banned is what `roomkeeper_banned` says now.
    func lockForJoins(_ tenantID: TenantID, _ roomID: RoomID, accounts: [AccountID], now: Date)
        async throws -> (room: Room, joinedCount: Int, statuses: [AccountID: MemberStatus])? {
        let distinct = Array(Set(accounts)).sorted()
        let rows = try await connection.run("""
            SELECT \(unescaped: RoomRows.columns), joined_count,
                   (SELECT count(pg_advisory_xact_lock_shared(k)) FROM unnest(\(distinct.map { AccountLock.key(tenantID, $0) })::bigint[]) AS k)
            FROM rooms WHERE tenant_id = \(tenantID) AND room_id = \(roomID) FOR UPDATE
            """, logger: logger).collect()
        guard let row = rows.first else { return nil }
        let room = try RoomRows.decode(row)
        let joinedCount = try row.makeRandomAccess()["joined_count"].decode(Int.self)
        let members = try await connection.run("""
            SELECT a, (SELECT status FROM room_members WHERE tenant_id = \(tenantID) AND room_id = \(roomID) AND accid = a),
                   roomkeeper_banned(\(tenantID), a, \(roomID), \(now))
            FROM unnest(\(distinct)::text[]) AS a
            """, logger: logger).collect()
        var statuses: [AccountID: MemberStatus] = [:]
        for (account, stored, banned) in try members.decode((String, String?, Bool).self) {
            if let status = Self.memberStatus(stored: stored, banned: banned) { statuses[account] = status }
        }
        return (room, joinedCount, statuses)
    }

    /// The admitted joins of a batch, in order: their member rows, the
    /// room's counts and their `joined` events, in one statement.
    func joins(_ room: Room, _ joined: [(account: AccountID, role: String)], claimsReservation: Bool, now: Date) async throws {
        let details = joined.map { JSONValue.object(["role": .string($0.role), "account": .string($0.account)]).jsonText }
        try await connection.run("""
            WITH members AS (
                INSERT INTO room_members (tenant_id, room_id, accid, role, status, joined_at, updated_at)
                SELECT \(room.tenantID), \(room.id), a, r, 'joined', \(now), \(now)
                FROM unnest(\(joined.map(\.account))::text[], \(joined.map(\.role))::text[]) AS u(a, r)
                ON CONFLICT (tenant_id, room_id, accid)
                DO UPDATE SET status = 'joined', role = EXCLUDED.role, joined_at = EXCLUDED.joined_at, updated_at = EXCLUDED.updated_at
            ), counts AS (
                UPDATE rooms SET joined_count = joined_count + \(joined.count), version = version + 1,
                       total_joins = total_joins + \(joined.count), peak_members = greatest(peak_members, joined_count + \(joined.count)),
                       reservation_claimed_at = CASE WHEN \(claimsReservation) THEN \(now) ELSE reservation_claimed_at END
                WHERE tenant_id = \(room.tenantID) AND room_id = \(room.id)
            )
            INSERT INTO room_events (tenant_id, room_id, at, kind, actor, detail)
            SELECT \(room.tenantID), \(room.id), \(now), \(RoomEventKind.joined.stored), a, d::jsonb
            FROM unnest(\(joined.map { Actor.account($0.account).description })::text[], \(details)::text[]) WITH ORDINALITY AS u(a, d, n)
            ORDER BY n
            """, logger: logger)
        ledger.record(RoomTransition(.joined), Array(repeating: room, count: joined.count))
    }

    func removeMember(_ room: Room, _ account: AccountID, status: MemberStatus, wasJoined: Bool, now: Date) async throws {
        ledger.touch([room], listed: wasJoined)
        try await connection.run("""
            INSERT INTO room_members (tenant_id, room_id, accid, status, joined_at, updated_at)
            VALUES (\(room.tenantID), \(room.id), \(account), \(status.rawValue), \(now), \(now))
            ON CONFLICT (tenant_id, room_id, accid) DO UPDATE SET status = EXCLUDED.status, updated_at = EXCLUDED.updated_at
            """, logger: logger)
        if wasJoined {
            try await connection.run("""
                UPDATE rooms SET joined_count = joined_count - 1, version = version + 1
                WHERE tenant_id = \(room.tenantID) AND room_id = \(room.id)
                """, logger: logger)
        }
    }

    /// Closes a batch of rooms and writes their audit events and `effects`
    /// (each tenant's side effects, in order) in one statement: the sweeper
    /// closes a thousand at once; dissolve, one. Returns whether it queued any.
    @discardableResult
    func close(_ rooms: [Room], reason: CloseReason, actor: Actor, now: Date, effects: [(tenantID: TenantID, messages: [OutboxMessage])]) async throws -> Bool {
        let close = RoomClose(rooms: rooms, reason: reason, actor: actor, now: now, effects: effects, webhooks: webhooks)
        try await connection.run(close.lockedQuery, logger: logger)
        ledger.touch(rooms, listed: true)
        try await close.outbox.writeTimeline(at: now, on: connection, logger: logger)
        return !close.outbox.isEmpty
    }

    func releaseReservations(_ rooms: [Room]) async throws {
        guard !rooms.isEmpty else { return }
        try await connection.run("""
            -- cross-tenant: a sweep releases its batch of reservations, of any tenants, in one statement
            UPDATE rooms r SET reserved_for = NULL, reserved_until = NULL, reservation_claimed_at = NULL, version = r.version + 1
            FROM unnest(\(rooms.map(\.tenantID))::text[], \(rooms.map(\.id))::bigint[]) AS u(t, id)
            WHERE r.tenant_id = u.t AND r.room_id = u.id
            """, logger: logger)
        ledger.touch(rooms, listed: true)
    }

    func reserve(_ room: Room, _ reservation: Reservation) async throws {
        try await connection.run("""
            UPDATE rooms SET reserved_for = \(reservation.accounts), reserved_until = \(reservation.until),
                   reservation_claimed_at = NULL, lapse_action = \(reservation.onLapse.rawValue), version = version + 1
            WHERE tenant_id = \(room.tenantID) AND room_id = \(room.id)
            """, logger: logger)
        ledger.touch([room], listed: true)
    }

    func extend(_ room: Room, to expiry: Date) async throws {
        try await connection.run("""
            UPDATE rooms SET expires_at = \(expiry), version = version + 1
            WHERE tenant_id = \(room.tenantID) AND room_id = \(room.id)
            """, logger: logger)
        ledger.touch([room], listed: true)
    }

    func event(_ room: Room, kind: RoomEventKind, actor: Actor, detail: [String: String] = [:], at: Date) async throws {
        try await connection.run("""
            INSERT INTO room_events (tenant_id, room_id, at, kind, actor, detail)
            VALUES (\(room.tenantID), \(room.id), \(at), \(kind.stored), \(actor.description), \(JSONValue.object(detail.mapValues(JSONValue.string)).jsonText)::jsonb)
            """, logger: logger)
        try await publish([room], kind: kind, actor: actor, detail: detail, at: at)
    }

    /// One multi-row insert for a batch of rooms (the sweeper closes hundreds at once).
    func events(_ rooms: [Room], kind: RoomEventKind, actor: Actor, detail: [String: String], at: Date) async throws {
        guard !rooms.isEmpty else { return }
        try await connection.run("""
            -- cross-tenant: a sweep records its batch's events, of any tenants, in one statement
            INSERT INTO room_events (tenant_id, room_id, at, kind, actor, detail)
            SELECT t, r, \(at), \(kind.stored), \(actor.description), \(JSONValue.object(detail.mapValues(JSONValue.string)).jsonText)::jsonb
            FROM unnest(\(rooms.map(\.tenantID))::text[], \(rooms.map(\.id))::bigint[]) AS u(t, r)
            """, logger: logger)
        try await publish(rooms, kind: kind, actor: actor, detail: detail, at: at)
    }

    /// The webhook entries of an engine event on `rooms`, to be queued.
    func engineEventDeliveries(_ rooms: [Room], kind: RoomEventKind, actor: Actor, detail: [String: String], at: Date) -> [OutboxMessage] {
        let places = rooms.map { EventNotice.Place(tenantID: $0.tenantID, roomID: $0.id, pluginID: $0.pluginID) }
        return EventNotice.engineEvent(places, kind: kind, actor: actor, detail: detail, at: at, webhooks: webhooks).flatMap(\.messages)
    }

    /// Writes the webhook entries of an engine event on `rooms`.
    private func publish(_ rooms: [Room], kind: RoomEventKind, actor: Actor, detail: [String: String], at: Date) async throws {
        let places = rooms.map { EventNotice.Place(tenantID: $0.tenantID, roomID: $0.id, pluginID: $0.pluginID) }
        for (tenantID, messages) in EventNotice.engineEvent(places, kind: kind, actor: actor, detail: detail, at: at, webhooks: webhooks) {
            try await OutboxStore.enqueue(messages, tenantID: tenantID, webhooks: webhooks(tenantID), now: at, on: connection, logger: logger)
        }
    }

    func enqueue(_ messages: [OutboxMessage], tenantID: TenantID, now: Date) async throws {
        try await OutboxStore.enqueue(messages, tenantID: tenantID, webhooks: webhooks(tenantID), now: now, on: connection, logger: logger)
    }

    /// Queues `room`'s side effects, its chatroom's applied by this statement
    /// when `chatrooms` keeps them in this database and nothing of the room
    /// waits in its IM lane (as a seat move's are, `ChatroomEffectsInStatement`).
    /// Why for joins: ops/bench figure 7 queued one chatroom message a join,
    /// each delivered by its own claim, write and mark, and the claims scanned
    /// the room's whole backlog: 370 joins/s, 590 with the messages applied here.
    /// Returns the effects applied here, to count once the transaction commits.
    func enqueue(_ messages: [OutboxMessage], on room: Room, chatrooms: (any ChatroomsInRoomDatabase)?, now: Date) async throws
        -> ChatroomEffectsInStatement? {
        var rest = messages
        guard let inStatement = ChatroomEffectsInStatement.take(from: &rest, room: room, chatrooms: chatrooms, now: now) else {
            try await enqueue(messages, tenantID: room.tenantID, now: now)
            return nil
        }
        var outbox = OutboxRows()
        outbox.add(rest, tenantID: room.tenantID, webhooks: webhooks(room.tenantID), now: now)
        let rows = try await connection.run("""
            WITH go AS (SELECT 1), timeline AS (
                \(timelineInsert: outbox, at: now, onlyIf: "go")
            ), queued AS (
                \(outboxInsert: outbox, at: now, onlyIf: "go")
            )\(chatroomEffects: inStatement, onlyIf: "go", at: now)
            SELECT 1\(chatroomEffectsApplied: inStatement)
            """, logger: logger).collect()
        let applied = try rows.decode((Int, Int).self).first?.1 ?? 0
        return applied > 0 ? inStatement : nil
    }
}
