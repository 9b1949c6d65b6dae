import Foundation
import PostgresNIO

/// A room's mute of an account decided, then written once (#42), as a
/// first ban is: one read (the room, its version, the plugin's rows, the
/// account's mute of the room if any, and a new mute's id drawn), the
/// plugin's `MemberMuting` deciding without I/O, and one statement guarded
/// by the room's version and by the account's mute of the room as read:
/// none, or the one in force, whose terms the new ones replace when they
/// are at least as strict or an admin's (`BanTerms.over`). It writes the
/// mute, the plugin's rows, the event, the audit row, the chatroom's member
/// mute and the plugin's messages. A racing writer moves the version
/// (every mute and lift does), and the loser reads again.
extension RoomEngine {
    /// The mute, or nil when it needs the transaction: a plugin without a
    /// `muting`. One over an expired mute not yet stamped so stamps it
    /// ended first (`BanStore.stampEnded`) and decides again.
    func muteOnce(_ roomID: RoomID, account: AccountID, terms: BanTerms, by actor: Actor,
                  in tenant: Tenant, pluginID: String?) async throws -> Ban? {
        let tables = Self.decisionTables(of: tenant) { $0.muting?.rows.tableRef }
        for _ in 1...Self.changeAttempts {
            let now = clock.now()
            let read = try await read(roomID, in: tenant, pluginID: pluginID, rows: .byPlugin(tables.mapValues { ($0.name, $0.key) }),
                                      members: [account], caller: nil, now: now, banOf: account, banKind: .mute)
            guard let room = read.room, pluginID == nil || room.pluginID == pluginID else { throw RoomError.notFound }
            guard room.isOpen else { throw RoomError.closed }
            guard let muting = try plugin(room.tenantID, room.pluginID).muting,
                  muting.rows.tableName.map({ tables[room.pluginID]?.name == $0 }) ?? true,
                  let id = read.drawnBanID else { return nil }
            let standing = read.roomBan
            if let standing, !standing.isInForce(at: now) {
                try await BanStore(database: database).stampEnded(standing, now: now)
                continue
            }
            let mute = standing.map { terms.over($0, by: actor) }
                ?? terms.ban(kind: .mute, id: id, tenantID: tenant.id, accid: account, roomID: room.id, by: actor, now: now)
            let written = try await commitStatement { statement in
                try await writeMute(mute, over: standing, rows: muting.rows, read: read, of: room, by: actor, in: tenant, now: now, on: statement)
            }
            if written { return mute }
            database.logger.debug("a room changed between its read and a mute's write; deciding again", metadata: ["room": "\(roomID)"])
        }
        throw DatabaseUnavailable("the room is changing too often at once; try again")
    }

    /// `standing`: the mute in force as read, which `mute` weighed (nil: the first).
    private func writeMute<Rows: MemberRowsDecision>(_ mute: Ban, over standing: Ban?, rows: Rows, read: ChangeRead, of room: Room, by actor: Actor,
                                                     in tenant: Tenant, now: Date, on statement: RoomStatement) async throws -> Bool
        where Rows.Subject == MemberMuting.Muted {
        let account = mute.accid
        let change = rows.decide(MemberMuting.Muted(account: account, room: room, mutedBy: actor, actor: actor), try read.rows(of: rows.table))
        var detail = ["account": account, "reason": mute.reason, "mute": String(mute.id)]
        if let until = mute.expiresAt { detail["until"] = ISO8601DateFormatter().string(from: until) }
        // In the transaction's order: the chatroom's mute, then what the plugin shows.
        var effects = Self.chatroomMute(of: account, in: room, until: mute.expiresAt, now: now) + change.effects
        let inStatement = ChatroomEffectsInStatement.take(from: &effects, room: room, chatrooms: tenant.chatroomsInRoomDatabase, now: now)
        var outbox = OutboxRows()
        outbox.addEngineEvent(room, kind: .muted, actor: actor, detail: detail, webhooks: tenant.webhooks, now: now)
        outbox.add(effects, tenantID: room.tenantID, webhooks: tenant.webhooks, now: now)
        let audit = AuditRow(AuditAct(tenantID: tenant.id, action: .memberMute, target: "room:\(room.id)/account:\(account)",
                                      detail: Self.auditDetail(of: mute)), by: actor, keep: tenant.retention.audit, now: now)
        let written = try await statement.run("""
            WITH v AS (
                UPDATE rooms SET version = version + 1
                WHERE tenant_id = \(room.tenantID) AND room_id = \(room.id) AND version = \(read.version) AND state = 'open'
                  -- The account's mute of the room is still the one read: none, or the one in force.
                  AND \(banOf: account, kind: .mute, in: room, isStill: standing, at: now)
                RETURNING tenant_id, room_id, \(now)::timestamptz AS at
            ), mute AS (
                INSERT INTO bans (tenant_id, ban_id, accid, room_id, reason, expires_at, created_at, created_by, kind) OVERRIDING SYSTEM VALUE
                SELECT v.tenant_id, \(mute.id), \(account), v.room_id, \(mute.reason), \(mute.expiresAt), \(now), \(actor.description), 'mute'
                FROM v WHERE \(standing == nil)
            ), weighed AS (
                -- Over the mute in force: its terms as weighed (`BanTerms.over`), its id kept.
                UPDATE bans SET reason = \(mute.reason), expires_at = \(mute.expiresAt)
                WHERE tenant_id = \(room.tenantID) AND ban_id = \(standing?.id ?? 0) AND \(standing != nil) AND EXISTS (SELECT 1 FROM v)
            )\(decided: DecidedTail(rows: try RowsUpsert(change.rows, into: rows.table), outbox: outbox, audit: audit, chatroomEffects: inStatement), after: "v", at: now)
            """, writing: [room], listed: false)
        return try ChatroomEffectsInStatement.applied(written, inStatement)
    }

    /// The chatroom's own mute of the account (a vendor's minutes, rounded up).
    static func chatroomMute(of account: AccountID, in room: Room, until: Date?, now: Date) -> [OutboxMessage] {
        guard let chatroom = room.imChatroomID else { return [] }
        let minutes = until.map { max(1, Int(($0.timeIntervalSince(now) / 60).rounded(.up))) }
        return [.im(.muteMember(chatroom: chatroom, accid: account, operator: room.owner, minutes: minutes), roomID: room.id)]
    }
}
