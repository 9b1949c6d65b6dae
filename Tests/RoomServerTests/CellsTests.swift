import Foundation
import Logging
import PostgresNIO
import RoomProviders
import RoomCore
import RoomTestSupport
import Testing

private struct NoDeliverer: OutboxDeliverer {
    func deliver(_ entry: OutboxEntry) async throws -> Int? { nil }
}

/// Cells (#43, first step): tenants placed across PostgreSQL formations by
/// the directory in the first cell; every statement of a request goes to
/// its tenant's cell. Here the second cell is another database of the test
/// server, migrated as `roomkeeper serve` migrates a cell.
@Suite(.serialized) struct CellsTests {
    struct Rollback: Error {}
    struct Refused: Error { let error: any Error }

    /// A second cell for `body`: a fresh database, migrated, its ids moved
    /// into cell 1's range; dropped afterwards.
    static func withSecondCell<T: Sendable>(_ body: @escaping @Sendable (Database) async throws -> T) async throws -> T {
        try await withCell(index: 1) { cell, _ in try await body(cell) }
    }

    /// Cell `index` for `body` (its database and that database's name): a
    /// fresh database of the test server, migrated, its ids moved into the
    /// cell's range as `roomkeeper serve` does; dropped afterwards.
    static func withCell<T: Sendable>(index: Int, _ body: @escaping @Sendable (Database, String) async throws -> T) async throws -> T {
        let home = try await TestDatabase.shared()
        let name = "cell_" + Secrets.randomToken(bytes: 5).lowercased()
        try await home.query("CREATE DATABASE \(unescaped: name)")
        do {
            let value = try await TestDatabase.withDatabase(named: name) { cell in
                _ = try await TestDatabase.migrator.migrate(cell)
                try await Cells.claimIDRange(index: index, on: cell)
                return try await body(cell, name)
            }
            try await home.query("DROP DATABASE \(unescaped: name) WITH (FORCE)")
            return value
        } catch {
            _ = try? await home.query("DROP DATABASE \(unescaped: name) WITH (FORCE)")
            throw error
        }
    }

    /// Two cells, the first `home`'s, with `placed` in the second, loaded as
    /// every instance loads the directory.
    static func cells(placing placed: TenantID, home: Database, second: Database) async throws -> Cells {
        let cells = try Cells(home: "cell1", others: [Cells.Cell(name: "cell2", database: second)])
        try await cells.place(placed, in: "cell2", home: home)
        try await cells.load(from: home)
        return cells
    }

    /// Alice and Bob (their IM tokens) and a chatroom "hall" on `tenant`'s
    /// local IM, made through `routed` as its requests would (its cell's).
    static func aliceBobAndHall(_ fixture: ServerFixture, _ tenant: TenantID, routed: Database) async throws -> (alice: String, bob: String, chatroom: String) {
        let loader = TenantLoader(registry: fixture.registry, providers: StandardProviderCatalog(database: routed, clock: fixture.clock),
                                  environment: TestTenants.environment)
        let loaded = try #require(try TenantDirectory(path: fixture.tenants.path, loader: loader)[tenant])
        let local = try #require(loaded.imAdapter(LocalIMProvider.self))
        return try await LeaseOwner.$tenant.withValue(tenant) {
            (try await local.createAccount(IMAccount(accid: "alice", name: "alice")).token,
             try await local.createAccount(IMAccount(accid: "bob", name: "bob")).token,
             try await local.createChatroom(name: "hall", creator: "alice"))
        }
    }

    static func count(_ database: Database, _ table: String, tenant: TenantID) async throws -> Int {
        try await database.query("SELECT count(*)::int FROM \(unescaped: table) WHERE tenant_id = \(tenant)").decode(Int.self).first ?? 0
    }

