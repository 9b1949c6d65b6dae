import Foundation
import RoomCore
import RoomTestSupport
import Testing

/// #42: a room's first mute of an account is decided, then written once, as
/// a first ban is: the read (which draws the mute's id, so its commit is
/// confirmed), one statement guarded by the room's version and by no mute
/// of the account in the room, and its probe. A mute over one in force is
/// weighed, then written once the same way.
@Suite struct MuteRoundTripsTests {
    @Test func aFirstMuteIsWrittenOnce() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "host")
        _ = try await fixture.engine.join(room.id, account: "troll", in: fixture.tenant, pluginID: nil)
        let until = fixture.clock.now().addingTimeInterval(600)
        let tally = StatementTally()
        let mute = try await StatementTally.$current.withValue(tally) {
            try await fixture.engine.mute(room.id, account: "troll", until: until, reason: "spam", by: .admin, in: fixture.tenant, pluginID: nil)
        }
        #expect(tally.count <= 4, "the read and its probe, the statement and its probe: \(tally.sent)")
        let tenant = fixture.tenant.id
        #expect(mute.kind == .mute && mute.roomID == room.id && mute.expiresAt == until && mute.reason == "spam" && mute.createdBy == "admin")
        #expect(try await BanStore(database: fixture.database).ban(tenant, mute.id) == mute, "the mute answered is the mute stored")
        #expect(try await fixture.engine.isMuted(room.id, account: "troll", in: fixture.tenant))
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM room_events WHERE tenant_id = '\(tenant)' AND room_id = \(room.id) AND kind = 'muted'
              AND detail->>'mute' = '\(mute.id)' AND detail->>'until' IS NOT NULL AND detail->>'reason' = 'spam'
            """) == 1)
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM audit_log WHERE tenant_id = '\(tenant)' AND action = 'member.mute' AND target = 'room:\(room.id)/account:troll'
              AND detail->>'ban' = '\(mute.id)'
            """) == 1)
        #expect(try await fixture.count("SELECT joined_count FROM rooms WHERE tenant_id = '\(tenant)' AND room_id = \(room.id)") == 1, "still in the room")

        // Over the one in force: weighed without I/O (`BanTerms.over`) and
        // written once too (it was a transaction): the longer stands, one mute in force.
        let over = StatementTally()
        let longer = try await StatementTally.$current.withValue(over) {
            try await fixture.engine.mute(room.id, account: "troll", until: nil, reason: "again", by: .account("host"), in: fixture.tenant, pluginID: nil)
        }
        #expect(over.count <= 4, "a mute over one in force: \(over.sent)")
        #expect(longer.id == mute.id && longer.expiresAt == nil && longer.reason == "again")
        #expect(try await BanStore(database: fixture.database).ban(tenant, mute.id) == longer, "the weighed mute answered is the one stored")
        // A host's shorter mute leaves the longer one standing, and says so.
        let shorter = try await fixture.engine.mute(room.id, account: "troll", until: until, reason: "short", by: .account("host"), in: fixture.tenant, pluginID: nil)
        #expect(shorter.id == mute.id && shorter.expiresAt == nil && shorter.reason == "again")
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM room_events WHERE tenant_id = '\(tenant)' AND room_id = \(room.id) AND kind = 'muted'
              AND detail->>'mute' = '\(mute.id)' AND detail->>'until' IS NULL AND detail->>'reason' = 'again'
            """) == 2, "each mute over one in force is on the timeline with the terms in force")
        #expect(try await fixture.count("SELECT count(*)::int FROM bans WHERE tenant_id = '\(tenant)' AND kind = 'mute' AND lifted_at IS NULL") == 1)
        // Lifted, then muted anew: written once again.
        #expect(try await fixture.engine.lift(mute.id, by: .admin, in: fixture.tenant) != nil)
        #expect(try await !fixture.engine.isMuted(room.id, account: "troll", in: fixture.tenant))
        let anew = StatementTally()
        let again = try await StatementTally.$current.withValue(anew) {
            try await fixture.engine.mute(room.id, account: "troll", until: nil, reason: "", by: .account("host"), in: fixture.tenant, pluginID: nil)
        }
        #expect(anew.count <= 4, "\(anew.sent)")
        #expect(again.id != mute.id && again.createdBy == Actor.account("host").description)
        #expect(try await fixture.count("SELECT count(*)::int FROM bans WHERE tenant_id = '\(tenant)' AND kind = 'mute' AND lifted_at IS NULL") == 1)

        // A closed room refuses, and writes nothing.
        _ = try await fixture.engine.dissolve(room.id, by: .admin, in: fixture.tenant, pluginID: nil)
        await #expect(throws: RoomError.closed) {
            try await fixture.engine.mute(room.id, account: "other", until: nil, reason: "", by: .admin, in: fixture.tenant, pluginID: nil)
        }
        #expect(try await fixture.count("SELECT count(*)::int FROM bans WHERE tenant_id = '\(tenant)' AND accid = 'other'") == 0)
    }

    /// Eight first mutes of one account at once: one mute in force (the
    /// losers read again and weigh theirs against it), each audited.
    @Test func racingFirstMutesMakeOneMute() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "host")
        _ = try await fixture.engine.join(room.id, account: "troll", in: fixture.tenant, pluginID: nil)
        let ids = try await withThrowingTaskGroup(of: Int64.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await fixture.engine.mute(room.id, account: "troll", until: nil, reason: "", by: .admin, in: fixture.tenant, pluginID: nil).id
                }
            }
            return try await group.reduce(into: Set<Int64>()) { $0.insert($1) }
        }
        let tenant = fixture.tenant.id
        #expect(ids.count == 1, "every mute answered the one in force: \(ids)")
        #expect(try await fixture.count("SELECT count(*)::int FROM bans WHERE tenant_id = '\(tenant)' AND kind = 'mute'") == 1)
        #expect(try await fixture.count("SELECT count(*)::int FROM audit_log WHERE tenant_id = '\(tenant)' AND action = 'member.mute'") == 8)
    }
}
