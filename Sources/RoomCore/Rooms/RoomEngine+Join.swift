import Foundation
import PostgresNIO

/// A room's joins, decided together on one read and written in one
/// statement (`RoomJoinQueue`, #41). A batch of one is the same path.
extension RoomEngine {
    /// `pluginID`: the plugin asking; a room of another plugin is "not found"
    /// to it. Returns the room as the join left it.
    public func join(_ roomID: RoomID, account: AccountID, role: String = "member", in tenant: Tenant, pluginID: String?) async throws -> JoinOutcome {
        try await joinInBatch(roomID, account: account, role: role, in: tenant, pluginID: pluginID).0
    }

    /// A join and what it answers, read once for its whole batch
    /// (`SharedAnswers`): `answer` is given the room as the batch found it.
    public func join<Answer: Sendable>(
        _ roomID: RoomID, account: AccountID, role: String, in tenant: Tenant, pluginID: String?, answer name: String,
        _ answer: @escaping @Sendable (Room) async throws -> Answer
    ) async throws -> Answer {
        let (outcome, batch) = try await joinInBatch(roomID, account: account, role: role, in: tenant, pluginID: pluginID)
        return try await sharedAnswers.answer(batch, name: name) { try await answer(outcome.room) }
    }

    /// A join by `caller`'s live session of the plugin, the session resolved
    /// with the join's batch: one statement reads every session the batch
    /// carries, where each join read its own before it queued (#41, ops/bench
    /// figure 7: 2,000 joins into one room were 2,000 session reads). A
    /// plugin whose joins must be in the room's IM chatroom first resolves
    /// the session first: that check needs the account. Refused with the
    /// caller's `refusal` without a live session.
    public func join<Answer: Sendable>(
        _ roomID: RoomID, caller: CallerSession, role: String, in tenant: Tenant, pluginID: String, answer name: String,
        _ answer: @escaping @Sendable (Room) async throws -> Answer
    ) async throws -> Answer {
        guard let sid = caller.sid else { throw caller.refusal }
        guard let policy = tenant.plugin(pluginID)?.policy, !policy.joinRequiresIM else {
            guard let (account, _) = try await AccountStore(database: database, clock: clock).resolve(tenant.id, sid: sid, pluginID: pluginID) else {
                throw caller.refusal
            }
            return try await join(roomID, account: account.accid, role: role, in: tenant, pluginID: pluginID, answer: name, answer)
        }
        let request = RoomJoinQueue.Request(joiner: .session(tokenHash: Secrets.sha256Hex(sid), refusal: caller.refusal), role: role,
                                            inIMChatroom: nil, pluginID: pluginID)
        let (outcome, batch) = try await joinQueue.join(.init(tenant: tenant.id, room: roomID), request, pace: tenant.budgets.roomJoins) { requests in
            try await self.joinBatch(requests, roomID: roomID, in: tenant)
        }
        return try await sharedAnswers.answer(batch, name: name) { try await answer(outcome.room) }
    }

    /// Each request's account: its own, or its session's, read for the
    /// whole batch in one statement; a session not live is its refusal.
    private func joiners(_ requests: [RoomJoinQueue.Request], in tenant: Tenant, now: Date) async throws -> [Result<AccountID, any Error>] {
        var hashes: [String] = [], plugins: [String] = []
        for request in requests {
            if case .session(let tokenHash, _) = request.joiner {
                hashes.append(tokenHash)
                plugins.append(request.pluginID ?? "")
            }
        }
        var live: [String: AccountID] = [:]
        if !hashes.isEmpty {
            let rows = try await database.query(LiveSessions.query(tenant.id, tokenHashes: hashes, pluginIDs: plugins, now: now))
            for (hash, plugin, account) in try rows.decode((String, String, String).self) { live[plugin + "|" + hash] = account }
        }
        return requests.map { request in
            switch request.joiner {
            case .account(let account): return .success(account)
            case .session(let tokenHash, let refusal):
                guard let account = live[(request.pluginID ?? "") + "|" + tokenHash] else { return .failure(refusal) }
                return .success(account)
            }
        }
    }

