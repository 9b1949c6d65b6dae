import Foundation
import PostgresNIO
@testable import RoomCore
import RoomTestSupport
import Testing

/// A plugin's own tables through `PluginTables` (#28, item 1): statements
/// see the call's tenant only, name it or are refused, and write only the
/// plugin's declared tables. On the test database, with a table of the
/// test's own (dropped afterwards).
@Suite struct PluginTablesTests {
    static func call(_ fixture: EngineFixture, tenant: Tenant, tables: [String]) -> ClientCall<Void> {
        let services = RoomServices(database: fixture.database, clock: fixture.clock, engine: fixture.engine, tenants: fixture.tenants.directory)
        return ClientCallParts(tenant: tenant, policy: RoomPolicy(ttlSeconds: 60, capacity: 10), parameters: WireParameters([:]), headers: [:],
                               clientAddress: "127.0.0.1", services: services, logger: fixture.logger)
            .call(pluginID: TestRoomsPlugin.pluginID, settings: (), tables: tables)
    }

    /// A table named for this test, with the columns a plugin's have.
    static func withTable(_ fixture: EngineFixture, _ body: (String) async throws -> Void) async throws {
        let table = "tables_test_\(UInt32.random(in: 0...UInt32.max))"
        try await fixture.database.query(PostgresQuery(unsafeSQL: "CREATE TABLE \(table) (tenant_id text NOT NULL, k text NOT NULL, n bigint, at timestamptz, tags text[], PRIMARY KEY (tenant_id, k))"))
        do {
            try await body(table)
        } catch {
            _ = try? await fixture.database.query(PostgresQuery(unsafeSQL: "DROP TABLE \(table)"))
            throw error
        }
        try await fixture.database.query(PostgresQuery(unsafeSQL: "DROP TABLE \(table)"))
    }

    @Test func aStatementSeesItsCallsTenantOnly() async throws {
        let fixture = try await EngineFixture(tenantCount: 2)
        try await Self.withTable(fixture) { table in
            let mine = Self.call(fixture, tenant: fixture.tenants[0], tables: [table])
            let theirs = Self.call(fixture, tenant: fixture.tenants[1], tables: [table])
            let at = Date(timeIntervalSince1970: 1_900_000_000.5)
            // The same literal text for both: the tenant is the handle's, not the text's.
            for (call, value) in [(mine, Int64(1)), (theirs, Int64(2))] {
                try await call.tables.query(TableQuery(stringInterpolation: Self.insert(table, n: value, at: at)))
            }
            let rows = try await mine.tables.query(TableQuery(stringInterpolation: Self.select(table)))
            #expect(rows.count == 1)
            let (k, n, when, tags, missing) = try #require(rows.first).decode((String, Int64, Date, [String], Int64?).self)
            #expect(k == "shared" && n == 1 && when == at && tags == ["a", "b"] && missing == nil)
            let other = try await theirs.tables.query(TableQuery(stringInterpolation: Self.select(table)))
            #expect(other.count == 1)
            let (_, theirN, _, _, _) = try #require(other.first).decode((String, Int64, Date, [String], Int64?).self)
            #expect(theirN == 2)
        }
    }

    static func insert(_ table: String, n: Int64, at: Date) -> TableQuery.StringInterpolation {
        var text = TableQuery.StringInterpolation(literalCapacity: 80, interpolationCount: 4)
        text.appendLiteral("INSERT INTO \(table) (tenant_id, k, n, at, tags) VALUES (")
        text.appendInterpolation(.tenant)
        text.appendLiteral(", 'shared', ")
        text.appendInterpolation(n)
        text.appendLiteral(", ")
        text.appendInterpolation(at)
        text.appendLiteral(", ")
        text.appendInterpolation(["a", "b"])
        text.appendLiteral(")")
        return text
    }

    static func select(_ table: String) -> TableQuery.StringInterpolation {
        var text = TableQuery.StringInterpolation(literalCapacity: 80, interpolationCount: 1)
        text.appendLiteral("SELECT k, n, at, tags, NULL::bigint FROM \(table) WHERE tenant_id = ")
        text.appendInterpolation(.tenant)
        return text
    }

    @Test func aStatementThatDoesNotNameTheTenantIsRefused() async throws {
        let fixture = try await EngineFixture()
        try await Self.withTable(fixture) { table in
            let call = Self.call(fixture, tenant: fixture.tenant, tables: [table])
            var text = TableQuery.StringInterpolation(literalCapacity: 40, interpolationCount: 0)
            text.appendLiteral("SELECT k FROM \(table)")
            await #expect(throws: TableStatementRefused.self) { try await call.tables.query(TableQuery(stringInterpolation: text)) }
        }
    }

