import Foundation
@testable import RoomCore
import RoomKit
import RoomTestSupport
import Testing

/// A room's joins go at its pace (`[limits] roomJoinsPerSecond`, #41: a hot
/// room is slow only for itself), on a real PostgreSQL: past its burst a
/// crowded room's joins wait in its queue, another room's join does not
/// wait behind them, and past two seconds of waiting joins a join is
/// refused as too many, having written nothing.
@Suite(.serialized) struct RoomJoinPaceRoomTests {
    static func fixture(perSecond: Int, burst: Int) async throws -> EngineFixture {
        try await EngineFixture(pluginTable: "[plugins.test-rooms]\n[limits]\nroomJoinsPerSecond = \(perSecond)\nroomJoinsBurst = \(burst)\n")
    }

    /// 40 joins at once into a room paced at 50 a second with a burst of 5
    /// take at least (40 - 5) / 50 = 0.7 s (before the pace: about 0.1 s,
    /// in one or two batches), every one joined once; a join into another
    /// room of the same tenant, asked after them, is answered before the
    /// crowded room's last.
    @Test func aCrowdedRoomsJoinsGoAtItsPaceAndAnotherRoomsJoinDoesNotWait() async throws {
        let fixture = try await Self.fixture(perSecond: 50, burst: 5)
        #expect(fixture.tenant.budgets.roomJoins == RequestBudgets.Budget(perSecond: 50, burst: 5))
        let crowded = try await fixture.room(capacity: 1_000), quiet = try await fixture.room(capacity: 10)
        let clock = ContinuousClock(), began = clock.now
        // (who, joined, when answered)
        let outcomes = await withTaskGroup(of: (String, Bool, ContinuousClock.Instant).self) { group in
            for index in 0..<40 {
                group.addTask {
                    let joined = (try? await fixture.engine.join(crowded.id, account: "crowd\(index)", in: fixture.tenant, pluginID: nil)) != nil
                    return ("crowd\(index)", joined, clock.now)
                }
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(50))
                let joined = (try? await fixture.engine.join(quiet.id, account: "quiet", in: fixture.tenant, pluginID: nil)) != nil
                return ("quiet", joined, clock.now)
            }
            return await group.reduce(into: [(String, Bool, ContinuousClock.Instant)]()) { $0.append($1) }
        }
        #expect(outcomes.allSatisfy { $0.1 }, "\(outcomes.filter { !$0.1 }.count) joins failed")
        let lastOfTheCrowd = outcomes.filter { $0.0 != "quiet" }.map(\.2).max()!
        let quietAnswered = outcomes.first { $0.0 == "quiet" }!.2
        #expect(lastOfTheCrowd - began >= .milliseconds(700), "40 joins past a burst of 5 at 50 a second took \(lastOfTheCrowd - began)")
        #expect(quietAnswered < lastOfTheCrowd, "the other room's join waited behind the crowded room's pace")
        let counted = try await fixture.count("SELECT joined_count FROM rooms WHERE tenant_id = ANY($1) AND room_id = \(crowded.id)")
        let members = try await fixture.count("SELECT count(*)::int FROM room_members WHERE tenant_id = ANY($1) AND room_id = \(crowded.id) AND status = 'joined'")
        #expect(counted == 40 && members == 40, "count \(counted), members \(members)")
    }

    /// A room paced at 10 a second with a burst of 2 holds at most 22 joins
    /// waiting (two seconds of its pace past its burst): of 60 joins at once,
    /// those past it are refused at once as too many (a 429 in every wire),
    /// none of them written, and every other one joins.
    @Test func joinsPastTwoSecondsOfThePaceAreRefusedAsTooManyAndWriteNothing() async throws {
        let fixture = try await Self.fixture(perSecond: 10, burst: 2)
        let room = try await fixture.room(capacity: 1_000)
        #expect(RoomJoinQueue.waitingAtMost(fixture.tenant.budgets.roomJoins) == 22)
        let outcomes = await withTaskGroup(of: (String, Result<Void, any Error>).self) { group in
            for index in 0..<60 {
                group.addTask {
                    do {
                        _ = try await fixture.engine.join(room.id, account: "fan\(index)", in: fixture.tenant, pluginID: nil)
                        return ("fan\(index)", .success(()))
                    } catch {
                        return ("fan\(index)", .failure(error))
                    }
                }
            }
            return await group.reduce(into: [(String, Result<Void, any Error>)]()) { $0.append($1) }
        }
        let refused = outcomes.compactMap { outcome -> (String, any Error)? in
            if case .failure(let error) = outcome.1 { return (outcome.0, error) }
            return nil
        }
        let joined = Set(outcomes.filter { if case .success = $0.1 { true } else { false } }.map(\.0))
        // The leader, its batch and the line: at most about 25 of 60 go in.
        #expect(refused.count >= 30 && joined.count >= 22, "\(refused.count) refused, \(joined.count) joined")
        #expect(refused.allSatisfy { if case RoomError.rateLimited = $0.1 { true } else { false } }, "\(refused.map { String(describing: $0.1) })")
        let members = try await fixture.database.query("""
            SELECT accid FROM room_members WHERE tenant_id = \(fixture.tenant.id) AND room_id = \(room.id) AND status = 'joined'
            """).decode(String.self).reduce(into: Set<String>()) { $0.insert($1) }
        #expect(members == joined, "written: \(members.subtracting(joined)); answered joined and not written: \(joined.subtracting(members))")
        let counted = try await fixture.count("SELECT joined_count FROM rooms WHERE tenant_id = ANY($1) AND room_id = \(room.id)")
        #expect(counted == joined.count)
    }
}
