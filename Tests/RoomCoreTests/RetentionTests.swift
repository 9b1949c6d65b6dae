import Foundation
import Logging
import PostgresNIO
import RoomCore
import RoomTestSupport
import Testing

/// #16, finding 10: nothing grows for ever. What retention no longer keeps
/// goes, in bounded batches; what still serves someone stays.
@Suite struct RetentionTests {
    /// #41: each purge reaches its rows by their age through an index, so
    /// a pass (each instance, every minute) costs what it deletes, not what
    /// a tenant keeps. A tenant keeping 5,000 guests, their sessions,
    /// 5,000 delivered outbox entries, closed rooms and timeline events, and
    /// 2,000 hours of usage, none due: PostgreSQL's executed plan
    /// of each purge may not read and throw away what it keeps. The
    /// sessions' purge asked one expression (least(coalesce(revoked_at,
    /// expires_at), expires_at)) that no index holds, so it read every
    /// session of the tenant (this test failed on it: 5,000 rows removed by
    /// its filter). Sequential scans are priced out (the test database's
    /// tables are small).
    @Test func eachPurgeWalksItsRowsByAge() async throws {
        let fixture = try await EngineFixture()
        let tenant = fixture.tenant.id, now = fixture.clock.now()
        try await fixture.database.query("""
            INSERT INTO accounts (tenant_id, accid, created_at) SELECT \(tenant), 'kept-' || n, \(now) FROM generate_series(1, 5000) n
            """)
        try await fixture.database.query("""
            INSERT INTO sessions (tenant_id, token_hash, accid, plugin_id, created_at, expires_at)
            SELECT \(tenant), 'kept-' || n, 'kept-' || n, 'test-rooms', \(now), \(now.addingTimeInterval(86_400)) FROM generate_series(1, 5000) n
            """)
        try await fixture.database.query("""
            INSERT INTO outbox (tenant_id, kind, payload, status, next_attempt_at, created_at, delivered_at)
            SELECT \(tenant), 'im', '{}', 'delivered', \(now), \(now), \(now) FROM generate_series(1, 5000) n
            """)
        try await fixture.database.query("""
            INSERT INTO rooms (tenant_id, room_id, plugin_id, name, owner, state, capacity, created_at, expires_at, closed_at, close_reason)
            SELECT \(tenant), 900000000 + n, 'test-rooms', 'kept', 'kept-' || n, 'closed', 10, \(now), \(now), \(now), 'dissolved' FROM generate_series(1, 5000) n
            """)
        try await fixture.database.query("""
            INSERT INTO room_events (tenant_id, room_id, at, kind, actor)
            SELECT \(tenant), \(EventFeed.tenantTimeline), \(now), 'banned', 'admin' FROM generate_series(1, 5000) n
            """)
        try await fixture.database.query("""
            INSERT INTO usage_hourly (tenant_id, hour) SELECT \(tenant), date_trunc('hour', \(now)::timestamptz) - n * interval '1 hour' FROM generate_series(0, 2000) n
            """)
        try await fixture.database.query("ANALYZE accounts, sessions, outbox, rooms, room_events, usage_hourly")
        let purger = RetentionPurger(database: fixture.database, clock: fixture.clock, tenants: { [fixture.tenant] }, logger: Logger(label: "retention"))
        let purges = purger.purges(of: fixture.tenant, now: now) + purger.sharedPurges(now: now)
        #expect(purges.count == 9)
        for purge in purges {
            let plan = try await fixture.database.transaction { connection in
                try await connection.query("SET LOCAL enable_seqscan = off", logger: fixture.logger)
                let rows = try await connection.query(PostgresQuery(unsafeSQL: "EXPLAIN (ANALYZE, COSTS OFF) " + purge.delete.sql, binds: purge.delete.binds),
                                                      logger: fixture.logger)
                return try await rows.collect().map { try $0.decode(String.self) }
            }
            let thrownAway = plan.compactMap { line -> Int? in
                guard let range = line.range(of: "Rows Removed by Filter: ") else { return nil }
                return Int(line[range.upperBound...].prefix { $0.isNumber })
            }.reduce(0, +)
            #expect(thrownAway < 100, "\(purge.table): read \(thrownAway) rows it keeps:\n\(plan.joined(separator: "\n"))")
            let walked = plan.filter { $0.contains("Index Cond:") }
            for column in purge.ageColumns {
                #expect(walked.contains { $0.contains("(\(column) <") || $0.contains(" \(column) <") },
                        "\(purge.table): \(column) is not an index's condition:\n\(plan.joined(separator: "\n"))")
            }
        }
    }

    @Test func oldClosedRoomsEndedSessionsIdleGuestsAndDeliveredEntriesGo() async throws {
        let fixture = try await EngineFixture()
        let tenant = fixture.tenant
        let accounts = AccountStore(database: fixture.database, clock: fixture.clock)
        let purger = RetentionPurger(database: fixture.database, clock: fixture.clock, tenants: { [tenant] }, batch: 1, logger: Logger(label: "retention"))

        let closed = try await fixture.room(owner: "old-owner", ttl: 86_400 * 300)
        _ = try await fixture.engine.join(closed.id, account: "member", in: tenant, pluginID: nil)
        _ = try await fixture.engine.dissolve(closed.id, by: .account("old-owner"), in: tenant, pluginID: nil)
        let alsoClosed = try await fixture.room(owner: "old-owner-2")
        _ = try await fixture.engine.dissolve(alsoClosed.id, by: .account("old-owner-2"), in: tenant, pluginID: nil)
        let idleGuest = try await accounts.createGuest(tenant.id, prefix: "g", nickname: { $0 }, avatar: "")
        _ = try await accounts.openSession(tenant.id, accid: idleGuest.accid, pluginID: "test-rooms", ttlSeconds: 3_600)
        let hostGuest = try await accounts.createGuest(tenant.id, prefix: "h", nickname: { $0 }, avatar: "")
        let registered = Account(accid: "registered", nickname: "r")
        #expect(try await accounts.create(tenant.id, registered, passwordHash: "$2b$10$x"))
        try await fixture.database.query("""
            INSERT INTO outbox (tenant_id, kind, payload, status, next_attempt_at, created_at, delivered_at)
            VALUES (\(tenant.id), 'im', '{}', 'delivered', now(), \(fixture.clock.now()), \(fixture.clock.now())),
                   (\(tenant.id), 'im', '{}', 'pending', now(), \(fixture.clock.now()), NULL)
            """)

        fixture.clock.advance(by: 91 * 86_400)
        let open = try await fixture.room(owner: hostGuest.accid, ttl: 86_400 * 300)
        let recent = try await fixture.room(owner: "recent-owner")
        _ = try await fixture.engine.dissolve(recent.id, by: .account("recent-owner"), in: tenant, pluginID: nil)

        // A pass with no time to spare deletes one batch (one row) a table and
        // reports what it left; a pass with time works through the backlog
        // batch after batch (#27: one batch a minute fell behind for ever).
        let hurried = RetentionPurger(database: fixture.database, clock: fixture.clock, tenants: { [tenant] }, batch: 1, budget: .zero,
                                      logger: Logger(label: "retention"))
        #expect(try await hurried.purgeOnce() >= 4, "one row a table: a closed room, an outbox entry, a session, a guest")
        #expect(hurried.backlog["rooms"] == 1, "the second closed room is reported as backlog: \(hurried.backlog)")
        let purged = try await purger.purgeOnce()
        #expect(purged >= 1, "the rest went in batches of one, in one pass")
        #expect(purger.backlog.isEmpty, "nothing left behind: \(purger.backlog)")
        #expect(try await purger.purgeOnce() == 0, "nothing left for the next pass")

        let left = try await fixture.database.query("""
            SELECT (SELECT array_agg(room_id ORDER BY room_id) FROM rooms WHERE tenant_id = \(tenant.id)),
                   (SELECT count(*)::int FROM room_events WHERE tenant_id = \(tenant.id) AND room_id = \(closed.id)),
                   (SELECT count(*)::int FROM room_members WHERE tenant_id = \(tenant.id) AND room_id = \(closed.id)),
                   (SELECT count(*)::int FROM sessions WHERE tenant_id = \(tenant.id)),
                   (SELECT array_agg(accid ORDER BY accid) FROM accounts WHERE tenant_id = \(tenant.id)),
                   (SELECT array_agg(status ORDER BY status) FROM outbox WHERE tenant_id = \(tenant.id))
            """).decode(([Int64], Int, Int, Int, [String], [String]).self).first
        let (rooms, events, members, sessions, accountIDs, outbox) = try #require(left)
        #expect(Set(rooms) == [open.id, recent.id], "the closed room went with its events and members; open and recent stay")
        #expect(events == 0 && members == 0)
        #expect(sessions == 0, "the ended session went")
        #expect(accountIDs == [hostGuest.accid, "registered"].sorted(), "the idle guest went; a room's host and a registered account stay")
        #expect(outbox.contains("pending") && !outbox.contains("delivered"))
    }

    /// #27: a guest a plugin row still names stays (a new guest drawing its
    /// id would inherit the row); a purged guest's own rows go with it, and
    /// its id is never drawn again.
    @Test func aGuestAPluginRowNamesStaysAndAPurgedIdIsNeverDrawnAgain() async throws {
        let fixture = try await EngineFixture()
        let tenant = fixture.tenant
        let accounts = AccountStore(database: fixture.database, clock: fixture.clock)
        let purger = RetentionPurger(database: fixture.database, clock: fixture.clock, tenants: { [tenant] },
                                     keepers: [AccountReference(table: "headset_devices", column: "owner")],
                                     dependents: [AccountReference(table: "im_notifications", column: "to_accid")], logger: Logger(label: "retention"))
        let bound = try await accounts.createGuest(tenant.id, prefix: "p", nickname: { $0 }, avatar: "")
        let idle = try await accounts.createGuest(tenant.id, prefix: "p", nickname: { $0 }, avatar: "")
        try await fixture.database.query("""
            INSERT INTO headset_devices (tenant_id, device_id, owner, bound_at) VALUES (\(tenant.id), 'GLASS-1', \(bound.accid), \(fixture.clock.now()))
            """)
        try await fixture.database.query("""
            INSERT INTO im_notifications (tenant_id, from_accid, to_accid, attach, store_offline, created_at)
            VALUES (\(tenant.id), 'server', \(idle.accid), '{}', true, \(fixture.clock.now()))
            """)
        fixture.clock.advance(by: 91 * 86_400)
        _ = try await purger.purgeOnce()
        let left = try await fixture.database.query("""
            SELECT (SELECT array_agg(accid ORDER BY accid) FROM accounts WHERE tenant_id = \(tenant.id)),
                   (SELECT count(*)::int FROM im_notifications WHERE tenant_id = \(tenant.id) AND to_accid = \(idle.accid)),
                   (SELECT array_agg(accid) FROM retired_accounts WHERE tenant_id = \(tenant.id))
            """).decode(([String], Int, [String]).self).first
        let (kept, notifications, retired) = try #require(left)
        #expect(kept == [bound.accid], "the bound guest stays; the idle one went")
        #expect(notifications == 0, "its stored notification went with it")
        #expect(retired == [idle.accid])
        // A draw that lands on the retired id draws again.
        var draws = [String(idle.accid.dropFirst()), "12345678"]
        let next = try await accounts.createGuest(tenant.id, prefix: "p", nickname: { $0 }, avatar: "", digits: { draws.removeFirst() })
        #expect(next.accid == "p12345678", "the retired id was not given again")
    }

    /// #27: Idempotency-Key answers are kept a day, then purged with the rest.
    @Test func idempotencyAnswersGoAfterADay() async throws {
        let fixture = try await EngineFixture()
        let purger = RetentionPurger(database: fixture.database, clock: fixture.clock, tenants: { [fixture.tenant] }, logger: Logger(label: "retention"))
        let scope = "\(fixture.tenant.id)|caller"
        try await fixture.database.query("""
            INSERT INTO idempotency_keys (scope, key, fingerprint, status, created_at)
            VALUES (\(scope), 'old', 'f', 200, \(fixture.clock.now().addingTimeInterval(-86_401))), (\(scope), 'new', 'f', 200, \(fixture.clock.now()))
            """)
        _ = try await purger.purgeOnce()
        let left = try await fixture.database.query("SELECT key FROM idempotency_keys WHERE scope = \(scope)").decode(String.self)
        #expect(Array(left) == ["new"])
    }

    /// #30: usage per hour is the billing export, kept 400 days (a year and
    /// its next month's invoice) or the tenant's `[retention] usage`; it grew
    /// for ever before.
    @Test func usageHoursGoAfterTheirRetention() async throws {
        let fixture = try await EngineFixture()
        let purger = RetentionPurger(database: fixture.database, clock: fixture.clock, tenants: { [fixture.tenant] }, logger: Logger(label: "retention"))
        let tenant = fixture.tenant.id
        let old = fixture.clock.now().addingTimeInterval(-401 * 86_400), recent = fixture.clock.now().addingTimeInterval(-399 * 86_400)
        try await fixture.database.query("""
            INSERT INTO usage_hourly (tenant_id, hour, api_requests) VALUES (\(tenant), \(old), 1), (\(tenant), \(recent), 2)
            """)
        _ = try await purger.purgeOnce()
        let left = try await fixture.database.query("SELECT api_requests FROM usage_hourly WHERE tenant_id = \(tenant)").decode(Int64.self)
        #expect(Array(left) == [2], "the hour past 400 days went, the one within stayed")
        #expect(RetentionPolicy(SettingsReader(file: "t.toml", path: "retention", table: ["usage": .string("30d")], environment: [:])).usage == 30 * 86_400)
    }

    @Test func aTenantSetsItsOwnRetention() throws {
        let reader = SettingsReader(file: "t.toml", path: "retention", table: ["closedRooms": .string("2d"), "idleGuests": .string("1h")], environment: [:])
        let policy = RetentionPolicy(reader)
        #expect(policy.closedRooms == 2 * 86_400 && policy.idleGuests == 3_600 && policy.deliveredOutbox == 7 * 86_400)
        let bad = SettingsReader(file: "t.toml", path: "retention", table: ["closedRooms": .string("1s")], environment: [:])
        _ = RetentionPolicy(bad)
        #expect(bad.issues.first?.description.contains("closedRooms") == true, "a retention under an hour is refused by name")
    }
}
