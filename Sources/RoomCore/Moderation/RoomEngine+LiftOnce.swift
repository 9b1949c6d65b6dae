import Foundation
import PostgresNIO

/// A room's ban or mute lifted, decided then written once (#42), as a first
/// ban or mute is: the ban read by its id, the room read (its version and,
/// for a mute, the plugin's rows), the plugin's `MemberMuting` deciding
/// without I/O, and one statement guarded by the room's version and by the
/// ban not yet lifted, which stamps the lift and writes the event, the
/// chatroom's readmit or unmute, the plugin's rows and messages and the
/// audit row. A racing writer moves the version (every ban, mute and lift
/// does), and the loser reads again. It was a transaction of 7 round trips
/// (the room locked, the lift, the event, the chatroom's effect, the audit
/// row, begin and commit); now 4 (the two reads, the statement and its
/// commit probe; the ban is read first because it names the room).
extension RoomEngine {
    enum LiftOnce {
        /// Lifted now.
        case lifted(Ban)
        /// No ban of the tenant by that id is still in force (nor lifted by this call).
        case none
        /// A mute of a room whose plugin has no `muting`, or a room gone:
        /// the transaction lifts it.
        case needsTransaction
    }

    func liftOnce(_ banID: Int64, by actor: Actor, in tenant: Tenant) async throws -> LiftOnce {
        let tables = Self.decisionTables(of: tenant) { $0.muting?.rows.tableRef }
        for _ in 1...Self.changeAttempts {
            let now = clock.now()
            guard let ban = try await BanStore(database: database).ban(tenant.id, banID), ban.liftedAt == nil else { return .none }
            guard let roomID = ban.roomID else {
                if let lifted = try await liftTenantBanOnce(ban, by: actor, in: tenant) { return .lifted(lifted) }
                continue
            }
            let read = try await read(roomID, in: tenant, pluginID: nil, rows: ban.kind == .mute ? .byPlugin(tables.mapValues { ($0.name, $0.key) }) : .none,
                                      members: [], caller: nil, now: now)
            guard let room = read.room else { return .needsTransaction }
            let plugin = try plugin(room.tenantID, room.pluginID)
            var effects: [OutboxMessage] = []
            var rows = RowsUpsert()
            if room.isOpen {
                if let chatroom = room.imChatroomID {
                    effects.append(.im(ban.kind == .mute ? .unmuteMember(chatroom: chatroom, accid: ban.accid, operator: room.owner)
                                                         : .readmitToChatroom(chatroom: chatroom, accid: ban.accid, operator: room.owner),
                                       roomID: room.id))
                }
                if ban.kind == .mute {
                    guard let muting = plugin.muting, muting.rows.tableName.map({ tables[room.pluginID]?.name == $0 }) ?? true else { return .needsTransaction }
                    let unmuted = try Self.unmuted(ban.accid, in: room, by: actor, read: read, rows: muting.rows)
                    effects += unmuted.effects
                    rows = unmuted.rows
                }
            }
            let written = try await commitStatement { statement in
                try await writeLift(ban, of: room, rows: rows, effects: effects, version: read.version, by: actor, in: tenant, now: now, on: statement)
            }
            if written {
                var lifted = ban
                lifted.liftedAt = now
                lifted.liftedBy = actor.description
                return .lifted(lifted)
            }
            database.logger.debug("a room changed between its read and a lift's write; deciding again", metadata: ["room": "\(roomID)"])
        }
        throw DatabaseUnavailable("the room is changing too often at once; try again")
    }

    /// What the plugin shows of an account no longer muted (`mutedBy` nil).
    private static func unmuted<Rows: MemberRowsDecision>(_ account: AccountID, in room: Room, by actor: Actor, read: ChangeRead,
                                                          rows: Rows) throws -> (rows: RowsUpsert, effects: [OutboxMessage])
        where Rows.Subject == MemberMuting.Muted {
        let change = rows.decide(MemberMuting.Muted(account: account, room: room, mutedBy: nil, actor: actor), try read.rows(of: rows.table))
        return (try RowsUpsert(change.rows, into: rows.table), change.effects)
    }

    private func writeLift(_ ban: Ban, of room: Room, rows: RowsUpsert, effects: [OutboxMessage], version: Int64, by actor: Actor, in tenant: Tenant,
                           now: Date, on statement: RoomStatement) async throws -> Bool {
        let muted = ban.kind == .mute
        var effects = effects
        let inStatement = ChatroomEffectsInStatement.take(from: &effects, room: room, chatrooms: tenant.chatroomsInRoomDatabase, now: now)
        var outbox = OutboxRows()
        outbox.addEngineEvent(room, kind: muted ? .unmuted : .unbanned, actor: actor,
                              detail: ["account": ban.accid, muted ? "mute" : "ban": String(ban.id)], webhooks: tenant.webhooks, now: now)
        outbox.add(effects, tenantID: room.tenantID, webhooks: tenant.webhooks, now: now)
        let audit = AuditRow(AuditAct(tenantID: tenant.id, action: muted ? .memberUnmute : .memberUnban, target: "room:\(room.id)/account:\(ban.accid)",
                                      detail: Self.auditDetail(of: ban)), by: actor, keep: tenant.retention.audit, now: now)
        let written = try await statement.run("""
            WITH v AS (
                UPDATE rooms SET version = version + 1
                WHERE tenant_id = \(room.tenantID) AND room_id = \(room.id) AND version = \(version)
                  -- Not lifted meanwhile (a lift moves the room's version too, but an expiry's stamp does not).
                  AND EXISTS (SELECT 1 FROM bans b WHERE b.tenant_id = \(room.tenantID) AND b.ban_id = \(ban.id) AND b.lifted_at IS NULL)
                RETURNING tenant_id, room_id, \(now)::timestamptz AS at
            ), lifted AS (
                UPDATE bans SET lifted_at = \(now), lifted_by = \(actor.description)
                WHERE tenant_id = \(room.tenantID) AND ban_id = \(ban.id) AND lifted_at IS NULL AND EXISTS (SELECT 1 FROM v)
            )\(decided: DecidedTail(rows: rows, outbox: outbox, audit: audit, chatroomEffects: inStatement), after: "v", at: now)
            """, writing: [room], listed: false)
        return try ChatroomEffectsInStatement.applied(written, inStatement)
    }
}
