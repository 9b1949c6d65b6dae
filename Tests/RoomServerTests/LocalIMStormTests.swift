import Foundation
import PostgresNIO
import RoomCore
import RoomProviders
import RoomTestSupport
import Testing

/// A reconnect storm on one tenant's local IM leaves the database to every
/// other tenant (#27, item 3): logins try the tenant's admission lock
/// instead of holding a pooled connection while they queue for it, sockets
/// not yet logged in are capped, and a login frame is at most 8 KiB.
@Suite(.serialized) struct LocalIMStormTests {
    @Test func loginsQueuedOnOneTenantsLockLeaveThePoolToOtherTenants() async throws {
        let fixture = try await ServerFixture(clock: SystemClock())
        let (a, b) = (fixture.id(0), fixture.id(1))
        let local = try #require(fixture.tenants[0].imAdapter(LocalIMProvider.self))
        var tokens: [(String, String)] = []
        for n in 0..<40 { tokens.append(("storm\(n)", try await local.createAccount(IMAccount(accid: "storm\(n)", name: "s")).token)) }
        let accounts = tokens
        try await fixture.live { http in
            let port = try #require(http.client.port)
            // Another instance's login holds tenant A's admission lock a while.
            let clients = try await fixture.database.withDedicatedConnection { holder -> [IMTestClient] in
                try await holder.run("BEGIN", logger: fixture.database.logger)
                try await holder.run("SELECT pg_advisory_xact_lock(hashtextextended('im-connections:' || \(a), 0))", logger: fixture.database.logger)
                let clients = accounts.map { IMTestClient(port: port, tenant: a, accid: $0.0, token: $0.1) }
                try await Task.sleep(for: .milliseconds(500))
                // Tenant B is served meanwhile, from the same pool.
                let started = ContinuousClock.now
                let rooms = try await http.get("/admin/v1/tenants/\(b)/rooms", key: fixture.key(1))
                let took = ContinuousClock.now - started
                #expect(rooms.status == .ok, "tenant B answered \(rooms.status)")
                #expect(took < .seconds(2), "tenant B waited \(took) behind tenant A's queued logins")
                try await holder.run("ROLLBACK", logger: fixture.database.logger)
                return clients
            }
            // Released, every queued login gets in.
            for client in clients { #expect(try await client.next("ready", timeout: .seconds(10))["accid"]?.string != nil) }
            for client in clients { _ = try await client.close() }
        }
    }

    @Test func aLoginFrameOver8KiBIsRefused() async throws {
        let fixture = try await ServerFixture(clock: SystemClock())
        try await fixture.live { http in
            let port = try #require(http.client.port)
            let padded = #"{"type":"login","accid":"x","token":"y","pad":"\#(String(repeating: "p", count: 9 * 1024))"}"#
            let close = try await IMTestClient.refusal(port: port, path: "/t/\(fixture.id(0))/im/ws", first: padded)
            #expect(close?.closeCode == .unknown(4001), "\(String(describing: close))")
        }
    }
}
