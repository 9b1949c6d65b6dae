import Foundation

/// One row of a plugin's per-room table (a seat, a mic position), as the
/// engine reads and writes it for `RoomEngine.change` and the plugin's
/// hooks through `PluginTables.rows(of:…)` and `save(_:to:…)`: the plugin
/// sends no SQL for it. A row is `Codable` and its coding keys (`Column`)
/// are its table's writable columns, the one list every read and write
/// uses (#42 item 3: each row type had a tuple decoder, a dictionary
/// decoder and two column lists). Rows travel as JSON objects keyed by
/// column, the way PostgreSQL's `to_jsonb` reads a row and
/// `jsonb_populate_recordset` writes one, so the engine needs no per-plugin
/// code to splice them into its one statement.
public protocol RoomRow: Codable, Sendable {
    /// The row's columns (the key included; `tenant_id`, `room_id` and the
    /// stamp column left out), in the order they are written: usually the
    /// type's `CodingKeys`.
    associatedtype Column: CodingKey & CaseIterable
}

extension RoomRow {
    /// Rows from a JSON array of objects keyed by column (`to_jsonb`).
    public static func decoded(fromJSONArray text: String) throws -> [Self] {
        try JSONDecoder().decode([Self].self, from: Data(text.utf8))
    }

    /// One row from a JSON object keyed by column.
    public static func decoded(fromJSONObject text: String) throws -> Self {
        try JSONDecoder().decode(Self.self, from: Data(text.utf8))
    }

    /// The row's columns as a JSON object (`jsonb_populate_record`).
    public func encodedColumns() throws -> [String: JSONValue] {
        // WireJSONEncoder, as `FirstRows` (JSONEncoder's cost: figure 1's profile).
        guard case .object(let columns)? = JSONValue.parse(String(decoding: try WireJSONEncoder.encode(self), as: UTF8.self)) else {
            throw RowNotAnObject(type: "\(Self.self)")
        }
        return columns
    }
}

/// A row type that does not encode as one JSON object: a defect of the plugin.
public struct RowNotAnObject: Error, CustomStringConvertible {
    public let type: String
    public var description: String { "\(type) does not encode as an object of its columns" }
}

/// A plugin's table of rows per room: `(tenant_id, room_id, <key>)` is its
/// primary key and `(tenant_id, room_id)` references the room, so its rows
/// go with the room and one tenant's statement never reaches another's.
public struct RoomRowTable<Row: RoomRow>: Sendable {
    /// The table's name, one of the plugin's own (checked at tenant load).
    public let name: String
    /// The column after `tenant_id, room_id` in the primary key; rows are
    /// read in its order.
    public let key: String
    /// Every column a change writes, the key included: the row's `Column`s.
    public let columns: [String]
    /// A `timestamptz` column the engine sets to the change's time.
    public let stamp: String?

    public init(name: String, key: Row.Column, stamp: String? = "updated_at") {
        let columns = Row.Column.allCases.map(\.stringValue)
        precondition(Self.isIdentifier(name) && columns.allSatisfy(Self.isIdentifier) && stamp.map(Self.isIdentifier) != false,
                     "table and column names are plain identifiers")
        self.name = name
        self.key = key.stringValue
        self.columns = columns
        self.stamp = stamp
    }

    /// Lowercase letters, digits and underscores, not starting with a digit:
    /// the names are spliced into SQL text, so nothing else may pass.
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}

/// What a change reads: the room as it is now (live, the plugin's) and its rows.
public struct RoomSnapshot<Row: RoomRow>: Sendable {
    public let room: Room
    public let rows: [Row]
    /// Which of the accounts the change asked about, and its caller, are joined members.
    public let joined: Set<AccountID>
    /// The account of the caller's session, when the change asked for it.
    public let caller: Account?
    /// The change's time: the room was live then, and rows are stamped with it.
    public let now: Date
    /// Who muted each of the asked accounts and the caller in this room, for
    /// the mutes in force (#29): a muted member's new seat shows it.
    public let mutedBy: [AccountID: String]
    /// Which of the asked accounts a ban keeps out of this room (or its
    /// tenant) now, by the rule every door asks (`roomkeeper_banned`): a
    /// change that puts another account somewhere in the room refuses these
    /// (#41: a host invited a banned account onto a seat).
    public let banned: Set<AccountID>

    public init(room: Room, rows: [Row], joined: Set<AccountID>, caller: Account?, now: Date, mutedBy: [AccountID: String] = [:],
                banned: Set<AccountID> = []) {
        self.room = room
        self.rows = rows
        self.joined = joined
        self.caller = caller
        self.now = now
        self.mutedBy = mutedBy
        self.banned = banned
    }
}

/// What a plugin decided about one room: the rows to write (inserted, or
/// updated by their key) and the side effects, written by the engine in one
/// statement that applies only if nothing changed the room since it was read.
public struct RoomChange<Row: RoomRow>: Sendable {
    public private(set) var rows: [Row] = []
    public private(set) var effects: [OutboxMessage] = []

    public init() {}

    /// In order: a later row with the same key wins.
    public mutating func save(_ row: Row) {
        rows.append(row)
    }

    public mutating func save(_ rows: [Row]) {
        self.rows += rows
    }

    public mutating func emit(_ message: OutboxMessage) {
        effects.append(message)
    }
}

/// The session a change's request came with (its credential, of the
/// changed room's plugin), checked in the change's read. A route gets it
/// from its call (`ClientCall.session`), which read it where the wire
/// carries it: no plugin makes one (#42 item 4).
public struct CallerSession: Sendable {
    public let sid: String?
    /// What the request is answered when the session is missing or not live.
    public let refusal: any Error & Sendable

    @_spi(RoomEngine) public init(sid: String?, refusal: any Error & Sendable) {
        self.sid = sid
        self.refusal = refusal
    }
}

/// What a join did: the account joined now, or was in already.
public enum JoinOutcome: Sendable, Equatable {
    case joined(Room)
    case alreadyJoined(Room)

    public var room: Room {
        switch self {
        case .joined(let room), .alreadyJoined(let room): room
        }
    }
}
