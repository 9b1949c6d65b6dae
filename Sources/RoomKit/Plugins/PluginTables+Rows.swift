import Foundation

/// A plugin's per-room rows read and written by their `RoomRowTable`
/// (#42 item 3): the row's `Column`s are the statement's columns and its
/// `Codable` conformance the one way a row is read or written, so a store
/// keeps no column list or tuple decoder of its own.
extension PluginTables {
    /// The room's rows of `table`, in key order; `locking`: locked for the
    /// transaction the handle is on (in key order, so two writers never
    /// lock in opposite orders).
    public func rows<Row: RoomRow>(of table: RoomRowTable<Row>, in room: RoomID, locking: Bool = false) async throws -> [Row] {
        let read: TableQuery = locking
            ? """
              SELECT (to_jsonb(t) - 'tenant_id' - 'room_id')::text FROM \(identifiers: [table.name]) t
              WHERE t.tenant_id = \(.tenant) AND t.room_id = \(room) ORDER BY t.\(identifiers: [table.key]) FOR UPDATE
              """
            : """
              SELECT (to_jsonb(t) - 'tenant_id' - 'room_id')::text FROM \(identifiers: [table.name]) t
              WHERE t.tenant_id = \(.tenant) AND t.room_id = \(room) ORDER BY t.\(identifiers: [table.key])
              """
        return try await query(read).map { row in try Row.decoded(fromJSONObject: try row.decode(String.self)) }
    }

    /// Writes each of `rows` over the room's row of the same key, one
    /// statement a row in the order given (a move frees its old place before
    /// it takes the new one, under a unique index on who holds it), stamped
    /// `now`. A row with no stored counterpart writes nothing.
    public func save<Row: RoomRow>(_ rows: [Row], to table: RoomRowTable<Row>, in room: RoomID, now: Date) async throws {
        let updated = table.columns.filter { $0 != table.key }
        let assignments = updated.map { "\($0) = x.\($0)" } + (table.stamp.map { ["\($0) = $2"] } ?? [])
        for row in rows {
            let columns = JSONValue.object(try row.encodedColumns()).jsonText
            try await query(TableQuery(
                sql: """
                    UPDATE \(table.name) t SET \(assignments.joined(separator: ", "))
                    FROM jsonb_populate_record(NULL::\(table.name), $3::jsonb) AS x
                    WHERE t.tenant_id = $1 AND t.room_id = $4 AND t.\(table.key) = x.\(table.key)
                    """,
                values: [.date(now), .text(columns), .int(room)], namesTenant: true))
        }
    }
}
