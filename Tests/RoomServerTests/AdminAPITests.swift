import Foundation
import PluginConformance
import RoomCore
import RoomTestSupport
import Testing

@Suite struct AdminAPITests {
    @Test func operatorCreatesListsShowsAndDissolvesARoom() async throws {
        let fixture = try await ServerFixture()
        let tenant = fixture.id(0)
        try await fixture.live { http in
            let created = try await http.post("/admin/v1/tenants/\(tenant)/rooms", key: fixture.operatorKey,
                                              json: #"{"plugin":"test-rooms","name":"Lobby","owner":"alice","ttlSeconds":600}"#)
            #expect(created.status == .created)
            let id = try #require(created.json["id"]?.int64)
            #expect(created.headers[.location] == "/admin/v1/tenants/\(tenant)/rooms/\(id)")
            #expect(created.json["state"]?.string == "open")
            #expect(created.json["plugin"]?.string == "test-rooms")

            let list = try await http.get("/admin/v1/tenants/\(tenant)/rooms", key: fixture.operatorKey)
            #expect(list.status == .ok)
            #expect(list.json["items"].map(Self.ids) == [id])

            let shown = try await http.get("/admin/v1/tenants/\(tenant)/rooms/\(id)", key: fixture.operatorKey)
            #expect(shown.json["room"]?["name"]?.string == "Lobby")
            #expect(Self.kinds(shown.json["events"]) == ["created"])

            let dissolved = try await http.post("/admin/v1/tenants/\(tenant)/rooms/\(id)/dissolve", key: fixture.operatorKey)
            #expect(dissolved.status == .ok)
            #expect(dissolved.json["state"]?.string == "closed")
            #expect(dissolved.json["closeReason"]?.string == "dissolved")

            let again = try await http.post("/admin/v1/tenants/\(tenant)/rooms/\(id)/dissolve", key: fixture.operatorKey)
            #expect(again.status == .conflict)
            #expect(again.json["code"]?.string == "room_closed")
            #expect(again.headers[.contentType] == "application/problem+json")

            let closed = try await http.get("/admin/v1/tenants/\(tenant)/rooms?state=closed", key: fixture.operatorKey)
            #expect(closed.json["items"].map(Self.ids) == [id])
            let open = try await http.get("/admin/v1/tenants/\(tenant)/rooms?state=open", key: fixture.operatorKey)
            #expect(open.json["items"].map(Self.ids) == [])
        }
    }

    @Test func tenantKeysReachOnlyTheirOwnTenant() async throws {
        let fixture = try await ServerFixture()
        let (demo, acme) = (fixture.id(0), fixture.id(1))
        try await fixture.live { http in
            let created = try await http.post("/admin/v1/tenants/\(demo)/rooms", key: fixture.key(0), json: #"{"plugin":"test-rooms","name":"Mine","owner":"o"}"#)
            #expect(created.status == .created, "a tenant key manages its own tenant")
            let id = try #require(created.json["id"]?.int64)

            for path in ["/admin/v1/tenants/\(demo)", "/admin/v1/tenants/\(demo)/rooms", "/admin/v1/tenants/\(demo)/rooms/\(id)",
                         "/admin/v1/tenants/\(demo)/outbox", "/admin/v1/tenants/\(demo)/stats", "/admin/v1/tenants/no-such-tenant"] {
                #expect(try await http.get(path, key: fixture.key(1)).status == .forbidden, "\(path) with the other tenant's key")
            }
            let touch = try await http.post("/admin/v1/tenants/\(demo)/rooms/\(id)/dissolve", key: fixture.key(1))
            #expect(touch.status == .forbidden)
            #expect(try await http.get("/admin/v1/tenants/\(demo)/rooms/\(id)", key: fixture.operatorKey).json["room"]?["state"]?.string == "open")

            #expect(try await http.get("/admin/v1/tenants/\(demo)/rooms").status == .unauthorized)
            #expect(try await http.get("/admin/v1/tenants/\(demo)/rooms", key: "wrong").status == .unauthorized)
            #expect(try await http.post("/admin/v1/tenants/reload", key: fixture.key(0)).status == .forbidden)

            let visible = try await http.get("/admin/v1/tenants", key: fixture.key(1))
            guard case .array(let items)? = visible.json["items"] else { Issue.record("tenants list"); return }
            #expect(items.compactMap { $0["id"]?.string } == [acme])
        }
    }

    /// The scheme of `Authorization: Bearer <key>` is case-insensitive (RFC
    /// 9110 §11.1): an operator's tool sending "bearer" was refused 401.
    @Test func theBearerSchemeIsReadInAnyCase() async throws {
        let fixture = try await ServerFixture()
        try await fixture.live { http in
            for value in ["bearer \(fixture.key(0))", "BEARER  \(fixture.key(0))", "Bearer \(fixture.key(0)) "] {
                let answer = try await http.request(.get, "/admin/v1/tenants/\(fixture.id(0))", headers: [.authorization: value])
                #expect(answer.status == .ok, "\(value.prefix(8)): \(answer.text)")
            }
            for value in [fixture.key(0), "Basic \(fixture.key(0))", "Bearer"] {
                let answer = try await http.request(.get, "/admin/v1/tenants/\(fixture.id(0))", headers: [.authorization: value])
                #expect(answer.status == .unauthorized, "\(value.prefix(8)) is no Bearer credential")
            }
        }
    }

    /// #27, item 5: what the contract calls valid the server takes, and
    /// what the server refuses is refused with the status the contract
    /// gives (schemathesis's every check runs against the cluster in ops/test).
    @Test func theServerAnswersAsTheContractStates() async throws {
        let fixture = try await ServerFixture()
        let tenant = fixture.id(0)
        try await fixture.live { http in
            let document = try await http.get("/admin/v1/openapi.json").json
            let schemas = document["components"]?["schemas"]
            // Each branch a named schema, for client generators (#44).
            let branches = (schemas?["CreateRoom"]?["oneOf"]?.arrayValue ?? []).compactMap { branch in
                branch["$ref"]?.string.flatMap { schemas?[String($0.split(separator: "/").last ?? "")] }
            }
            #expect(branches.compactMap { $0["properties"]?["plugin"]?["enum"]?.arrayValue?.first?.string } == ["test-rooms"], "one schema per hosted plugin")
            let path = "/admin/v1/tenants/\(tenant)/rooms"
            let unknownOption = try await http.post(path, key: fixture.operatorKey, json: #"{"plugin":"test-rooms","name":"x","owner":"o","options":{"colour":"red"}}"#)
            #expect(unknownOption.status == .unprocessableContent && unknownOption.json["field"]?.string == "options.colour", "a typo is refused, not ignored")
            let nullName = try await http.post(path, key: fixture.operatorKey, json: #"{"plugin":"test-rooms","name":null,"owner":"o"}"#)
            #expect(nullName.status == .badRequest && nullName.json["field"]?.string == "name")
            let blankName = try await http.post(path, key: fixture.operatorKey, json: #"{"plugin":"test-rooms","name":" \u3000 ","owner":"o"}"#)
            #expect(blankName.status == .badRequest && blankName.json["field"]?.string == "name")
            let extraField = try await http.post(path, key: fixture.operatorKey, json: #"{"plugin":"test-rooms","name":" x ","owner":"o","ttlSeconds":null,"note":"a\u0000b"}"#)
            #expect(extraField.status == .created, "a field the route does not read is ignored, whatever it holds: \(extraField.text)")
            #expect(extraField.json["name"]?.string == "x", "blanks at either end are trimmed")
            let room = try #require(extraField.json["id"]?.int64)
            let tooFar = try await http.post("\(path)/\(room)/extend", key: fixture.operatorKey, json: #"{"ttlSeconds":31622400}"#)
            #expect(tooFar.status == .conflict && tooFar.json["code"]?.string == "conflicts_with_state" && tooFar.json["field"]?.string == "ttlSeconds",
                    "within the contract's maximum, refused by the room's own expiry: \(tooFar.text)")
            let replay = try await http.post("/admin/v1/tenants/\(tenant)/outbox/replay", key: fixture.operatorKey,
                                             json: #"{"since":"2026-01-01T00:00:00Z","endpoint":"nope"}"#)
            #expect(replay.status == .notFound, "an endpoint the tenant does not have is not found, as for its test event")
        }
    }

    @Test func badInputGetsAProblemNamingTheFieldAndWritesNothing() async throws {
        let fixture = try await ServerFixture()
        let tenant = fixture.id(0)
        try await fixture.live { http in
            let path = "/admin/v1/tenants/\(tenant)/rooms"
            let cases: [(String, String)] = [
                (#"{"name":"x","owner":"o"}"#, "plugin"),
                (#"{"plugin":"test-rooms","owner":"o"}"#, "name"),
                (#"{"plugin":"test-rooms","name":"x"}"#, "owner"),
                (#"{"plugin":"test-rooms","name":"x","owner":"o","ttlSeconds":"soon"}"#, "ttlSeconds"),
                (#"{"plugin":"test-rooms","name":"x","owner":"o","ttlSeconds":-5}"#, "ttlSeconds"),
                (#"{"plugin":"test-rooms","name":"x""#, "body"),
                (#"[1,2]"#, "body"),
            ]
            for (body, field) in cases {
                let answer = try await http.post(path, key: fixture.operatorKey, json: body)
                #expect(answer.status == .badRequest, "\(body)")
                #expect(answer.json["field"]?.string == field, "\(body)")
                #expect(answer.json["code"]?.string == "invalid_parameter")
            }
            let unknownPlugin = try await http.post(path, key: fixture.operatorKey, json: #"{"plugin":"nope","name":"x","owner":"o"}"#)
            #expect(unknownPlugin.status == .notFound && unknownPlugin.json["code"]?.string == "plugin_not_enabled", "as a client route answers it")
            #expect(unknownPlugin.json["field"]?.string == "plugin")
            #expect(try await http.get("\(path)/abc", key: fixture.operatorKey).json["field"]?.string == "room")
            #expect(try await http.get("\(path)/999999999", key: fixture.operatorKey).status == .notFound)
            #expect(try await http.get("\(path)?state=gone", key: fixture.operatorKey).json["field"]?.string == "state")
            #expect(try await http.get("\(path)?limit=0", key: fixture.operatorKey).json["field"]?.string == "limit")
            // Digits only, as the contract states: Swift's Int64("+4") is 4
            // (schemathesis had a cursor of "+4" accepted).
            let base = "/admin/v1/tenants/\(tenant)"
            for (query, field) in [("rooms?cursor=%2B4", "cursor"), ("rooms?limit=%2B5", "limit"), ("outbox?cursor=%2B4", "cursor"),
                                   ("outbox?limit=%2B5", "limit"), ("activity?minutes=%2B5", "minutes"), ("rooms?cursor=1234567890123456789", "cursor")] {
                let answer = try await http.get("\(base)/\(query)", key: fixture.operatorKey)
                #expect(answer.status == .badRequest && answer.json["field"]?.string == field, "\(query): \(answer.text)")
            }
            #expect(try await http.get("\(base)/rooms?cursor=4&limit=5", key: fixture.operatorKey).status == .ok)
            #expect(try await http.post("\(path)/1/extend", key: fixture.operatorKey, json: "{}").json["field"]?.string == "ttlSeconds")
            #expect(try await http.get(path, key: fixture.operatorKey).json["items"].map(Self.ids) == [], "nothing was written")
        }
    }

    @Test func roomsArePagedNewestFirst() async throws {
        let fixture = try await ServerFixture()
        let tenant = fixture.id(0)
        try await fixture.live { http in
            var created: [Int64] = []
            for name in ["a", "b", "c"] {
                let answer = try await http.post("/admin/v1/tenants/\(tenant)/rooms", key: fixture.operatorKey, json: #"{"plugin":"test-rooms","name":"\#(name)","owner":"o"}"#)
                created.append(try #require(answer.json["id"]?.int64))
            }
            let first = try await http.get("/admin/v1/tenants/\(tenant)/rooms?limit=2", key: fixture.operatorKey)
            #expect(first.json["items"].map(Self.ids) == [created[2], created[1]])
            let cursor = try #require(first.json["nextCursor"]?.string)
            let second = try await http.get("/admin/v1/tenants/\(tenant)/rooms?limit=2&cursor=\(cursor)", key: fixture.operatorKey)
            #expect(second.json["items"].map(Self.ids) == [created[0]])
            #expect(second.json["nextCursor"] == .null || second.json["nextCursor"] == nil)
        }
    }

    /// A huge TTL once overflowed PostgresNIO's date encoding, which traps:
    /// one admin request took down every tenant, again after each restart.
    /// Every TTL is bounded at the edge now, on create and extend.
    @Test func hugeTTLsAreRefusedAndTheProcessLives() async throws {
        let fixture = try await ServerFixture()
        let tenant = fixture.id(0)
        try await fixture.live { http in
            for ttl in ["10000000000000", "31622401", "0", "-5", "1e30", "\"60\""] {
                let refused = try await http.post("/admin/v1/tenants/\(tenant)/rooms", key: fixture.operatorKey,
                                                  json: #"{"plugin":"test-rooms","name":"r","owner":"o","ttlSeconds":\#(ttl)}"#)
                #expect(refused.status == .badRequest && refused.json["field"]?.string == "ttlSeconds", "ttlSeconds \(ttl): \(refused.status) \(refused.json)")
            }
            let created = try await http.post("/admin/v1/tenants/\(tenant)/rooms", key: fixture.operatorKey,
                                              json: #"{"plugin":"test-rooms","name":"r","owner":"o","ttlSeconds":60}"#)
            let room = try #require(created.json["id"]?.int64)
            let extended = try await http.post("/admin/v1/tenants/\(tenant)/rooms/\(room)/extend", key: fixture.operatorKey, json: #"{"ttlSeconds":10000000000000}"#)
            #expect(extended.status == .badRequest && extended.json["field"]?.string == "ttlSeconds")
            #expect(try await http.get("/healthz").status == .ok, "the process is alive")
            let rooms = try await http.get("/admin/v1/tenants/\(tenant)/rooms", key: fixture.operatorKey)
            guard case .array(let items)? = rooms.json["items"] else { Issue.record("rooms"); return }
            #expect(items.count == 1, "refused requests wrote nothing")
        }
    }

    @Test func outboxIsListedRetriedAndCounted() async throws {
        let fixture = try await ServerFixture()
        let tenant = fixture.id(0)
        try await fixture.live { http in
            let created = try await http.post("/admin/v1/tenants/\(tenant)/rooms", key: fixture.operatorKey, json: #"{"plugin":"test-rooms","name":"r","owner":"o"}"#)
            #expect(created.status == .created)
            // The admin API's room has its IM chatroom, as the plugin's own do: dissolving it queues the chatroom's close.
            let room = try #require(created.json["id"]?.int64)
            #expect(created.json["imChatroomId"]?.string != nil, "the engine opened its chatroom")
            _ = try await http.post("/admin/v1/tenants/\(tenant)/rooms/\(room)/dissolve", key: fixture.operatorKey)
            _ = try await http.post("/admin/v1/tenants/\(tenant)/rooms", key: fixture.operatorKey, json: #"{"plugin":"test-rooms","name":"r2","owner":"o"}"#)

            // The server's own dispatcher may deliver it at any moment: count it whatever its status.
            let listed = try await http.get("/admin/v1/tenants/\(tenant)/outbox", key: fixture.operatorKey)
            guard case .array(let entries)? = listed.json["items"] else { Issue.record("outbox list"); return }
            #expect(entries.count == 1)
            #expect(entries.first?["payload"]?["closeChatroom"] != nil)
            #expect(try await http.get("/admin/v1/tenants/\(tenant)/outbox?status=lost", key: fixture.operatorKey).json["field"]?.string == "status")
            #expect(try await http.post("/admin/v1/tenants/\(tenant)/outbox/424242424/retry", key: fixture.operatorKey).status == .notFound)

            let stats = try await http.get("/admin/v1/tenants/\(tenant)/stats", key: fixture.key(0))
            #expect(stats.json["rooms"]?["test-rooms"]?["open"]?.int64 == 1)
            #expect(stats.json["rooms"]?["test-rooms"]?["closed"]?.int64 == 1)
            let outbox = stats.json["outbox"]
            #expect((outbox?["pending"]?.int64 ?? 0) + (outbox?["delivered"]?.int64 ?? 0) == 1)
        }
    }

    @Test func reloadThroughTheAPIKeepsTheLastGoodSet() async throws {
        let fixture = try await ServerFixture()
        try await fixture.live { http in
            let ok = try await http.post("/admin/v1/tenants/reload", key: fixture.operatorKey)
            #expect(ok.status == .ok)
            #expect(ok.json["tenants"]?.int64 == 2)

            try "name = 7\n".write(toFile: "\(fixture.tenants.path)/\(fixture.id(1)).toml", atomically: true, encoding: .utf8)
            let rejected = try await http.post("/admin/v1/tenants/reload", key: fixture.operatorKey)
            #expect(rejected.status == .unprocessableContent)
            guard case .array(let issues)? = rejected.json["issues"] else { Issue.record("issues listed"); return }
            #expect(issues.first?.string?.contains("\(fixture.id(1)).toml: name: must be a string") == true)
            #expect(try await http.get("/admin/v1/tenants/\(fixture.id(1))", key: fixture.key(1)).status == .ok, "the previous set is still in force")
        }
    }

    /// #17: a reload on one instance reaches every other, so a revoked
    /// admin key is refused everywhere within a second.
    @Test func aReloadOnOneInstanceReachesEveryOther() async throws {
        let fixture = try await ServerFixture()
        let tenant = fixture.id(0)
        try await fixture.live(ownTenants: true) { first in
            try await fixture.live(ownTenants: true) { second in
                #expect(try await second.get("/admin/v1/tenants/\(tenant)", key: fixture.key(0)).status == .ok)
                let renamed = TestTenants.file(id: tenant, pluginTable: "[plugins.test-rooms]\n")
                    .replacingOccurrences(of: Secrets.sha256Hex(fixture.key(0)), with: Secrets.sha256Hex("rotated-key"))
                    .replacingOccurrences(of: "name = \"Test tenant \(tenant)\"", with: "name = \"Renamed\"")
                try renamed.write(toFile: "\(fixture.tenants.path)/\(tenant).toml", atomically: true, encoding: .utf8)
                #expect(try await first.post("/admin/v1/tenants/reload", key: fixture.operatorKey).json["applied"] == .bool(true))
                var followed = false
                let deadline = ContinuousClock.now + .seconds(1)
                while !followed && ContinuousClock.now < deadline {
                    followed = try await second.get("/admin/v1/tenants/\(tenant)", key: fixture.key(0)).status == .unauthorized
                    if !followed { try await Task.sleep(for: .milliseconds(20)) }
                }
                #expect(followed, "the other instance refuses the revoked key within a second")
                let shown = try await second.get("/admin/v1/tenants/\(tenant)", key: "rotated-key")
                #expect(shown.status == .ok && shown.json["name"]?.string == "Renamed")
            }
        }
    }

    /// A local chatroom's effects applied by the room's own statement (#28)
    /// are counted with the outbox's deliveries, as `outcome="in_statement"`:
    /// they had dropped out of `roomkeeper_outbox_deliveries_total`, so the
    /// outbox dashboards of a local tenant showed deliveries falling.
    @Test func effectsAppliedInTheStatementAreCountedAsDeliveries() async throws {
        let fixture = try await ServerFixture()
        let base = "/t/\(fixture.id(0))/test-rooms"
        try await fixture.live { http in
            func inStatement() async throws -> Double {
                let text = try await http.get("/metrics").text
                let line = text.split(separator: "\n").first {
                    $0.hasPrefix("roomkeeper_outbox_deliveries_total{") && $0.contains(#"kind="im""#) && $0.contains(#"outcome="in_statement""#)
                }
                return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) } ?? 0
            }
            let created = try await http.request(.post, "\(base)/room/create", form: "sid=alice&name=counted")
            let id = try #require(created.json["data"]?["roomId"]?.int64)
            let before = try await inStatement()
            #expect(try await http.request(.post, "\(base)/room/dissolve", form: "sid=alice&roomId=\(id)").json["code"]?.int64 == 200)
            let tenant = fixture.id(0), chatroom = String(id)
            let queued = try await fixture.database.query("""
                SELECT count(*)::int FROM outbox WHERE tenant_id = \(tenant) AND room_id = \(id) AND payload ? 'closeChatroom'
                """).decode(Int.self)
            let closed = try await fixture.database.query("""
                SELECT count(*)::int FROM im_events WHERE tenant_id = \(tenant) AND chatroom_id = \(chatroom) AND kind = 'closed'
                """).decode(Int.self)
            #expect(queued == [0] && closed == [1], "the close was the statement's")
            #expect(try await inStatement() == before + 1)
        }
    }

    @Test func healthReadinessAndMetrics() async throws {
        let fixture = try await ServerFixture()
        try await fixture.live { http in
            #expect(try await http.get("/healthz").status == .ok)
            let ready = try await http.get("/readyz")
            #expect(ready.status == .ok)
            #expect(ready.json["status"]?.string == "ready")
            _ = try await http.post("/admin/v1/tenants/\(fixture.id(0))/rooms", key: fixture.operatorKey, json: #"{"plugin":"test-rooms","name":"m","owner":"o"}"#)
            let metrics = try await http.get("/metrics")
            #expect(metrics.status == .ok)
            #expect(metrics.text.contains(#"roomkeeper_rooms{plugin="test-rooms",state="open"}"#))
            #expect(metrics.text.contains("roomkeeper_outbox_entries"))
            // Hummingbird's series, kept under its names (the dashboard reads the active requests).
            for series in ["http_server_request_duration", "hb_requests", "http_server_active_requests"] {
                #expect(metrics.text.contains(series), "\(series) is exported")
            }
            #expect(!metrics.text.contains(fixture.id(0)), "no tenant ids on an unauthenticated endpoint")
        }
    }

    /// #28, item 5: one epilogue counts every room write after its commit
    /// under one label scheme, the room's own plugin; an admin's kick was
    /// counted as plugin "admin" and a sweeper's release as "sweeper".
    @Test func transitionsAreCountedUnderTheRoomsPlugin() async throws {
        let fixture = try await ServerFixture()
        try await fixture.live { http in
            let tenant = fixture.id(0)
            let room = try #require(try await http.form("/t/\(tenant)/test-rooms/room/create", "sid=host&name=counted")["data"]?["roomId"]?.int64)
            #expect(try await http.form("/t/\(tenant)/test-rooms/room/join", "sid=guest&roomId=\(room)")["code"]?.int64 == 200)
            let kick = try await http.post("/admin/v1/tenants/\(tenant)/rooms/\(room)/members/guest/kick", key: fixture.operatorKey, json: "{}")
            #expect(kick.status == .ok, "\(kick.text)")
            #expect(try await http.form("/t/\(tenant)/test-rooms/room/dissolve", "sid=host&roomId=\(room)")["code"]?.int64 == 200)
            let metrics = try await http.get("/metrics").text
            // #42: one vocabulary: a kick is `kicked` in the metrics as on the timeline (it was `banned`).
            #expect(metrics.contains(#"roomkeeper_room_transitions_total{kind="kicked",plugin="test-rooms"}"#), "the kick counted as a kick under the room's plugin")
            // A close is `closed` as on the timeline, its reason beside it (it was counted as kind "dissolved").
            #expect(metrics.contains(#"roomkeeper_room_transitions_total{kind="closed",reason="dissolved",plugin="test-rooms"}"#),
                    "the dissolve counted as the timeline's close")
            let kinds = Set(metrics.split(separator: "\n").filter { $0.hasPrefix("roomkeeper_room_transitions_total{") }
                .compactMap { $0.firstMatch(of: /kind="([^"]+)"/).map { String($0.1) } })
            #expect(kinds.isSubset(of: Set(RoomEventKind.engine.map(\.stored))), "every kind is an event kind: \(kinds)")
            #expect(!metrics.contains(#"plugin="admin""#) && !metrics.contains(#"plugin="sweeper""#), "no label names a caller instead of a plugin")
        }
    }

    /// #16, finding 9: anyone may scrape /metrics, so scrapes share one
    /// database read every 15 s instead of each running its own.
    @Test func metricsScrapesShareOneDatabaseRead() async throws {
        let fixture = try await ServerFixture()
        try await fixture.live { http in
            func reads(_ text: String) -> Double? {
                text.split(separator: "\n").first { $0.hasPrefix("roomkeeper_metrics_reads_total ") }
                    .flatMap { Double($0.split(separator: " ").last ?? "") }
            }
            let first = try #require(reads(try await http.get("/metrics").text))
            let port = try #require(http.client.port)
            let texts = try await RawHTTP.using(port: port, connections: 20) { raw in
                try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<20 { group.addTask { try await raw.send(.GET, "/metrics", headers: [], body: nil).text } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            #expect(texts.compactMap(reads).allSatisfy { $0 == first }, "20 scrapes at once read nothing more")
        }
    }

    static func ids(_ items: JSONValue) -> [Int64] {
        guard case .array(let rooms) = items else { return [] }
        return rooms.compactMap { $0["id"]?.int64 }
    }

    static func kinds(_ events: JSONValue?) -> [String] {
        guard case .array(let items)? = events else { return [] }
        return items.compactMap { $0["kind"]?.string }
    }
}
