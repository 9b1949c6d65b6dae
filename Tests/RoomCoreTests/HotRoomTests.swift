import Foundation
import PostgresNIO
@testable import RoomCore
@_spi(RoomEngine) import RoomKit
import RoomTestSupport
import Synchronization
import Testing

/// A hot room is slow only for itself (#41): its writers queue in memory
/// and share transactions (`RoomWriteQueue`), instead of each holding a
/// pooled connection while it waits for the room's row lock; its joins
/// are decided together and written in one statement (`RoomJoinQueue`).
@Suite(.serialized) struct HotRoomTests {
    /// 300 members join one room at once: every one is joined exactly once,
    /// the count is exact, and no connection of this instance ever waits on
    /// the room's lock (before: up to the pool's 20 did, and every other
    /// room of every tenant waited for a connection behind them).
    @Test func joinsIntoOneRoomShareTransactionsAndHoldNoConnectionWaiting() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(capacity: 1_000)
        let watch = LockWaits()
        let watching = Task { try await watch.sample(fixture.database) }
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<300 {
                group.addTask {
                    (try? await fixture.engine.join(room.id, account: "member\(index)", in: fixture.tenant, pluginID: nil)) != nil
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        watching.cancel()
        #expect(outcomes.allSatisfy { $0 }, "\(outcomes.filter { !$0 }.count) joins failed")
        let counted = try await fixture.count("SELECT joined_count FROM rooms WHERE tenant_id = ANY($1) AND room_id = \(room.id)")
        let members = try await fixture.count("SELECT count(*)::int FROM room_members WHERE tenant_id = ANY($1) AND room_id = \(room.id) AND status = 'joined'")
        let events = try await fixture.count("SELECT count(*)::int FROM room_events WHERE tenant_id = ANY($1) AND room_id = \(room.id) AND kind = 'joined'")
        #expect(counted == 300 && members == 300 && events == 300, "count \(counted), members \(members), events \(events)")
        // Joins queued meanwhile are decided together and written in one
        // statement (`RoomJoinQueue`): before, each was its own 8 round
        // trips, and 300 took more than 150 transactions' worth of them.
        let (batches, joins) = fixture.engine.joinQueue.counts
        #expect(joins == 300 && batches <= 30, "\(joins) joins in \(batches) batches")
        #expect(fixture.engine.writeQueue.counts.batches == batches, "one transaction a batch")
        #expect(watch.peak == 0, "at most \(watch.peak) of this instance's connections waited on the room's lock")
    }

    /// Joins parked in a room's queue give their request slot back
    /// (`RequestSlot`): 40 joins of a tenant whose share is 2 slots still
    /// gather into large batches. Before, each join held its slot while it
    /// waited, so at most 2 were ever in the room's queue and each batch
    /// carried 2 at most (ops/bench figure 7: 300 joins/s with a quarter of
    /// the cores idle).
    @Test func parkedJoinsGiveTheirRequestSlotBack() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(capacity: 1_000)
        // A tenant alone holds three quarters: 2 of 3.
        let slots = FairPermits(capacity: 3)
        let owner = fixture.tenant.id
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<40 {
                group.addTask {
                    guard (try? await slots.acquire(for: owner, until: .now + .seconds(30))) != nil else { return false }
                    defer { slots.release(for: owner) }
                    return await RequestSlot.$current.withValue(RequestSlot(slots, owner: owner)) {
                        (try? await fixture.engine.join(room.id, account: "parked\(index)", in: fixture.tenant, pluginID: nil)) != nil
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.allSatisfy { $0 }, "\(outcomes.filter { !$0 }.count) joins failed")
        let (batches, joins) = fixture.engine.joinQueue.counts
        #expect(joins == 40 && batches <= 10, "\(joins) joins in \(batches) batches")
        #expect(slots.heldByOwner.isEmpty, "every slot given back and taken again once: \(slots.heldByOwner)")
    }

    /// A join refused inside a batch is refused alone: a room of 50 seats
    /// and 120 joins at once leaves exactly 50 joined, and the other 70 are
    /// told the room is full.
    @Test func aRefusedWriterInABatchRollsBackAlone() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(capacity: 50)
        let refusals = await withTaskGroup(of: String?.self) { group in
            for index in 0..<120 {
                group.addTask {
                    do {
                        _ = try await fixture.engine.join(room.id, account: "seat\(index)", in: fixture.tenant, pluginID: nil)
                        return nil
                    } catch {
                        return String(describing: error)
                    }
                }
            }
            return await group.reduce(into: [String]()) { if let refusal = $1 { $0.append(refusal) } }
        }
        #expect(refusals.count == 70, "\(refusals.count) refused")
        #expect(Set(refusals).count == 1 && refusals.first?.contains("full") == true, "\(Set(refusals))")
        let counted = try await fixture.count("SELECT joined_count FROM rooms WHERE tenant_id = ANY($1) AND room_id = \(room.id)")
        let members = try await fixture.count("SELECT count(*)::int FROM room_members WHERE tenant_id = ANY($1) AND room_id = \(room.id) AND status = 'joined'")
        #expect(counted == 50 && members == 50)
    }

    /// The joins of one batch share one answer, read after their commit
    /// (`SharedAnswers`): 120 members joining at once read the room's
    /// members once a batch, not once each (SealMic's join answers its
    /// detail: figure 7), and every answer lists its own joiner.
    @Test func aBatchsJoinsShareOneAnswerReadAfterTheirCommit() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(capacity: 1_000)
        let engine = fixture.engine, tenant = fixture.tenant
        let answers = try await withThrowingTaskGroup(of: (AccountID, Set<AccountID>).self) { group in
            for index in 0..<120 {
                group.addTask {
                    let account = "listener\(index)"
                    let listed = try await engine.join(room.id, account: account, role: "member", in: tenant, pluginID: nil, answer: "members") { room in
                        Set(try await engine.store.joinedMembers(tenant.id, room.id, newest: 1_000, always: []).members.map(\.accid))
                    }
                    return (account, listed)
                }
            }
            return try await group.reduce(into: [(AccountID, Set<AccountID>)]()) { $0.append($1) }
        }
        #expect(answers.count == 120 && answers.allSatisfy { $0.1.contains($0.0) }, "an answer without its own joiner: a read from before its commit")
        let (batches, joins) = engine.joinQueue.counts
        let (computed, asked) = engine.sharedAnswers.counts
        #expect(asked == 120 && computed <= batches && joins == 120, "\(computed) answers read for \(asked) joins in \(batches) batches")
        #expect(batches < 120, "the joins were batched (\(batches) batches), so some shared an answer")
    }
}

