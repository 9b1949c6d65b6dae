import Foundation
import RoomCore
import RoomTestSupport
import Testing

/// #18, item 3: a tenant's back end hears about its rooms through signed
/// webhooks that ride the outbox: in order per room, once per id, through a
/// receiver outage, dead-lettered and replayable, with every attempt listed.
@Suite(.serialized) struct WebhookDeliveryTests {
    /// Two secrets in the variable: a rotation under way, both sign.
    static let secrets = [StandardWebhooks.Secret.generate(), StandardWebhooks.Secret.generate()]

    static func fixture(port: Int, endpoints: String) async throws -> ServerFixture {
        setenv("RK_TEST_WEBHOOK_SECRETS", secrets.joined(separator: " "), 1)
        let table = "[plugins.test-rooms]\n" + endpoints.replacingOccurrences(of: "PORT", with: String(port))
        return try await ServerFixture(pluginTables: [table], clock: SystemClock())
    }

    static let backend = """
        [webhooks.backend]
        url = "http://127.0.0.1:PORT/hook"
        secretEnv = "RK_TEST_WEBHOOK_SECRETS"
        events = ["room.created", "member.joined", "member.left", "room.closed"]
        """

    /// Each signature in the header verifies under one of the secrets, over
    /// `id.timestamp.body`, and every secret signed.
    static func verify(_ delivery: WebhookReceiver.Delivery) -> Bool {
        let signatures = Set(delivery.signature.split(separator: " ").map(String.init))
        let expected = secrets.compactMap(StandardWebhooks.Secret.init).map {
            StandardWebhooks.signature(id: delivery.id, timestamp: Int(delivery.timestamp) ?? 0, body: Array(delivery.body.utf8), secret: $0)
        }
        return signatures == Set(expected) && expected.count == 2
    }

