import Foundation
import PostgresNIO

/// A move whose first-wins is one row of the plugin's rather than the room
/// (#28, item 2: the declared row-lock variant). A quiz answer's is its
/// player's row: guarding it by the room's version, as `change` does, would
/// make every player's answer race every other's in a game of thousands.
/// The plugin names the row; the engine takes the lock, checks the room and
/// the caller, and hands the plugin the row and its tables on that one
/// transaction. A plugin opens no transaction of its own.
extension RoomEngine {
    public func onLockedRow<Row: RoomRow, Result: Sendable>(
        _ roomID: RoomID, in tenant: Tenant, pluginID: String, tables: Set<String>, rows table: RoomRowTable<Row>, key: String,
        enteringAs account: AccountID, _ decide: (Row?, PluginTables) async throws -> Result
    ) async throws -> Result {
        guard tables.contains(table.name) else { throw TableStatementRefused(reason: "\(table.name) is not one of the plugin's tables") }
        let logger = database.logger
        // Only the plugin's rows change: through the commit all the same.
        return try await commit(.transaction) { writes in
            let connection = writes.connection
            // The lock in a statement of its own: what is read after it sees
            // every move committed before (a statement that waited for a row
            // lock under READ COMMITTED re-reads that row, not what it joins).
            let locked = try await connection.run("""
                SELECT (to_jsonb(t) - 'tenant_id' - 'room_id')::text FROM \(unescaped: table.name) t
                WHERE t.tenant_id = \(tenant.id) AND t.room_id = \(roomID) AND t.\(unescaped: table.key) = \(key)
                FOR UPDATE
                """, logger: logger).collect()
            let now = clock.now()
            let rooms = try await connection.run("""
                SELECT \(unescaped: RoomRows.columns), roomkeeper_banned(tenant_id, \(account), room_id, \(now))
                FROM rooms WHERE tenant_id = \(tenant.id) AND room_id = \(roomID)
                """, logger: logger).collect()
            guard let found = rooms.first else { throw RoomError.notFound }
            let room = try RoomRows.decode(found)
            guard room.pluginID == pluginID else { throw RoomError.notFound }
            guard RoomLifecycle.isLive(room, now) else { throw RoomError.closed }
            // An account banned from the room (or its tenant) moves nothing in it (#29).
            guard try !found.makeRandomAccess()[17].decode(Bool.self) else { throw RoomError.banned }
            let row = try locked.first.map { cell -> Row in
                do {
                    return try Row.decoded(fromJSONObject: try cell.decode(String.self))
                } catch {
                    throw RowsUnreadable(table: table.name)
                }
            }
            return try await decide(row, PostgresTableRunner.transaction(connection, tenantID: tenant.id, tables: tables, logger: logger))
        }
    }
}