/// `SharedAnswers` alone: a batch's join that asks after the first asker
/// already had the answer still gets it (before, the answer was forgotten
/// as soon as its first asker had it, and figure 7 read it 1,011 times for
/// 69 batches); another batch never gets it.
@Suite struct SharedAnswersTests {
    @Test func aBatchsLateAskerSharesItsAnswerAndAnotherBatchReadsItsOwn() async throws {
        let answers = SharedAnswers()
        let room = RoomWriteQueue.Key(tenant: "t", room: 1)
        let reads = Atomic<Int>(0)
        @Sendable func read() async throws -> Int { reads.add(1, ordering: .relaxed).newValue }
        let first = try await answers.answer(RoomJoinQueue.Batch(room: room, number: 1), name: "detail", read)
        let late = try await answers.answer(RoomJoinQueue.Batch(room: room, number: 1), name: "detail", read)
        #expect(first == 1 && late == 1, "the late asker of batch 1 got read \(late)")
        let next = try await answers.answer(RoomJoinQueue.Batch(room: room, number: 2), name: "detail", read)
        #expect(next == 2, "batch 2 reads its own answer (it holds joins batch 1's answer does not)")
        let other = try await answers.answer(RoomJoinQueue.Batch(room: room, number: 2), name: "members", read)
        #expect(other == 3 && answers.counts == (computed: 3, asked: 4))
    }
}

/// The most connections of the test database seen waiting on a lock at once.
private final class LockWaits: Sendable {
    private let most = Atomic<Int>(0)
    var peak: Int { most.load(ordering: .relaxed) }