    @Test func aRoomsEventsArriveSignedInOrderOnceEachAfterTheReceiverWasDown() async throws {
        let receiver = WebhookReceiver()
        receiver.down = true
        try await receiver.run { port in
            let fixture = try await Self.fixture(port: port, endpoints: Self.backend)
            let tenant = fixture.id(0)
            let engine = RoomEngine(database: fixture.database, clock: fixture.clock, registry: fixture.registry, tenants: { fixture.tenants.directory[$0] })
            try await fixture.live(options: { $0.dispatcher.baseBackoff = 0.2; $0.dispatcher.maxBackoff = 0.5; $0.metricsKey = "webhook-metrics" }) { http in
                let created = try await http.post("/admin/v1/tenants/\(tenant)/rooms", key: fixture.key(0), json: #"{"plugin":"test-rooms","name":"hooked","owner":"host"}"#)
                let room = try #require(created.json["id"]?.int64)
                _ = try await engine.join(room, account: "guest", in: fixture.tenants[0], pluginID: nil)
                try await engine.leave(room, account: "guest", in: fixture.tenants[0], pluginID: nil)
                #expect(try await http.post("/admin/v1/tenants/\(tenant)/rooms/\(room)/dissolve", key: fixture.key(0)).status == .ok)

                // Down for a while: several refused attempts, nothing lost.
                try await receiver.wait("refused attempts") { $0.filter { !$0.accepted }.count >= 3 }
                receiver.down = false
                try await receiver.wait("the four events") { Set($0.filter(\.accepted).map(\.type)).count == 4 }

                let accepted = receiver.accepted.filter { $0.json["data"]?["roomId"]?.int64 == room }
                #expect(accepted.map(\.type) == ["room.created", "member.joined", "member.left", "room.closed"], "in the order they happened")
                #expect(Set(accepted.map(\.id)).count == accepted.count, "once per id")
                #expect(accepted.allSatisfy(Self.verify), "signed by both secrets")
                #expect(accepted.last?.json["data"]?["reason"]?.string == "dissolved")
                #expect(accepted.allSatisfy { $0.json["data"]?["tenant"]?.string == tenant })
                let refusedIDs = Set(receiver.deliveries.filter { !$0.accepted }.map(\.id))
                #expect(refusedIDs.isSubset(of: Set(accepted.map(\.id))), "a retry carries the id of the first try")

                // The first entry's attempts: refused with 503, then delivered with 204.
                let outbox = try await http.get("/admin/v1/tenants/\(tenant)/outbox?kind=webhook", key: fixture.key(0)).json
                guard case .array(let entries)? = outbox["items"], let first = entries.last?["id"]?.int64 else { Issue.record("no webhook entries"); return }
                let attempts = try await http.get("/admin/v1/tenants/\(tenant)/outbox/\(first)/attempts", key: fixture.key(0)).json
                guard case .array(let rows)? = attempts["items"] else { Issue.record("no attempts"); return }
                #expect(rows.first?["outcome"]?.string == "delivered" && rows.first?["statusCode"]?.int64 == 204)
                #expect(rows.dropFirst().contains { $0["outcome"]?.string == "retry" && $0["statusCode"]?.int64 == 503 })
                #expect(rows.allSatisfy { ($0["latencyMs"]?.int64 ?? -1) >= 0 })

                // By tenant and endpoint, for the scraper holding the metrics key (#30's alert on a failing endpoint).
                let metrics = try await http.get("/metrics", key: "webhook-metrics").text
                #expect(metrics.contains(#"roomkeeper_webhook_attempts_total{tenant="\#(tenant)",endpoint="backend",outcome="retry",status="5xx"}"#))
                #expect(metrics.contains(#"roomkeeper_webhook_attempts_total{tenant="\#(tenant)",endpoint="backend",outcome="delivered",status="2xx"}"#))
                #expect(!(try await http.get("/metrics").text.contains(tenant)), "and to no one else")
            }
        }
    }

    @Test func aDeadDeliveryIsAnnouncedThenReplayedUnderItsOwnID() async throws {
        let receiver = WebhookReceiver()
        receiver.down = true
        let operations = WebhookReceiver()
        try await receiver.run { port in
            try await operations.run { opsPort in
                let endpoints = Self.backend + """

                    [webhooks.ops]
                    url = "http://127.0.0.1:\(opsPort)/hook"
                    secretEnv = "RK_TEST_WEBHOOK_SECRETS"
                    events = ["outbox.dead"]
                    """
                let fixture = try await Self.fixture(port: port, endpoints: endpoints)
                let tenant = fixture.id(0)
                let since = Date().addingTimeInterval(-1)
                // The operator's endpoint (ROOMKEEPER_OPERATOR_WEBHOOK_URL) on the same receiver.
                let operatorEndpoint = try WebhookEndpoint.operatorEndpoint(url: "http://127.0.0.1:\(opsPort)/hook", secrets: Self.secrets.joined(separator: " ")).get()
                try await fixture.live(options: {
                    $0.dispatcher.baseBackoff = 0.1; $0.dispatcher.maxBackoff = 0.2; $0.dispatcher.maxAttempts = 2
                    $0.operatorWebhook = operatorEndpoint
                }) { http in
                    let created = try await http.post("/admin/v1/tenants/\(tenant)/rooms", key: fixture.key(0), json: #"{"plugin":"test-rooms","name":"doomed","owner":"host"}"#)
                    let room = try #require(created.json["id"]?.int64)
                    try await operations.wait("outbox.dead at the tenant's and the operator's endpoints") { $0.filter { $0.type == "outbox.dead" }.count >= 2 }
                    let dead = try #require(operations.accepted.first { $0.type == "outbox.dead" })
                    let announced = operations.accepted.filter { $0.type == "outbox.dead" && $0.json["data"]?["outboxId"] == dead.json["data"]?["outboxId"] }
                    #expect(announced.count == 2 && Set(announced.map(\.id)).count == 1, "one event, one id, at both endpoints")
                    #expect(dead.json["data"]?["endpoint"]?.string == "backend" && dead.json["data"]?["kind"]?.string == "webhook")
                    #expect(Self.verify(dead))
                    // #41: the operator's copy is the operator's: not in the tenant's listing, nor its to retry.
                    let theirs = try await http.get("/admin/v1/tenants/\(tenant)/outbox?kind=webhook&limit=100", key: fixture.key(0)).json["items"]?.arrayValue ?? []
                    let all = try await http.get("/admin/v1/tenants/\(tenant)/outbox?kind=webhook&limit=100", key: fixture.operatorKey).json["items"]?.arrayValue ?? []
                    #expect(all.count == theirs.count + 1, "one entry bound for the operator's endpoint, seen by the operator only: \(theirs.count) / \(all.count)")
                    let operatorsEntry = try #require(all.first { entry in !theirs.contains { $0["id"] == entry["id"] } }?["id"]?.int64)
                    let retried = try await http.post("/admin/v1/tenants/\(tenant)/outbox/\(operatorsEntry)/retry", key: fixture.key(0))
                    #expect(retried.status == .notFound, "\(retried.status)")
                    let firstTry = try #require(receiver.deliveries.first { $0.type == "room.created" })

                    receiver.down = false
                    let stamp = ISO8601DateFormatter().string(from: since)
                    let replay = try await http.post("/admin/v1/tenants/\(tenant)/outbox/replay", key: fixture.key(0), json: #"{"since":"\#(stamp)","endpoint":"backend"}"#)
                    #expect(replay.status == .ok && (replay.json["replayed"]?.int64 ?? 0) >= 1, "\(replay.text)")
                    try await receiver.wait("the replayed event") { $0.contains { $0.accepted && $0.type == "room.created" } }
                    let replayed = try #require(receiver.accepted.first { $0.type == "room.created" })
                    #expect(replayed.id == firstTry.id && replayed.body == firstTry.body, "the same event, the same id and bytes")
                    #expect(replayed.json["data"]?["roomId"]?.int64 == room)

                    // #27: the attempts of a replayed entry go on counting (two
                    // attempts "1" after a retry read as a lost one).
                    let entry = try #require(dead.json["data"]?["outboxId"]?.int64)
                    var numbers: [Int64] = []
                    for _ in 0..<40 where numbers.count < 3 {
                        let listed = try await http.get("/admin/v1/tenants/\(tenant)/outbox/\(entry)/attempts", key: fixture.key(0)).json
                        numbers = (listed["items"]?.arrayValue ?? []).compactMap { $0["attempt"]?.int64 }
                        if numbers.count < 3 { try await Task.sleep(for: .milliseconds(50)) }
                    }
                    #expect(numbers == [3, 2, 1], "newest first, numbered through the replay: \(numbers)")

                    let bad = try await http.post("/admin/v1/tenants/\(tenant)/outbox/replay", key: fixture.key(0), json: #"{"since":"yesterday"}"#)
                    #expect(bad.status == .badRequest && bad.json["detail"]?.string?.contains("since") == true)
                }
            }
        }
    }

    @Test func theTestEventRouteSendsASignedTestEvent() async throws {
        let receiver = WebhookReceiver()
        try await receiver.run { port in
            let fixture = try await Self.fixture(port: port, endpoints: Self.backend)
            let tenant = fixture.id(0)
            try await fixture.live { http in
                let listed = try await http.get("/admin/v1/tenants/\(tenant)/webhooks", key: fixture.key(0))
                #expect(listed.json["items"]?.arrayValue?.first?["signingSecrets"]?.int64 == 2)
                #expect(!listed.text.contains("whsec_"), "secrets are never shown")
                let queued = try await http.post("/admin/v1/tenants/\(tenant)/webhooks/backend/test", key: fixture.key(0))
                #expect(queued.status == .accepted && queued.json["kind"]?.string == "webhook")
                try await receiver.wait("the test event") { $0.contains { $0.type == "webhook.test" } }
                #expect(Self.verify(try #require(receiver.accepted.first)))
                #expect(try await http.post("/admin/v1/tenants/\(tenant)/webhooks/nowhere/test", key: fixture.key(0)).status == .notFound)
            }
        }
    }
}