    private func joinInBatch(_ roomID: RoomID, account: AccountID, role: String, in tenant: Tenant,
                             pluginID: String?) async throws -> (JoinOutcome, RoomJoinQueue.Batch) {
        let inIMChatroom = try await imMembership(roomID, account: account, in: tenant, pluginID: pluginID)
        let request = RoomJoinQueue.Request(account: account, role: role, inIMChatroom: inIMChatroom, pluginID: pluginID)
        return try await joinQueue.join(.init(tenant: tenant.id, room: roomID), request, pace: tenant.budgets.roomJoins) { requests in
            try await self.joinBatch(requests, roomID: roomID, in: tenant)
        }
    }

    /// One admitted join: the room as it was just before it (what the
    /// plugin's hook is shown, as when joins were one at a time).
    private struct Admitted {
        let account: AccountID
        let role: String
        let before: Room
    }

    /// Locks the room (and each account's lock, shared, as a single join
    /// does), reads every account's membership and bans, decides each join
    /// in order on what the ones before it left, writes the admitted ones'
    /// rows, counts and events in one statement, then runs the plugin's
    /// hooks and queues every side effect in one more.
    func joinBatch(_ requests: [RoomJoinQueue.Request], roomID: RoomID, in tenant: Tenant) async throws -> [RoomJoinQueue.Outcome] {
        let now = clock.now()
        let joiners = try await joiners(requests, in: tenant, now: now)
        let accounts = joiners.compactMap { try? $0.get() }
        let (outcomes, written): ([RoomJoinQueue.Outcome], (room: Room, joins: Int, applied: ChatroomEffectsInStatement?)?) =
            try await commit(.queued(.init(tenant: tenant.id, room: roomID))) { writes in
                guard let locked = try await writes.lockForJoins(tenant.id, roomID, accounts: accounts, now: now) else {
                    return (joiners.map { joiner in .failure(joiner.failure ?? RoomError.notFound) }, nil)
                }
                var room = locked.room, joinedCount = locked.joinedCount, statuses = locked.statuses
                var outcomes: [RoomJoinQueue.Outcome] = []
                var admitted: [Admitted] = []
                var claimed = false
                for (request, joiner) in zip(requests, joiners) {
                    let account: AccountID
                    switch joiner {
                    case .failure(let refusal):
                        outcomes.append(.failure(refusal))
                        continue
                    case .success(let joining): account = joining
                    }
                    if let pluginID = request.pluginID, pluginID != room.pluginID {
                        outcomes.append(.failure(RoomError.notFound))
                        continue
                    }
                    let snapshot = RoomLifecycle.Snapshot(room: room, joinedCount: joinedCount, memberStatus: statuses[account])
                    switch RoomLifecycle.decide(.join(account, inIMChatroom: request.inIMChatroom), on: snapshot, now: now) {
                    case .failure(let error):
                        outcomes.append(.failure(error))
                    case .success(.join(let claims)):
                        admitted.append(Admitted(account: account, role: request.role, before: room))
                        if claims {
                            room.reservation?.claimedAt = now
                            claimed = true
                        }
                        joinedCount += 1
                        statuses[account] = .joined
                        outcomes.append(.success(.joined(room)))
                    case .success:
                        outcomes.append(.success(.alreadyJoined(room)))
                    }
                }
                guard !admitted.isEmpty else { return (outcomes, nil) }
                try await writes.joins(room, admitted.map { ($0.account, $0.role) }, claimsReservation: claimed, now: now)
                let plugin = try plugin(tenant.id, room.pluginID)
                var effects: [OutboxMessage] = []
                for join in admitted {
                    let detail = ["role": join.role, "account": join.account]
                    effects += writes.engineEventDeliveries([room], kind: .joined, actor: .account(join.account), detail: detail, at: now)
                    let parts = HookParts(writes: writes, tenantID: tenant.id, now: now, actor: .account(join.account), logger: database.logger)
                    effects += try await plugin.joined(join.account, join.before, parts)
                }
                let applied = try await writes.enqueue(effects, on: room, chatrooms: tenant.chatroomsInRoomDatabase, now: now)
                return (outcomes, (room, admitted.count, applied))
            }
        written?.applied?.countApplied()
        return outcomes
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
