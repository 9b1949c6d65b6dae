import Foundation
import PostgresNIO
@testable import RoomCore
import RoomTestSupport
import Synchronization
import Testing

/// A hot room is slow only for itself (#41): its writers queue in memory
/// and share transactions (`RoomWriteQueue`), instead of each holding a
/// pooled connection while it waits for the room's row lock.
@Suite(.serialized) struct HotRoomTests {
    /// 300 members join one room at once: every one is joined exactly once,
    /// the count is exact, and no connection of this instance ever waits on
    /// the room's lock (before: up to the pool's 20 did, and every other
    /// room of every tenant waited for a connection behind them).
    @Test func joinsIntoOneRoomShareTransactionsAndHoldNoConnectionWaiting() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(capacity: 1_000)
        let watch = LockWaits()
        let watching = Task { try await watch.sample(fixture.database) }
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<300 {
                group.addTask {
                    (try? await fixture.engine.join(room.id, account: "member\(index)", in: fixture.tenant, pluginID: nil)) != nil
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        watching.cancel()
        #expect(outcomes.allSatisfy { $0 }, "\(outcomes.filter { !$0 }.count) joins failed")
        let counted = try await fixture.count("SELECT joined_count FROM rooms WHERE tenant_id = ANY($1) AND room_id = \(room.id)")
        let members = try await fixture.count("SELECT count(*)::int FROM room_members WHERE tenant_id = ANY($1) AND room_id = \(room.id) AND status = 'joined'")
        let events = try await fixture.count("SELECT count(*)::int FROM room_events WHERE tenant_id = ANY($1) AND room_id = \(room.id) AND kind = 'joined'")
        #expect(counted == 300 && members == 300 && events == 300, "count \(counted), members \(members), events \(events)")
        let (batches, writers) = fixture.engine.writeQueue.counts
        #expect(writers >= 300 && batches < 150, "\(writers) writers in \(batches) transactions")
        #expect(watch.peak == 0, "at most \(watch.peak) of this instance's connections waited on the room's lock")
    }

    /// A writer refused inside a shared transaction rolls back alone: a room
    /// of 50 seats and 120 joins at once leaves exactly 50 joined, and the
    /// other 70 are told the room is full.
    @Test func aRefusedWriterInABatchRollsBackAlone() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(capacity: 50)
        let refusals = await withTaskGroup(of: String?.self) { group in
            for index in 0..<120 {
                group.addTask {
                    do {
                        _ = try await fixture.engine.join(room.id, account: "seat\(index)", in: fixture.tenant, pluginID: nil)
                        return nil
                    } catch {
                        return String(describing: error)
                    }
                }
            }
            return await group.reduce(into: [String]()) { if let refusal = $1 { $0.append(refusal) } }
        }
        #expect(refusals.count == 70, "\(refusals.count) refused")
        #expect(Set(refusals).count == 1 && refusals.first?.contains("full") == true, "\(Set(refusals))")
        let counted = try await fixture.count("SELECT joined_count FROM rooms WHERE tenant_id = ANY($1) AND room_id = \(room.id)")
        let members = try await fixture.count("SELECT count(*)::int FROM room_members WHERE tenant_id = ANY($1) AND room_id = \(room.id) AND status = 'joined'")
        #expect(counted == 50 && members == 50)
    }
}

/// The most connections of the test database seen waiting on a lock at once.
private final class LockWaits: Sendable {
    private let most = Atomic<Int>(0)
    var peak: Int { most.load(ordering: .relaxed) }

    func sample(_ database: Database) async throws {
        while !Task.isCancelled {
            let rows = try await database.query("""
                SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
                """)
            let waiting = try rows.decode(Int.self).first ?? 0
            most.max(waiting, ordering: .relaxed)
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
