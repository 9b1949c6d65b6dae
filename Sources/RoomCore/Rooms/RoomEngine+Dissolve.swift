import Foundation
import PostgresNIO

/// A dissolve decided on one read and written once (#28, item 3), as
/// `RoomEngine.change` does a plugin's move: the room, its version and the
/// caller's session are read in one statement without a lock,
/// `RoomLifecycle` decides, and one statement closes the room with its
/// events and side effects only if it is still open at that version. A
/// client's dissolve was 6 round trips (the session, BEGIN, the lock, the
/// close, its plugin's timeline, COMMIT); it is now the read, the close and
/// its commit probe, or on an instance that knows the caller's session and
/// the room, the close and its probe (`dissolveGuessed`).
extension RoomEngine {
    /// Who dissolves: an actor the caller vouches for, or a client request's
    /// session, read with the room.
    public enum Dissolver: Sendable {
        case actor(Actor)
        case session(CallerSession)
    }

    /// The room dissolved by the account of `caller`'s live session of
    /// `pluginID` (refused with its `refusal` without one).
    public func dissolve(_ roomID: RoomID, caller: CallerSession, in tenant: Tenant, pluginID: String) async throws -> Room {
        let key = caller.sid.map { SessionCache.Key(tenantID: tenant.id, pluginID: pluginID, tokenHash: Secrets.sha256Hex($0)) }
        let closed = try await dissolveByCaller(roomID, caller: caller, key: key, in: tenant, pluginID: pluginID)
        if let key { sessions.mark(key, mayOwnOpenRoom: false) }
        return closed
    }

    private func dissolveByCaller(_ roomID: RoomID, caller: CallerSession, key: SessionCache.Key?, in tenant: Tenant, pluginID: String) async throws -> Room {
        if let key, let closed = try await dissolveGuessed(roomID, session: key, in: tenant, pluginID: pluginID) { return closed }
        if let closed = try await dissolveUnlocked(roomID, by: .session(caller), in: tenant, pluginID: pluginID) { return closed }
        // The plugin closes with a hook: its transaction, the session resolved first.
        guard let sid = caller.sid, let (account, _) = try await AccountStore(database: database, clock: clock).resolve(tenant.id, sid: sid, pluginID: pluginID) else {
            throw caller.refusal
        }
        return try await dissolve(roomID, by: .account(account.accid), in: tenant, pluginID: pluginID)
    }

    /// The dissolve as one statement when this instance knows the caller's
    /// session and the room (`SessionCache`, `RecentRooms`): decided on what
    /// it knows, written only if the session is still live and the room still
    /// at the version known. nil when it knows too little, would refuse (a
    /// refusal is the read's to give: what is known may be old), or knew
    /// wrong (then nothing was written and both guesses are forgotten).
    private func dissolveGuessed(_ roomID: RoomID, session key: SessionCache.Key, in tenant: Tenant, pluginID: String) async throws -> Room? {
        let now = clock.now()
        guard let (account, _) = sessions.recall(key, now: now), let seen = recentRooms.recall(tenant.id, roomID), seen.room.pluginID == pluginID else {
            return nil
        }
        let room = seen.room, actor = Actor.account(account.accid)
        let snapshot = RoomLifecycle.Snapshot(room: room, joinedCount: seen.joinedCount, memberStatus: nil)
        guard case .success(let decision) = RoomLifecycle.decide(.dissolve(by: actor), on: snapshot, now: now), case .close(let reason) = decision,
              try plugin(room.tenantID, room.pluginID).closingMessages([room], reason) != nil else { return nil }
        let effects = try await closeEffects([room], reason: reason, actor: actor, now: now) { _, _ in [] }
        let close = RoomClose(rooms: [room], reason: reason, actor: actor, now: now, effects: effects,
                              webhooks: { [tenants] in tenants($0)?.webhooks ?? [] }, chatrooms: tenant.chatroomsInRoomDatabase)
        let guess = SessionGuess(tokenHash: key.tokenHash, pluginID: pluginID, accid: account.accid)
        let closed = try await commitStatement { statement in
            let closed = try await close.closeGuarded(version: seen.version, caller: guess, on: statement)
            if closed, let transition = Self.counted(decision) { statement.ledger.record(transition, [room]) }
            return closed
        }
        guard closed else {
            recentRooms.forget([room])
            sessions.forget(key)
            return nil
        }
        return Self.room(room, after: decision, now: now)
    }

    /// nil when the room's plugin closes with a hook (its rows change with
    /// the close): the caller then closes it in a transaction.
    func dissolveUnlocked(_ roomID: RoomID, by dissolver: Dissolver, in tenant: Tenant, pluginID: String?) async throws -> Room? {
        var caller: CallerSession?
        if case .session(let session) = dissolver {
            guard session.sid != nil else { throw session.refusal }
            caller = session
        }
        for _ in 1...Self.changeAttempts {
            let now = clock.now()
            let read = try await read(roomID, in: tenant, pluginID: pluginID, rows: .none, members: [], caller: caller, now: now)
            let actor: Actor
            switch dissolver {
            case .actor(let given): actor = given
            case .session(let session):
                guard let account = read.caller else { throw session.refusal }
                actor = .account(account.accid)
            }
            guard let room = read.room, pluginID == nil || room.pluginID == pluginID else { throw RoomError.notFound }
            let snapshot = RoomLifecycle.Snapshot(room: room, joinedCount: read.joinedCount, memberStatus: nil)
            let decision = try RoomLifecycle.decide(.dissolve(by: actor), on: snapshot, now: now).get()
            guard case .close(let reason) = decision, try plugin(room.tenantID, room.pluginID).closingMessages([room], reason) != nil else { return nil }
            let effects = try await closeEffects([room], reason: reason, actor: actor, now: now) { _, _ in [] }
            let close = RoomClose(rooms: [room], reason: reason, actor: actor, now: now, effects: effects,
                                  webhooks: { [tenants] in tenants($0)?.webhooks ?? [] }, chatrooms: tenant.chatroomsInRoomDatabase)
            let closed = try await commitStatement { statement in
                let closed = try await close.closeGuarded(version: read.version, on: statement)
                if closed, let transition = Self.counted(decision) { statement.ledger.record(transition, [room]) }
                return closed
            }
            if closed { return Self.room(room, after: decision, now: now) }
            database.logger.debug("a room changed between its read and its dissolve; deciding again", metadata: ["room": "\(roomID)"])
        }
        throw DatabaseUnavailable("the room is changing too often at once; try again")
    }
}
