import Foundation
import Logging
import PostgresNIO

/// A plugin's change of one live room, decided then written once (#28): the
/// engine reads the room and the plugin's rows in one statement, without a
/// lock or a transaction; the plugin's pure rules decide on them; the engine
/// writes the rows and the side effects in one statement that applies only
/// if the room's version is still the one read. Every write of a room bumps
/// its version (closes, joins, leaves, `mutate`), so under READ COMMITTED a
/// racing writer makes this statement wait on the room's row, then find the
/// version moved and write nothing: exactly one of two racing changes
/// applies, and the other reads again and decides again.
///
/// Why: a seat move was 7 round trips (session, BEGIN, lock room, lock
/// seats, save, outbox, COMMIT) with Swift running between a lock and a
/// write; now it is the session, the read, the write and its commit probe.
extension RoomEngine {
    /// How often a change decides again after losing a race before the
    /// caller is told to try again: 8 losses in a row means the room is
    /// changing faster than this caller can read it.
    static let changeAttempts = 8

    /// `members`: accounts whose membership the decision needs (read with
    /// the room: which of them are joined members now). `caller`: the
    /// session the request came with, read with the room; a request without
    /// a live session is refused with its `refusal` before anything else.
    public func change<Row: RoomRow, Result: Sendable>(
        _ roomID: RoomID, in tenant: Tenant, pluginID: String, rows table: RoomRowTable<Row>, members: [AccountID] = [],
        caller: CallerSession? = nil,
        _ decide: (RoomSnapshot<Row>) throws -> (RoomChange<Row>, Result)
    ) async throws -> Result {
        if let caller, caller.sid == nil { throw caller.refusal }
        for _ in 1...Self.changeAttempts {
            let now = clock.now()
            let read = try await read(roomID, in: tenant, pluginID: pluginID, rows: .of(table), members: members, caller: caller, now: now)
            if let caller, read.caller == nil { throw caller.refusal }
            guard let room = read.room, room.pluginID == pluginID else { throw RoomError.notFound }
            guard RoomLifecycle.isLive(room, now) else { throw RoomError.closed }
            let (change, result) = try decide(RoomSnapshot(room: room, rows: try read.rows(of: table), joined: read.joined, caller: read.caller, now: now,
                                                           mutedBy: read.mutedBy, banned: read.banned))
            if try await write(change, to: room, version: read.version, table: table, now: now) {
                recentRooms.remember(room, version: read.version + 1, joinedCount: read.joinedCount)
                return result
            }
            database.logger.debug("a room changed between its read and a change's write; deciding again", metadata: ["room": "\(roomID)"])
        }
        throw DatabaseUnavailable("the room is changing too often at once; try again")
    }

    struct ChangeRead {
        var room: Room?
        var version: Int64 = 0
        var joinedCount = 0
        var mutedBy: [AccountID: String] = [:]
        var banned: Set<AccountID> = []
        /// The plugin's rows as read, a JSON array of objects (`rows(of:)` types them).
        var rowsText = "[]"
        var joined: Set<AccountID> = []
        var caller: Account?
        /// With `banOf` (a ban decided then written once): the account's ban
        /// of the room not yet lifted (in force, or expired and not yet
        /// stamped so), and an id drawn for a new one.
        var roomBan: Ban?
        var drawnBanID: Int64?

        func rows<Row: RoomRow>(of table: RoomRowTable<Row>?) throws -> [Row] {
            guard let table else { return [] }
            do {
                return try Row.decoded(fromJSONArray: rowsText)
            } catch {
                throw RowsUnreadable(table: table.name)
            }
        }
    }

    /// Which of the plugin's rows a read brings with the room.
    enum RowsRead {
        /// None (a dissolve's read).
        case none
        /// The rows of one table (a change's: its plugin is known).
        case of(name: String, key: String)
        /// The rows of the room's plugin's table, whichever plugin it is (a
        /// kick by the admin API, which names no plugin): plugin id → its
        /// table's name and key. Only the room's plugin's branch is read.
        case byPlugin([String: (name: String, key: String)])

        static func of<Row>(_ table: RoomRowTable<Row>) -> RowsRead { .of(name: table.name, key: table.key) }

        /// The SQL of the rows as one JSON array's text, over `rooms`.
        /// Table and key names are plain identifiers (`RoomRowTable` checks).
        var sql: String {
            func rows(_ table: String, _ key: String) -> String {
                """
                (SELECT coalesce(jsonb_agg(to_jsonb(t) - 'tenant_id' - 'room_id' ORDER BY t.\(key)), '[]'::jsonb)::text
                 FROM \(table) t WHERE t.tenant_id = rooms.tenant_id AND t.room_id = rooms.room_id)
                """
            }
            switch self {
            case .none: return "'[]'"
            case .of(let name, let key): return rows(name, key)
            case .byPlugin(let tables):
                guard !tables.isEmpty else { return "'[]'" }
                let branches = tables.sorted { $0.key < $1.key }.map { plugin, table in
                    "WHEN '\(plugin.replacingOccurrences(of: "'", with: "''"))' THEN \(rows(table.name, table.key))"
                }
                return "CASE rooms.plugin_id \(branches.joined(separator: " ")) ELSE '[]' END"
            }
        }
    }

