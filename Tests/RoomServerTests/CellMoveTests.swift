import Foundation
import PostgresNIO
import RoomCore
import RoomProviders
import RoomTestSupport
import Synchronization
import Testing

/// #43: a tenant moved to another cell while it is served (`TenantMove`):
/// every write acknowledged before, during and after the move is in the
/// new cell, none of the tenant's rows stay in the old, the other tenant is
/// untouched; a move whose fence is not acknowledged rolls back cleanly.
@Suite(.serialized) struct CellMoveTests {
    static func source(_ home: Database) throws -> TenantMove.Side {
        guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"] else { throw CellsTests.Rollback() }
        return .init(name: "cell1", database: home, conninfo: DatabaseURL.conninfo(try DatabaseURL.endpoint(from: url)))
    }

    /// The subscription's connection string for another database of the test server.
    static func conninfo(ofDatabase name: String) throws -> String {
        guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"], var components = URLComponents(string: url) else { throw CellsTests.Rollback() }
        components.path = "/\(name)"
        return DatabaseURL.conninfo(try DatabaseURL.endpoint(from: components.string!))
    }

    /// Only this test's server is alive: earlier tests' servers stopped
    /// without taking their rows out of `instances` (a test's server is
    /// cancelled, not shut down), and a move waits 15 s for each to
    /// acknowledge. Its own row is the newest: it was written at its start.
    static func forgetStoppedServers(_ home: Database) async throws {
        try await home.query("DELETE FROM instances WHERE seen_at < (SELECT max(seen_at) FROM instances)")
    }

    /// A second cell for `body`, and the directory of both loaded from `home`.
    static func withSecondCell(loadedFrom home: Database, _ body: @escaping @Sendable (Database, Cells) async throws -> Void) async throws {
        try await CellsTests.withSecondCell { second in
            let cells = try Cells(home: "cell1", others: [Cells.Cell(name: "cell2", database: second)])
            try await cells.load(from: home)
            try await body(second, cells)
        }
    }

    static func rooms(_ database: Database, of tenant: TenantID) async throws -> Set<Int64> {
        Set(try await database.query("SELECT room_id FROM rooms WHERE tenant_id = \(tenant)").decode(Int64.self))
    }

