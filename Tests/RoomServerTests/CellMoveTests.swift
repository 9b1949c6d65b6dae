import Foundation
import PostgresNIO
import RoomCore
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

    /// Only this test's server is alive: earlier tests' servers stopped
    /// without taking their rows out of `instances` (a test's server is
    /// cancelled, not shut down), and a move waits 15 s for each to
    /// acknowledge. Its own row is the newest: it was written at its start.
    static func forgetStoppedServers(_ home: Database) async throws {
        try await home.query("DELETE FROM instances WHERE seen_at < (SELECT max(seen_at) FROM instances)")
    }

    static func rooms(_ database: Database, of tenant: TenantID) async throws -> Set<Int64> {
        Set(try await database.query("SELECT room_id FROM rooms WHERE tenant_id = \(tenant)").decode(Int64.self))
    }

    @Test func aTenantMovesWhileItsWritesGoOn() async throws {
        let fixture = try await ServerFixture()
        let home = fixture.database
        try await CellsTests.withSecondCell { second in
            let cells = try Cells(home: "cell1", others: [Cells.Cell(name: "cell2", database: second)])
            try await cells.load(from: home)
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
                let move = try TenantMove(tenant: moving, home: home, source: try Self.source(home),
                                          target: .init(name: "cell2", database: second, conninfo: ""), report: { print("move: \($0)") })
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
        try await CellsTests.withSecondCell { second in
            let cells = try Cells(home: "cell1", others: [Cells.Cell(name: "cell2", database: second)])
            try await cells.load(from: home)
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
                #expect(cells.cell(of: moving) == "cell1" && !cells.isFenced(moving))
                #expect(try await Self.rooms(home, of: moving).contains(room))
                #expect(try await TenantMove.count(moving, on: second) == 0, "the new cell's copy is deleted")
                #expect(try await home.query("SELECT count(*)::int FROM tenant_moves WHERE tenant_id = \(moving)").decode(Int.self)[0] == 0)
                #expect(try await second.query("SELECT count(*)::int FROM pg_subscription WHERE subname LIKE 'rk_move_%'").decode(Int.self)[0] == 0)
                #expect(try await home.query("SELECT count(*)::int FROM pg_replication_slots WHERE slot_name LIKE 'rk_move_%'").decode(Int.self)[0] == 0)
                // Served from where it was, at once.
                let again = try await http.post("/admin/v1/tenants/\(moving)/rooms", key: fixture.key(1),
                                                json: #"{"plugin":"test-rooms","name":"Again","owner":"alice","ttlSeconds":600}"#)
                #expect(again.status == .created, "\(again.text)")
            }
        }
    }
}