    func sample(_ database: Database) async throws {
        while !Task.isCancelled {
            let rows = try await database.query("""
                SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
                """)
            let waiting = try rows.decode(Int.self).first ?? 0
            most.max(waiting, ordering: .relaxed)
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// Each join of a batch is decided on what the ones before it left, as if
/// they had come one at a time (#41): an account joining twice in one batch
/// joins once, a banned account is refused alone, and an already joined
/// account is told so, against a serial order of the same joins.
@Suite struct JoinBatchTests {
    @Test func aBatchDecidesEachJoinAsTheSerialOrderWould() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(capacity: 4)
        _ = try await fixture.engine.join(room.id, account: "early", in: fixture.tenant, pluginID: nil)
        try await fixture.database.query("""
            INSERT INTO bans (tenant_id, room_id, accid, kind, created_at, created_by)
            VALUES (\(fixture.tenant.id), \(room.id), 'outlaw', 'ban', now(), 'test')
            """)
        let requests = ["a", "a", "outlaw", "early", "b", "c", "d"].map {
            RoomJoinQueue.Request(account: $0, role: "member", inIMChatroom: nil, pluginID: nil)
        }
        let outcomes = try await fixture.engine.joinBatch(requests, roomID: room.id, in: fixture.tenant)
        let told = outcomes.map { outcome -> String in
            switch outcome {
            case .success(.joined): "joined"
            case .success(.alreadyJoined): "already"
            case .failure(let error as RoomError): error.code
            case .failure(let error): "\(error)"
            }
        }
        // early is in: a, b, c fill the 4 seats; d finds it full.
        #expect(told == ["joined", "already", "banned", "already", "joined", "joined", "room_full"], "\(told)")
        let counted = try await fixture.count("SELECT joined_count FROM rooms WHERE tenant_id = ANY($1) AND room_id = \(room.id)")
        let events = try await fixture.count("SELECT count(*)::int FROM room_events WHERE tenant_id = ANY($1) AND room_id = \(room.id) AND kind = 'joined'")
        #expect(counted == 4 && events == 4, "count \(counted), events \(events)")
    }

    /// Joins by session (#41, ops/bench figure 7): a batch reads every
    /// session it carries in one statement, where each join read its own
    /// before it queued. 40 members join one room by their sessions at
    /// once: all joined once, with one session read a batch; a revoked
    /// session, an unknown one and another plugin's are each refused with
    /// their own refusal, alone, and write nothing.
    @Test func aBatchReadsItsJoinersSessionsInOneStatement() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(capacity: 1_000)
        let tenant = fixture.tenant.id, plugin = TestRoomsPlugin.pluginID
        let store = AccountStore(database: fixture.database, clock: fixture.clock)
        func session(_ accid: String, plugin: String = TestRoomsPlugin.pluginID) async throws -> String {
            try await fixture.database.query("INSERT INTO accounts (tenant_id, accid, nickname, avatar, role, created_at) VALUES (\(tenant), \(accid), '', '', 'user', now())")
            let opened = try await store.openSession(tenant, accid: accid, pluginID: plugin, ttlSeconds: 600)
            return opened.sid
        }
        var sids: [String] = []
        for index in 0..<40 { sids.append(try await session("member\(index)")) }
        let revoked = try await session("revoked")
        _ = try await store.revokeAccess(tenant, accid: "revoked")
        let elsewhere = try await session("elsewhere", plugin: "another-plugin")
        struct Refused: Error, Equatable { let sid: String }

        let (batchesBefore, _) = fixture.engine.joinQueue.counts
        let tally = StatementTally()
        let outcomes = await StatementTally.$current.withValue(tally) {
            await withTaskGroup(of: (String, Result<Int64, any Error>).self) { group in
                for sid in sids + [revoked, "no-such-session", elsewhere] {
                    group.addTask {
                        do {
                            let answer = try await fixture.engine.join(room.id, caller: CallerSession(sid: sid, refusal: Refused(sid: sid)), role: "member",
                                                                       in: fixture.tenant, pluginID: plugin, answer: "room") { $0.id }
                            return (sid, .success(answer))
                        } catch {
                            return (sid, .failure(error))
                        }
                    }
                }
                return await group.reduce(into: [String: Result<Int64, any Error>]()) { $0[$1.0] = $1.1 }
            }
        }
        for sid in sids { #expect((try? outcomes[sid]?.get()) == room.id, "joined by its session") }
        for sid in [revoked, "no-such-session", elsewhere] {
            guard case .failure(let error as Refused)? = outcomes[sid] else { Issue.record("\(sid): \(String(describing: outcomes[sid]))"); continue }
            #expect(error == Refused(sid: sid), "refused with its own refusal")
        }
        let batches = fixture.engine.joinQueue.counts.batches - batchesBefore
        let batchRead = String(LiveSessions.query(tenant, tokenHashes: [], pluginIDs: [], now: fixture.clock.now()).sql.prefix(60))
        let sessionReads = tally.sent.filter { $0.hasPrefix(batchRead) || $0.contains("sessions") || $0.contains("token_hash") }.count
        #expect(sessionReads == batches, "one session read a batch: \(sessionReads) in \(batches) batches")
        let counted = try await fixture.count("SELECT joined_count FROM rooms WHERE tenant_id = ANY($1) AND room_id = \(room.id)")
        let members = try await fixture.count("SELECT count(*)::int FROM room_members WHERE tenant_id = ANY($1) AND room_id = \(room.id) AND status = 'joined'")
        #expect(counted == 40 && members == 40, "count \(counted), members \(members)")
        #expect(try await fixture.count("SELECT count(*)::int FROM room_members WHERE tenant_id = ANY($1) AND accid IN ('revoked', 'elsewhere')") == 0)
    }
}