    @Test func theEnginesTablesAreNotAPluginsToWrite() async throws {
        let fixture = try await EngineFixture()
        let call = Self.call(fixture, tenant: fixture.tenant, tables: ["audio_chatroom_seats"])
        let room = try await fixture.room()
        await #expect(throws: TableStatementRefused.self) {
            try await call.tables.query("UPDATE rooms SET name = 'taken' WHERE tenant_id = \(.tenant) AND room_id = \(room.id)")
        }
        await #expect(throws: TableStatementRefused.self) {
            try await call.tables.query("DELETE FROM sessions WHERE tenant_id = \(.tenant)")
        }
        await #expect(throws: TableStatementRefused.self) {
            try await call.tables.query("SELECT token_hash FROM sessions WHERE tenant_id = \(.tenant)")
        }
        // Another plugin's table is not this one's either.
        await #expect(throws: TableStatementRefused.self) {
            try await call.tables.query("SELECT position FROM sealmic_mic_positions WHERE tenant_id = \(.tenant)")
        }
        #expect(try await fixture.engine.liveRoom(room.id, in: fixture.tenant, pluginID: TestRoomsPlugin.pluginID).name == "room")
        // What the engine publishes for reading is readable.
        let accounts = try await call.tables.query("SELECT count(*)::bigint FROM accounts WHERE tenant_id = \(.tenant)")
        #expect(accounts.count == 1)
    }

    @Test func theScopeReadsTablesNotKeywords() {
        let own: Set<String> = ["quiz_players"]
        #expect(TableScope.tableRefusal("SELECT 1 FROM quiz_players WHERE x IS DISTINCT FROM y FOR UPDATE", own: own) == nil)
        #expect(TableScope.tableRefusal("INSERT INTO quiz_players SELECT 1 FROM generate_series(0, 3) ON CONFLICT (a) DO UPDATE SET b = 1", own: own) == nil)
        #expect(TableScope.tableRefusal("SELECT extract(epoch FROM at) FROM quiz_players", own: own) == nil)
        #expect(TableScope.tableRefusal("SELECT 1 FROM quiz_players p JOIN rooms r ON true", own: own) != nil)
        #expect(TableScope.tableRefusal("WITH x AS (SELECT 1) INSERT INTO outbox SELECT 1", own: own) != nil)
        #expect(TableScope.tableRefusal("SELECT 1 FROM (SELECT 1 FROM room_members) m", own: own) != nil)
        // A statement's own parts are read by their names: not tables.
        #expect(TableScope.tableRefusal("WITH p AS (INSERT INTO quiz_players SELECT 1 RETURNING a), q AS (SELECT 2) SELECT a FROM p JOIN q ON true",
                                        own: own) == nil)
        #expect(TableScope.tableRefusal("WITH p AS (SELECT 1) SELECT 1 FROM p JOIN sessions s ON true", own: own) != nil)
    }

    /// #42: the text check reads the word after FROM, so a comma join on an
    /// engine table passed it; in the tests PostgreSQL's plan of every
    /// distinct plugin statement is read too (`PlanScope`), and it names
    /// `sessions`.
    @Test func aCommaJoinOnAnEngineTableIsRefusedByItsPlan() async throws {
        let fixture = try await EngineFixture()
        #expect(PlanScope.isChecking, "the tests check plans")
        try await Self.withTable(fixture) { table in
            let call = Self.call(fixture, tenant: fixture.tenant, tables: [table])
            var planted = TableQuery.StringInterpolation(literalCapacity: 80, interpolationCount: 1)
            planted.appendLiteral("SELECT m.k FROM \(table) m, sessions s WHERE m.tenant_id = ")
            planted.appendInterpolation(.tenant)
            #expect(TableScope.tableRefusal("SELECT m.k FROM \(table) m, sessions s", own: [table]) == nil, "the text check misses it")
            await #expect(throws: TableStatementRefused.self) { try await call.tables.query(TableQuery(stringInterpolation: planted)) }
            var own = TableQuery.StringInterpolation(literalCapacity: 80, interpolationCount: 1)
            own.appendLiteral("SELECT m.k FROM \(table) m, \(table) n WHERE m.tenant_id = ")
            own.appendInterpolation(.tenant)
            let rows = try await call.tables.query(TableQuery(stringInterpolation: own))
            #expect(rows.isEmpty, "its own tables, joined so, are its own")
        }
    }
}
