import Foundation
import PostgresNIO
import RoomCore
import RoomProviders
import RoomTestSupport
import Testing

/// #16, findings 4, 6 and 8: who may hold a local-IM socket, for how long,
/// and what reaches it after the database connection it listens on drops.
@Suite struct LocalIMAccessTests {
    struct Setup {
        let fixture: ServerFixture
        var tenant: TenantID { fixture.id(0) }
        var local: LocalIMProvider { fixture.tenants[0].imAdapter(LocalIMProvider.self)! }

        init(clock: any RoomClock = SystemClock()) async throws {
            fixture = try await ServerFixture(clock: clock)
        }

        /// An account of the tenant with an IM token.
        func account() async throws -> (accid: String, token: String) {
            let account = try await AccountStore(database: fixture.database, clock: fixture.clock)
                .createGuest(tenant, prefix: "im", nickname: { "guest" + $0 }, avatar: "")
            let token = try await local.createAccount(IMAccount(accid: account.accid, name: account.nickname)).token
            return (account.accid, token)
        }

        func connect(_ accid: String, _ token: String, port: Int) async throws -> IMTestClient {
            let client = IMTestClient(port: port, tenant: tenant, accid: accid, token: token)
            #expect(try await client.next("ready")["accid"]?.string == accid)
            return client
        }
    }

