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

    private func joinInBatch(_ roomID: RoomID, account: AccountID, role: String, in tenant: Tenant,
                             pluginID: String?) async throws -> (JoinOutcome, RoomJoinQueue.Batch) {
        let inIMChatroom = try await imMembership(roomID, account: account, in: tenant, pluginID: pluginID)
        let request = RoomJoinQueue.Request(account: account, role: role, inIMChatroom: inIMChatroom, pluginID: pluginID)
        return try await joinQueue.join(.init(tenant: tenant.id, room: roomID), request) { requests in
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
        let (outcomes, written): ([RoomJoinQueue.Outcome], (room: Room, joins: Int, applied: ChatroomEffectsInStatement?)?) =
            try await commit(.queued(.init(tenant: tenant.id, room: roomID))) { writes in
                guard let locked = try await writes.lockForJoins(tenant.id, roomID, accounts: requests.map(\.account), now: now) else {
                    return (requests.map { _ in .failure(RoomError.notFound) }, nil)
                }
                var room = locked.room, joinedCount = locked.joinedCount, statuses = locked.statuses
                var outcomes: [RoomJoinQueue.Outcome] = []
                var admitted: [Admitted] = []
                var claimed = false
                for request in requests {
                    if let pluginID = request.pluginID, pluginID != room.pluginID {
                        outcomes.append(.failure(RoomError.notFound))
                        continue
                    }
                    let snapshot = RoomLifecycle.Snapshot(room: room, joinedCount: joinedCount, memberStatus: statuses[request.account])
                    switch RoomLifecycle.decide(.join(request.account, inIMChatroom: request.inIMChatroom), on: snapshot, now: now) {
                    case .failure(let error):
                        outcomes.append(.failure(error))
                    case .success(.join(let claims)):
                        admitted.append(Admitted(account: request.account, role: request.role, before: room))
                        if claims {
                            room.reservation?.claimedAt = now
                            claimed = true
                        }
                        joinedCount += 1
                        statuses[request.account] = .joined
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
