import Foundation
import Logging
import PostgresNIO

/// Moderation that sticks (#29): a kick takes an account out of a room and,
/// with a duration, keeps it out until then; a ban keeps it out of one room
/// or of every room of its tenant until it expires or is lifted. What keeps
/// it out is one rule, `roomkeeper_banned`, which every door asks in its own
/// statement: a join (`RoomWrites.lockSnapshot`), a change's caller (a seat
/// apply), a new session, the local IM's login and chatroom enter.
extension RoomEngine {
    /// Takes `account` out of the room (its membership ends, the plugin's
    /// leave hook frees its seat and tells the room) and, when `seconds` is
    /// given, bans it from the room for that long, in one transaction. The
    /// room's host or the admin API may.
    @discardableResult
    public func kick(_ roomID: RoomID, account: AccountID, forSeconds seconds: Int?, reason: String, by actor: Actor,
                     in tenant: Tenant, pluginID: String?) async throws -> Ban? {
        try await remove(roomID, account: account, kind: .kicked, until: seconds.map { clock.now().addingTimeInterval(TimeInterval($0)) },
                         banned: seconds != nil, reason: reason, by: actor, in: tenant, pluginID: pluginID)
    }

    /// Takes `account` out of the room and keeps it out until `until` (nil:
    /// until lifted).
    @discardableResult
    public func ban(_ roomID: RoomID, account: AccountID, until: Date? = nil, reason: String = "", by actor: Actor,
                    in tenant: Tenant, pluginID: String?) async throws -> Ban {
        guard let ban = try await remove(roomID, account: account, kind: .banned, until: until, banned: true, reason: reason, by: actor,
                                         in: tenant, pluginID: pluginID) else { throw RoomError.notFound }
        return ban
    }

    /// `audited`: false for the rooms a tenant ban empties (the ban is the act).
    private func remove(_ roomID: RoomID, account: AccountID, kind: RoomEventKind, until: Date?, banned: Bool, reason: String, by actor: Actor,
                        in tenant: Tenant, pluginID: String?, audited: Bool = true) async throws -> Ban? {
        if let until, until <= clock.now() { throw RoomError.invalid(field: "durationSeconds", reason: "must end in the future") }
        // Decided, then written once (3 round trips); a ban over one in force, or a plugin without a `removal`, in a transaction.
        if case .removed(_, let ban) = try await removeOnce(roomID, account: account, kind: kind,
                                                             keepOut: banned ? BanTerms(until: until, reason: reason) : nil, reason: reason,
                                                             by: actor, in: tenant, pluginID: pluginID, audited: audited) {
            return ban
        }
        let recorded = BanBox()
        _ = try await transition(roomID, in: tenant, pluginID: pluginID, account: account, .ban(account, by: actor), counted: kind) { writes, room, _, hook in
            // The stored membership, not the snapshot's status, which says
            // "banned" for a joined member a tenant ban now covers.
            let wasJoined = try await writes.joined(room, among: [account]).contains(account)
            if wasJoined || banned {
                try await writes.removeMember(room, account, status: banned ? .banned : .left, wasJoined: wasJoined, now: hook.now)
            }
            // Whether it had joined: the usage rollup counts a member leaving (#30).
            var detail = ["account": account, "reason": reason, "wasMember": String(wasJoined)]
            if banned {
                let ban = try await BanStore.insert(tenant.id, accid: account, roomID: room.id, reason: reason, expiresAt: until, by: actor,
                                                    now: hook.now, on: writes.connection, logger: database.logger)
                recorded.ban = ban
                detail["ban"] = String(ban.id)
                // The ban in force: a stricter one already there stands (BanStore.insert).
                if let until = ban.expiresAt { detail["until"] = ISO8601DateFormatter().string(from: until) }
            }
            try await writes.event(room, kind: kind, actor: actor, detail: detail, at: hook.now)
            // A host's kick is as privileged as an admin's: both are audited.
            if audited {
                try await writes.audit(AuditAct(tenantID: tenant.id, action: kind == .kicked ? .memberKick : .memberBan,
                                                target: "room:\(room.id)/account:\(account)", outcome: wasJoined ? "removed" : "not a member",
                                                detail: detail), by: actor, now: hook.now)
            }
            let left = wasJoined ? try await hook.plugin.left(account, room, hook.parts) : []
            // What the plugin keeps for the account changes: a change decided
            // on an earlier read must decide again (a leave bumped it already).
            if !wasJoined { _ = try await writes.lockRoomBumpingVersion(tenant.id, room.id) }
            let removed = try await hook.plugin.removed(account, room, hook.parts)
            return left + removed + Self.chatroomRemoval(of: account, from: room, keepOut: banned ? until : nil, banned: banned, now: hook.now)
        }
        return recorded.ban
    }