    @Test func eachTenantsRequestsWriteToItsOwnCellOnly() async throws {
        let fixture = try await ServerFixture()
        let home = fixture.database
        try await Self.withSecondCell { second in
            let stays = fixture.id(0), placed = fixture.id(1)
            let cells = try await Self.cells(placing: placed, home: home, second: second)
            #expect(cells.cell(of: placed) == "cell2" && cells.cell(of: stays) == "cell1")

            let rooms = try await fixture.live(database: home.routed(by: cells)) { http in
                var rooms: [TenantID: Int64] = [:]
                for (index, tenant) in [stays, placed].enumerated() {
                    let created = try await http.post("/admin/v1/tenants/\(tenant)/rooms", key: fixture.key(index),
                                                      json: #"{"plugin":"test-rooms","name":"Lobby","owner":"alice","ttlSeconds":600}"#)
                    #expect(created.status == .created, "\(created.text)")
                    let room = try #require(created.json["id"]?.int64)
                    rooms[tenant] = room
                    let kicked = try await http.post("/admin/v1/tenants/\(tenant)/rooms/\(room)/members/mallory/kick", key: fixture.key(index),
                                                     json: #"{"durationSeconds":600,"reason":"spam"}"#)
                    #expect(kicked.status == .ok, "\(kicked.text)")
                    // Read back through the same routing: the tenant's own cell answers.
                    let listed = try await http.get("/admin/v1/tenants/\(tenant)/rooms/\(room)", key: fixture.key(index))
                    #expect(listed.status == .ok && listed.json["room"]?["id"]?.int64 == room, "\(listed.text)")
                }
                // A key made through the API lives in its tenant's cell, and is
                // found on a route that names no tenant too.
                let made = try await http.post("/admin/v1/tenants/\(placed)/keys", key: fixture.key(1), json: #"{"label":"cell bot","scopes":["read"]}"#)
                let key = try #require(made.json["key"]?.string, "\(made.text)")
                let me = try await http.get("/admin/v1/me", key: key)
                #expect(me.status == .ok && me.json["tenant"]?.string == placed, "\(me.text)")
                // The operator's audit log reads every cell (#43): the first
                // cell only before, and `?tenant=` found nothing of a second's.
                let all = try await http.get("/admin/v1/audit?limit=200", key: fixture.operatorKey)
                let tenantsSeen = Set((all.json["items"]?.arrayValue ?? []).compactMap { $0["tenant"]?.string })
                #expect(tenantsSeen.isSuperset(of: [stays, placed]), "every cell's rows: \(tenantsSeen)")
                let ids = (all.json["items"]?.arrayValue ?? []).compactMap { $0["id"]?.string.flatMap { Int64($0) } }
                #expect(ids == ids.sorted(by: >), "newest first across cells")
                let one = try await http.get("/admin/v1/audit?tenant=\(placed)", key: fixture.operatorKey)
                let actions = (one.json["items"]?.arrayValue ?? []).compactMap { $0["action"]?.string }
                #expect(actions.contains("room.create") && actions.contains("member.kick"), "the placed tenant's rows: \(one.text.prefix(300))")
                // /metrics counts every cell's open rooms.
                let metrics = try await http.get("/metrics").text
                let line = metrics.split(separator: "\n").first { $0.hasPrefix(#"roomkeeper_rooms{plugin="test-rooms",state="open"}"#) }
                let open = line.flatMap { $0.split(separator: " ").last.flatMap { Double($0) } } ?? 0
                let sql = "SELECT count(*)::int FROM rooms WHERE state = 'open' AND plugin_id = 'test-rooms'"
                let expected = try await home.query("\(unescaped: sql)").decode(Int.self)[0] + second.query("\(unescaped: sql)").decode(Int.self)[0]
                #expect(Int(open) == expected, "open rooms in /metrics: \(line ?? "none"), in both cells \(expected)")
                return rooms
            }
            for table in ["rooms", "room_events", "bans", "audit_log"] {
                #expect(try await Self.count(home, table, tenant: stays) > 0, "\(table): the staying tenant's rows in the first cell")
                #expect(try await Self.count(second, table, tenant: stays) == 0, "\(table): none of the staying tenant's in the second")
                #expect(try await Self.count(second, table, tenant: placed) > 0, "\(table): the placed tenant's rows in its cell")
                #expect(try await Self.count(home, table, tenant: placed) == 0, "\(table): none of the placed tenant's in the first cell")
            }
            // Ids drawn in the second cell are of its range: the tenant's rows
            // can move between cells without colliding (#43).
            let banID = try await second.query("SELECT min(ban_id) FROM bans WHERE tenant_id = \(placed)").decode(Int64.self).first
            let auditID = try await second.query("SELECT min(audit_id) FROM audit_log WHERE tenant_id = \(placed)").decode(Int64.self).first
            #expect((banID ?? 0) >= Cells.idRangeStart(index: 1) && (auditID ?? 0) >= Cells.idRangeStart(index: 1), "ban \(banID ?? 0), audit \(auditID ?? 0)")
            #expect(rooms.count == 2)
        }
    }

    /// The operator follows every tenant's audit log across cells (#43):
    /// `after` keeps a position per cell, so a row new in the first cell is
    /// found after the second cell's rows were read. Before, the cursor was
    /// one id, in the second cell's range, and the first cell's new rows,
    /// drawn from a lower range, were never returned.
    @Test func theOperatorFollowsTheAuditLogOfEveryCell() async throws {
        let fixture = try await ServerFixture()
        let home = fixture.database
        try await Self.withSecondCell { second in
            let stays = fixture.id(0), placed = fixture.id(1)
            let cells = try await Self.cells(placing: placed, home: home, second: second)
            try await fixture.live(database: home.routed(by: cells)) { http in
                func kick(_ index: Int, _ account: String) async throws {
                    let tenant = fixture.id(index)
                    let created = try await http.post("/admin/v1/tenants/\(tenant)/rooms", key: fixture.key(index),
                                                      json: #"{"plugin":"test-rooms","name":"Lobby","owner":"alice","ttlSeconds":600}"#)
                    let room = try #require(created.json["id"]?.int64, "\(created.text)")
                    let kicked = try await http.post("/admin/v1/tenants/\(tenant)/rooms/\(room)/members/\(account)/kick", key: fixture.key(index), json: "{}")
                    #expect(kicked.status == .ok, "\(kicked.text)")
                }
                func follow(_ cursor: String) async throws -> (rows: [(tenant: String?, target: String)], next: String) {
                    let page = try await http.get("/admin/v1/audit?after=\(cursor)&limit=200", key: fixture.operatorKey)
                    #expect(page.status == .ok, "\(page.text)")
                    let rows = (page.json["items"]?.arrayValue ?? []).map { ($0["tenant"]?.string, ($0["target"]?.string ?? "") + "#" + ($0["id"]?.string ?? "")) }
                    let ids = (page.json["items"]?.arrayValue ?? []).compactMap { $0["id"]?.string.flatMap { Int64($0) } }
                    #expect(ids == ids.sorted(), "oldest first")
                    return (rows, try #require(page.json["nextCursor"]?.string, "\(page.text)"))
                }
                try await kick(1, "first-in-cell2")
                // Start where the newest-first page stands: its newest id is the second cell's.
                let newest = try await http.get("/admin/v1/audit?limit=1", key: fixture.operatorKey)
                let start = try #require(newest.json["items"]?.arrayValue?.first?["id"]?.string, "\(newest.text)")
                #expect((Int64(start) ?? 0) >= Cells.idRangeStart(index: 1), "the newest id is of the second cell's range: \(start)")
                let caughtUp = try await follow(start)
                #expect(caughtUp.rows.allSatisfy { !$0.target.contains("first-in-cell2") }, "nothing before the cursor again: \(start) \(caughtUp)")
                #expect(caughtUp.next.split(separator: ".").count == 2, "a position a cell: \(caughtUp.next)")

                try await kick(0, "new-in-cell1")
                let first = try await follow(caughtUp.next)
                #expect(first.rows.contains { $0.tenant == stays && $0.target.contains("new-in-cell1") }, "the first cell's new row: \(first.rows)")
                try await kick(1, "new-in-cell2")
                let then = try await follow(first.next)
                #expect(then.rows.contains { $0.tenant == placed && $0.target.contains("new-in-cell2") }, "the second cell's new row: \(then.rows)")
                #expect(!then.rows.contains { $0.target.contains("new-in-cell1") }, "each row once: \(then.rows)")

                // With ?tenant= the same cursor follows that tenant's rows (in its own cell).
                let one = try await http.get("/admin/v1/audit?tenant=\(placed)&after=\(first.next)", key: fixture.operatorKey)
                let tenants = Set((one.json["items"]?.arrayValue ?? []).compactMap { $0["tenant"]?.string })
                #expect(one.status == .ok && tenants == [placed], "\(one.text.prefix(300))")
                #expect(one.text.contains("new-in-cell2"), "\(one.text.prefix(300))")
                // Any cursor the contract allows is answered (schemathesis, ST202): a position past the cells is not read.
                let tooMany = try await http.get("/admin/v1/audit?after=\(then.next).5", key: fixture.operatorKey)
                #expect(tooMany.status == .ok && tooMany.json["nextCursor"]?.string == then.next, "\(tooMany.text)")
                let bad = try await http.get("/admin/v1/audit?after=1..2", key: fixture.operatorKey)
                #expect(bad.status == .badRequest && bad.json["field"]?.string == "after", "\(bad.text)")

                // A moved tenant's rows keep the ids its first cell drew: mid-move
                // both cells hold a row, after the move's clean-up only the new
                // one does. Before, a row the follower had not read when the move
                // deleted it from its first cell was never returned.
                try await kick(0, "copied-mid-move")
                try await kick(0, "moved-before-read")
                for (account, cleanedUp) in [("copied-mid-move", false), ("moved-before-read", true)] {
                    let pattern = "%account:" + account
                    let row = try #require(try await home.query("""
                        SELECT row_to_json(a)::text FROM audit_log a WHERE tenant_id = \(stays) AND target LIKE \(pattern)
                        """).decode(String.self).first)
                    try await second.query("INSERT INTO audit_log OVERRIDING SYSTEM VALUE SELECT * FROM json_populate_record(NULL::audit_log, \(row)::json)")
                    guard cleanedUp else { continue }
                    try await home.transaction { connection in
                        try await connection.run("SELECT set_config('roomkeeper.moved_tenant', \(stays), true)", logger: home.logger)
                        try await connection.run("DELETE FROM audit_log WHERE tenant_id = \(stays) AND target LIKE \(pattern)", logger: home.logger)
                    }
                }
                let moved = try await follow(then.next)
                #expect(moved.rows.filter { $0.target.contains("copied-mid-move") }.count == 1, "once, though both cells hold it: \(moved.rows)")
                #expect(moved.rows.filter { $0.target.contains("moved-before-read") }.count == 1, "found in the cell it moved to: \(moved.rows)")
            }
        }
    }

    /// The instance's own work runs once per cell (`InCell`): a tenant of
    /// the second cell gets its side effects delivered by that cell's
    /// outbox dispatcher and its expired room closed by that cell's sweep.
    /// Before, both ran on the first cell only and found none of its rows.
    @Test func theSweeperAndTheOutboxServeTheSecondCellsTenants() async throws {
        let fixture = try await ServerFixture()
        let home = fixture.database
        let clock = try #require(fixture.clock as? ManualClock)
        try await Self.withSecondCell { second in
            let placed = fixture.id(1)
            let cells = try await Self.cells(placing: placed, home: home, second: second)
            try await fixture.live(database: home.routed(by: cells)) { http in
                let created = try await http.form("/t/\(placed)/test-rooms/room/create", "sid=alice&name=expiring")
                let room = try #require(data(created)?["roomId"]?.int64, "\(created)")
                _ = try await http.form("/t/\(placed)/test-rooms/room/join", "sid=bob&roomId=\(room)")
                let kicked = try await http.post("/admin/v1/tenants/\(placed)/rooms/\(room)/members/bob/kick", key: fixture.key(1), json: "{}")
                #expect(kicked.status == .ok, "\(kicked.text)")
                let queued = try await Self.count(second, "outbox", tenant: placed)
                #expect(queued > 0, "the kick queued side effects in the tenant's cell")
                var pending = queued
                for _ in 0..<100 where pending > 0 {
                    try await Task.sleep(for: .milliseconds(100))
                    pending = try await second.query("""
                        SELECT count(*)::int FROM outbox WHERE tenant_id = \(placed) AND status = 'pending'
                        """).decode(Int.self).first ?? 0
                }
                #expect(pending == 0, "\(pending) of \(queued) side effects still pending in the second cell")

                clock.advance(by: 3 * 24 * 3600)
                var state = ""
                for _ in 0..<100 where state != "closed" {
                    try await Task.sleep(for: .milliseconds(100))
                    state = try await second.query("SELECT state FROM rooms WHERE tenant_id = \(placed) AND room_id = \(room)")
                        .decode(String.self).first ?? ""
                }
                #expect(state == "closed", "the expired room of the second cell is \(state)")
            }
        }
    }

    /// A pass over tenants called outside a cell's loop (`sweepOnce`,
    /// `dispatchOnce`, as the conformance suite and operators' tools call
    /// them) serves every cell. Before, it served the first only: the
    /// conformance suite with its tenant in a second cell failed
    /// `expiresAfterTTL` (the room stayed open).
    @Test func aPassCalledOutsideACellsLoopServesEveryCell() async throws {
        let fixture = try await EngineFixture(tenantCount: 2)
        let home = fixture.database
        try await Self.withSecondCell { second in
            let placed = fixture.tenants[1]
            let cells = try await Self.cells(placing: placed.id, home: home, second: second)
            let directory = fixture.tenants.directory
            let engine = RoomEngine(database: home.routed(by: cells), clock: fixture.clock, registry: TestTenants.registry, tenants: { directory[$0] })
            // Its requests would bind the tenant; so do these.
            let room = try await LeaseOwner.$tenant.withValue(placed.id) {
                try await engine.create(NewRoom(pluginID: TestRoomsPlugin.pluginID, name: "r", owner: "o", ttlSeconds: 60), in: placed, by: .admin)
            }
            let chatroom = try #require(room.imChatroomID)
            let message = OutboxMessage.im(.chatroomMessage(chatroom: chatroom, from: "o", type: "100", body: "{}", persist: false), roomID: room.id)
            let now = fixture.clock.now()
            _ = try await second.transaction { connection in
                try await OutboxStore.enqueue([message], tenantID: placed.id, webhooks: [], now: now, on: connection, logger: fixture.logger)
            }
            let stays = try await fixture.room(owner: "o", ttl: 60, in: fixture.tenants[0])
            fixture.clock.advance(by: 120)
            var sweep = ExpirySweeper.Configuration()
            sweep.tenants = fixture.tenants.ids
            #expect(try await ExpirySweeper(engine: engine, configuration: sweep, logger: fixture.logger).sweepOnce() == 2, "one room in each cell")
            #expect(try await second.query("SELECT state FROM rooms WHERE tenant_id = \(placed.id) AND room_id = \(room.id)").decode(String.self).first == "closed")
            #expect(try await home.query("SELECT state FROM rooms WHERE room_id = \(stays.id)").decode(String.self).first == "closed")
            let deliverer = FlakyDeliverer(failures: 0, next: NoDeliverer())
            var dispatch = OutboxDispatcher.Configuration()
            dispatch.tenants = [placed.id]
            let dispatcher = OutboxDispatcher(store: OutboxStore(database: home.routed(by: cells)), deliverer: deliverer, clock: fixture.clock,
                                              configuration: dispatch, logger: fixture.logger)
            #expect(try await dispatcher.dispatchOnce() > 0, "the second cell's entries were claimed")
            #expect(deliverer.delivered.contains { $0.tenantID == placed.id && $0.roomID == room.id })
        }
    }

    /// The local IM of a second cell's tenant: its sockets log in against
    /// its cell's accounts, and a message reaches the other member through
    /// that cell's NOTIFY and the hub's read of the event (the hub's own
    /// task serves every cell: its reads go by the event's tenant).
    /// A tenant's usage is folded into its own cell only: this instance's
    /// in-memory counts of a tenant are taken once, by the one rollup, and
    /// written where the tenant lives. With a rollup per cell, each cell's
    /// took whichever tenants' counts it came to first.
    @Test func eachTenantsUsageIsFoldedIntoItsOwnCell() async throws {
        let fixture = try await ServerFixture()
        let home = fixture.database
        try await Self.withSecondCell { second in
            let stays = fixture.id(0), placed = fixture.id(1)
            let cells = try await Self.cells(placing: placed, home: home, second: second)
            try await fixture.live(options: { $0.usageInterval = .milliseconds(50) }, database: home.routed(by: cells)) { http in
                for round in 0..<20 {
                    for (index, tenant) in [stays, placed].enumerated() {
                        #expect(try await http.get("/admin/v1/tenants/\(tenant)/rooms", key: fixture.key(index)).status == .ok)
                    }
                    if round % 4 == 3 { try await Task.sleep(for: .milliseconds(60)) }
                }
                try await Task.sleep(for: .milliseconds(300))
            }
            let sql = "SELECT coalesce(sum(api_requests), 0)::int FROM usage_hourly WHERE tenant_id = "
            let (staysHome, staysSecond) = (try await home.query("\(unescaped: sql)\(stays)").decode(Int.self)[0],
                                            try await second.query("\(unescaped: sql)\(stays)").decode(Int.self)[0])
            let (placedHome, placedSecond) = (try await home.query("\(unescaped: sql)\(placed)").decode(Int.self)[0],
                                              try await second.query("\(unescaped: sql)\(placed)").decode(Int.self)[0])
            #expect(staysHome == 20 && staysSecond == 0, "the staying tenant's 20 requests: \(staysHome) in its cell, \(staysSecond) in the other")
            #expect(placedSecond == 20 && placedHome == 0, "the placed tenant's 20 requests: \(placedSecond) in its cell, \(placedHome) in the other")
        }
    }

    @Test func aSecondCellsTenantsSocketsLogInAndHearEachOther() async throws {
        let fixture = try await ServerFixture(clock: SystemClock())
        let home = fixture.database
        try await Self.withSecondCell { second in
            let placed = fixture.id(1)
            let cells = try await Self.cells(placing: placed, home: home, second: second)
            let routed = home.routed(by: cells)
            let (alice, bob, chatroom) = try await Self.aliceBobAndHall(fixture, placed, routed: routed)
            let inSecond = try await Self.count(second, "im_accounts", tenant: placed), inHome = try await Self.count(home, "im_accounts", tenant: placed)
            #expect(inSecond == 2 && inHome == 0, "the IM accounts in the tenant's cell: \(inSecond) there, \(inHome) in the first")
            try await fixture.live(ownTenants: true, database: routed) { http in
                let port = try #require(http.client.port)
                var clients: [IMTestClient] = []
                for (accid, token) in [("alice", alice), ("bob", bob)] {
                    let client = IMTestClient(port: port, tenant: placed, accid: accid, token: token)
                    #expect(try await client.next("ready")["accid"]?.string == accid, "\(accid) logs in against its cell's accounts")
                    client.send(#"{"type":"enter","chatroom":"\#(chatroom)"}"#)
                    #expect(try await client.next("entered")["chatroom"]?.string == chatroom)
                    clients.append(client)
                }
                clients[0].send(#"{"type":"text","chatroom":"\#(chatroom)","text":"hi bob"}"#)
                let heard = try await clients[1].next("message")
                #expect(heard["from"]?.string == "alice" && heard["body"]?.string == "hi bob", "\(heard)")
                // 8,000 bytes do not fit a NOTIFY: it carries the event's key,
                // and the hub reads the event from the tenant's cell.
                let long = String(repeating: "😀", count: 2_000)
                clients[0].send(#"{"type":"text","chatroom":"\#(chatroom)","text":"\#(long)"}"#)
                let read = try await clients[1].next("message")
                #expect(read["body"]?.string == long, "the long message, read from the second cell: \(read["body"]?.string?.count ?? 0) characters")
                for client in clients { try await client.close() }
            }
        }
    }

    /// The keys that sign tokens and seal secrets are the deployment's: made
    /// and read in the first cell even when a second cell's tenant asks first.
    @Test func theSigningKeysLiveInTheFirstCell() async throws {
        let home = try await TestDatabase.shared()
        try await Self.withSecondCell { second in
            let cells = try Cells(home: "cell1", others: [Cells.Cell(name: "cell2", database: second)])
            let placed = uniqueID()
            try await cells.place(placed, in: "cell2", home: home)
            let keyID = "cells-test-" + Secrets.randomToken(bytes: 4)
            _ = try await LeaseOwner.$tenant.withValue(placed) { try await TokenKeyring(keyID: keyID).key(home.routed(by: cells)) }
            let inHome = try await home.query("SELECT count(*)::int FROM token_keys WHERE key_id = \(keyID)").decode(Int.self).first
            let inSecond = try await second.query("SELECT count(*)::int FROM token_keys WHERE key_id = \(keyID)").decode(Int.self).first
            #expect(inHome == 1 && inSecond == 0, "the key in the first cell (\(inHome ?? 0)), not the tenant's (\(inSecond ?? 0))")
            try await home.query("DELETE FROM token_keys WHERE key_id = \(keyID)")
            try await home.query("DELETE FROM tenant_cells WHERE tenant_id = \(placed)")
        }
    }

    @Test func aDirectoryNamingAnUnknownCellIsRefused() async throws {
        let home = try await TestDatabase.shared()
        let tenant = uniqueID()
        let cells = try Cells(home: "cell1", others: [])
        // The directory is shared by every test of this database: the row
        // is taken out again before anything else reads it.
        var refusal: (any Error)?
        do {
            try await home.transaction { connection in
                try await connection.run("INSERT INTO tenant_cells (tenant_id, cell) VALUES (\(tenant), 'cell9')", logger: home.logger)
                let rows = try await connection.run("SELECT tenant_id, cell FROM tenant_cells", logger: home.logger).decode((String, String).self)
                do { _ = try cells.check(rows) } catch { throw Refused(error: error) }
                throw Rollback()
            }
        } catch let refused as Refused {
            refusal = refused.error
        } catch is Rollback {}
        #expect(refusal is CellsError, "a tenant placed in a cell this instance lacks: \(String(describing: refusal))")
        #expect(throws: CellsError.self) { try Cells(home: "Cell 1", others: []) }
        // A bad tenant id or cell name writes nothing.
        let before = try await home.query("SELECT count(*)::int FROM tenant_cells").decode(Int.self)[0]
        await #expect(throws: CellsError.self) { try await Cells.record("Bad Tenant!", in: "cell2", home: home) }
        await #expect(throws: CellsError.self) { try await Cells.record(tenant, in: "Cell 2", home: home) }
        #expect(try await home.query("SELECT count(*)::int FROM tenant_cells").decode(Int.self)[0] == before)
    }
}