    @Test func revokingAnAccountClosesItsSocketsOnEveryInstanceAndEndsItsIMToken() async throws {
        let setup = try await Setup()
        let (accid, token) = try await setup.account()
        try await setup.fixture.live { first in
            try await setup.fixture.live { second in
                let here = try await setup.connect(accid, token, port: try #require(first.client.port))
                let there = try await setup.connect(accid, token, port: try #require(second.client.port))
                let revoked = try await first.post("/admin/v1/tenants/\(setup.tenant)/accounts/\(accid)/sessions/revoke", key: setup.fixture.key(0))
                #expect(revoked.status == .ok)
                for socket in [here, there] {
                    let frame = try await withDeadline(10, { "waiting for the revoked socket to close" }) { try await socket.closeFrame() }
                    #expect(frame?.closeCode == .unknown(4003))
                }
                let again = try await IMTestClient.refusal(port: try #require(second.client.port), tenant: setup.tenant, accid: accid, token: token)
                #expect(again?.closeCode == .unknown(4001), "the old IM token opens nothing")
                #expect(try await setup.local.isMember(accid, of: "any") == false)
                let rows = try await setup.fixture.database.query("""
                    SELECT count(*)::int FROM im_connections WHERE tenant_id = \(setup.tenant) AND accid = \(accid)
                    """)
                #expect(try rows.decode(Int.self).first == 0, "no presence is left behind")

                let renewed = try await setup.local.createAccount(IMAccount(accid: accid, name: accid)).token
                let back = try await setup.connect(accid, renewed, port: try #require(first.client.port))
                try await back.close()
            }
        }
    }

    @Test func anInstanceThatMissedTheRevocationEndsTheSocketAtItsNextHeartbeat() async throws {
        let setup = try await Setup()
        let (accid, _) = try await setup.account()
        let hub = LocalIMHub(database: setup.fixture.database, clock: setup.fixture.clock, logger: .init(label: "hub"))
        let connection = UUID()
        #expect(try await setup.local.connect(connection, accid: accid, instance: hub.instanceID) == .admitted)
        _ = try #require(hub.register(connection, tenantID: setup.tenant, accid: accid))
        try await hub.beat()
        #expect(hub.ending(of: connection) == nil, "its row is there: it stays")
        // The revocation's NOTIFY never reached this instance; only its rows changed.
        try await setup.local.revokeTokens(accid: accid)
        try await hub.beat()
        #expect(hub.ending(of: connection) == .revoked)
    }

    @Test func aSlowConsumerIsDisconnectedInsteadOfBufferedFor() async throws {
        let setup = try await Setup()
        let hub = LocalIMHub(database: setup.fixture.database, clock: setup.fixture.clock, logger: .init(label: "hub"), queueLimit: 8)
        let slow = UUID()
        let frames = try #require(hub.register(slow, tenantID: setup.tenant, accid: "slow"))
        for index in 0..<8 { hub.send("frame \(index)", to: slow) }
        #expect(hub.ending(of: slow) == nil, "a full queue is still within bounds")
        hub.send("one too many", to: slow)
        #expect(hub.ending(of: slow) == .slowConsumer)
        var received = 0
        for await _ in frames { received += 1 }
        #expect(received == 8, "the queue never grew past its bound, and the stream ended")
    }

    @Test func socketsAreLimitedPerAccountPerTenantAndPerInstance() async throws {
        let setup = try await Setup()
        try await setup.fixture.live { http in
            let port = try #require(http.client.port)
            let (accid, token) = try await setup.account()
            let limit = setup.local.limits.maxConnectionsPerAccount
            var held: [IMTestClient] = []
            for _ in 0..<limit { held.append(try await setup.connect(accid, token, port: port)) }
            let refused = try await IMTestClient.refusal(port: port, tenant: setup.tenant, accid: accid, token: token)
            #expect(refused?.closeCode == .unknown(4029))
            #expect(refused?.reason == "this account already holds \(limit) sockets")
            try await held.removeFirst().close()
            var admitted = false
            for _ in 0..<100 where !admitted {
                let retry = IMTestClient(port: port, tenant: setup.tenant, accid: accid, token: token)
                if (try? await retry.next("ready", timeout: .milliseconds(500))) != nil {
                    admitted = true
                    held.append(retry)
                } else {
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            #expect(admitted, "a closed socket frees its place")
            for client in held { try await client.close() }
        }

        // The tenant's limit is counted in PostgreSQL over every instance, and
        // parallel logins cannot all pass the same count.
        var limits = LocalIMLimits()
        limits.maxConnections = 3
        let small = LocalIMProvider(tenantID: setup.fixture.id(1), database: setup.fixture.database, clock: setup.fixture.clock, limits: limits)
        let outcomes = try await withThrowingTaskGroup(of: LocalIMProvider.Admission.self) { group in
            for index in 0..<10 {
                group.addTask { try await small.connect(UUID(), accid: "user\(index)", instance: "instance-\(index % 2)") }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == .admitted }.count == 3)
        #expect(outcomes.filter { $0 == .tenantFull(3) }.count == 7)

        let hub = LocalIMHub(database: setup.fixture.database, clock: setup.fixture.clock, logger: .init(label: "hub"), maxConnections: 2)
        #expect(hub.register(UUID(), tenantID: setup.tenant, accid: "a") != nil)
        #expect(hub.register(UUID(), tenantID: setup.tenant, accid: "b") != nil)
        #expect(hub.register(UUID(), tenantID: setup.tenant, accid: "c") == nil, "the instance is full")
    }

    /// Finding 6: NOTIFYs sent while the listener reconnects reach nobody;
    /// the hub replays them from PostgreSQL once it listens again.
    @Test func eventsWrittenWhileTheListenerReconnectsStillArrive() async throws {
        let setup = try await Setup()
        let chatroom = try await setup.local.createChatroom(name: "gap", creator: "host")
        let (accid, token) = try await setup.account()
        try await setup.fixture.live { http in
            let client = try await setup.connect(accid, token, port: try #require(http.client.port))
            client.send(#"{"type":"enter","chatroom":"\#(chatroom)"}"#)
            _ = try await client.next("entered")
            let terminated = try await setup.fixture.database.query("""
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE datname = current_database() AND application_name = \(Database.listenApplicationName) AND pid <> pg_backend_pid()
                """)
            #expect(terminated.count >= 1, "the hub's listening connection was found")
            try await setup.local.sendChatroomMessage(chatroom, from: "host", type: "100", body: #"{"during":"gap"}"#,
                                                      persist: false, messageID: UUID().uuidString)
            let message = try await client.next("message", timeout: .seconds(10))
            #expect(message["body"]?.string == #"{"during":"gap"}"#)
            try await setup.local.sendChatroomMessage(chatroom, from: "host", type: "100", body: #"{"after":"gap"}"#,
                                                      persist: false, messageID: UUID().uuidString)
            #expect(try await client.next("message")["body"]?.string == #"{"after":"gap"}"#)
            #expect(try await client.expectSilence().filter { $0.type == "message" }.isEmpty, "nothing twice")
            try await client.close()
        }
    }

    /// A notification sent unstored while its account had no socket was for
    /// nobody: a replay after a LISTEN gap does not hand it to a socket that
    /// logged in later (it did: LocalIMTests' offline test failed when the
    /// first LISTEN came after the socket). One sent during the gap arrives.
    @Test func aReplayDeliversOnlyTheUnstoredNotificationsTheGapLost() async throws {
        let setup = try await Setup()
        let (accid, token) = try await setup.account()
        try await setup.local.sendNotification(from: "host", to: accid, attach: #"{"before":"login"}"#, storeOffline: false)
        try await setup.fixture.live { http in
            let client = try await setup.connect(accid, token, port: try #require(http.client.port))
            let terminated = try await setup.fixture.database.query("""
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE datname = current_database() AND application_name = \(Database.listenApplicationName) AND pid <> pg_backend_pid()
                """)
            #expect(terminated.count >= 1, "the hub's listening connection was found")
            try await setup.local.sendNotification(from: "host", to: accid, attach: #"{"during":"gap"}"#, storeOffline: false)
            let during = try await client.next("notification", timeout: .seconds(10))
            #expect(during["attach"]?.string == #"{"during":"gap"}"#, "the replay sent what the gap lost: \(during)")
            let more = try await client.expectSilence(for: .milliseconds(500)).filter { $0.type == "notification" }
            #expect(more.isEmpty, "and not what was sent before the socket logged in: \(more)")
            try await client.close()
        }
    }

    @Test func imTokensExpire() async throws {
        let clock = ManualClock()
        let setup = try await Setup(clock: clock)
        let (accid, token) = try await setup.account()
        #expect(try await setup.local.verify(accid: accid, token: token, address: "127.0.0.1"))
        clock.advance(by: Double(setup.local.limits.tokenTTLSeconds) - 60)
        #expect(try await setup.local.verify(accid: accid, token: token, address: "127.0.0.1"), "good until its expiry")
        clock.advance(by: 120)
        #expect(try await setup.local.verify(accid: accid, token: token, address: "127.0.0.1") == false, "expired")
        let renewed = try await setup.local.refreshToken(accid: accid).token
        #expect(try await setup.local.verify(accid: accid, token: renewed, address: "127.0.0.1"))
    }
}
