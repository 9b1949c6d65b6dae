import Foundation
import PostgresNIO

/// A room's session facts (#30, item 3): when it opened and closed, why, how
/// many joined in all and at most at once, and how many texts its local IM
/// chatroom carried. Kept by the statements that change them (a join counts
/// itself; a text too), never by scanning events on request.
public struct RoomSession: Sendable, Equatable {
    public var room: Room
    /// Joined now (none once closed).
    public var members: Int
    public var totalJoins: Int
    public var peakMembers: Int
    /// Texts in the room's local IM chatroom; nil for a vendor's chatroom (or none).
    public var messages: Int64?

    /// Open to close, or to `now` while open.
    public func durationSeconds(now: Date) -> Int {
        max(0, Int((room.closedAt ?? now).timeIntervalSince(room.createdAt)))
    }
}

extension RoomStore {
    public struct SessionFilter: Sendable {
        public var pluginID: String?
        public var roomID: RoomID?
        /// Opened at or after.
        public var from: Date?
        /// Opened before.
        public var to: Date?
        /// Older than this room (the page cursor; newest first).
        public var before: RoomID?
        public var limit: Int

        public init(pluginID: String? = nil, roomID: RoomID? = nil, from: Date? = nil, to: Date? = nil, before: RoomID? = nil, limit: Int) {
            self.pluginID = pluginID
            self.roomID = roomID
            self.from = from
            self.to = to
            self.before = before
            self.limit = limit
        }
    }

    /// Newest first: one read of the rooms, one of their local chatrooms' counts.
    public func sessions(_ tenantID: TenantID, _ filter: SessionFilter) async throws -> [RoomSession] {
        let rows = try await database.query("""
            SELECT \(unescaped: RoomRows.columns), joined_count, total_joins, peak_members FROM rooms
            WHERE tenant_id = \(tenantID)
              AND (\(filter.pluginID)::text IS NULL OR plugin_id = \(filter.pluginID))
              AND (\(filter.roomID)::bigint IS NULL OR room_id = \(filter.roomID))
              AND (\(filter.from)::timestamptz IS NULL OR created_at >= \(filter.from))
              AND (\(filter.to)::timestamptz IS NULL OR created_at < \(filter.to))
              AND (\(filter.before)::bigint IS NULL
                   OR created_seq < (SELECT created_seq FROM rooms WHERE tenant_id = \(tenantID) AND room_id = \(filter.before)))
            ORDER BY created_seq DESC LIMIT \(filter.limit)
            """)
        var sessions: [RoomSession] = []
        for row in rows {
            let cells = row.makeRandomAccess()
            let room = try RoomRows.decode(row)
            // A close ends every membership at once; the count is left as it was.
            sessions.append(RoomSession(room: room, members: room.isOpen ? try cells["joined_count"].decode(Int.self) : 0,
                                        totalJoins: try cells["total_joins"].decode(Int.self), peakMembers: try cells["peak_members"].decode(Int.self)))
        }
        let chatrooms = sessions.compactMap(\.room.imChatroomID)
        guard !chatrooms.isEmpty else { return sessions }
        let counts = try await database.query("""
            SELECT chatroom_id, messages FROM im_chatrooms WHERE tenant_id = \(tenantID) AND chatroom_id = ANY(\(chatrooms))
            """).decode((String, Int64).self)
        let messages = Dictionary(counts, uniquingKeysWith: { first, _ in first })
        return sessions.map { session in
            var session = session
            session.messages = session.room.imChatroomID.flatMap { messages[$0] }
            return session
        }
    }
}

extension RoomStore {
    /// The open rooms `account` is joined to now (a tenant ban empties them).
    /// The open rooms `account` owns (#41: a tenant ban closes them).
    public func ownedOpenRooms(_ tenantID: TenantID, account: AccountID) async throws -> [RoomID] {
        try await database.query("""
            SELECT room_id FROM rooms WHERE tenant_id = \(tenantID) AND owner = \(account) AND state = 'open' ORDER BY room_id
            """).decode(Int64.self)
    }

    public func joinedOpenRooms(_ tenantID: TenantID, account: AccountID) async throws -> [RoomID] {
        try await database.query("""
            SELECT m.room_id FROM room_members m
            JOIN rooms r ON r.tenant_id = m.tenant_id AND r.room_id = m.room_id
            WHERE m.tenant_id = \(tenantID) AND m.accid = \(account) AND m.status = 'joined' AND r.state = 'open'
            ORDER BY m.room_id
            """).decode(Int64.self)
    }
}
