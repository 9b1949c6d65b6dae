import Foundation
import RoomCore
import RoomTestSupport
import Testing

/// #42: a kick is decided then written once, as a seat move is: the read,
/// one statement guarded by the room's version, and its commit probe.
@Suite struct KickRoundTripsTests {
    static func counting<T>(_ body: () async throws -> T) async throws -> (T, statements: Int) {
        let (value, tally) = try await tallied(body)
        return (value, tally.count)
    }

    static func tallied<T>(_ body: () async throws -> T) async throws -> (T, StatementTally) {
        let tally = StatementTally()
        let value = try await StatementTally.$current.withValue(tally) { try await body() }
        return (value, tally)
    }

    /// An admin's kick of a joined member: 3 round trips (it was 12), and
    /// everything the transaction wrote is written: the membership ended,
    /// the count down by one, the event, the audit row, the chatroom's
    /// removal and the plugin's message.
    @Test func anAdminKickIsThreeRoundTrips() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "host")
        _ = try await fixture.engine.join(room.id, account: "troll", in: fixture.tenant, pluginID: nil)
        let (ban, tally) = try await Self.tallied {
            try await fixture.engine.kick(room.id, account: "troll", forSeconds: nil, reason: "spam", by: .admin, in: fixture.tenant, pluginID: nil)
        }
        #expect(ban == nil)
        #expect(tally.count <= 3, "the read, the statement and its probe: \(tally.sent)")
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

    /// A room's ban of an account is decided and written once too (#42: it
    /// was the kick's transaction): the ban row, the membership marked
    /// banned, the count, the event and the audit row naming the ban, in the
    /// read (which draws the ban's id, and so has its commit confirmed), the
    /// statement and their probes. The ban keeps the account out, and a
    /// second ban over it is weighed without I/O (`BanTerms.over`: the
    /// stricter stands) and written once the same way (it was 12 round
    /// trips in the transaction).
    @Test func aFirstBanIsFourRoundTrips() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "host")
        _ = try await fixture.engine.join(room.id, account: "troll", in: fixture.tenant, pluginID: nil)
        let until = fixture.clock.now().addingTimeInterval(3_600)
        let (ban, tally) = try await Self.tallied {
            try await fixture.engine.ban(room.id, account: "troll", until: until, reason: "spam", by: .admin, in: fixture.tenant, pluginID: nil)
        }
        // The read draws the ban's id from its sequence, so its commit is confirmed too.
        #expect(tally.count <= 4, "the read and its probe, the statement and its probe: \(tally.sent)")
        let tenant = fixture.tenant.id
        #expect(ban.roomID == room.id && ban.expiresAt == until && ban.reason == "spam" && ban.createdBy == "admin")
        let stored = try await BanStore(database: fixture.database).ban(tenant, ban.id)
        #expect(stored == ban, "the ban answered is the ban stored: \(String(describing: stored))")
        #expect(try await fixture.count("SELECT count(*)::int FROM room_members WHERE tenant_id = '\(tenant)' AND room_id = \(room.id) AND accid = 'troll' AND status = 'banned'") == 1)
        #expect(try await fixture.count("SELECT joined_count FROM rooms WHERE tenant_id = '\(tenant)' AND room_id = \(room.id)") == 0)
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM room_events WHERE tenant_id = '\(tenant)' AND room_id = \(room.id) AND kind = 'banned'
              AND detail->>'ban' = '\(ban.id)' AND detail->>'until' IS NOT NULL AND detail->>'wasMember' = 'true'
            """) == 1)
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM audit_log WHERE tenant_id = '\(tenant)' AND action = 'member.ban' AND target = 'room:\(room.id)/account:troll'
              AND detail->>'ban' = '\(ban.id)' AND outcome = 'removed'
            """) == 1)
        await #expect(throws: RoomError.banned, "kept out") {
            try await fixture.engine.join(room.id, account: "troll", in: fixture.tenant, pluginID: nil)
        }
        // Over the ban in force a host's shorter one does not replace it.
        let (shorter, over) = try await Self.tallied {
            try await fixture.engine.ban(room.id, account: "troll", until: fixture.clock.now().addingTimeInterval(60), reason: "less",
                                         by: .account("host"), in: fixture.tenant, pluginID: nil)
        }
        #expect(shorter.id == ban.id && shorter.expiresAt == until && shorter.reason == "spam", "the stricter stands: \(shorter)")
        #expect(over.count <= 4, "a ban over one in force: \(over.sent)")
        #expect(try await BanStore(database: fixture.database).ban(tenant, ban.id) == shorter)
        // A longer one replaces its terms, under the same id.
        let longer = try await fixture.engine.ban(room.id, account: "troll", until: nil, reason: "worse", by: .account("host"), in: fixture.tenant, pluginID: nil)
        #expect(longer.id == ban.id && longer.expiresAt == nil && longer.reason == "worse")
        #expect(try await BanStore(database: fixture.database).ban(tenant, ban.id) == longer)
        #expect(try await fixture.count("SELECT count(*)::int FROM bans WHERE tenant_id = '\(tenant)' AND kind = 'ban' AND lifted_at IS NULL") == 1)
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM room_events WHERE tenant_id = '\(tenant)' AND room_id = \(room.id) AND kind = 'banned' AND detail->>'ban' = '\(ban.id)'
            """) == 3, "each ban on the timeline")
    }

    /// A room's ban, and a mute, over one ended by its expiry but not yet
    /// stamped so: the ended one is stamped (at its expiry, by "expired"),
    /// then the new one decided and written once, under an id of its own:
    /// 8 round trips, where the transaction that did both took 14 for the ban.
    @Test func aBanOrMuteOverAnEndedOneStampsItAndIsWrittenOnce() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "host")
        let tenant = fixture.tenant.id
        _ = try await fixture.engine.join(room.id, account: "troll", in: fixture.tenant, pluginID: nil)
        let soon = fixture.clock.now().addingTimeInterval(60)
        let ended = [
            try await fixture.engine.ban(room.id, account: "pest", until: soon, reason: "one", by: .admin, in: fixture.tenant, pluginID: nil),
            try await fixture.engine.mute(room.id, account: "troll", until: soon, reason: "one", by: .admin, in: fixture.tenant, pluginID: nil),
        ]
        fixture.clock.advance(by: 120)
        let (ban, banTally) = try await Self.tallied {
            try await fixture.engine.ban(room.id, account: "pest", reason: "two", by: .account("host"), in: fixture.tenant, pluginID: nil)
        }
        let (mute, muteTally) = try await Self.tallied {
            try await fixture.engine.mute(room.id, account: "troll", until: nil, reason: "two", by: .account("host"), in: fixture.tenant, pluginID: nil)
        }
        for (made, tally) in [(ban, banTally), (mute, muteTally)] {
            #expect(tally.count <= 8, "the read, the stamp, the read again, the statement, each with its probe: \(tally.sent)")
            #expect(!ended.map(\.id).contains(made.id) && made.reason == "two" && made.expiresAt == nil)
        }
        for before in ended {
            let stamped = try #require(try await BanStore(database: fixture.database).ban(tenant, before.id))
            #expect(stamped.liftedAt == soon && stamped.liftedBy == "expired", "\(before.kind) stamped ended at its expiry")
        }
        #expect(try await fixture.count("SELECT count(*)::int FROM bans WHERE tenant_id = '\(tenant)' AND lifted_at IS NULL") == 2)
        #expect(try await fixture.engine.isMuted(room.id, account: "troll", in: fixture.tenant))
        await #expect(throws: RoomError.banned) {
            try await fixture.engine.join(room.id, account: "pest", in: fixture.tenant, pluginID: nil)
        }
    }

    /// Eight first bans of one account at once: one ban in force, one
    /// membership ended, and each answer names that ban.
    @Test func racingFirstBansMakeOneBan() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "host")
        _ = try await fixture.engine.join(room.id, account: "troll", in: fixture.tenant, pluginID: nil)
        let bans = try await withThrowingTaskGroup(of: Ban.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await fixture.engine.ban(room.id, account: "troll", reason: "spam", by: .admin, in: fixture.tenant, pluginID: nil)
                }
            }
            return try await group.reduce(into: [Ban]()) { $0.append($1) }
        }
        let tenant = fixture.tenant.id
        #expect(Set(bans.map(\.id)).count == 1, "one ban: \(bans.map(\.id))")
        #expect(try await fixture.count("SELECT count(*)::int FROM bans WHERE tenant_id = '\(tenant)' AND accid = 'troll' AND lifted_at IS NULL") == 1)
        #expect(try await fixture.count("SELECT joined_count FROM rooms WHERE tenant_id = '\(tenant)' AND room_id = \(room.id)") == 0)
        #expect(try await fixture.count("SELECT count(*)::int FROM audit_log WHERE tenant_id = '\(tenant)' AND outcome = 'removed'") == 1)
    }
}
