import Foundation
import Hummingbird
import HummingbirdTesting
import RoomCore
import RoomServer
import RoomTestSupport
import Testing

/// #28, item 5: work an instance queues wakes every instance's outbox
/// dispatcher (the outbox's insert trigger NOTIFYs, and each instance
/// follows the channel on its one LISTEN connection), not only its own.
/// Here the instance that commits delivers nothing (its dispatcher serves
/// no tenant) and the other one would poll only once a minute: only the
/// notification can get the effect out in time.
@Suite struct OutboxWakeTests {
    static func live<T: Sendable>(_ instance: Roomkeeper, _ body: @escaping @Sendable (HTTP) async throws -> T) async throws -> T {
        try await withDeadline(60, { "a live instance" }) {
            try await instance.buildApplication().test(.live) { client in try await body(HTTP(client: client)) }
        }
    }

    static func pending(_ fixture: ServerFixture, tenant: TenantID) async throws -> Int {
        try await fixture.database.query("SELECT count(*)::int FROM outbox WHERE tenant_id = \(tenant) AND status = 'pending'")
            .decode(Int.self).first ?? 0
    }

    @Test func anotherInstancesDispatcherDeliversWhatThisOneQueuedAtOnce() async throws {
        let fixture = try await ServerFixture(clock: SystemClock())
        let tenant = fixture.id(0)
        let committer = try fixture.server { options in options.dispatcher.tenants = [] }
        let deliverer = try fixture.server { options in options.dispatcher.pollInterval = .seconds(60) }
        try await Self.live(deliverer) { _ in
            try await Self.live(committer) { http in
                // Both dispatchers made their first claim at start; from now on
                // the deliverer claims when woken, or in a minute.
                try await Task.sleep(for: .milliseconds(500))
                let created = try await http.form("/t/\(tenant)/test-rooms/room/create", "sid=alice&name=woken")
                let roomID = try #require(data(created)?["roomId"]?.int64)
                // The kick queues bob's removal from the chatroom (the join's
                // message is applied by the join's own statement).
                #expect(data(try await http.form("/t/\(tenant)/test-rooms/room/join", "sid=bob&roomId=\(roomID)")) != nil)
                #expect(data(try await http.form("/t/\(tenant)/test-rooms/room/kick", "sid=alice&roomId=\(roomID)&account=bob")) != nil)
                let started = ContinuousClock.now
                var left = try await Self.pending(fixture, tenant: tenant)
                while left > 0, ContinuousClock.now - started < .seconds(5) {
                    try await Task.sleep(for: .milliseconds(20))
                    left = try await Self.pending(fixture, tenant: tenant)
                }
                #expect(left == 0, "the other instance delivered the queued effects within 5 s (its poll is 60 s)")
                let delivered = try await fixture.database.query("""
                    SELECT count(*)::int FROM outbox WHERE tenant_id = \(tenant) AND status = 'delivered' AND room_id = \(roomID)
                    """).decode(Int.self).first ?? 0
                #expect(delivered >= 1, "the kick's chatroom removal went out (\(delivered))")
            }
        }
    }
}
