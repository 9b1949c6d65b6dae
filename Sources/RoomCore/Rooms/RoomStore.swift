import Foundation
import Logging
import PostgresNIO

/// Reads of rooms, members and events. Every query is scoped by tenant.
public struct RoomStore: Sendable {
    public let database: Database

    public init(database: Database) {
        self.database = database
    }

    public struct Filter: Sendable {
        public var state: String?
        public var pluginID: String?
        public var owner: AccountID?
        /// Room ids below this one (rooms come newest first).
        public var before: RoomID?
        public var limit: Int
        public var offset: Int

        public init(state: String? = nil, pluginID: String? = nil, owner: AccountID? = nil, before: RoomID? = nil, limit: Int = 50, offset: Int = 0) {
            self.state = state
            self.pluginID = pluginID
            self.owner = owner
            self.before = before
            self.limit = limit
            self.offset = offset
        }
    }

    public func room(_ tenantID: TenantID, _ roomID: RoomID) async throws -> Room? {
        let rows = try await database.query("SELECT \(unescaped: RoomRows.columns) FROM rooms WHERE tenant_id = \(tenantID) AND room_id = \(roomID)")
        return try RoomRows.all(rows).first
    }

    /// Newest first.
    public func rooms(_ tenantID: TenantID, _ filter: Filter) async throws -> [Room] {
        let rows = try await database.query("""
            SELECT \(unescaped: RoomRows.columns) FROM rooms
            WHERE tenant_id = \(tenantID)
              AND (\(filter.state)::text IS NULL OR state = \(filter.state))
              AND (\(filter.pluginID)::text IS NULL OR plugin_id = \(filter.pluginID))
              AND (\(filter.owner)::text IS NULL OR owner = \(filter.owner))
              AND (\(filter.before)::bigint IS NULL
                   OR created_seq < (SELECT created_seq FROM rooms WHERE tenant_id = \(tenantID) AND room_id = \(filter.before)))
            ORDER BY created_seq DESC
            LIMIT \(filter.limit) OFFSET \(filter.offset)
            """)
        return try RoomRows.all(rows)
    }

    /// Part of a plugin's list of open rooms not past their TTL, newest
    /// first, with each room's joined members and the list's total: one
    /// query (the total is a window count), a second only past the end.
    public func openList(_ tenantID: TenantID, pluginID: String, now: Date, limit: Int, offset: Int) async throws -> RoomListCache.Head {
        let rows = try await database.query("""
            SELECT \(unescaped: RoomRows.columns), joined_count, count(*) OVER ()::int AS total FROM rooms
            WHERE tenant_id = \(tenantID) AND plugin_id = \(pluginID) AND state = 'open' AND expires_at > \(now)
            ORDER BY created_seq DESC LIMIT \(limit) OFFSET \(offset)
            """)
        guard let first = rows.first else {
            let counted = try await database.query("""
                SELECT count(*)::int FROM rooms
                WHERE tenant_id = \(tenantID) AND plugin_id = \(pluginID) AND state = 'open' AND expires_at > \(now)
                """)
            return RoomListCache.Head(rooms: [], total: try counted.decode(Int.self).first ?? 0)
        }
        let listed = try rows.map { row in
            RoomListCache.Listed(room: try RoomRows.decode(row), joinedCount: try row.makeRandomAccess()["joined_count"].decode(Int.self))
        }
        return RoomListCache.Head(rooms: listed, total: try first.makeRandomAccess()["total"].decode(Int.self))
    }

    public func count(_ tenantID: TenantID, pluginID: String, state: String) async throws -> Int {
        let rows = try await database.query("""
            SELECT count(*)::int FROM rooms WHERE tenant_id = \(tenantID) AND plugin_id = \(pluginID) AND state = \(state)
            """)
        return try rows.decode(Int.self).first ?? 0
    }

    public func members(_ tenantID: TenantID, _ roomID: RoomID) async throws -> [RoomMember] {
        let rows = try await database.query("""
            SELECT accid, role, status, joined_at FROM room_members
            WHERE tenant_id = \(tenantID) AND room_id = \(roomID) ORDER BY joined_at, accid
            """)
        var members: [RoomMember] = []
        for (accid, role, status, joinedAt) in try rows.decode((String, String, String, Date).self) {
            members.append(RoomMember(accid: accid, role: role, status: MemberStatus(rawValue: status) ?? .left, joinedAt: joinedAt))
        }
        return members
    }

    /// The newest `newest` joined members and those of `always` that are
    /// joined, newest first, with the room's joined count, in one statement.
    public func joinedMembers(_ tenantID: TenantID, _ roomID: RoomID, newest: Int, always: [AccountID]) async throws
        -> (members: [RoomMember], joined: Int) {
        let rows = try await database.query("""
            SELECT m.accid, m.role, m.joined_at, (SELECT joined_count FROM rooms WHERE tenant_id = \(tenantID) AND room_id = \(roomID))
            FROM (
                (SELECT accid, role, joined_at FROM room_members
                 WHERE tenant_id = \(tenantID) AND room_id = \(roomID) AND status = 'joined'
                 ORDER BY joined_at DESC, accid LIMIT \(max(0, newest)))
                UNION
                (SELECT accid, role, joined_at FROM room_members
                 WHERE tenant_id = \(tenantID) AND room_id = \(roomID) AND status = 'joined' AND accid = ANY(\(always)::text[]))
            ) m
            ORDER BY m.joined_at DESC, m.accid
            """)
        var members: [RoomMember] = []
        var joined = 0
        for (accid, role, joinedAt, count) in try rows.decode((String, String, Date, Int?).self) {
            members.append(RoomMember(accid: accid, role: role, status: .joined, joinedAt: joinedAt))
            joined = count ?? 0
        }
        return (members, joined)
    }

    public func events(_ tenantID: TenantID, _ roomID: RoomID) async throws -> [RoomEvent] {
        let rows = try await database.query("""
            SELECT event_id, at, kind, actor, detail::text FROM room_events
            WHERE tenant_id = \(tenantID) AND room_id = \(roomID) ORDER BY event_id
            """)
        var events: [RoomEvent] = []
        for (id, at, kind, actor, detail) in try rows.decode((Int64, Date, String, String, String).self) {
            events.append(RoomEvent(id: id, at: at, kind: RoomEventKind(stored: kind), actor: actor, detail: detail))
        }
        return events
    }

    /// Room counts by plugin and state, for stats and metrics.
    public func roomCounts(_ tenantID: TenantID?) async throws -> [(tenantID: TenantID, pluginID: String, state: String, count: Int)] {
        let rows = try await database.query("""
            SELECT tenant_id, plugin_id, state, count(*)::int FROM rooms
            WHERE (\(tenantID)::text IS NULL OR tenant_id = \(tenantID))
            GROUP BY tenant_id, plugin_id, state ORDER BY 1, 2, 3
            """)
        var counts: [(TenantID, String, String, Int)] = []
        for row in try rows.decode((String, String, String, Int).self) { counts.append(row) }
        return counts
    }
}
