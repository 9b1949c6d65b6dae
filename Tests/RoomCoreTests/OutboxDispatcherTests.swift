import Foundation
@testable import RoomCore
import RoomProviders
import RoomTestSupport
import Synchronization
import Testing

@Suite struct OutboxDispatcherTests {
    func providers(_ fixture: EngineFixture) -> ProviderOutboxDeliverer {
        let directory = fixture.tenants.directory
        return ProviderOutboxDeliverer(tenants: { directory[$0] })
    }

    /// The hand-written close payload (#19) says what the encoder would, and
    /// reads back as the same effect, awkward characters included.
    @Test func aChatroomCloseIsWrittenAsTheEncoderWouldWriteIt() {
        for (chatroom, op, notice) in [("123", "owner", #"{"type":1}"#), ("c\"q", "ü/\\n\t", nil), ("", "a\u{1}b", "")] as [(String, String, String?)] {
            let effect = IMEffect.closeChatroom(chatroom: chatroom, operator: op, notifyExt: notice)
            let payload = OutboxEffect.im(effect).payload
            #expect(OutboxEffect.decode(kind: "im", payload: payload) == .im(effect), "\(payload)")
            #expect(JSONValue.parse(payload) == JSONValue.parse(JSONText.encode(effect)), "\(payload)")
        }
    }

    // The entries these tests dispatch are chatroom closes queued by an
    // admin's dissolve (a transaction, for its audit row). A client's
    // dissolve of a room with nothing waiting in its IM lane closes a local
    // chatroom in its own statement instead (`WriteOnceTests`).
    @Test func dissolveClosesTheIMChatroomThroughTheOutbox() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "alice")
        let chatroom = try #require(room.imChatroomID)
        _ = try await fixture.engine.dissolve(room.id, by: .admin, in: fixture.tenant, pluginID: nil)
        #expect(try await fixture.local().isOpen(chatroom), "nothing is delivered inside the transaction")