    /// The room's IM chatroom loses the account too, on its provider, through
    /// the outbox (a vendor that is away gets it when it is back): joined or
    /// not, it may have entered the chatroom first. A ban, and a kick with a
    /// duration (a ban that ends), ask the provider to keep it out as well:
    /// until lifted, or for the minutes it lasts (a provider without an end
    /// of its own is readmitted when it ends, `readmitDue`).
    static func chatroomRemoval(of account: AccountID, from room: Room, keepOut until: Date?, banned: Bool, now: Date) -> [OutboxMessage] {
        guard let chatroom = room.imChatroomID, room.isOpen else { return [] }
        let keepOut: ChatroomKeepOut? = until.map { .minutes(max(1, Int(($0.timeIntervalSince(now) / 60).rounded(.up)))) }
            ?? (banned ? .untilReadmitted : nil)
        return [.im(.removeFromChatroom(chatroom: chatroom, accid: account, operator: room.owner, keepOut: keepOut), roomID: room.id)]
    }

    /// Keeps `account` out of every room of the tenant until `until` (nil:
    /// until lifted): its sessions and IM tokens end now (its sockets
    /// close), and no new session, IM token or join is granted meanwhile.
    ///
    /// Once the ban is committed, the open rooms the account had joined
    /// take it out too (its seat freed, the room told, `member.kicked`), one
    /// room at a time; a room that closes meanwhile is skipped, and one that
    /// cannot be reached keeps the membership, which the ban's revoked
    /// sessions make useless (README, Moderation). The open rooms the
    /// account owns are dissolved (#41: they stayed listed, their names often
    /// the reason for the ban), dissolved by whoever banned it.
    public func banFromTenant(_ account: AccountID, until: Date? = nil, reason: String = "", by actor: Actor, in tenant: Tenant) async throws -> Ban {
        let ban = try await insertTenantBan(account, until: until, reason: reason, by: actor, in: tenant)
        for roomID in try await store.joinedOpenRooms(tenant.id, account: account) {
            do {
                _ = try await remove(roomID, account: account, kind: .kicked, until: nil, banned: false, reason: "banned from the tenant",
                                     by: actor, in: tenant, pluginID: nil, audited: false)
            } catch let error as RoomError {
                database.logger.info("a tenant ban's room was not emptied", metadata: ["room": "\(roomID)", "reason": "\(error)"])
            }
        }
        for roomID in try await store.ownedOpenRooms(tenant.id, account: account) {
            do {
                _ = try await dissolve(roomID, by: actor, in: tenant, pluginID: nil)
            } catch let error as RoomError {
                database.logger.info("a tenant ban's own room was not dissolved", metadata: ["room": "\(roomID)", "reason": "\(error)"])
            }
        }
        return ban
    }

    private func insertTenantBan(_ account: AccountID, until: Date?, reason: String, by actor: Actor, in tenant: Tenant) async throws -> Ban {
        let now = clock.now()
        if let until, until <= now { throw RoomError.invalid(field: "durationSeconds", reason: "must end in the future") }
        return try await tenantBanOnce(account, terms: BanTerms(until: until, reason: reason), by: actor, in: tenant)
    }

