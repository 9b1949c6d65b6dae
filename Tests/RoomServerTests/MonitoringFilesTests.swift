import Foundation
import RoomCore
import RoomProviders
import RoomTestSupport
import Testing

/// #30, item 2: the shipped Grafana dashboard and Prometheus alert rules
/// name only metrics the server really exports. A live server does what
/// makes each series appear (a request, a room, an outbox delivery, a
/// webhook, a local IM socket), then its /metrics is scraped and every metric
/// the two files use is looked for. (`promtool check rules` and `promtool
/// test rules` check the rules themselves, in ops/test.)
@Suite(.serialized) struct MonitoringFilesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Metric names in a PromQL text (ours and Hummingbird's).
    static func metrics(in text: String) throws -> Set<String> {
        let name = try Regex(#"\b(?:roomkeeper|http_server|hb)_[a-z0-9_]+\b"#)
        return Set(text.matches(of: name).map { String(text[$0.range]) })
    }

    static func dashboardQueries() throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent("ops/grafana/roomkeeper.json"), encoding: .utf8)
        let dashboard = try #require(JSONValue.parse(text), "the dashboard is JSON")
        #expect(dashboard["uid"]?.string == "roomkeeper" && dashboard["title"]?.string == "Roomkeeper")
        let panels = try #require(dashboard["panels"]?.arrayValue)
        var queries: [String] = []
        for panel in panels {
            let targets = try #require(panel["targets"]?.arrayValue, "every panel has queries")
            #expect(!targets.isEmpty && panel["datasource"]?["uid"]?.string == "${datasource}", "\(panel["title"]?.string ?? "?")")
            queries += targets.compactMap { $0["expr"]?.string }
        }
        for variable in dashboard["templating"]?["list"]?.arrayValue ?? [] {
            if let query = variable["definition"]?.string { queries.append(query) }
        }
        return queries
    }

    @Test func everyMetricTheDashboardAndAlertsUseIsExported() async throws {
        let dashboard = try Self.dashboardQueries()
        #expect(dashboard.count >= 14, "the dashboard's queries were read (\(dashboard.count))")
        let rules = try String(contentsOf: Self.root.appendingPathComponent("ops/prometheus/alerts.yml"), encoding: .utf8)
        let used = try Self.metrics(in: dashboard.joined(separator: "\n")).union(try Self.metrics(in: rules))
        #expect(used.count >= 12, "\(used.sorted())")

        let receiver = WebhookReceiver()
        try await receiver.run { port in
            setenv("RK_TEST_MONITORING_SECRET", StandardWebhooks.Secret.generate(), 1)
            let table = """
                [plugins.test-rooms]

                [webhooks.backend]
                url = "http://127.0.0.1:\(port)/hook"
                secretEnv = "RK_TEST_MONITORING_SECRET"
                events = ["room.created"]
                """
            let fixture = try await ServerFixture(pluginTables: [table, table], clock: SystemClock())
            try await fixture.live(options: { $0.metricsKey = "metrics-key-for-the-test" }) { http in
                let tenant = fixture.id(0)
                let room = try #require(data(try await http.form("/t/\(tenant)/test-rooms/room/create", "sid=host&name=watched"))?["roomId"]?.int64)
                #expect(try await http.form("/t/\(tenant)/test-rooms/room/join", "sid=guest&roomId=\(room)")["code"]?.int64 == 200)
                try await receiver.wait("the webhook") { !$0.isEmpty }
                let local = try #require(fixture.tenants[0].imAdapter(LocalIMProvider.self))
                let token = try await local.createAccount(IMAccount(accid: "watcher", name: "watcher")).token
                let client = IMTestClient(port: try #require(http.client.port), tenant: tenant, accid: "watcher", token: token)
                _ = try await client.next("ready")
                // The join's chatroom message went through the outbox.
                for _ in 0..<250 {
                    let pending = try await fixture.database.query("""
                        SELECT count(*)::int FROM outbox WHERE tenant_id = \(tenant) AND status = 'pending'
                        """).decode(Int.self).first ?? 0
                    if pending == 0 { break }
                    try await Task.sleep(for: .milliseconds(20))
                }
                let scraped = try await http.get("/metrics", key: "metrics-key-for-the-test").text
                let anonymous = try await http.get("/metrics").text
                #expect(!anonymous.contains(tenant) && anonymous.contains("roomkeeper_rooms{"), "without the key no tenant is named")
                let exported = Set(scraped.split(separator: "\n").filter { !$0.hasPrefix("#") }
                    .map { String($0.prefix { $0 != "{" && $0 != " " }) })
                let missing = used.subtracting(exported)
                #expect(missing.isEmpty, "named by ops/grafana or ops/prometheus but not exported: \(missing.sorted())")
                #expect(scraped.contains(#"roomkeeper_http_requests_total{tenant="\#(tenant)",route="/t/{tenant}/test-rooms/room/create",status="200"}"#),
                        "requests are counted by tenant and route template")
                #expect(scraped.contains("roomkeeper_database_up 1"))
                _ = try await client.close()
            }
        }
    }
}