        #expect(try await fixture.dispatcher(providers(fixture)).dispatchOnce() == 1)
        #expect(try await fixture.local().isOpen(chatroom) == false)
        let entries = try await OutboxStore(database: fixture.database).list(fixture.tenant.id, status: nil, before: nil, limit: 10)
        #expect(entries.map(\.status) == [.delivered])
    }

    /// The local IM's statements bind their own tenant: a room's effects
    /// are applied in its statement only by its own tenant's provider; any
    /// other provider leaves them to the outbox, untouched.
    @Test func onlyTheRoomsOwnTenantsProviderAppliesItsEffectsInAStatement() async throws {
        let fixture = try await EngineFixture(tenantCount: 2)
        let room = try await fixture.room(owner: "alice")
        let chatroom = try #require(room.imChatroomID)
        let messages: [OutboxMessage] = [.im(.queuePut(chatroom: chatroom, key: "queue_1", value: "{}", operator: "alice"), roomID: room.id)]
        var other = messages
        #expect(ChatroomEffectsInStatement.take(from: &other, room: room, chatrooms: fixture.local(fixture.tenants[1]), now: fixture.clock.now()) == nil)
        #expect(other == messages)
        var own = messages
        #expect(ChatroomEffectsInStatement.take(from: &own, room: room, chatrooms: fixture.local(), now: fixture.clock.now()) != nil)
        #expect(own.isEmpty)
    }

    /// Only a statement that queued entries wakes the instances' dispatchers.
    /// The outbox's NOTIFY trigger runs once a statement, and ran for every
    /// create and dissolve whose statement queued nothing (no webhook, the
    /// local chatroom closed in the statement): each woke every instance's
    /// dispatcher for an empty claim (0.29 claims a flow in `ops/bench`'s
    /// figure 1). Notifications arrive in commit order, so a marker sent
    /// after the quiet statements must come first.
    @Test func onlyStatementsThatQueueEntriesWakeTheDispatchers() async throws {
        let fixture = try await EngineFixture()
        let marker = UUID().uuidString
        try await fixture.database.listen(on: OutboxWakeFollower.channel) { sequence in
            var notifications = sequence.makeAsyncIterator()
            let quiet = try await fixture.room(owner: "alice")
            _ = try await fixture.engine.dissolve(quiet.id, by: .account("alice"), in: fixture.tenant, pluginID: nil)
            #expect(try await fixture.count("SELECT count(*)::int FROM outbox WHERE tenant_id = ANY($1)") == 0)
            try await fixture.database.query("SELECT pg_notify(\(OutboxWakeFollower.channel), \(marker))")
            #expect(try await notifications.next()?.payload == marker, "the create and the dissolve queued nothing and woke nobody")
            let joined = try await fixture.room(owner: "bob")
            _ = try await fixture.engine.join(joined.id, account: "carol", in: fixture.tenant, pluginID: nil)
            #expect(try await fixture.count("SELECT count(*)::int FROM outbox WHERE tenant_id = ANY($1)") == 0, "the join's message was applied in its statement")
            try await fixture.database.query("SELECT pg_notify(\(OutboxWakeFollower.channel), \(marker))")
            #expect(try await notifications.next()?.payload == marker, "the join queued nothing and woke nobody")
            try await fixture.queueJoinMessage(joined, from: "dave")
            #expect(try await notifications.next()?.payload == "", "a statement that queued an entry woke the dispatchers")
        }
    }

    @Test func anOutageIsRetriedWithBackoffAndDeliveredOnce() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "alice")
        _ = try await fixture.engine.dissolve(room.id, by: .admin, in: fixture.tenant, pluginID: nil)
        let flaky = FlakyDeliverer(failures: 3, next: providers(fixture))
        let dispatcher = fixture.dispatcher(flaky)

        for attempt in 1...3 {
            #expect(try await dispatcher.dispatchOnce() == 1, "attempt \(attempt) is made")
            #expect(try await dispatcher.dispatchOnce() == 0, "backing off: nothing due yet")
            fixture.clock.advance(by: 10 * pow(2, Double(attempt)))
        }
        #expect(try await dispatcher.dispatchOnce() == 1)
        #expect(try await dispatcher.dispatchOnce() == 0)
        fixture.clock.advance(by: 3_600)
        #expect(try await dispatcher.dispatchOnce() == 0, "a delivered entry is never sent again")
        #expect(flaky.delivered.count == 1)
        let entry = try #require(try await OutboxStore(database: fixture.database).list(fixture.tenant.id, status: nil, before: nil, limit: 1).first)
        #expect(entry.status == .delivered && entry.attempts == 4)
    }

    @Test func exhaustedEntriesGoDeadAndAnOperatorCanRetry() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "alice")
        _ = try await fixture.engine.dissolve(room.id, by: .admin, in: fixture.tenant, pluginID: nil)
        let flaky = FlakyDeliverer(failures: 2, next: providers(fixture))
        let dispatcher = fixture.dispatcher(flaky, maxAttempts: 2)
        let store = OutboxStore(database: fixture.database)

        for _ in 1...2 {
            _ = try await dispatcher.dispatchOnce()
            fixture.clock.advance(by: 600)
        }
        let dead = try #require(try await store.list(fixture.tenant.id, status: .dead, before: nil, limit: 1).first)
        #expect(dead.lastError?.contains("provider down") == true)
        #expect(try await dispatcher.dispatchOnce() == 0, "dead entries wait for an operator")

        let retried = try await store.retry(fixture.tenant.id, dead.id, now: fixture.clock.now())
        #expect(retried?.status == .pending && retried?.attempts == 0)
        #expect(try await dispatcher.dispatchOnce() == 1)
        #expect(try await store.entry(fixture.tenant.id, dead.id)?.status == .delivered)
        #expect(try await store.retry(fixture.tenant.id, dead.id, now: fixture.clock.now()) == nil, "delivered entries are not retried")
    }

    @Test func aProviderRefusalIsDeadAtOnce() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "alice")
        let chatroom = try #require(room.imChatroomID)
        try await fixture.local().closeChatroom(chatroom, operator: "alice", notifyExt: nil)
        try await fixture.queueJoinMessage(room, from: "bob")
        // The chatroom message goes to a chatroom that no longer exists: not worth retrying.
        #expect(try await fixture.dispatcher(providers(fixture)).dispatchOnce() == 1)
        let entry = try #require(try await OutboxStore(database: fixture.database).list(fixture.tenant.id, status: nil, before: nil, limit: 1).first)
        #expect(entry.status == .dead && entry.attempts == 1)
    }

    /// A retried entry carries the same idempotency key on every attempt (a
    /// vendor that deduplicates, as NetEase does on msgId, delivers it once);
    /// entries never share one.
    @Test func everyAttemptCarriesTheEntrysOneKey() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "alice")
        for name in ["ann", "ben"] {
            try await fixture.queueJoinMessage(room, from: name)
        }
        let keys = Mutex<[Int64: [String]]>([:])
        struct KeyRecorder: OutboxDeliverer {
            let keys: @Sendable (OutboxEntry) -> Int
            func deliver(_ entry: OutboxEntry) async throws -> Int? {
                guard keys(entry) > 2 else { throw IMError.unavailable(operation: "test", detail: "provider down") }
                guard case .im(.chatroomMessage)? = entry.effect else { throw PermanentDeliveryError("not a typed chatroom message") }
                return nil
            }
        }
        let dispatcher = fixture.dispatcher(KeyRecorder { entry in
            keys.withLock { $0[entry.id, default: []].append(entry.idempotencyKey); return $0[entry.id]!.count }
        })
        for _ in 0..<6 {
            _ = try await dispatcher.dispatchOnce()
            fixture.clock.advance(by: 60)
        }
        let seen = keys.withLock { $0 }
        #expect(seen.count == 2 && seen.values.allSatisfy { $0.count == 3 }, "two entries, three attempts each: \(seen)")
        #expect(seen.values.allSatisfy { Set($0).count == 1 }, "one key for every attempt of an entry")
        #expect(Set(seen.values.compactMap(\.first)).count == 2, "each entry its own key")
        let delivered = try await OutboxStore(database: fixture.database).list(fixture.tenant.id, status: .delivered, before: nil, limit: 10)
        #expect(delivered.count == 2)
    }

    /// #17, a vendor down for a minute: entries backing off when it comes
    /// back go out on the first success, not when each backoff runs out.
    @Test func aRecoveredProviderGetsItsBacklogAtOnce() async throws {
        let fixture = try await EngineFixture()
        for owner in ["ann", "ben"] {
            let room = try await fixture.room(owner: owner)
            _ = try await fixture.engine.dissolve(room.id, by: .admin, in: fixture.tenant, pluginID: nil)
        }
        let flaky = FlakyDeliverer(failures: 4, next: providers(fixture))
        let dispatcher = fixture.dispatcher(flaky)
        #expect(try await dispatcher.dispatchOnce() == 2)
        fixture.clock.advance(by: 1.5)
        #expect(try await dispatcher.dispatchOnce() == 2, "both fail again and back off")
        #expect(try await dispatcher.dispatchOnce() == 0)

        let late = try await fixture.room(owner: "cat")
        _ = try await fixture.engine.dissolve(late.id, by: .admin, in: fixture.tenant, pluginID: nil)
        #expect(try await dispatcher.dispatchOnce() == 1, "the new entry goes out: the provider is back")
        #expect(try await dispatcher.dispatchOnce() == 2, "and the backlog with it, before any backoff ran out")
        #expect(flaky.delivered.count == 3)
    }

    /// #27: a destination that fails and answers again wakes a bounded probe
    /// of its backlog (10), then twice as many once those succeeded: a
    /// flapping one no longer burns every entry's retry budget on each
    /// success, and a real recovery still drains in a few rounds.
    @Test func aRecoveryWakesAProbeThenDoublesNotTheWholeBacklog() async throws {
        let fixture = try await EngineFixture()
        for n in 0..<30 {
            let room = try await fixture.room(owner: "owner\(n)")
            _ = try await fixture.engine.dissolve(room.id, by: .admin, in: fixture.tenant, pluginID: nil)
        }
        let flaky = FlakyDeliverer(failures: 30, next: providers(fixture))
        let dispatcher = fixture.dispatcher(flaky)
        #expect(try await dispatcher.dispatchOnce() == 30, "all fail and back off")
        let late = try await fixture.room(owner: "late")
        _ = try await fixture.engine.dissolve(late.id, by: .admin, in: fixture.tenant, pluginID: nil)
        #expect(try await dispatcher.dispatchOnce() == 1, "a new entry succeeds: the provider answers again")
        #expect(try await dispatcher.dispatchOnce() == 10, "a probe of 10 wakes, not the backlog of 30")
        #expect(try await dispatcher.dispatchOnce() == 20, "the probe succeeded: twice as many, the rest")
        #expect(try await dispatcher.dispatchOnce() == 0)
        #expect(flaky.delivered.count == 31)
    }

    /// #17: dispatchers on several instances share one outbox; each entry is
    /// delivered by exactly one of them (the claim's row lock and lease decide).
    @Test func dispatchersOnTwoInstancesDeliverEachEntryOnce() async throws {
        let fixture = try await EngineFixture()
        for index in 0..<30 {
            let room = try await fixture.room(owner: "owner\(index)")
            _ = try await fixture.engine.dissolve(room.id, by: .admin, in: fixture.tenant, pluginID: nil)
        }
        let store = OutboxStore(database: fixture.database)
        let pending = try await store.list(fixture.tenant.id, status: .pending, before: nil, limit: 1000)
        let first = FlakyDeliverer(failures: 0, next: providers(fixture)), second = FlakyDeliverer(failures: 0, next: providers(fixture))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for deliverer in [first, second] {
                group.addTask {
                    var configuration = fixture.dispatcher(deliverer).configuration
                    configuration.batchSize = 3  // small batches, so both keep claiming while the other delivers
                    let dispatcher = OutboxDispatcher(store: store, deliverer: deliverer, clock: fixture.clock, configuration: configuration, logger: fixture.logger)
                    while try await dispatcher.dispatchOnce() > 0 {}
                }
            }
            try await group.waitForAll()
        }
        let ids = (first.delivered + second.delivered).map(\.id)
        #expect(ids.count == pending.count && Set(ids) == Set(pending.map(\.id)), "every entry once: \(ids.count) deliveries of \(pending.count)")
        #expect(!first.delivered.isEmpty && !second.delivered.isEmpty, "both took part: \(first.delivered.count) and \(second.delivered.count)")
        #expect(try await store.list(fixture.tenant.id, status: .pending, before: nil, limit: 10).isEmpty)
    }

    /// A vendor down for hours still gets its effects: the default policy
    /// gives up only after about a day of backoffs (jitter included).
    /// #18: deliveries are retried for at least 24 hours, whatever the jitter draws.
    @Test func theDefaultPolicyKeepsTryingForAtLeastADay() async throws {
        let fixture = try await EngineFixture()
        let attempts = OutboxDispatcher.Configuration().maxAttempts
        let dispatcher = fixture.dispatcher(FlakyDeliverer(failures: 0, next: providers(fixture)), maxAttempts: attempts)
        let shortest = (1..<attempts).reduce(0.0) { $0 + dispatcher.backoff(afterAttempt: $1, jitter: 0.8) }
        let longest = (1..<attempts).reduce(0.0) { $0 + dispatcher.backoff(afterAttempt: $1, jitter: 1.0) }
        #expect(shortest >= 24 * 3_600, "\(attempts) attempts span at least \(shortest / 3_600) h")
        #expect(longest <= 36 * 3_600, "and at most \(longest / 3_600) h")
    }

    /// An entry being delivered is neither woken nor retried by an operator:
    /// either would let a second dispatcher deliver it again.
    @Test func anEntryInFlightIsNotMadeDueAgain() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "ann")
        _ = try await fixture.engine.dissolve(room.id, by: .admin, in: fixture.tenant, pluginID: nil)
        let store = OutboxStore(database: fixture.database)
        let claimed = try #require(try await store.claimDue(now: fixture.clock.now(), lease: 20, limit: 10, tenants: fixture.tenants.ids).first)
        #expect(try await store.wakeBackedOff(fixture.tenant.id, kind: claimed.kind, now: fixture.clock.now()) == 0)
        #expect(try await store.retry(fixture.tenant.id, claimed.id, now: fixture.clock.now()) == nil)
        #expect(try await store.claimDue(now: fixture.clock.now(), lease: 20, limit: 10, tenants: fixture.tenants.ids).isEmpty)
        try await store.markFailed(claimed, attempt: .init(at: fixture.clock.now(), statusCode: nil, latencyMS: 1, error: "down"), retryAt: fixture.clock.now().addingTimeInterval(60))
        #expect(try await store.wakeBackedOff(fixture.tenant.id, kind: claimed.kind, now: fixture.clock.now()) == 1, "backing off: woken")
    }

    /// A lane's entries behind one that backs off wait with it: due, they
    /// were read by every claim, every tenant's, and passed over (only a
    /// lane's first entry may go). With 20,000 entries behind 10 failing
    /// heads, one claim took 188 ms and 80,000 buffers (EXPLAIN ANALYZE on
    /// a bench cluster): one tenant's backlog slowed every tenant.
    @Test func entriesBehindABackedOffHeadWaitWithIt() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "alice"), other = try await fixture.room(owner: "bob")
        for name in ["ann", "ben", "cat"] {
            try await fixture.queueJoinMessage(room, from: name)
        }
        try await fixture.queueJoinMessage(other, from: "dan")
        let store = OutboxStore(database: fixture.database)
        let now = fixture.clock.now()
        let claimed = try await store.claimDue(now: now, lease: 20, limit: 10, tenants: fixture.tenants.ids)
        let head = try #require(claimed.first { $0.roomID == room.id })
        func due(_ roomID: RoomID, at time: Date) async throws -> Int {
            try await fixture.count("""
                SELECT count(*)::int FROM outbox WHERE tenant_id = ANY($1) AND room_id = \(roomID) AND status = 'pending'
                  AND outbox_id <> \(head.id) AND next_attempt_at <= '\(ISO8601DateFormatter().string(from: time))'
                """)
        }
        let leaseEnd = now.addingTimeInterval(20)
        let behind = try await due(room.id, at: leaseEnd), otherDue = try await due(other.id, at: now)
        #expect(behind == 2, "the messages' entries wait behind the head in flight, at most its lease (\(behind))")
        let retryAt = now.addingTimeInterval(60)
        try await store.markFailed(head, attempt: .init(at: now, statusCode: nil, latencyMS: 1, error: "down"), retryAt: retryAt)
        #expect(try await due(room.id, at: leaseEnd) == 0, "they back off with their head")
        #expect(try await due(room.id, at: retryAt) == behind, "and are due again with it")
        #expect(try await due(other.id, at: now) == otherDue, "another room's lane is left alone")
    }

    /// The same for a head in flight (#41): while a lane's first entry is
    /// being delivered, the entries behind it wait for it, and its delivery
    /// makes the next one due. Before, each claim read every entry of a hot
    /// room's lane and passed it over: ops/bench figure 7 queued 2,000 join
    /// messages in one lane, and its 876 claims took 4.4 ms each (3.8 s of
    /// PostgreSQL's time, every tenant's claims slowed with them).
    @Test func entriesBehindAHeadInFlightWaitForIt() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "alice"), other = try await fixture.room(owner: "bob")
        for name in ["ann", "ben", "cat"] {
            try await fixture.queueJoinMessage(room, from: name)
        }
        try await fixture.queueJoinMessage(other, from: "dan")
        let store = OutboxStore(database: fixture.database)
        func dueBehind(_ roomID: RoomID, at time: Date) async throws -> [String] {
            let rows = try await fixture.database.query("""
                SELECT payload::text FROM outbox WHERE tenant_id = \(fixture.tenant.id) AND room_id = \(roomID) AND status = 'pending'
                  AND claimed_until IS NULL AND next_attempt_at <= \(time) ORDER BY outbox_id
                """)
            return try rows.decode(String.self).map { $0.contains("ann") ? "ann" : $0.contains("ben") ? "ben" : "cat" }
        }
        let now = fixture.clock.now()
        let claimed = try await store.claimDue(now: now, lease: 20, limit: 10, tenants: fixture.tenants.ids)
        #expect(claimed.count == 2, "each lane's first entry: \(claimed.map(\.payload))")
        let head = try #require(claimed.first { $0.roomID == room.id })
        #expect(try await dueBehind(room.id, at: now).isEmpty, "ben and cat wait for ann, in flight")
        #expect(try await dueBehind(room.id, at: now.addingTimeInterval(20)) == ["ben", "cat"], "until ann's lease ends, if its dispatcher dies")
        try await store.markDelivered(head, attempt: .init(at: now, statusCode: nil, latencyMS: 1, error: nil))
        #expect(try await dueBehind(room.id, at: now) == ["ben"], "ann delivered: ben is due, cat waits for it")
        let next = try await store.claimDue(now: now, lease: 20, limit: 10, tenants: fixture.tenants.ids)
        #expect(next.map(\.roomID) == [room.id] && next[0].payload.contains("ben"))
        try await store.markFailed(next[0], attempt: .init(at: now, statusCode: nil, latencyMS: 1, error: "refused"), retryAt: nil)
        #expect(try await dueBehind(room.id, at: now) == ["cat"], "ben dead: cat is due")
    }

    @Test func oneRoomsEntriesAreDeliveredInOrder() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "alice")
        for name in ["ann", "ben", "cat"] {
            try await fixture.queueJoinMessage(room, from: name)
        }
        let flaky = FlakyDeliverer(failures: 1, next: providers(fixture))
        let dispatcher = fixture.dispatcher(flaky)
        for _ in 0..<8 {
            _ = try await dispatcher.dispatchOnce()
            fixture.clock.advance(by: 60)
        }
        #expect(flaky.delivered.map(\.payload).map { $0.contains("ann") ? "ann" : $0.contains("ben") ? "ben" : "cat" } == ["ann", "ben", "cat"],
                "the first entry's failure holds back the room's later ones")
    }
}