    /// A new ban's id, drawn by a ban's read only: a sequence's draw makes
    /// the read a write whose commit is confirmed (`StatementEffect`), one
    /// round trip more, which a kick's read does not pay.
    static let drawnBanID = "CASE WHEN rooms.room_id IS NOT NULL THEN nextval(pg_get_serial_sequence('bans', 'ban_id')) END"

    /// The caller's session (and whether a ban keeps it out), the room, its
    /// version, the plugin's rows and which of `members` and the caller are joined, in one statement: one row whether or
    /// not the room or the session exists, so the two are told apart.
    /// `table` nil: no plugin rows (a dissolve's read).
    func read(
        _ roomID: RoomID, in tenant: Tenant, pluginID: String?, rows rowsRead: RowsRead, members: [AccountID], caller: CallerSession?, now: Date,
        banOf banned: AccountID? = nil, banKind: Ban.Kind = .ban
    ) async throws -> ChangeRead {
        let tokenHash = caller?.sid.map(Secrets.sha256Hex)
        let rows = try await database.query("""
            SELECT \(unescaped: RoomRows.columns), version,
                   \(unescaped: rowsRead.sql),
                   (SELECT coalesce(array_agg(m.accid), '{}') FROM room_members m
                    WHERE m.tenant_id = rooms.tenant_id AND m.room_id = rooms.room_id AND m.status = 'joined'
                      AND (m.accid = ANY(\(members)::text[]) OR m.accid = c.accid)),
                   c.accid, c.nickname, c.avatar, c.role,
                   c.accid IS NOT NULL AND roomkeeper_banned(\(tenant.id), c.accid, \(roomID), \(now)), joined_count,
                   (SELECT coalesce(jsonb_object_agg(b.accid, b.created_by), '{}'::jsonb)::text FROM bans b
                    WHERE b.tenant_id = rooms.tenant_id AND b.room_id = rooms.room_id AND b.kind = 'mute' AND b.lifted_at IS NULL
                      AND (b.expires_at IS NULL OR b.expires_at > \(now)) AND (b.accid = ANY(\(members)::text[]) OR b.accid = c.accid)),
                   c.session_expires_at,
                   (SELECT coalesce(array_agg(x), '{}') FROM unnest(\(members)::text[]) x
                    WHERE rooms.room_id IS NOT NULL AND roomkeeper_banned(\(tenant.id), x, \(roomID), \(now))),
                   rb.rb_id, rb.rb_reason, rb.rb_expires_at, rb.rb_created_at, rb.rb_created_by,
                   \(unescaped: banned == nil ? "NULL::bigint" : Self.drawnBanID)
            FROM (SELECT 1) AS one
            LEFT JOIN rooms ON rooms.tenant_id = \(tenant.id) AND rooms.room_id = \(roomID)
            LEFT JOIN LATERAL (
                SELECT a.accid, a.nickname, a.avatar, a.role, s.expires_at AS session_expires_at FROM sessions s
                JOIN accounts a ON a.tenant_id = s.tenant_id AND a.accid = s.accid
                WHERE s.tenant_id = \(tenant.id) AND s.token_hash = \(tokenHash ?? "")
                  AND s.plugin_id = \(pluginID ?? "") AND s.revoked_at IS NULL AND s.expires_at > \(now)
            ) AS c ON true
            LEFT JOIN LATERAL (
                -- Named apart: the room's columns above are read unqualified.
                SELECT b.ban_id AS rb_id, b.reason AS rb_reason, b.expires_at AS rb_expires_at, b.created_at AS rb_created_at,
                       b.created_by AS rb_created_by FROM bans b
                WHERE b.tenant_id = \(tenant.id) AND b.accid = \(banned ?? "") AND \(banned != nil) AND b.kind = \(banKind.rawValue)
                  AND b.room_id = \(roomID) AND b.lifted_at IS NULL
            ) AS rb ON true
            """)
        guard let row = rows.first else { throw RoomError.notFound }
        let cells = row.makeRandomAccess()
        var read = ChangeRead()
        if let accid = try cells[20].decode(String?.self) {
            let account = Account(accid: accid, nickname: try cells[21].decode(String.self), avatar: try cells[22].decode(String.self),
                                  role: try cells[23].decode(String.self))
            read.caller = account
            if let tokenHash, let pluginID {
                sessions.remember(SessionCache.Key(tenantID: tenant.id, pluginID: pluginID, tokenHash: tokenHash),
                                  account: account, expiresAt: try cells[27].decode(Date.self))
            }
            // A caller banned from the room (or its tenant) moves nothing in it (#29).
            if try cells[24].decode(Bool.self) { throw RoomError.banned }
        }
        guard try cells[1].decode(Int64?.self) != nil else { return read }
        read.room = try RoomRows.decode(row)
        read.version = try cells[17].decode(Int64.self)
        read.joinedCount = try cells[25].decode(Int.self)
        read.mutedBy = (JSONValue.parse(try cells[26].decode(String.self))?.object ?? [:]).compactMapValues(\.string)
        read.joined = Set(try cells[19].decode([String].self))
        read.banned = Set(try cells[28].decode([String].self))
        read.rowsText = try cells[18].decode(String.self)
        if let banned, let id = try cells[29].decode(Int64?.self) {
            read.roomBan = Ban(kind: banKind, tenantID: tenant.id, id: id, accid: banned, roomID: roomID, reason: try cells[30].decode(String.self),
                               expiresAt: try cells[31].decode(Date?.self), createdAt: try cells[32].decode(Date.self),
                               createdBy: try cells[33].decode(String.self), liftedAt: nil, liftedBy: nil)
        }
        read.drawnBanID = try cells[34].decode(Int64?.self)
        return read
    }

