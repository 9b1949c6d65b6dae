import Foundation
import RoomCore
import RoomTestSupport
import Testing

/// #42: a kick is decided then written once, as a seat move is: the read,
/// one statement guarded by the room's version, and its commit probe.
@Suite struct KickRoundTripsTests {
    static func counting<T>(_ body: () async throws -> T) async throws -> (T, statements: Int) {
        let tally = StatementTally()
        let value = try await StatementTally.$current.withValue(tally) { try await body() }
        return (value, tally.count)
    }

    /// An admin's kick of a joined member: 3 round trips (it was 12), and
    /// everything the transaction wrote is written: the membership ended,
    /// the count down by one, the event, the audit row, the chatroom's
    /// removal and the plugin's message.
    @Test func anAdminKickIsThreeRoundTrips() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "host")
        _ = try await fixture.engine.join(room.id, account: "troll", in: fixture.tenant, pluginID: nil)
        let (ban, trips) = try await Self.counting {
            try await fixture.engine.kick(room.id, account: "troll", forSeconds: nil, reason: "spam", by: .admin, in: fixture.tenant, pluginID: nil)
        }
        #expect(ban == nil)
        #expect(trips <= 3, "the read, the statement and its probe: \(trips)")
        let tenant = fixture.tenant.id
        #expect(try await fixture.count("SELECT count(*)::int FROM room_members WHERE tenant_id = '\(tenant)' AND room_id = \(room.id) AND accid = 'troll' AND status = 'left'") == 1)
        #expect(try await fixture.count("SELECT joined_count FROM rooms WHERE tenant_id = '\(tenant)' AND room_id = \(room.id)") == 0)
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM room_events WHERE tenant_id = '\(tenant)' AND room_id = \(room.id) AND kind = 'kicked' AND actor = 'admin'
              AND detail->>'account' = 'troll' AND detail->>'wasMember' = 'true' AND detail->>'reason' = 'spam'
            """) == 1)
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM audit_log WHERE tenant_id = '\(tenant)' AND action = 'member.kick' AND target = 'room:\(room.id)/account:troll'
              AND outcome = 'removed'
            """) == 1)
        let events = try await fixture.engine.store.events(tenant, room.id)
        #expect(events.map(\.kind.stored).suffix(1) == ["kicked"])
        await #expect(throws: RoomError.notMember, "out of the room") {
            try await fixture.engine.leave(room.id, account: "troll", in: fixture.tenant, pluginID: nil)
        }
    }

    /// Kicking one who has not joined: still the event and the audit row
    /// ("not a member"), nothing counted down; a closed room refuses.
    @Test func aKickOfAStrangerIsRecordedAndAClosedRoomRefuses() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "host")
        _ = try await fixture.engine.kick(room.id, account: "nobody", forSeconds: nil, reason: "", by: .account("host"), in: fixture.tenant, pluginID: nil)
        let tenant = fixture.tenant.id
        #expect(try await fixture.count("SELECT joined_count FROM rooms WHERE tenant_id = '\(tenant)' AND room_id = \(room.id)") == 0)
        #expect(try await fixture.count("SELECT count(*)::int FROM audit_log WHERE tenant_id = '\(tenant)' AND outcome = 'not a member'") == 1)
        #expect(try await fixture.count("SELECT count(*)::int FROM room_members WHERE tenant_id = '\(tenant)' AND accid = 'nobody'") == 0)
        await #expect(throws: RoomError.notOwner, "a member who does not own the room may not kick") {
            try await fixture.engine.kick(room.id, account: "host", forSeconds: nil, reason: "", by: .account("nobody"), in: fixture.tenant, pluginID: nil)
        }
        _ = try await fixture.engine.dissolve(room.id, by: .admin, in: fixture.tenant, pluginID: nil)
        await #expect(throws: RoomError.closed) {
            try await fixture.engine.kick(room.id, account: "nobody", forSeconds: nil, reason: "", by: .admin, in: fixture.tenant, pluginID: nil)
        }
    }

    /// Eight kicks of one member at once: the version decides, so the count
    /// goes down once, and exactly one kick says it removed a member.
    @Test func racingKicksRemoveOnce() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "host")
        _ = try await fixture.engine.join(room.id, account: "troll", in: fixture.tenant, pluginID: nil)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    _ = try await fixture.engine.kick(room.id, account: "troll", forSeconds: nil, reason: "", by: .admin, in: fixture.tenant, pluginID: nil)
                }
            }
            try await group.waitForAll()
        }
        let tenant = fixture.tenant.id
        #expect(try await fixture.count("SELECT joined_count FROM rooms WHERE tenant_id = '\(tenant)' AND room_id = \(room.id)") == 0)
        #expect(try await fixture.count("SELECT count(*)::int FROM audit_log WHERE tenant_id = '\(tenant)' AND outcome = 'removed'") == 1)
        #expect(try await fixture.count("SELECT count(*)::int FROM audit_log WHERE tenant_id = '\(tenant)' AND action = 'member.kick'") == 8)
    }
}
