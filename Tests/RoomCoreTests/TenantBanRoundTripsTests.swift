import Foundation
@testable import RoomCore
import RoomTestSupport
import Testing

/// #42: a tenant's first ban of an account is decided, then written once:
/// the read (which draws the ban's id, so its commit is confirmed), one
/// statement that takes the account's lock and writes the ban, the revoked
/// sessions, the IM tokens' revocation, the event and the audit row, and
/// its probe. The transaction took 9. A ban over one in force keeps the
/// transaction, which weighs the two.
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
        let written = try #require(ban)
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

        // Over the one in force: not written once (the transaction weighs them), and nothing written.
        let again = try await fixture.engine.tenantBanOnce(troll.accid, terms: BanTerms(until: nil, reason: "again"), by: .admin, in: fixture.tenant)
        #expect(again == nil)
        let longer = try await fixture.engine.banFromTenant(troll.accid, reason: "again", by: .admin, in: fixture.tenant)
        #expect(longer.id == written.id && longer.expiresAt == nil, "one ban in force, the longer terms")
        #expect(try await fixture.count("SELECT count(*)::int FROM bans WHERE tenant_id = '\(tenant)' AND room_id IS NULL") == 1)
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
    /// the losers of the unique index weighed by the transaction, each audited.
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
}
