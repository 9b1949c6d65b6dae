import Foundation
import RoomCore
import RoomTestSupport
import Testing

/// #42: a room's ban or mute is lifted as it was made, decided then written
/// once: the ban's read, the room's read, one statement guarded by the
/// room's version and by the ban not yet lifted, and its probe (it was a
/// transaction of 7 round trips). A tenant ban's lift: `TenantBanRoundTripsTests`.
@Suite struct LiftRoundTripsTests {
    @Test func aRoomsMuteAndBanAreLiftedInFourRoundTrips() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "host")
        let chatroom = try #require(room.imChatroomID)
        let tenant = fixture.tenant.id
        _ = try await fixture.engine.join(room.id, account: "troll", in: fixture.tenant, pluginID: nil)
        let mute = try await fixture.engine.mute(room.id, account: "troll", until: nil, reason: "spam", by: .admin, in: fixture.tenant, pluginID: nil)
        let ban = try await fixture.engine.ban(room.id, account: "pest", reason: "abuse", by: .admin, in: fixture.tenant, pluginID: nil)

        for (lifting, kind, effect) in [(mute, "unmuted", "unmuteMember"), (ban, "unbanned", "readmitToChatroom")] {
            let (lifted, tally) = try await KickRoundTripsTests.tallied {
                try await fixture.engine.lift(lifting.id, by: .account("host"), in: fixture.tenant)
            }
            #expect(tally.count <= 4, "the ban's read, the room's, the statement and its probe: \(tally.sent)")
            #expect(lifted?.id == lifting.id && lifted?.liftedAt != nil && lifted?.liftedBy == Actor.account("host").description)
            #expect(try await BanStore(database: fixture.database).ban(tenant, lifting.id) == lifted, "the lift answered is the lift stored")
            #expect(try await fixture.count("""
                SELECT count(*)::int FROM room_events WHERE tenant_id = '\(tenant)' AND room_id = \(room.id) AND kind = '\(kind)'
                  AND actor = 'account:host' AND detail->>'account' = '\(lifting.accid)'
                """) == 1, "\(kind) on the timeline")
            let action = lifting.kind == .mute ? "member.unmute" : "member.unban"
            #expect(try await fixture.count("""
                SELECT count(*)::int FROM audit_log WHERE tenant_id = '\(tenant)' AND action = '\(action)'
                  AND target = 'room:\(room.id)/account:\(lifting.accid)' AND detail->>'ban' = '\(lifting.id)'
                """) == 1, "\(action) audited")
            #expect(try await fixture.count("""
                SELECT count(*)::int FROM outbox WHERE tenant_id = '\(tenant)' AND room_id = \(room.id) AND payload::text LIKE '%\(effect)%'
                  AND payload::text LIKE '%\(chatroom)%' AND payload::text LIKE '%\(lifting.accid)%'
                """) == 1, "the chatroom's \(effect) queued")
            // Lifted once: a second lift finds none in force, and writes nothing.
            #expect(try await fixture.engine.lift(lifting.id, by: .admin, in: fixture.tenant) == nil)
            #expect(try await fixture.count("SELECT count(*)::int FROM room_events WHERE tenant_id = '\(tenant)' AND kind = '\(kind)'") == 1)
        }
        #expect(try await !fixture.engine.isMuted(room.id, account: "troll", in: fixture.tenant))
        _ = try await fixture.engine.join(room.id, account: "pest", in: fixture.tenant, pluginID: nil)
    }

    /// A closed room's ban is lifted too (a ban outlives its room's close):
    /// on the timeline, with nothing for the chatroom.
    @Test func aClosedRoomsBanIsLiftedWithoutChatroomEffects() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "host")
        let tenant = fixture.tenant.id
        let ban = try await fixture.engine.ban(room.id, account: "pest", by: .admin, in: fixture.tenant, pluginID: nil)
        _ = try await fixture.engine.dissolve(room.id, by: .admin, in: fixture.tenant, pluginID: nil)
        let queued = try await fixture.count("SELECT count(*)::int FROM outbox WHERE tenant_id = '\(tenant)'")
        #expect(try await fixture.engine.lift(ban.id, by: .admin, in: fixture.tenant)?.liftedAt != nil)
        #expect(try await fixture.count("SELECT count(*)::int FROM room_events WHERE tenant_id = '\(tenant)' AND kind = 'unbanned'") == 1)
        #expect(try await fixture.count("SELECT count(*)::int FROM outbox WHERE tenant_id = '\(tenant)' AND payload::text LIKE '%readmit%'") == 0)
        #expect(try await fixture.count("SELECT count(*)::int FROM outbox WHERE tenant_id = '\(tenant)'") >= queued)
    }

    /// Eight lifts of one mute at once: one lift, one event, one audit row.
    @Test func racingLiftsLiftOnce() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "host")
        let tenant = fixture.tenant.id
        _ = try await fixture.engine.join(room.id, account: "troll", in: fixture.tenant, pluginID: nil)
        let mute = try await fixture.engine.mute(room.id, account: "troll", until: nil, reason: "", by: .admin, in: fixture.tenant, pluginID: nil)
        let lifted = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask { try await fixture.engine.lift(mute.id, by: .admin, in: fixture.tenant) != nil }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(lifted == 1)
        #expect(try await fixture.count("SELECT count(*)::int FROM room_events WHERE tenant_id = '\(tenant)' AND kind = 'unmuted'") == 1)
        #expect(try await fixture.count("SELECT count(*)::int FROM audit_log WHERE tenant_id = '\(tenant)' AND action = 'member.unmute'") == 1)
    }
}
