import Foundation
import PostgresNIO

/// Mutes the member cannot lift (#29, item 3): the account stays in the room
/// but its chatroom texts are refused until the mute ends or is lifted
/// (`lift`), whatever it does itself. One rule, `roomkeeper_muted`, is asked
/// by the local IM's texts; vendor IMs get their own member mute.
extension RoomEngine {
    public func mute(_ roomID: RoomID, account: AccountID, until: Date?, reason: String, by actor: Actor,
                     in tenant: Tenant, pluginID: String?) async throws -> Ban {
        let now = clock.now()
        if let until, until <= now { throw RoomError.invalid(field: "durationSeconds", reason: "must end in the future") }
        // Decided, then written once; a mute over one in force, or a plugin without a `muting`, in a transaction.
        if let mute = try await muteOnce(roomID, account: account, terms: BanTerms(until: until, reason: reason), by: actor,
                                         in: tenant, pluginID: pluginID) {
            return mute
        }
        guard let room = try await store.room(tenant.id, roomID), pluginID == nil || room.pluginID == pluginID else { throw RoomError.notFound }
        guard room.isOpen else { throw RoomError.closed }
        return try await commit(.transaction) { writes in
            // Locked, its version bumped: a seat change decided on an earlier
            // read decides again, seeing the mute the plugin records.
            guard let room = try await writes.lockRoomBumpingVersion(tenant.id, room.id), room.isOpen else { throw RoomError.closed }
            let mute = try await BanStore.insert(tenant.id, kind: .mute, accid: account, roomID: room.id, reason: reason, expiresAt: until,
                                                 by: actor, now: now, on: writes.connection, logger: database.logger)
            var detail = ["account": account, "reason": reason, "mute": String(mute.id)]
            if let until { detail["until"] = ISO8601DateFormatter().string(from: until) }
            try await writes.event(room, kind: .muted, actor: actor, detail: detail, at: now)
            try await writes.enqueue(Self.chatroomMute(of: account, in: room, until: until, now: now), tenantID: tenant.id, now: now)
            try await writes.audit(AuditAct(tenantID: tenant.id, action: .memberMute, target: "room:\(room.id)/account:\(account)",
                                            detail: Self.auditDetail(of: mute)), by: actor, now: now)
            try await writes.enqueue(try await mutedHook(account, mutedBy: actor, room: room, actor: actor, writes: writes, now: now),
                                     tenantID: tenant.id, now: now)
            return mute
        }
    }

    /// The plugin's `memberMuted` on this transaction.
    func mutedHook(_ account: AccountID, mutedBy: Actor?, room: Room, actor: Actor, writes: RoomWrites, now: Date) async throws -> [OutboxMessage] {
        let parts = HookParts(writes: writes, tenantID: room.tenantID, now: now, actor: actor, logger: database.logger)
        return try await plugin(room.tenantID, room.pluginID).muted(account, mutedBy, room, parts)
    }

    /// Is `account` muted in the room now (its seat shows it muted, whatever
    /// its own switch says)?
    public func isMuted(_ roomID: RoomID, account: AccountID, in tenant: Tenant) async throws -> Bool {
        try await BanStore(database: database).isMuted(tenant.id, accid: account, roomID: roomID, now: clock.now())
    }
}