@Suite struct MigratorTests {
    @Test func twoInstancesMigrateAFreshDatabaseOnceAndAgainIsANoOp() async throws {
        let database = try await TestDatabase.shared()
        let name = uniqueID("migrate_")
        try await database.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        defer { Task { try? await database.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")) } }

        let migrator = try TestDatabase.migrator
        async let first = TestDatabase.withDatabase(named: name) { try await migrator.migrate($0) }
        async let second = TestDatabase.withDatabase(named: name) { try await migrator.migrate($0) }
        let applied = try await first + second
        #expect(applied.sorted() == migrator.migrations.map(\.id).sorted(), "each migration applied by exactly one instance")
        let again = try await TestDatabase.withDatabase(named: name) { try await migrator.migrate($0) }
        #expect(again.isEmpty)
        let pending = try await TestDatabase.withDatabase(named: name) { try await migrator.pending($0) }
        #expect(pending.isEmpty)
    }
}

import PostgresNIO

/// #17: an instance killed after the local IM applied an entry but before it
/// was marked delivered leaves the entry to another instance, which delivers
/// it again. The local IM applies each entry once, by its idempotency key.
@Suite struct LocalIMOnceTests {
    @Test func anEntryDeliveredTwiceIsAppliedOnce() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "alice")
        let chatroom = try #require(room.imChatroomID)
        let deliverer = OutboxDispatcherTests().providers(fixture)
        let effects: [IMEffect] = [
            .queuePut(chatroom: chatroom, key: "queue_1", value: "v", operator: "alice"),
            .chatroomMessage(chatroom: chatroom, from: "alice", type: "custom", body: "hello", persist: true),
            .notification(from: "alice", to: "bob", attach: "ping", storeOffline: true),
        ]
        for (index, effect) in effects.enumerated() {
            let entry = OutboxEntry(
                tenantID: fixture.tenant.id, id: Int64(index + 1), roomID: room.id, kind: "im", payload: "", effect: .im(effect),
                status: .pending, attempts: 1, nextAttemptAt: fixture.clock.now(), lastError: nil, createdAt: fixture.clock.now(), deliveredAt: nil)
            _ = try await deliverer.deliver(entry)
            _ = try await deliverer.deliver(entry)
        }
        let events = try await fixture.database.query(
            "SELECT kind, count(*)::int FROM im_events WHERE tenant_id = \(fixture.tenant.id) AND chatroom_id = \(chatroom) GROUP BY kind ORDER BY kind")
        let counts = Dictionary(uniqueKeysWithValues: try events.decode((String, Int).self).map { ($0.0, $0.1) })
        #expect(counts == ["message": 1, "queue": 1])
        let notifications = try await fixture.database.query(
            "SELECT count(*)::int FROM im_notifications WHERE tenant_id = \(fixture.tenant.id) AND to_accid = 'bob'")
        #expect(try notifications.first?.decode(Int.self) == 1)
    }
}