    /// The change's rows and side effects, only if the room is still at
    /// `version` (and open): returns whether it applied.
    private func write<Row: RoomRow>(_ change: RoomChange<Row>, to room: Room, version: Int64, table: RoomRowTable<Row>, now: Date) async throws -> Bool {
        let tenant = tenants(room.tenantID)
        var effects = change.effects
        let inStatement = ChatroomEffectsInStatement.take(from: &effects, room: room, chatrooms: tenant?.chatroomsInRoomDatabase, now: now)
        var outbox = OutboxRows()
        outbox.add(effects, tenantID: room.tenantID, webhooks: tenant?.webhooks ?? [], now: now)
        // Only the plugin's rows and the version change: no list shows them.
        let rows = try await commitStatement { statement in try await statement.run("""
            WITH v AS (
                UPDATE rooms SET version = version + 1
                WHERE tenant_id = \(room.tenantID) AND room_id = \(room.id) AND version = \(version) AND state = 'open'
                RETURNING tenant_id, room_id, \(now)::timestamptz AS at
            )\(decided: DecidedTail(rows: try RowsUpsert(change.rows, into: table), outbox: outbox, chatroomEffects: inStatement), after: "v", at: now)
            """, writing: [room], listed: false) }
        return try ChatroomEffectsInStatement.applied(rows, inStatement)
    }

}

/// A change's rows as one statement writes them: each row's columns
/// encoded once, one row per key (the last saved, in the order its key was
/// first saved: one statement may not write a row twice).
struct RowsUpsert {
    let table: (name: String, key: String, columns: [String], stamp: String?)?
    let json: String

    /// No rows.
    init() {
        table = nil
        json = "[]"
    }

    init<Row: RoomRow>(_ rows: [Row], into table: RoomRowTable<Row>?) throws {
        guard let table, !rows.isEmpty else {
            self.table = nil
            json = "[]"
            return
        }
        var order: [String] = []
        var last: [String: [String: JSONValue]] = [:]
        for row in rows {
            let columns = try row.encodedColumns()
            let key = (columns[table.key] ?? .null).jsonText
            if last[key] == nil { order.append(key) }
            last[key] = columns
        }
        self.table = (table.name, table.key, table.columns, table.stamp)
        json = JSONValue.array(order.compactMap { last[$0].map(JSONValue.object) }).jsonText
    }
}

/// The plugin's rows did not read back as JSON objects: a defect, not input.
struct RowsUnreadable: Error, CustomStringConvertible {
    let table: String
    var description: String { "the rows of \(table) could not be read" }
}

extension PostgresQuery.StringInterpolation {
    /// `, w AS (INSERT INTO <table> …)`: a change's rows (the last of each
    /// key), for the room the CTE `guardCTE` returned (its `tenant_id`,
    /// `room_id` and `at`, the stamp); nothing when there are none.
    mutating func appendInterpolation(rowsUpsert rows: RowsUpsert, from guardCTE: String) {
        guard let table = rows.table else { return }
        let written = rows.json
        let columns = table.columns + (table.stamp.map { [$0] } ?? [])
        let values = table.columns.map { "x." + $0 } + (table.stamp == nil ? [] : ["\(guardCTE).at"])
        let updated = columns.filter { $0 != table.key }
        let onConflict = updated.isEmpty ? "DO NOTHING" : "DO UPDATE SET " + updated.map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", ")
        appendLiteral("""
            , w AS (
                INSERT INTO \(table.name) (tenant_id, room_id, \(columns.joined(separator: ", ")))
                SELECT \(guardCTE).tenant_id, \(guardCTE).room_id, \(values.joined(separator: ", "))
                FROM \(guardCTE), jsonb_populate_recordset(NULL::\(table.name), 
            """)
        appendInterpolation(written)
        appendLiteral("""
            ::jsonb) AS x
                ON CONFLICT (tenant_id, room_id, \(table.key)) \(onConflict)
            )
            """)
    }
}
