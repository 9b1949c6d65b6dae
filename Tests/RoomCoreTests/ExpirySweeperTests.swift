import Foundation
import RoomCore
import RoomTestSupport
import Testing

@Suite struct ExpirySweeperTests {
    @Test func twoSweepersCloseEachRoomExactlyOnce() async throws {
        let fixture = try await EngineFixture()
        let count = 1_200
        for _ in 0..<count { _ = try await fixture.room(ttl: 60) }
        fixture.clock.advance(by: 61)

        var configuration = fixture.sweeperConfiguration
        configuration.batchSize = 50
        let first = ExpirySweeper(engine: fixture.engine, configuration: configuration, logger: fixture.logger)
        let second = ExpirySweeper(engine: fixture.engine, configuration: configuration, logger: fixture.logger)
        async let a = first.sweepOnce()
        async let b = second.sweepOnce()
        let (closedByFirst, closedBySecond) = try await (a, b)

        #expect(closedByFirst + closedBySecond == count)
        #expect(closedByFirst > 0 && closedBySecond > 0, "both instances took a share")
        #expect(try await fixture.count("SELECT count(*)::int FROM rooms WHERE tenant_id = ANY($1) AND state = 'closed' AND close_reason = 'expired'") == count)
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM (SELECT room_id FROM room_events WHERE tenant_id = ANY($1) AND kind = 'closed'
            GROUP BY room_id HAVING count(*) <> 1) twice
            """) == 0, "no room closed twice")
        #expect(try await fixture.count("SELECT count(*)::int FROM outbox WHERE tenant_id = ANY($1) AND payload::text LIKE '%closeChatroom%'") == count)
    }

    @Test func roomsNotYetDueStayOpen() async throws {
        let fixture = try await EngineFixture()
        let early = try await fixture.room(ttl: 60)
        let late = try await fixture.room(ttl: 600)
        fixture.clock.advance(by: 120)
        let sweeper = ExpirySweeper(engine: fixture.engine, configuration: fixture.sweeperConfiguration, logger: fixture.logger)
        #expect(try await sweeper.sweepOnce() == 1)
        #expect(try await fixture.engine.store.room(fixture.tenant.id, early.id)?.state == .closed(.expired))
        #expect(try await fixture.engine.store.room(fixture.tenant.id, late.id)?.isOpen == true)
    }
}
