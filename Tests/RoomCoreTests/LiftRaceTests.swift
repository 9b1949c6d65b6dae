import Foundation
import RoomCore
import RoomTestSupport
import Testing

/// A lift racing a ban (or a mute) of the same account in the same room:
/// every write that holds a room's lock and a ban's takes the room's first,
/// so the two queue and end in one serial order. Before, a lift locked the
/// ban's row, then the room; a ban over one in force the room, then the
/// ban's row (its upsert), and PostgreSQL broke the deadlock by failing one.
@Suite struct LiftRaceTests {
    /// The interleaving that deadlocked, made to happen: the room held
    /// elsewhere, a ban over the one in force queues for the room, then the
    /// lift comes. Taking the ban's row first, the lift held it while
    /// queued behind the ban, which got the room and waited for that row.
    @Test func aLiftQueuedBehindABanOverItDoesNotDeadlock() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "host")
        let tenant = fixture.tenant
        let first = try await fixture.engine.ban(room.id, account: "troll", reason: "first", by: .admin, in: tenant, pluginID: nil)
        func waiting() async throws -> Int {
            try await fixture.count("""
                SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
                """)
        }
        func until(_ condition: () async throws -> Bool) async throws {
            for _ in 0..<500 where try await !condition() { try await Task.sleep(for: .milliseconds(10)) }
            #expect(try await condition(), "the interleaving was not reached")
        }
        let (release, releasing) = AsyncStream.makeStream(of: Void.self)
        let held = Task {
            try await fixture.database.transaction { connection in
                try await connection.run("SELECT 1 FROM rooms WHERE tenant_id = \(tenant.id) AND room_id = \(room.id) FOR UPDATE",
                                         logger: fixture.database.logger)
                for await _ in release { break }
            }
        }
        try await until {
            try await fixture.count("""
                SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction' AND query LIKE '%FOR UPDATE'
                """) == 1
        }
        let again = Task { try await fixture.engine.ban(room.id, account: "troll", reason: "again", by: .admin, in: tenant, pluginID: nil) }
        try await until { try await waiting() == 1 }
        let lifted = Task { try await fixture.engine.lift(first.id, by: .admin, in: tenant) }
        try await until { try await waiting() == 2 }
        releasing.yield()
        releasing.finish()
        try await held.value
        let ban = await again.result, lift = await lifted.result
        #expect(throws: Never.self, "the ban over it") { try ban.get() }
        #expect(throws: Never.self, "the lift") { try lift.get() }
        // The ban went first (it queued first): it kept the one in force, which the lift then lifted.
        #expect(try ban.get().id == first.id && lift.get()?.id == first.id)
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM bans WHERE tenant_id = '\(tenant.id)' AND room_id = \(room.id) AND lifted_at IS NULL
            """) == 0)
    }

    @Test(arguments: [Ban.Kind.ban, .mute])
    func aLiftRacingANewBanOverItEndsInOneOrder(kind: Ban.Kind) async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "host")
        let tenant = fixture.tenant
        func impose(_ reason: String) async throws -> Ban {
            switch kind {
            case .ban: try await fixture.engine.ban(room.id, account: "troll", reason: reason, by: .admin, in: tenant, pluginID: nil)
            case .mute: try await fixture.engine.mute(room.id, account: "troll", until: nil, reason: reason, by: .admin, in: tenant, pluginID: nil)
            }
        }
        var failures: [String] = []
        for round in 0..<30 {
            let first = try await impose("first \(round)")
            async let lifted: Ban? = fixture.engine.lift(first.id, by: .admin, in: tenant)
            async let again = impose("again \(round)")
            do {
                let (lift, ban) = try await (lifted, again)
                // Either order is one serial order: lifted then banned anew,
                // or banned over it (the same ban) then lifted.
                #expect(lift?.id == first.id)
                let inForce = try await fixture.count("""
                    SELECT count(*)::int FROM bans WHERE tenant_id = '\(tenant.id)' AND room_id = \(room.id) AND kind = '\(kind.rawValue)' AND lifted_at IS NULL
                    """)
                #expect(inForce == (ban.id == first.id ? 0 : 1), "round \(round): \(inForce) in force, the new one \(ban.id) vs \(first.id)")
            } catch {
                failures.append("round \(round): \(error)")
            }
            // The next round starts with none in force.
            try await fixture.database.query("""
                UPDATE bans SET lifted_at = now(), lifted_by = 'test' WHERE tenant_id = \(tenant.id) AND room_id = \(room.id) AND lifted_at IS NULL
                """)
        }
        #expect(failures.isEmpty, "\(failures.count) of 30 rounds failed: \(failures.prefix(3))")
    }
}
