import Foundation

/// The rows a room is born with in one of the plugin's per-room tables,
/// decided without I/O: the engine writes them in the room's own create
/// statement (#28, item 3), so a create is that statement and its commit.
public struct FirstRows: Sendable {
    /// The plugin's table (a `RoomRowTable`'s name: plain identifiers only);
    /// nil for a room born with no rows of the plugin's.
    public let table: String?
    public let columns: [String]
    public let stamp: String?
    /// Each row's columns, as a JSON array of objects (`jsonb_populate_recordset`).
    public let rowsJSON: String
    /// Why the rows did not encode (a plugin's defect): the engine refuses
    /// the create with it rather than write no rows.
    public let encodingFailure: String?

    public init<Row: RoomRow>(_ table: RoomRowTable<Row>, _ rows: [Row]) {
        self.table = table.name
        self.columns = table.columns
        self.stamp = table.stamp
        do {
            // WireJSONEncoder, not JSONEncoder: the same JSON for PostgreSQL,
            // without JSONEncoder's boxes and casts, which were 4.2 % of the
            // server's samples in ops/bench figure 1 (8 seats a create).
            rowsJSON = String(decoding: try WireJSONEncoder.encode(rows), as: UTF8.self)
            encodingFailure = nil
        } catch {
            rowsJSON = "[]"
            encodingFailure = "the rows of \(table.name) did not encode: \(error)"
        }
    }

    private init() {
        table = nil
        columns = []
        stamp = nil
        rowsJSON = "[]"
        encodingFailure = nil
    }

    /// The plugin keeps no rows of its own for a new room.
    public static let empty = FirstRows()
}