    /// A move that failed left nothing behind: the tenant in the first cell
    /// and not fenced, its room there, nothing of it in the target, no move,
    /// subscription or slot; and it is served from where it was, at once.
    static func expectRolledBack(_ moving: TenantID, room: Int64, cells: Cells, home: Database, second: Database,
                                 http: HTTP, key: String) async throws {
        #expect(cells.cell(of: moving) == "cell1" && !cells.isFenced(moving))
        #expect(try await Self.rooms(home, of: moving).contains(room))
        #expect(try await TenantMove.count(moving, on: second) == 0, "nothing of the tenant left in the target")
        #expect(try await home.query("SELECT count(*)::int FROM tenant_moves WHERE tenant_id = \(moving)").decode(Int.self)[0] == 0)
        #expect(try await second.query("SELECT count(*)::int FROM pg_subscription WHERE subname LIKE 'rk_move_%'").decode(Int.self)[0] == 0)
        #expect(try await home.query("SELECT count(*)::int FROM pg_replication_slots WHERE slot_name LIKE 'rk_move_%'").decode(Int.self)[0] == 0)
        let again = try await http.post("/admin/v1/tenants/\(moving)/rooms", key: key,
                                        json: #"{"plugin":"test-rooms","name":"Again","owner":"alice","ttlSeconds":600}"#)
        #expect(again.status == .created, "served from where it was: \(again.text)")
    }

    @Test func aTenantMovesWhileItsWritesGoOn() async throws {
        let fixture = try await ServerFixture()
        let home = fixture.database
        try await Self.withSecondCell(loadedFrom: home) { second, cells in
            let stays = fixture.id(0), moving = fixture.id(1)
            try await fixture.live(database: home.routed(by: cells), seconds: 120) { http in
                func create(_ index: Int, _ name: String) async throws -> (status: Int, id: Int64?) {
                    let created = try await http.post("/admin/v1/tenants/\(fixture.id(index))/rooms", key: fixture.key(index),
                                                      json: #"{"plugin":"test-rooms","name":"\#(name)","owner":"alice","ttlSeconds":600}"#)
                    return (Int(created.status.code), created.json["id"]?.int64)
                }
                var before: Set<Int64> = []
                for n in 0..<20 { if let id = try await create(1, "before \(n)").id { before.insert(id) } }
                let stayed = try #require(try await create(0, "stays").id)
                let first = try #require(before.first)
                let kicked = try await http.post("/admin/v1/tenants/\(moving)/rooms/\(first)/members/mallory/kick", key: fixture.key(1),
                                                 json: #"{"durationSeconds":600,"reason":"spam"}"#)
                #expect(kicked.status == .ok)
                // The tenant's writes go on through the move: each answered
                // 201 (acknowledged) or 503 (try again), never lost.
                let stop = Atomic<Bool>(false)
                let writer = Task { () -> (acknowledged: Set<Int64>, refused: Int, other: [Int]) in
                    var acknowledged: Set<Int64> = [], refused = 0, other: [Int] = []
                    var n = 0
                    while !stop.load(ordering: .relaxed) {
                        n += 1
                        let answer = try await create(1, "during \(n)")
                        if answer.status == 201, let id = answer.id { acknowledged.insert(id) } else if answer.status == 503 { refused += 1 } else { other.append(answer.status) }
                    }
                    return (acknowledged, refused, other)
                }
                try await Self.forgetStoppedServers(home)
                let reported = Mutex<[String]>([])
                let move = try TenantMove(tenant: moving, home: home, source: try Self.source(home),
                                          target: .init(name: "cell2", database: second, conninfo: ""),
                                          report: { line in print("move: \(line)"); reported.withLock { $0.append(line) } })
                let timings: TenantMove.Timings
                do { timings = try await move.run() } catch { Issue.record("\(String(reflecting: error))"); throw error }
                try await Task.sleep(for: .milliseconds(300))
                stop.store(true, ordering: .relaxed)
                let during = try await writer.value
                var after: Set<Int64> = []
                for n in 0..<5 { if let id = try await create(1, "after \(n)").id { after.insert(id) } }

                #expect(during.other.isEmpty, "only 201 and 503: \(during.other)")
                #expect(during.acknowledged.count > 5, "writes went on: \(during.acknowledged.count) acknowledged, \(during.refused) refused")
                #expect(timings.fence < .seconds(5), "the tenant's write pause: \(timings.fence)")
                // The copy says how many tables it took at once: the target's
                // setting, which decides how much of the cell's cores it takes.
                let atOnce = try await second.query("SELECT current_setting('max_sync_workers_per_subscription')::int").decode(Int.self)[0]
                let copied = reported.withLock { $0.first { $0.hasPrefix("copied: ") } }
                #expect(copied?.hasPrefix("copied: \(try await TenantMove.tables(on: home).count) tables, \(atOnce) at a time") == true,
                        "\(copied ?? "no copy reported")")
                #expect(cells.cell(of: moving) == "cell2", "every instance follows the flip")
                let moved = try await Self.rooms(second, of: moving)
                let lost = before.union(during.acknowledged).union(after).subtracting(moved)
                #expect(lost.isEmpty, "acknowledged rooms not in the new cell: \(lost.sorted())")
                #expect(after.count == 5)
                for table in try await TenantMove.tables(on: home) where table != "idempotency_keys" {
                    #expect(try await CellsTests.count(home, table, tenant: moving) == 0, "\(table): none of the moved tenant's rows stay")
                }
                #expect(try await CellsTests.count(second, "bans", tenant: moving) == 1, "its ban moved with it")
                #expect(try await Self.rooms(home, of: stays).contains(stayed), "the other tenant stays where it was")
                #expect(try await CellsTests.count(second, "rooms", tenant: stays) == 0)
                let metrics = try await http.get("/metrics").text
                #expect(metrics.contains("roomkeeper_tenants_fenced 0") && metrics.contains(#"roomkeeper_tenant_moves{phase="fenced"} 0"#),
                        "no fence or move left: \(metrics.split(separator: "\n").filter { $0.contains("tenant") })")
                // Read back through the server: the new cell answers.
                let listed = try await http.get("/admin/v1/tenants/\(moving)/rooms/\(first)", key: fixture.key(1))
                #expect(listed.status == .ok, "\(listed.text)")
                let steps = try await second.query("""
                    SELECT outcome FROM audit_log WHERE tenant_id = \(moving) AND action = 'tenant.move' ORDER BY audit_id
                    """).decode(String.self)
                #expect(steps.first == "copying to cell2" && steps.contains("fenced") && steps.contains("flipped from cell1")
                        && steps.last?.hasPrefix("done") == true, "\(steps)")
                #expect(try await home.query("SELECT count(*)::int FROM pg_publication WHERE pubname LIKE 'rk_move_%'").decode(Int.self)[0] == 0)
                #expect(try await home.query("SELECT count(*)::int FROM pg_replication_slots WHERE slot_name LIKE 'rk_move_%'").decode(Int.self)[0] == 0)
            }
            // Moved back in the test's cleanup is not needed: the cell is dropped.
            try await home.query("DELETE FROM tenant_cells WHERE tenant_id = \(moving)")
        }
    }

