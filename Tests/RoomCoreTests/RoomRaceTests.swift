import Foundation
import RoomCore
import RoomTestSupport
import Testing

/// Check-then-act races on one room, decided by PostgreSQL: the room row is
/// locked in a statement of its own, and what the decision reads (the
/// account's membership, the joined count) is read after the lock is held.
@Suite struct RoomRaceTests {
    @Test func parallelJoinsByOneAccountCountOnce() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(capacity: 3)
        for round in 0..<3 {
            let outcomes = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        (try? await fixture.engine.join(room.id, account: "guest\(round)", in: fixture.tenant, pluginID: nil)) != nil
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.allSatisfy { $0 }, "joining again is success, not a refusal")
        }
        let counted = try await fixture.count("SELECT joined_count FROM rooms WHERE tenant_id = ANY($1) AND room_id = \(room.id)")
        let members = try await fixture.engine.store.members(fixture.tenant.id, room.id).filter { $0.status == .joined }
        #expect(members.count == 3)
        #expect(counted == 3, "the count is the members, never the requests")
    }

    @Test func parallelLeavesByOneAccountCountOnce() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(capacity: 10)
        for account in ["a", "b", "c"] {
            _ = try await fixture.engine.join(room.id, account: account, in: fixture.tenant, pluginID: nil)
        }
        let left = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask { (try? await fixture.engine.leave(room.id, account: "a", in: fixture.tenant, pluginID: nil)) != nil }
            }
            return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        #expect(left == 1, "one leave wins; the others find the account gone")
        let counted = try await fixture.count("SELECT joined_count FROM rooms WHERE tenant_id = ANY($1) AND room_id = \(room.id)")
        #expect(counted == 2)
    }
}
