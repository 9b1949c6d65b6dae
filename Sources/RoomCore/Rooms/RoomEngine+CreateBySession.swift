import Foundation

/// A client's create checked in the create's own statement (#28, item 3).
///
/// A client's create was its session's read (with the creator's open
/// rooms), the room's statement and its commit probe: 3 round trips where
/// the goal is 2. On an instance that has seen the session live
/// (`SessionCache`: any change, dissolve or create by it), the create is
/// the room's statement guarded by "this session is live and is this
/// account's, which has no other open room", and its probe. A guess that
/// fails wrote nothing, and the create goes the long way.
extension RoomEngine {
    /// A room owned by the account of `caller`'s live session of
    /// `spec.pluginID` (`spec.owner` is set to it); refused with the
    /// caller's `refusal` without one. `replacingOpenRooms`: the account's
    /// open rooms of the plugin are dissolved first (one open room a
    /// creator, as audio-chatroom's app expects).
    public func create(_ spec: NewRoom, caller: CallerSession, replacingOpenRooms: Bool, in tenant: Tenant,
                       preparing preparation: RoomPreparation? = nil) async throws -> Room {
        guard let sid = caller.sid else { throw caller.refusal }
        let key = SessionCache.Key(tenantID: tenant.id, pluginID: spec.pluginID, tokenHash: Secrets.sha256Hex(sid))
        if let (account, mayOwnOpenRoom) = sessions.recall(key, now: clock.now()), !(replacingOpenRooms && mayOwnOpenRoom) {
            var guessed = spec
            guessed.owner = account.accid
            let check = CreatorCheck(session: SessionGuess(tokenHash: key.tokenHash, pluginID: spec.pluginID, accid: account.accid),
                                     ownerHasNoOpenRoom: replacingOpenRooms)
            if let room = try await create(guessed, in: tenant, by: .account(account.accid), checking: check, soleOpen: replacingOpenRooms,
                                         preparing: preparation) {
                sessions.mark(key, mayOwnOpenRoom: true)
                return room
            }
        }
        // The long way: the session and its open rooms read, those rooms
        // dissolved, the room created. With `replacingOpenRooms` the room is
        // its creator's one open room (`rooms_one_open_per_owner`): a create
        // racing this one that committed first makes this statement fail,
        // and this create reads and dissolves again, as if it came second.
        let store = AccountStore(database: database, clock: clock)
        for _ in 1...Self.changeAttempts {
            guard let found = try await store.resolveWithOpenRooms(tenant.id, sid: sid, pluginID: spec.pluginID) else {
                sessions.forget(key)
                throw caller.refusal
            }
            sessions.remember(key, account: found.account, expiresAt: found.expiresAt)
            if replacingOpenRooms {
                for roomID in found.openRooms {
                    _ = try? await dissolve(roomID, by: .account(found.account.accid), in: tenant, pluginID: spec.pluginID)
                }
            }
            var spec = spec
            spec.owner = found.account.accid
            do {
                guard let room = try await create(spec, in: tenant, by: .account(found.account.accid), checking: nil, soleOpen: replacingOpenRooms,
                                                preparing: preparation) else {
                    throw RoomError.notFound
                }
                sessions.mark(key, mayOwnOpenRoom: true)
                return room
            } catch is OwnerHasOpenRoom {
                database.logger.debug("a create by the same creator committed first; dissolving its room and creating again")
            }
        }
        throw DatabaseUnavailable("this creator's rooms are changing too often at once; try again")
    }
}