    /// What the audit row of a ban or unban says of it.
    static func auditDetail(of ban: Ban) -> [String: String] {
        var detail = ["ban": String(ban.id), "reason": ban.reason]
        if let until = ban.expiresAt { detail["until"] = ISO8601DateFormatter().string(from: until) }
        return detail
    }

    /// A tenant-wide ban's event, on the tenant's own timeline (#30: "every
    /// room lifecycle and member event" is in the feed, and no room owns
    /// this one), and its webhook deliveries.
    static func tenantWideEvent(_ kind: RoomEventKind, _ ban: Ban, actor: Actor, tenant: Tenant, now: Date) -> OutboxRows {
        var detail: [String: JSONValue] = ["account": .string(ban.accid), "ban": .number(Double(ban.id)), "reason": .string(ban.reason)]
        if let until = ban.expiresAt { detail["until"] = .string(ISO8601DateFormatter().string(from: until)) }
        var rows = OutboxRows()
        rows.addTenantEvent(kind, tenantID: tenant.id, actor: actor, detail: detail, webhooks: tenant.webhooks, now: now)
        return rows
    }

    /// Lifts a room or tenant ban, or a mute, of this tenant; nil when there
    /// is none in force by that id. The room's timeline (for a room's ban or
    /// mute) says so, and the room's chatroom readmits or unmutes the account.
    public func lift(_ banID: Int64, by actor: Actor, in tenant: Tenant) async throws -> Ban? {
        // Decided, then written once (a room's: 4 round trips; a tenant's: 3); a mute whose plugin has no `muting`, or a room gone, in a transaction.
        switch try await liftOnce(banID, by: actor, in: tenant) {
        case .lifted(let ban): return ban
        case .none: return nil
        case .needsTransaction: break
        }
        let now = clock.now()
        return try await commit(.transaction) { writes in
            let connection = writes.connection
            // The ban's room (a ban outlives its room's close), locked before
            // the ban's row, as every write holding both takes them (a ban
            // over one in force locks the room, then upserts the ban): taken
            // the other way, a lift racing such a ban deadlocked, and
            // PostgreSQL failed one of them (LiftRaceTests). Its version is
            // bumped: its timeline is written in commit order (the event
            // feed's room order), and a racing seat change decides again.
            let locked = try await writes.lockRoomOfBanBumpingVersion(tenant.id, banID: banID)
            guard let ban = try await BanStore.liftOfRoom(tenant.id, banID, by: actor, now: now, on: connection, logger: database.logger),
                  let roomID = ban.roomID else { return nil }
            let muted = ban.kind == .mute
            if let room = locked {
                try await writes.event(room, kind: muted ? .unmuted : .unbanned, actor: actor,
                                       detail: ["account": ban.accid, muted ? "mute" : "ban": String(ban.id)], at: now)
                if let chatroom = room.imChatroomID, room.isOpen {
                    let effect: IMEffect = muted ? .unmuteMember(chatroom: chatroom, accid: ban.accid, operator: room.owner)
                                                 : .readmitToChatroom(chatroom: chatroom, accid: ban.accid, operator: room.owner)
                    try await writes.enqueue([.im(effect, roomID: room.id)], tenantID: tenant.id, now: now)
                }
                if muted, room.isOpen {
                    try await writes.enqueue(try await mutedHook(ban.accid, mutedBy: nil, room: room, actor: actor, writes: writes, now: now),
                                             tenantID: tenant.id, now: now)
                }
            }
            try await writes.audit(AuditAct(tenantID: tenant.id, action: muted ? .memberUnmute : .memberUnban, target: "room:\(roomID)/account:\(ban.accid)",
                                            detail: Self.auditDetail(of: ban)),
                                   by: actor, now: now)
            return ban
        }
    }
}

/// Carries the ban a transition's closure recorded out of it.
private final class BanBox: @unchecked Sendable {
    var ban: Ban?
}
