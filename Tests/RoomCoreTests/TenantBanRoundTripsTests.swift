import Foundation
@testable import RoomCore
import RoomTestSupport
import Testing

/// #42: a tenant's ban of an account is decided, then written once: the
/// read (the ban in force, and a new ban's id drawn), one statement that
/// takes the account's lock and writes the ban (or weighs it over the one
/// in force), the revoked sessions, the IM tokens' revocation, the event
/// and the audit row, and its probe. The transaction took 9. Its lift is
/// the read, one statement and its probe.
@Suite struct TenantBanRoundTripsTests {
    @Test func aFirstTenantBanIsWrittenOnce() async throws {
        let fixture = try await EngineFixture()
        let tenant = fixture.tenant.id
        let accounts = AccountStore(database: fixture.database, clock: fixture.clock)
        let troll = try await accounts.createGuest(tenant, nickname: { _ in "troll" }, avatar: "")
        _ = try await accounts.openSession(tenant, accid: troll.accid, pluginID: TestRoomsPlugin.pluginID, ttlSeconds: 600)
        let until = fixture.clock.now().addingTimeInterval(600)
        let tally = StatementTally()
        let ban = try await StatementTally.$current.withValue(tally) {
            try await fixture.engine.tenantBanOnce(troll.accid, terms: BanTerms(until: until, reason: "spam"), by: .admin, in: fixture.tenant)
        }
        #expect(tally.count <= 4, "the read and its probe, the statement and its probe: \(tally.sent)")
        let written = ban
        #expect(written.roomID == nil && written.expiresAt == until && written.reason == "spam" && written.createdBy == "admin")
        #expect(try await BanStore(database: fixture.database).ban(tenant, written.id) == written, "the ban answered is the ban stored")
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM sessions WHERE tenant_id = '\(tenant)' AND accid = '\(troll.accid)' AND revoked_at IS NULL
            """) == 0, "its sessions are revoked")
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM outbox WHERE tenant_id = '\(tenant)' AND kind = 'im' AND payload::text LIKE '%revokeTokens%\(troll.accid)%'
            """) == 1, "its IM tokens too")
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM room_events WHERE tenant_id = '\(tenant)' AND room_id = \(EventFeed.tenantTimeline) AND kind = 'banned'
              AND detail->>'account' = '\(troll.accid)' AND (detail->>'ban')::bigint = \(written.id) AND detail->>'until' IS NOT NULL
            """) == 1, "on the tenant's timeline")
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM audit_log WHERE tenant_id = '\(tenant)' AND action = 'tenant.ban' AND target = 'account:\(troll.accid)'
              AND detail->>'ban' = '\(written.id)'
            """) == 1)

        // Over the one in force, an admin's terms replace its own: the same
        // ban (its id kept), weighed and written once too.
        let (longer, overTally) = try await KickRoundTripsTests.tallied {
            try await fixture.engine.tenantBanOnce(troll.accid, terms: BanTerms(until: nil, reason: "again"), by: .admin, in: fixture.tenant)
        }
        #expect(overTally.count <= 4, "the read, the statement and its probe: \(overTally.sent)")
        #expect(longer.id == written.id && longer.expiresAt == nil && longer.reason == "again", "one ban in force, the admin's terms")
        #expect(try await BanStore(database: fixture.database).ban(tenant, written.id) == longer, "the ban answered is the ban stored")
        #expect(try await fixture.count("SELECT count(*)::int FROM bans WHERE tenant_id = '\(tenant)' AND room_id IS NULL") == 1)
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM room_events WHERE tenant_id = '\(tenant)' AND room_id = \(EventFeed.tenantTimeline) AND kind = 'banned'
              AND (detail->>'ban')::bigint = \(written.id) AND detail->>'reason' = 'again' AND detail->>'until' IS NULL
            """) == 1, "its event carries the terms in force")
        // A moderator's shorter ban over it: the stricter stands, and the act is still on the timeline and audited.
        let shorter = try await fixture.engine.tenantBanOnce(troll.accid, terms: BanTerms(until: until, reason: "short"), by: .account("mod"), in: fixture.tenant)
        #expect(shorter == longer, "the permanent ban stands as it was")
        #expect(try await fixture.count("SELECT count(*)::int FROM audit_log WHERE tenant_id = '\(tenant)' AND action = 'tenant.ban'") == 3)
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM room_events WHERE tenant_id = '\(tenant)' AND room_id = \(EventFeed.tenantTimeline) AND kind = 'banned'
            """) == 3)
    }

    /// A tenant ban ended by its expiry, not yet stamped so, is stamped
    /// (ended at its expiry, by "expired") before a new ban is written, so
    /// its history stays as it was.
    @Test func aBanAfterAnEndedOneStampsItAndWritesAnother() async throws {
        let fixture = try await EngineFixture()
        let tenant = fixture.tenant.id
        let first = try await fixture.engine.banFromTenant("troll", until: fixture.clock.now().addingTimeInterval(60), reason: "one", by: .admin,
                                                           in: fixture.tenant)
        fixture.clock.advance(by: 120)
        let second = try await fixture.engine.banFromTenant("troll", reason: "two", by: .account("mod"), in: fixture.tenant)
        #expect(second.id != first.id && second.reason == "two" && second.expiresAt == nil)
        let ended = try #require(try await BanStore(database: fixture.database).ban(tenant, first.id))
        #expect(ended.liftedAt == first.expiresAt && ended.liftedBy == "expired")
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM bans WHERE tenant_id = '\(tenant)' AND room_id IS NULL AND lifted_at IS NULL
            """) == 1)
    }

    /// A tenant ban's lift: the read, one statement and its probe; on the
    /// tenant's timeline and in the audit log; lifted once.
    @Test func aTenantBanIsLiftedInThreeRoundTrips() async throws {
        let fixture = try await EngineFixture()
        let tenant = fixture.tenant.id
        let ban = try await fixture.engine.banFromTenant("troll", until: fixture.clock.now().addingTimeInterval(600), reason: "spam", by: .admin,
                                                         in: fixture.tenant)
        let (lifted, tally) = try await KickRoundTripsTests.tallied {
            try await fixture.engine.lift(ban.id, by: .admin, in: fixture.tenant)
        }
        #expect(tally.count <= 3, "the ban's read, the statement and its probe: \(tally.sent)")
        #expect(lifted?.id == ban.id && lifted?.liftedAt != nil && lifted?.liftedBy == "admin")
        #expect(try await BanStore(database: fixture.database).ban(tenant, ban.id) == lifted, "the lift answered is the lift stored")
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM room_events WHERE tenant_id = '\(tenant)' AND room_id = \(EventFeed.tenantTimeline) AND kind = 'unbanned'
              AND detail->>'account' = 'troll' AND (detail->>'ban')::bigint = \(ban.id) AND detail->>'reason' = 'spam'
            """) == 1)
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM audit_log WHERE tenant_id = '\(tenant)' AND action = 'tenant.unban' AND target = 'account:troll'
              AND detail->>'ban' = '\(ban.id)'
            """) == 1)
        #expect(try await fixture.engine.lift(ban.id, by: .admin, in: fixture.tenant) == nil, "lifted once")
        #expect(try await fixture.count("SELECT count(*)::int FROM room_events WHERE tenant_id = '\(tenant)' AND kind = 'unbanned'") == 1)
        let room = try await fixture.room(owner: "host")
        _ = try await fixture.engine.join(room.id, account: "troll", in: fixture.tenant, pluginID: nil)
    }

    /// The same statement, as the transaction wrote it: the event the feed
    /// and the webhooks see, the ban the account's joins meet.
    @Test func aTenantBanWrittenOnceKeepsTheAccountOut() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "host")
        _ = try await fixture.engine.join(room.id, account: "troll", in: fixture.tenant, pluginID: nil)
        let tally = StatementTally()
        _ = try await StatementTally.$current.withValue(tally) {
            try await fixture.engine.banFromTenant("troll", reason: "abuse", by: .admin, in: fixture.tenant)
        }
        #expect(tally.count <= 9, "the ban written once (4), the rooms it joined and owns read (2), the kick from its one room (3): \(tally.sent)")
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM room_members WHERE tenant_id = '\(fixture.tenant.id)' AND room_id = \(room.id) AND accid = 'troll' AND status = 'joined'
            """) == 0, "taken out of the room it had joined")
        await #expect(throws: RoomError.banned) {
            try await fixture.engine.join(room.id, account: "troll", in: fixture.tenant, pluginID: nil)
        }
    }

    /// Eight first tenant bans of one account at once: one ban in force,
    /// the losers of the unique index read again and weighed over it, each audited.
    @Test func racingFirstTenantBansMakeOneBan() async throws {
        let fixture = try await EngineFixture()
        let ids = try await withThrowingTaskGroup(of: Int64.self) { group in
            for _ in 0..<8 {
                group.addTask { try await fixture.engine.banFromTenant("troll", reason: "", by: .admin, in: fixture.tenant).id }
            }
            return try await group.reduce(into: Set<Int64>()) { $0.insert($1) }
        }
        let tenant = fixture.tenant.id
        #expect(ids.count == 1, "every ban answered the one in force: \(ids)")
        #expect(try await fixture.count("SELECT count(*)::int FROM bans WHERE tenant_id = '\(tenant)' AND room_id IS NULL") == 1)
        #expect(try await fixture.count("SELECT count(*)::int FROM audit_log WHERE tenant_id = '\(tenant)' AND action = 'tenant.ban'") == 8)
    }

    /// Eight admins' bans over one in force at once, each with its own
    /// terms: one ban in force, with the terms of the one written last (an
    /// admin's replace), and each on the timeline with the terms it left.
    @Test func racingBansOverOneInForceEndAsTheLastWritten() async throws {
        let fixture = try await EngineFixture()
        let tenant = fixture.tenant.id
        let first = try await fixture.engine.banFromTenant("troll", reason: "first", by: .admin, in: fixture.tenant)
        let answers = try await withThrowingTaskGroup(of: Ban.self) { group in
            for index in 0..<8 {
                group.addTask {
                    try await fixture.engine.banFromTenant("troll", until: fixture.clock.now().addingTimeInterval(Double(100 + index)), reason: "r\(index)",
                                                           by: .admin, in: fixture.tenant)
                }
            }
            return try await group.reduce(into: [Ban]()) { $0.append($1) }
        }
        #expect(Set(answers.map(\.id)) == [first.id])
        let stored = try #require(try await BanStore(database: fixture.database).ban(tenant, first.id))
        let last = try await fixture.database.query("""
            SELECT detail->>'reason' FROM room_events WHERE tenant_id = \(tenant) AND room_id = \(EventFeed.tenantTimeline)
              AND kind = 'banned' ORDER BY event_id DESC LIMIT 1
            """).decode(String.self)
        #expect([stored.reason] == last, "the ban in force has the terms of the last event: \(last)")
        #expect(answers.contains(stored))
        #expect(try await fixture.count("SELECT count(*)::int FROM bans WHERE tenant_id = '\(tenant)' AND room_id IS NULL") == 1)
        #expect(try await fixture.count("""
            SELECT count(DISTINCT detail->>'reason')::int FROM room_events WHERE tenant_id = '\(tenant)' AND kind = 'banned'
            """) == 9)
    }

    /// A lift and a ban over the same ban at once, twelve times: each ends
    /// as one of the two serial orders (lifted, then a new ban; or weighed,
    /// then lifted with the new terms), never a lift of terms no longer in
    /// force or a ban lost.
    @Test func aLiftRacingABanOverItEndsAsASerialOrder() async throws {
        let fixture = try await EngineFixture()
        let tenant = fixture.tenant.id
        for round in 0..<12 {
            let account = "troll\(round)"
            let standing = try await fixture.engine.banFromTenant(account, reason: "old", by: .admin, in: fixture.tenant)
            async let lifted = fixture.engine.lift(standing.id, by: .admin, in: fixture.tenant)
            async let over = fixture.engine.banFromTenant(account, reason: "new", by: .admin, in: fixture.tenant)
            let (lift, ban) = try await (lifted, over)
            let liftedRow = try #require(try await BanStore(database: fixture.database).ban(tenant, standing.id))
            #expect(lift?.id == standing.id && liftedRow.liftedAt != nil, "the lift found the ban in force either way")
            let inForce = try await fixture.count("""
                SELECT count(*)::int FROM bans WHERE tenant_id = '\(tenant)' AND accid = '\(account)' AND room_id IS NULL AND lifted_at IS NULL
                """)
            if ban.id == standing.id {
                // Weighed first, then lifted: the lift carries the new terms.
                #expect(inForce == 0 && liftedRow.reason == "new" && lift?.reason == "new")
            } else {
                // Lifted first, then a new ban.
                #expect(inForce == 1 && liftedRow.reason == "old" && ban.reason == "new")
            }
            #expect(try await fixture.count("""
                SELECT count(*)::int FROM room_events WHERE tenant_id = '\(tenant)' AND kind = 'unbanned' AND detail->>'account' = '\(account)'
                  AND detail->>'reason' = '\(liftedRow.reason)'
                """) == 1, "the lift's event names the terms it lifted")
        }
    }
}
