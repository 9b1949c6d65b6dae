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
        /// Done; the room as it is now.
        case removed(Room)
        /// The room's plugin gives no `MemberRemoval` (or a table it does
        /// not own): the kick goes through its transaction.
        case needsTransaction
    }

    /// A kick without a ban (a ban's terms depend on the ban in force, which
    /// its transaction reads under the room's lock).
    /// `audited`: false for the rooms a tenant ban empties (the ban is the act).
    func removeOnce(_ roomID: RoomID, account: AccountID, reason: String, by actor: Actor, in tenant: Tenant,
                    pluginID: String?, audited: Bool) async throws -> Removed {
        let tables = Self.removalTables(of: tenant)
        for _ in 1...Self.changeAttempts {
            let now = clock.now()
            let read = try await read(roomID, in: tenant, pluginID: pluginID, rows: .byPlugin(tables.mapValues { ($0.name, $0.key) }),
                                      members: [account], caller: nil, now: now)
            guard let room = read.room, pluginID == nil || room.pluginID == pluginID else { throw RoomError.notFound }
            guard let removal = try plugin(room.tenantID, room.pluginID).removal,
                  removal.rows.tableName.map({ tables[room.pluginID]?.name == $0 }) ?? true else { return .needsTransaction }
            let hadJoined = read.joined.contains(account)
            let snapshot = RoomLifecycle.Snapshot(room: room, joinedCount: read.joinedCount, memberStatus: hadJoined ? .joined : nil)
            _ = try RoomLifecycle.decide(.ban(account, by: actor), on: snapshot, now: now).get()
            let removed = try await commitStatement { statement in
                let removed = try await writeRemoval(removal.rows, read: read, of: room, account: account, hadJoined: hadJoined, reason: reason,
                                                     by: actor, in: tenant, audited: audited, now: now, on: statement)
                if removed { statement.ledger.record(RoomTransition(.kicked), [room]) }
                return removed
            }
            if removed { return .removed(room) }
            database.logger.debug("a room changed between its read and a kick's write; deciding again", metadata: ["room": "\(roomID)"])
        }
        throw DatabaseUnavailable("the room is changing too often at once; try again")
    }

    /// The tables the tenant's plugins' removals read, by plugin.
    static func removalTables(of tenant: Tenant) -> [String: (name: String, key: String)] {
        var tables: [String: (name: String, key: String)] = [:]
        for (id, enabled) in tenant.plugins {
            if let rows = enabled.plugin.removal?.rows, let table = rows.tableRef { tables[id] = table }
        }
        return tables
    }

    private func writeRemoval<Rows: MemberRemovalRows>(_ rows: Rows, read: ChangeRead, of room: Room, account: AccountID, hadJoined: Bool,
                                                       reason: String, by actor: Actor, in tenant: Tenant, audited: Bool, now: Date,
                                                       on statement: RoomStatement) async throws -> Bool {
        let leaver = MemberRemoval.Leaver(account: account, room: room, actor: actor, hadJoined: hadJoined)
        let change = rows.decide(leaver, try read.rows(of: rows.table))
        let detail = ["account": account, "reason": reason, "wasMember": String(hadJoined)]
        var effects = change.effects + Self.chatroomRemoval(of: account, from: room, keepOut: nil, banned: false, now: now)
        let inStatement = ChatroomEffectsInStatement.take(from: &effects, room: room, chatrooms: tenant.chatroomsInRoomDatabase, now: now)
        var outbox = OutboxRows()
        outbox.addEngineEvent(room, kind: .kicked, actor: actor, detail: detail, webhooks: tenant.webhooks, now: now)
        outbox.add(effects, tenantID: room.tenantID, webhooks: tenant.webhooks, now: now)
        let audit = !audited ? nil : AuditRow(AuditAct(tenantID: tenant.id, action: .memberKick, target: "room:\(room.id)/account:\(account)",
                                      outcome: hadJoined ? "removed" : "not a member", detail: detail),
                             by: actor, keep: tenant.retention.audit, now: now)
        let written = try await statement.run("""
            WITH v AS (
                UPDATE rooms SET version = version + 1, joined_count = joined_count - \(hadJoined ? 1 : 0)
                WHERE tenant_id = \(room.tenantID) AND room_id = \(room.id) AND version = \(read.version) AND state = 'open'
                RETURNING tenant_id, room_id, \(now)::timestamptz AS at
            ), member AS (
                INSERT INTO room_members (tenant_id, room_id, accid, status, joined_at, updated_at)
                SELECT v.tenant_id, v.room_id, \(account), 'left', \(now), \(now) FROM v WHERE \(hadJoined)
                ON CONFLICT (tenant_id, room_id, accid) DO UPDATE SET status = EXCLUDED.status, updated_at = EXCLUDED.updated_at
            )\(rowsUpsert: try RowsUpsert(change.rows, into: rows.table), from: "v"), timeline AS (
                \(timelineInsert: outbox, at: now, onlyIf: "v")
            ), queued AS (
                \(outboxInsert: outbox, at: now, onlyIf: "v")
            )\(auditCTE: audit, onlyIf: "v")\(chatroomEffects: inStatement, onlyIf: "v", at: now)
            SELECT count(*)::int\(chatroomEffectsApplied: inStatement) FROM v
            """, writing: [room], listed: hadJoined)
        guard let (count, applied) = try written.decode((Int, Int).self).first else { return false }
        if applied > 0 { inStatement?.countApplied() }
        return count == 1
    }
}

extension MemberRemovalRows {
    var tableName: String? { table?.name }
    var tableRef: (name: String, key: String)? { table.map { ($0.name, $0.key) } }
}