    /// An instance that never acknowledges the fence (gone without saying,
    /// or hung): the move rolls back, the directory unchanged, the new
    /// cell's copy deleted, the replication dropped, the fence lifted.
    @Test func aFenceNotAcknowledgedRollsBackCleanly() async throws {
        let fixture = try await ServerFixture()
        let home = fixture.database
        try await Self.withSecondCell(loadedFrom: home) { second, cells in
            let moving = fixture.id(1)
            let silent = "silent-" + Secrets.randomToken(bytes: 4)
            try await fixture.live(database: home.routed(by: cells), seconds: 120) { http in
                let created = try await http.post("/admin/v1/tenants/\(moving)/rooms", key: fixture.key(1),
                                                  json: #"{"plugin":"test-rooms","name":"Lobby","owner":"alice","ttlSeconds":600}"#)
                let room = try #require(created.json["id"]?.int64)
                try await home.query("INSERT INTO instances (instance_id, seen_at) VALUES (\(silent), now() + interval '1 minute')")
                let move = try TenantMove(tenant: moving, home: home, source: try Self.source(home),
                                          target: .init(name: "cell2", database: second, conninfo: ""), fenceLimit: .seconds(1), report: { print("move: \($0)") })
                await #expect(throws: TenantMove.Failed.self) { _ = try await move.run() }
                try await home.query("DELETE FROM instances WHERE instance_id = \(silent)")
                try await Self.expectRolledBack(moving, room: room, cells: cells, home: home, second: second, http: http, key: fixture.key(1))
            }
        }
    }

    /// A target that cannot take the copy (its disk full: here a trigger
    /// that fails every insert of the tenant's rooms with PostgreSQL's
    /// "disk full" code): the move sees the subscription fail and rolls
    /// back, nothing of the tenant left in the target, the directory and
    /// the fence as before, the tenant served from where it was.
    @Test func aTargetThatCannotTakeTheCopyRollsBackCleanly() async throws {
        let fixture = try await ServerFixture()
        let home = fixture.database
        try await Self.withSecondCell(loadedFrom: home) { second, cells in
            let moving = fixture.id(1)
            try await second.query("""
                CREATE FUNCTION disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = '53100'; END $$
                """)
            try await second.query("CREATE TRIGGER disk_full BEFORE INSERT ON rooms FOR EACH ROW EXECUTE FUNCTION disk_full()")
            try await second.query("ALTER TABLE rooms ENABLE ALWAYS TRIGGER disk_full")
            try await fixture.live(database: home.routed(by: cells), seconds: 120) { http in
                let created = try await http.post("/admin/v1/tenants/\(moving)/rooms", key: fixture.key(1),
                                                  json: #"{"plugin":"test-rooms","name":"Lobby","owner":"alice","ttlSeconds":600}"#)
                let room = try #require(created.json["id"]?.int64, "\(created.text)")
                try await Self.forgetStoppedServers(home)
                let move = try TenantMove(tenant: moving, home: home, source: try Self.source(home),
                                          target: .init(name: "cell2", database: second, conninfo: ""), report: { print("move: \($0)") })
                await #expect(throws: TenantMove.Failed.self) { _ = try await move.run() }
                let steps = try await home.query("""
                    SELECT outcome FROM audit_log WHERE tenant_id = \(moving) AND action = 'tenant.move' ORDER BY audit_id DESC LIMIT 1
                    """).decode(String.self)
                #expect(steps == ["rolled back"], "\(steps)")
                try await Self.expectRolledBack(moving, room: room, cells: cells, home: home, second: second, http: http, key: fixture.key(1))
            }
        }
    }

    /// A rollback whose own drop of the replication failed (the move's row
    /// is gone first, so the tenant is served again at once) left the
    /// publications, the slot and the subscription behind. The next move of
    /// the tenant drops them and moves: it failed on "already exists".
    @Test func aMoveAfterARollbackThatLeftItsReplicationBehindClearsItAndMoves() async throws {
        let fixture = try await ServerFixture()
        let home = fixture.database
        try await Self.withSecondCell(loadedFrom: home) { second, cells in
            let moving = fixture.id(1)
            let name = "rk_move_" + moving.replacingOccurrences(of: "-", with: "_")
            try await fixture.live(database: home.routed(by: cells), seconds: 120) { http in
                let created = try await http.post("/admin/v1/tenants/\(moving)/rooms", key: fixture.key(1),
                                                  json: #"{"plugin":"test-rooms","name":"Lobby","owner":"alice","ttlSeconds":600}"#)
                let room = try #require(created.json["id"]?.int64, "\(created.text)")
                // What the failed rollback left: no move recorded, its replication there.
                try await home.query("CREATE PUBLICATION \(unescaped: name) FOR TABLE rooms WHERE (tenant_id = '\(unescaped: moving)')")
                try await home.query("CREATE PUBLICATION \(unescaped: name)_append FOR TABLE audit_log WHERE (tenant_id = '\(unescaped: moving)') WITH (publish = 'insert')")
                try await home.query("SELECT pg_create_logical_replication_slot(\(name), 'pgoutput')::text")
                try await second.query("""
                    CREATE SUBSCRIPTION \(unescaped: name) CONNECTION '\(unescaped: try Self.source(home).conninfo.replacingOccurrences(of: "'", with: "''"))'
                    PUBLICATION \(unescaped: name) WITH (connect = false, enabled = false, create_slot = false, slot_name = NONE)
                    """)
                try await Self.forgetStoppedServers(home)
                _ = try await TenantMove(tenant: moving, home: home, source: try Self.source(home),
                                         target: .init(name: "cell2", database: second, conninfo: ""), report: { print("move: \($0)") }).run()
                #expect(cells.cell(of: moving) == "cell2")
                #expect(try await Self.rooms(second, of: moving).contains(room))
                #expect(try await home.query("SELECT count(*)::int FROM pg_publication WHERE pubname LIKE 'rk_move_%'").decode(Int.self)[0] == 0)
                #expect(try await home.query("SELECT count(*)::int FROM pg_replication_slots WHERE slot_name LIKE 'rk_move_%'").decode(Int.self)[0] == 0)
                #expect(try await second.query("SELECT count(*)::int FROM pg_subscription WHERE subname LIKE 'rk_move_%'").decode(Int.self)[0] == 0)
            }
            try await home.query("DELETE FROM tenant_cells WHERE tenant_id = \(moving)")
        }
    }

    /// A moved tenant's rooms expire, its side effects are delivered and its
    /// event feed goes on, from the new cell (#43: "rooms' expiry, outbox
    /// entries carry over, nothing lost from the outbox or the feed"): a
    /// follower of the feed from before the move reads each event once, in
    /// order, the room's expiry in the new cell among them.
    @Test func aMovedTenantsRoomsExpireAndItsFeedGoesOnInTheNewCell() async throws {
        let fixture = try await ServerFixture()
        let home = fixture.database
        let clock = try #require(fixture.clock as? ManualClock)
        try await Self.withSecondCell(loadedFrom: home) { second, cells in
            let moving = fixture.id(1)
            try await fixture.live(database: home.routed(by: cells), seconds: 120) { http in
                func feed(after cursor: String) async throws -> (types: [String], cursors: [Int64], next: String) {
                    let page = try await http.get("/admin/v1/tenants/\(moving)/events?after=\(cursor)&limit=200", key: fixture.key(1))
                    #expect(page.status == .ok, "\(page.text)")
                    let items = page.json["items"]?.arrayValue ?? []
                    return (items.compactMap { $0["type"]?.string }, items.compactMap { $0["cursor"]?.string.flatMap { Int64($0) } },
                            try #require(page.json["nextCursor"]?.string, "\(page.text)"))
                }
                let created = try await http.form("/t/\(moving)/test-rooms/room/create", "sid=alice&name=expiring")
                let room = try #require(data(created)?["roomId"]?.int64, "\(created)")
                _ = try await http.form("/t/\(moving)/test-rooms/room/join", "sid=bob&roomId=\(room)")
                let before = try await feed(after: "0")
                #expect(!before.types.isEmpty, "the room's events before the move")

                try await Self.forgetStoppedServers(home)
                _ = try await TenantMove(tenant: moving, home: home, source: try Self.source(home),
                                         target: .init(name: "cell2", database: second, conninfo: ""), report: { print("move: \($0)") }).run()
                // A kick after the move queues side effects in the new cell, delivered there.
                let kicked = try await http.post("/admin/v1/tenants/\(moving)/rooms/\(room)/members/bob/kick", key: fixture.key(1), json: "{}")
                #expect(kicked.status == .ok, "\(kicked.text)")
                clock.advance(by: 3 * 24 * 3600)
                var state = "", pending = -1
                for _ in 0..<100 where state != "closed" || pending != 0 {
                    try await Task.sleep(for: .milliseconds(100))
                    state = try await second.query("SELECT state FROM rooms WHERE tenant_id = \(moving) AND room_id = \(room)").decode(String.self).first ?? ""
                    pending = try await second.query("SELECT count(*)::int FROM outbox WHERE tenant_id = \(moving) AND status = 'pending'")
                        .decode(Int.self).first ?? -1
                }
                #expect(state == "closed", "the moved room expired in the new cell: \(state)")
                #expect(pending == 0, "the new cell's side effects delivered: \(pending) pending")
                #expect(try await CellsTests.count(second, "outbox", tenant: moving) > 0)
                #expect(try await CellsTests.count(home, "outbox", tenant: moving) == 0)

                let after = try await feed(after: before.next)
                #expect(after.types.contains("room.closed") || after.types.contains("room.expired"), "the expiry follows in the feed: \(after.types)")
                #expect(after.cursors == after.cursors.sorted() && (after.cursors.first ?? 0) > (before.cursors.last ?? 0),
                        "each event once, in order: \(before.cursors) then \(after.cursors)")
                let whole = try await feed(after: "0")
                #expect(whole.types == before.types + after.types, "the feed from the start, read from the new cell, is both pages")
            }
            try await home.query("DELETE FROM tenant_cells WHERE tenant_id = \(moving)")
        }
    }

    /// A moved tenant's local-IM sockets carry on (#43: "IM sockets carry
    /// over"): two members in a chatroom, connected before the move, hear
    /// each other after it, their sockets' rows and the messages now in the
    /// new cell, none left in the old.
    @Test func aMovedTenantsSocketsHearEachOtherFromTheNewCell() async throws {
        let fixture = try await ServerFixture(clock: SystemClock())
        let home = fixture.database
        try await Self.withSecondCell(loadedFrom: home) { second, cells in
            let moving = fixture.id(1)
            let routed = home.routed(by: cells)
            let (alice, bob, chatroom) = try await CellsTests.aliceBobAndHall(fixture, moving, routed: routed)
            try await fixture.live(ownTenants: true, database: routed, seconds: 120) { http in
                let port = try #require(http.client.port)
                var clients: [IMTestClient] = []
                for (accid, token) in [("alice", alice), ("bob", bob)] {
                    let client = IMTestClient(port: port, tenant: moving, accid: accid, token: token)
                    #expect(try await client.next("ready")["accid"]?.string == accid)
                    client.send(#"{"type":"enter","chatroom":"\#(chatroom)"}"#)
                    #expect(try await client.next("entered")["chatroom"]?.string == chatroom)
                    clients.append(client)
                }
                clients[0].send(#"{"type":"text","chatroom":"\#(chatroom)","text":"before the move"}"#)
                #expect(try await clients[1].next("message")["body"]?.string == "before the move")

                try await Self.forgetStoppedServers(home)
                _ = try await TenantMove(tenant: moving, home: home, source: try Self.source(home),
                                         target: .init(name: "cell2", database: second, conninfo: ""), report: { print("move: \($0)") }).run()
                #expect(cells.cell(of: moving) == "cell2")
                clients[0].send(#"{"type":"text","chatroom":"\#(chatroom)","text":"after the move"}"#)
                #expect(try await clients[1].next("message", timeout: .seconds(10))["body"]?.string == "after the move", "bob hears alice from the new cell")
                clients[1].send(#"{"type":"text","chatroom":"\#(chatroom)","text":"and back"}"#)
                // Alice hears her own messages first (a chatroom's messages go to every member).
                var heard: [String] = []
                while heard.last != "and back", heard.count < 4 {
                    heard.append(try await clients[0].next("message", timeout: .seconds(10))["body"]?.string ?? "")
                }
                #expect(heard.last == "and back", "alice hears bob from the new cell: \(heard)")
                #expect(try await CellsTests.count(second, "im_connections", tenant: moving) == 2, "the sockets' rows moved")
                #expect(try await CellsTests.count(home, "im_connections", tenant: moving) == 0)
                #expect(try await CellsTests.count(home, "im_events", tenant: moving) == 0)
                #expect(try await second.query("SELECT count(*)::int FROM im_events WHERE tenant_id = \(moving) AND payload::text LIKE '%after the move%'")
                        .decode(Int.self).first == 1, "the message written in the new cell")
                for client in clients { _ = try await client.close() }
            }
            try await home.query("DELETE FROM tenant_cells WHERE tenant_id = \(moving)")
        }
    }

    /// A tenant moved to a later cell and then back to an earlier one
    /// (cell1 → cell3 → cell2; refused before): the earlier cell's ids were
    /// behind the tenant's, so it claims an id block above them and its
    /// sequences jump there (`IDBlocks`). The tenant's ids only grow, so its
    /// audit log followed with `after`, and the operator's follower of every
    /// cell, return each of its rows once, the new cell's too.
    @Test func aTenantMovesBackToAnEarlierCell() async throws {
        let fixture = try await ServerFixture()
        let home = fixture.database
        let moving = fixture.id(1)
        try await CellsTests.withCell(index: 1) { second, _ in
            try await CellsTests.withCell(index: 2) { third, thirdName in
                let cells = try Cells(home: "cell1", others: [.init(name: "cell2", database: second), .init(name: "cell3", database: third)])
                try await cells.load(from: home)
                let thirdSide = TenantMove.Side(name: "cell3", database: third, conninfo: try Self.conninfo(ofDatabase: thirdName))
                let before = try await home.query("SELECT coalesce(max(block), -1) FROM cell_id_blocks").decode(Int.self).first ?? -1
                try await fixture.live(database: home.routed(by: cells), seconds: 120) { http in
                    func create(_ name: String) async throws -> Int64 {
                        let created = try await http.post("/admin/v1/tenants/\(moving)/rooms", key: fixture.key(1),
                                                          json: #"{"plugin":"test-rooms","name":"\#(name)","owner":"alice","ttlSeconds":600}"#)
                        return try #require(created.json["id"]?.int64, "\(created.text)")
                    }
                    func move(from source: TenantMove.Side, to target: TenantMove.Side) async throws {
                        try await Self.forgetStoppedServers(home)
                        _ = try await TenantMove(tenant: moving, home: home, source: source, target: target, report: { print("move: \($0)") }).run()
                        #expect(cells.cell(of: moving) == target.name)
                    }
                    func tenantAudit(after: Int64) async throws -> String {
                        let page = try await http.get("/admin/v1/tenants/\(moving)/audit?after=\(after)&limit=200", key: fixture.key(1))
                        #expect(page.status == .ok, "\(page.text)")
                        return page.text
                    }
                    var rooms = [try await create("in cell1")]
                    let newest = try await http.get("/admin/v1/audit?limit=1", key: fixture.operatorKey)
                    let start = try #require(newest.json["items"]?.arrayValue?.first?["id"]?.string, "\(newest.text)")

                    try await move(from: try Self.source(home), to: .init(name: "cell3", database: third, conninfo: ""))
                    rooms.append(try await create("in cell3"))
                    let lastInCell3 = try #require(try await third.query("SELECT max(audit_id) FROM audit_log WHERE tenant_id = \(moving)").decode(Int64?.self).first ?? nil)
                    try await move(from: thirdSide, to: .init(name: "cell2", database: second, conninfo: ""))
                    rooms.append(try await create("back in cell2"))

                    // Room ids are drawn at random; their order is `created_seq`, a sequence's.
                    let order = Dictionary(uniqueKeysWithValues: try await second.query("""
                        SELECT room_id, created_seq FROM rooms WHERE tenant_id = \(moving)
                        """).decode((Int64, Int64).self))
                    let seqs = rooms.map { order[$0] ?? -1 }
                    #expect(seqs == seqs.sorted() && !seqs.contains(-1), "the tenant's ids only grow: \(seqs)")
                    let claimed = try await home.query("SELECT block FROM cell_id_blocks WHERE cell = 'cell2' AND block > \(before)").decode(Int.self)
                    #expect(claimed.count == 1, "cell2 claimed one block: \(claimed)")
                    if let block = claimed.first {
                        #expect(IDBlocks.range(ofBlock: block).contains(seqs[2]), "the new room's is of cell2's block: \(seqs[2])")
                    }
                    #expect(Cells.idRange(index: 2).contains(seqs[1]), "the move to a later cell claimed nothing: \(seqs[1])")
                    #expect(try await CellsTests.count(third, "rooms", tenant: moving) == 0)
                    #expect(try await CellsTests.count(home, "rooms", tenant: moving) == 0)
                    #expect(try await CellsTests.count(second, "rooms", tenant: moving) == 3)
                    // Its audit log after the last row it wrote in cell3: the move's
                    // rows in cell2 and the new room's create, none of cell3's again.
                    let after = try await tenantAudit(after: lastInCell3)
                    #expect(after.contains("room:\(rooms[2])") && !after.contains("room:\(rooms[1])"), "\(after.prefix(600))")
                    // Every cell followed from before the moves: each room's create once.
                    var cursor = start, seen: [String] = []
                    for _ in 0..<50 {
                        let page = try await http.get("/admin/v1/audit?after=\(cursor)&limit=200", key: fixture.operatorKey)
                        #expect(page.status == .ok, "\(page.text)")
                        let items = page.json["items"]?.arrayValue ?? []
                        seen += items.compactMap { $0["action"]?.string == "room.create" ? $0["target"]?.string : nil }
                        cursor = try #require(page.json["nextCursor"]?.string, "\(page.text)")
                        if items.isEmpty { break }
                    }
                    for room in rooms[1...] {
                        #expect(seen.filter { $0 == "room:\(room)" }.count == 1, "room \(room)'s create once: \(seen)")
                    }
                    #expect(!seen.contains("room:\(rooms[0])"), "nothing before the cursor: \(seen)")
                }
                // The cells' databases are dropped: their blocks go too.
                try await home.query("DELETE FROM cell_id_blocks WHERE block > \(before)")
                try await home.query("DELETE FROM tenant_cells WHERE tenant_id = \(moving)")
            }
        }
    }
}
