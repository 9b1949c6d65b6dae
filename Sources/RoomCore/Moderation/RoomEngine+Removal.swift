import Foundation
import PostgresNIO

/// A kick decided then written once (#42), as a seat move is: one read (the
/// room, its version, the plugin's rows, whether the account is joined), a
/// pure decision (`RoomLifecycle.decide`, the plugin's `MemberRemoval`),
/// and one statement guarded by the room's version that writes the
/// membership, the plugin's rows, the event, the audit row and the
/// messages; a racing writer moves the version, and the loser reads and
/// decides again. 3 round trips (the read, the statement, its commit
/// probe) where the transaction was 12 (`KickRoundTripsTests`).
extension RoomEngine {
    enum Removed {
        /// Done; the room as it was read, and the ban made with it.
        case removed(Room, Ban?)
        /// The room's plugin gives no `MemberRemoval` (or a table it does
        /// not own): the kick goes through its transaction.
        case needsTransaction
    }

    /// A kick, or a ban of the account from the room (`keepOut`: a ban
    /// until then, nil for none, as `BanTerms`): a first ban, or one over
    /// the ban in force, weighed without I/O (`BanTerms.over`: the stricter
    /// stands, an admin's replaces).
    /// `audited`: false for the rooms a tenant ban empties (the ban is the act).
    func removeOnce(_ roomID: RoomID, account: AccountID, kind: RoomEventKind = .kicked, keepOut: BanTerms? = nil, reason: String, by actor: Actor,
                    in tenant: Tenant, pluginID: String?, audited: Bool) async throws -> Removed {
        let tables = Self.removalTables(of: tenant)
        for _ in 1...Self.changeAttempts {
            let now = clock.now()
            let read = try await read(roomID, in: tenant, pluginID: pluginID, rows: .byPlugin(tables.mapValues { ($0.name, $0.key) }),
                                      members: [account], caller: nil, now: now, banOf: keepOut == nil ? nil : account)
            guard let room = read.room, pluginID == nil || room.pluginID == pluginID else { throw RoomError.notFound }
            guard let removal = try plugin(room.tenantID, room.pluginID).removal,
                  removal.rows.tableName.map({ tables[room.pluginID]?.name == $0 }) ?? true else { return .needsTransaction }
            let hadJoined = read.joined.contains(account)
            let snapshot = RoomLifecycle.Snapshot(room: room, joinedCount: read.joinedCount, memberStatus: hadJoined ? .joined : nil)
            _ = try RoomLifecycle.decide(.ban(account, by: actor), on: snapshot, now: now).get()
            var ban: Ban?
            let standing = keepOut == nil ? nil : read.roomBan
            if let keepOut {
                // One ended but not yet stamped so: stamped first, then decided again.
                if let standing, !standing.isInForce(at: now) {
                    try await BanStore(database: database).stampEnded(standing, now: now)
                    continue
                }
                guard let id = read.drawnBanID else { return .needsTransaction }
                ban = standing.map { keepOut.over($0, by: actor) } ?? keepOut.ban(id: id, tenantID: tenant.id, accid: account, roomID: room.id, by: actor, now: now)
            }
            let removed = try await commitStatement { [ban] statement in
                let removed = try await writeRemoval(removal.rows, read: read, of: room, account: account, hadJoined: hadJoined, kind: kind, ban: ban,
                                                     over: standing, reason: reason, by: actor, in: tenant, audited: audited, now: now, on: statement)
                if removed { statement.ledger.record(RoomTransition(kind), [room]) }
                return removed
            }
            if removed { return .removed(room, ban) }
            database.logger.debug("a room changed between its read and a kick's write; deciding again", metadata: ["room": "\(roomID)"])
        }
        throw DatabaseUnavailable("the room is changing too often at once; try again")
    }

    /// The tables the tenant's plugins' removals read, by plugin.
    static func removalTables(of tenant: Tenant) -> [String: (name: String, key: String)] {
        decisionTables(of: tenant) { $0.removal?.rows.tableRef }
    }

    /// The table each of the tenant's plugins' decisions reads (`table`), by plugin.
    static func decisionTables(of tenant: Tenant,
                               _ table: (BoundPlugin) -> (name: String, key: String)?) -> [String: (name: String, key: String)] {
        var tables: [String: (name: String, key: String)] = [:]
        for (id, enabled) in tenant.plugins {
            if let ref = table(enabled.plugin) { tables[id] = ref }
        }
        return tables
    }

