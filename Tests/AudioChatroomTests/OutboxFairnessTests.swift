import AudioChatroom
import Foundation
import RoomCore
import RoomTestSupport
import Testing

/// One tenant cannot slow another's side effects (#27, item 3): a webhook
/// receiver that answers after 14 s, with 1,000 deliveries queued for it in
/// tenant A, leaves tenant B's seat moves reaching B's WebSocket members
/// within a second; and test events are rate-limited.
@Suite(.serialized) struct OutboxFairnessTests {
    /// An audio-chatroom tenant with one webhook endpoint at a local receiver.
    static func tenantWithEndpoint(_ name: String, port: Int, events: String) -> String {
        setenv("RK_FAIRNESS_WEBHOOK_SECRET", StandardWebhooks.Secret.generate(), 1)
        return """
            [plugins.audio-chatroom]
            [webhooks.\(name)]
            url = "http://127.0.0.1:\(port)/hook"
            secretEnv = "RK_FAIRNESS_WEBHOOK_SECRET"
            events = \(events)
            """
    }

    @Test func aSlowReceiverWithABacklogInOneTenantDoesNotDelayAnotherTenantsSeatMoves() async throws {
        let receiver = WebhookReceiver()
        receiver.delay = .seconds(14)
        try await receiver.run { port in
            let slow = Self.tenantWithEndpoint("slow", port: port, events: #"["webhook.test"]"#)
            let fixture = try await ServerFixture(pluginTables: [slow, "[plugins.audio-chatroom]\n"], registry: AudioChatroomFixture.registry,
                                                  clock: SystemClock())
            let (a, b) = (fixture.id(0), fixture.id(1))
            try await fixture.live { http in
                // Tenant A: a test event, then 999 more like it, all for the slow receiver.
                #expect(try await http.post("/admin/v1/tenants/\(a)/webhooks/slow/test", key: fixture.key(0)).status == .accepted)
                try await fixture.database.query("""
                    INSERT INTO outbox (tenant_id, room_id, kind, lane, payload, status, next_attempt_at, created_at)
                    SELECT o.tenant_id, o.room_id, o.kind, o.lane, o.payload, 'pending', o.next_attempt_at, o.created_at
                    FROM outbox o CROSS JOIN generate_series(1, 999) WHERE o.tenant_id = \(a) AND o.kind = 'webhook'
                    """)
                try await receiver.wait("the slow receiver to hold a delivery") { $0.count >= 1 }

                // Tenant B: the host closes a seat while a member listens.
                let base = "/t/\(b)/audio-chatroom"
                let host = try #require(data(try await http.form("\(base)/user/get", "")))
                let sid = try #require(host["sid"]?.string)
                let roomID = try #require(data(try await http.form("\(base)/room/create", "sid=\(sid)&roomName=Fair"))?["roomId"]?.int64)
                let member = IMTestClient(port: try #require(http.client.port), tenant: b,
                                          accid: host["accid"]?.string ?? "", token: host["imToken"]?.string ?? "")
                member.send(#"{"type":"enter","chatroom":"\#(roomID)"}"#)
                _ = try await member.next("entered")
                for round in 1...3 {
                    let started = ContinuousClock.now
                    let moved = try await http.form("\(base)/mic/\(round % 2 == 1 ? "close" : "open")", "sid=\(sid)&roomId=\(roomID)&index=1")
                    #expect(moved["code"] == .number(200), "\(moved)")
                    _ = try await member.next("queue", timeout: .seconds(5))
                    let took = ContinuousClock.now - started
                    #expect(took < .seconds(1), "round \(round): B's seat move reached its member in \(took), with A's receiver holding 14 s")
                }
                // One endpoint gets its share of the stream (4 at a time, 7 at
                // most while a claim overlaps), not all of it (64).
                #expect(receiver.deliveries.count <= 7, "A's endpoint got \(receiver.deliveries.count) deliveries at once")
                try await member.close()
            }
        }
    }

    /// #41: per-tenant caps were shares, not isolation: tenants whose
    /// receivers hang held every webhook slot, and another tenant's delivery
    /// waited for one to time out. Past the shared slots a reserve is kept
    /// for tenants below their floor.
    @Test func tenantsWithHangingReceiversLeaveAnotherTenantItsFloor() async throws {
        let slow = WebhookReceiver()
        slow.delay = .seconds(14)
        let fast = WebhookReceiver()
        try await slow.run { slowPort in
            try await fast.run { fastPort in
                let hanging = Self.tenantWithEndpoint("slow", port: slowPort, events: #"["webhook.test"]"#)
                let quick = Self.tenantWithEndpoint("fast", port: fastPort, events: #"["webhook.test"]"#)
                let fixture = try await ServerFixture(pluginTables: [hanging, hanging, quick], registry: AudioChatroomFixture.registry,
                                                      clock: SystemClock())
                try await fixture.live(options: {
                    // Two tenants' two slots each fill the shared four.
                    $0.dispatcher.webhookLimits = .init(total: 4, perDestination: 2, perTenant: 2)
                }) { http in
                    for index in 0..<2 {
                        let tenant = fixture.id(index)
                        #expect(try await http.post("/admin/v1/tenants/\(tenant)/webhooks/slow/test", key: fixture.key(index)).status == .accepted)
                        try await fixture.database.query("""
                            INSERT INTO outbox (tenant_id, room_id, kind, lane, payload, status, next_attempt_at, created_at)
                            SELECT o.tenant_id, o.room_id, o.kind, o.lane, o.payload, 'pending', o.next_attempt_at, o.created_at
                            FROM outbox o CROSS JOIN generate_series(1, 9) WHERE o.tenant_id = \(tenant) AND o.kind = 'webhook'
                            """)
                    }
                    try await slow.wait("the hanging receiver to hold the four shared slots") { $0.count >= 4 }
                    let started = ContinuousClock.now
                    #expect(try await http.post("/admin/v1/tenants/\(fixture.id(2))/webhooks/fast/test", key: fixture.key(2)).status == .accepted)
                    try await fast.wait("the third tenant's delivery") { $0.contains { $0.accepted } }
                    let took = ContinuousClock.now - started
                    #expect(took < .seconds(5), "the third tenant's webhook arrived after \(took), with every shared slot held 14 s")
                    #expect(slow.deliveries.count <= 4, "the hanging tenants got no more than their shares: \(slow.deliveries.count)")
                }
            }
        }
    }

    @Test func testEventsAreRateLimited() async throws {
        let receiver = WebhookReceiver()
        try await receiver.run { port in
            let table = Self.tenantWithEndpoint("backend", port: port, events: #"["*"]"#)
            let fixture = try await ServerFixture(pluginTables: [table], registry: AudioChatroomFixture.registry, clock: SystemClock())
            try await fixture.live { http in
                // 21 in a row: at most 10 a minute, so at least one is refused
                // even if a new minute begins among them.
                var statuses: [Int] = []
                for _ in 1...21 {
                    statuses.append(Int(try await http.post("/admin/v1/tenants/\(fixture.id(0))/webhooks/backend/test", key: fixture.key(0)).status.code))
                }
                let accepted = statuses.filter { $0 == 202 }.count
                #expect((10...20).contains(accepted) && statuses.filter { $0 == 429 }.count == 21 - accepted, "\(statuses)")
            }
        }
    }
}
