import Foundation
import PostgresNIO
import RoomCore
import RoomTestSupport
import Testing

/// #41, ops/bench figure 7: a batch of joins resolves its sessions in one
/// statement, and that statement reads the batch's sessions, not the
/// tenant's, whatever PostgreSQL's statistics say.
@Suite struct LiveSessionsPlanTests {
    /// The statistics were taken when the tenant had 50 sessions; 5,000
    /// more came since (a burst of guest logins before the next ANALYZE).
    /// Joined to the asked list, the plan read all 5,050 for 25 asked.
    @Test func aBatchReadsItsOwnSessionsWhenTheStatisticsAreStale() async throws {
        let fixture = try await EngineFixture()
        let tenant = fixture.tenant.id, now = fixture.clock.now()
        func addSessions(_ range: ClosedRange<Int>) async throws {
            try await fixture.database.query("""
                INSERT INTO accounts (tenant_id, accid, created_at) SELECT \(tenant), 'fresh-' || n, \(now) FROM generate_series(\(range.lowerBound), \(range.upperBound)) n
                """)
            try await fixture.database.query("""
                INSERT INTO sessions (tenant_id, token_hash, accid, plugin_id, created_at, expires_at)
                SELECT \(tenant), 'hash-' || n, 'fresh-' || n, 'test-rooms', \(now), \(now.addingTimeInterval(86_400))
                FROM generate_series(\(range.lowerBound), \(range.upperBound)) n
                """)
        }
        try await addSessions(1...50)
        try await fixture.database.query("ANALYZE accounts, sessions")
        try await addSessions(51...5_050)

        let asked = (1...25).map { "hash-\($0 * 200)" }
        let query = LiveSessions.query(tenant, tokenHashes: asked + ["hash-unknown"], pluginIDs: Array(repeating: "test-rooms", count: 26), now: now)
        let found = try await fixture.database.query(query).decode((String, String, String).self).map(\.0)
        #expect(Set(found) == Set(asked))

        let plan = try await fixture.database.query(PostgresQuery(unsafeSQL: "EXPLAIN (ANALYZE, FORMAT JSON) " + query.sql, binds: query.binds))
            .decode(String.self).joined()
        let read = Self.rowsRead(from: "sessions", in: try #require(JSONValue.parse(plan)))
        #expect(read <= 26, "the batch read \(read) of the tenant's sessions for 26 asked:\n\(plan)")
    }

    /// Rows a plan's scans of `table` returned and read and threw away, over
    /// all their loops.
    static func rowsRead(from table: String, in value: JSONValue) -> Int {
        switch value {
        case .object(let node):
            var read = 0
            if node["Relation Name"]?.string == table {
                // EXPLAIN shows each figure as an average over the loops.
                let figure = { (name: String) -> Int64 in node[name]?.int64 ?? 0 }
                let perLoop = ["Actual Rows", "Rows Removed by Filter", "Rows Removed by Index Recheck"].map(figure).reduce(0, +)
                read += Int(perLoop * max(1, figure("Actual Loops")))
            }
            return read + node.values.map { rowsRead(from: table, in: $0) }.reduce(0, +)
        case .array(let items):
            return items.map { rowsRead(from: table, in: $0) }.reduce(0, +)
        default:
            return 0
        }
    }
}