    private func writeRemoval<Rows: MemberRowsDecision>(_ rows: Rows, read: ChangeRead, of room: Room, account: AccountID, hadJoined: Bool,
                                                       kind: RoomEventKind, ban: Ban?, over standing: Ban?, reason: String, by actor: Actor, in tenant: Tenant,
                                                       audited: Bool, now: Date, on statement: RoomStatement) async throws -> Bool
        where Rows.Subject == MemberRemoval.Leaver {
        let leaver = MemberRemoval.Leaver(account: account, room: room, actor: actor, hadJoined: hadJoined)
        let change = rows.decide(leaver, try read.rows(of: rows.table))
        var detail = ["account": account, "reason": reason, "wasMember": String(hadJoined)]
        if let ban {
            detail["ban"] = String(ban.id)
            if let until = ban.expiresAt { detail["until"] = ISO8601DateFormatter().string(from: until) }
        }
        var effects = change.effects + Self.chatroomRemoval(of: account, from: room, keepOut: ban?.expiresAt, banned: ban != nil, now: now)
        let inStatement = ChatroomEffectsInStatement.take(from: &effects, room: room, chatrooms: tenant.chatroomsInRoomDatabase, now: now)
        var outbox = OutboxRows()
        outbox.addEngineEvent(room, kind: kind, actor: actor, detail: detail, webhooks: tenant.webhooks, now: now)
        outbox.add(effects, tenantID: room.tenantID, webhooks: tenant.webhooks, now: now)
        let audit = !audited ? nil : AuditRow(AuditAct(tenantID: tenant.id, action: kind == .kicked ? .memberKick : .memberBan,
                                                       target: "room:\(room.id)/account:\(account)",
                                                       outcome: hadJoined ? "removed" : "not a member", detail: detail),
                                              by: actor, keep: tenant.retention.audit, now: now)
        // A ban keeps a membership row saying so, joined or not; a kick ends a joined one.
        let status: MemberStatus = ban != nil ? .banned : .left
        let written = try await statement.run("""
            WITH v AS (
                UPDATE rooms SET version = version + 1, joined_count = joined_count - \(hadJoined ? 1 : 0)
                WHERE tenant_id = \(room.tenantID) AND room_id = \(room.id) AND version = \(read.version) AND state = 'open'
                  -- With a ban: the account's ban of the room is still the one read (none, or the one in force).
                  AND (NOT \(ban != nil) OR \(banOf: account, kind: .ban, in: room, isStill: standing, at: now))
                RETURNING tenant_id, room_id, \(now)::timestamptz AS at
            ), member AS (
                INSERT INTO room_members (tenant_id, room_id, accid, status, joined_at, updated_at)
                SELECT v.tenant_id, v.room_id, \(account), \(status.rawValue), \(now), \(now) FROM v WHERE \(hadJoined || ban != nil)
                ON CONFLICT (tenant_id, room_id, accid) DO UPDATE SET status = EXCLUDED.status, updated_at = EXCLUDED.updated_at
            ), ban AS (
                INSERT INTO bans (tenant_id, ban_id, accid, room_id, reason, expires_at, created_at, created_by, kind) OVERRIDING SYSTEM VALUE
                SELECT v.tenant_id, \(ban?.id ?? 0), \(account), v.room_id, \(reason), \(ban?.expiresAt), \(now), \(actor.description), 'ban'
                FROM v WHERE \(ban != nil && standing == nil)
            ), weighed AS (
                -- Over the ban in force: its terms as weighed (`BanTerms.over`), its id kept.
                UPDATE bans SET reason = \(ban?.reason ?? ""), expires_at = \(ban?.expiresAt)
                WHERE tenant_id = \(room.tenantID) AND ban_id = \(standing?.id ?? 0) AND \(standing != nil) AND EXISTS (SELECT 1 FROM v)
            )\(decided: DecidedTail(rows: try RowsUpsert(change.rows, into: rows.table), outbox: outbox, audit: audit, chatroomEffects: inStatement), after: "v", at: now)
            """, writing: [room], listed: hadJoined)
        return try ChatroomEffectsInStatement.applied(written, inStatement)
    }
}

extension MemberRowsDecision {
    var tableName: String? { table?.name }
    var tableRef: (name: String, key: String)? { table.map { ($0.name, $0.key) } }

    /// The decision applied in a transaction: the rows as locked, saved as
    /// decided; returns the messages (a lift, or a mute over one in force).
    func apply(_ subject: Subject, in room: RoomID, tables: PluginTables, now: Date) async throws -> [OutboxMessage] {
        var rows: [Row] = []
        if let table { rows = try await tables.rows(of: table, in: room, locking: true) }
        let change = decide(subject, rows)
        if let table, !change.rows.isEmpty { try await tables.save(change.rows, to: table, in: room, now: now) }
        return change.effects
    }
}
