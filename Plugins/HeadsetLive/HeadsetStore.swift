import Foundation
import RoomKit

/// The SQL of headset-live's devices, live-room rows and intercom sessions: the
/// plugin's one store (#28, item 6), on whatever `PluginTables` it is given
/// (a route's pool, a hook's transaction, a locked room's).
struct HeadsetStore {
    static let tables = ["headset_devices", "headset_rooms", "headset_intercom"]

    let tables: PluginTables

    /// A live room's own row.
    struct LiveRow {
        let deviceID: String
        let title: String
        let stream: String
        /// The latest the room may live: URLs are signed until then.
        let deadline: Date
    }

    // MARK: devices

    /// Binds `device` to `accid` unless it is bound already; returns its
    /// binding as it stands (nil: unbound in between, try again). The
    /// primary key decides a race: the loser's insert does nothing, and a
    /// new statement (a new snapshot) then sees the winner's row.
    func bind(_ device: String, to accid: AccountID, at now: Date) async throws -> (owner: AccountID, boundAt: Date)? {
        let inserted = try await tables.query("""
            INSERT INTO headset_devices (tenant_id, device_id, owner, bound_at)
            VALUES (\(.tenant), \(device), \(accid), \(now))
            ON CONFLICT (tenant_id, device_id) DO NOTHING RETURNING owner, bound_at
            """)
        let binding = inserted.isEmpty ? try await tables.query("""
            SELECT owner, bound_at FROM headset_devices WHERE tenant_id = \(.tenant) AND device_id = \(device)
            """) : inserted
        return try binding.decode((String, Date).self).first.map { ($0, $1) }
    }

    func unbind(_ device: String, from owner: AccountID) async throws {
        try await tables.query("""
            DELETE FROM headset_devices WHERE tenant_id = \(.tenant) AND device_id = \(device) AND owner = \(owner)
            """)
    }

    func owner(of device: String) async throws -> AccountID? {
        try await tables.query("""
            SELECT owner FROM headset_devices WHERE tenant_id = \(.tenant) AND device_id = \(device)
            """).decode(String.self).first
    }

    /// The account's devices, first bound first, with each one's live room.
    func devices(of owner: AccountID) async throws -> [(deviceID: String, boundAt: Date, roomID: RoomID?)] {
        try await tables.query("""
            SELECT d.device_id, d.bound_at, r.room_id FROM headset_devices d
            LEFT JOIN headset_rooms r ON r.tenant_id = d.tenant_id AND r.device_id = d.device_id AND r.active
            WHERE d.tenant_id = \(.tenant) AND d.owner = \(owner) ORDER BY d.bound_at, d.device_id
            """).decode((String, Date, Int64?).self).map { ($0, $1, $2) }
    }

    // MARK: live-room rows

    /// The room's live row, born with it; false when the device has a live
    /// room already (refused under the unique index).
    func open(_ roomID: RoomID, device: String, title: String, stream: String, deadline: Date) async throws -> Bool {
        try await !tables.query("""
            INSERT INTO headset_rooms (tenant_id, room_id, device_id, title, stream, deadline)
            VALUES (\(.tenant), \(roomID), \(device), \(title), \(stream), \(deadline))
            ON CONFLICT (tenant_id, device_id) WHERE active DO NOTHING RETURNING room_id
            """).isEmpty
    }

    /// Ends the intercom sessions and live rows of `ids`; returns each one's stream.
    func end(_ ids: RoomIDList, at now: Date) async throws -> [(roomID: RoomID, stream: String)] {
        try await tables.query("""
            UPDATE headset_intercom SET ended_at = \(now) WHERE tenant_id = \(.tenant) AND room_id = ANY(\(ids)) AND ended_at IS NULL
            """)
        return try await tables.query("""
            UPDATE headset_rooms SET active = false WHERE tenant_id = \(.tenant) AND room_id = ANY(\(ids)) RETURNING room_id, stream
            """).decode((Int64, String).self).map { ($0, $1) }
    }

    /// The live rows of `stream`: their room ids and deadlines.
    func liveRows(streaming stream: String) async throws -> [(roomID: RoomID, deadline: Date)] {
        try await tables.query("""
            SELECT room_id, deadline FROM headset_rooms WHERE tenant_id = \(.tenant) AND stream = \(stream) AND active
            """).decode((Int64, Date).self).map { ($0, $1) }
    }

    func liveRoomID(ofDevice device: String) async throws -> RoomID? {
        try await tables.query("""
            SELECT room_id FROM headset_rooms WHERE tenant_id = \(.tenant) AND device_id = \(device) AND active
            """).decode(Int64.self).first
    }

    func liveRow(_ roomID: RoomID) async throws -> LiveRow? {
        try await tables.query("""
            SELECT device_id, title, stream, deadline FROM headset_rooms WHERE tenant_id = \(.tenant) AND room_id = \(roomID)
            """).decode((String, String, String, Date).self).first.map(LiveRow.init)
    }

    /// One listed live room, with what the engine says of its room.
    struct ListedRow: Sendable {
        let roomID: RoomID
        let deviceID: String
        let title: String
        let stream: String
        let owner: AccountID
        let createdAt: Date
        let expiresAt: Date
    }

    /// A page of the headsets' live sessions whose stream the provider
    /// reported live and whose room `viewer` may enter now (live, not banned from: the engine's
    /// `roomkeeper_enterable_room`), latest deadline (newest) first, and how
    /// many there are: one statement, whatever the page holds.
    func enterableStreamingRooms(viewer: AccountID, at now: Date, limit: Int, offset: Int) async throws
        -> (listed: [ListedRow], total: Int) {
        let rows = try await tables.query("""
            SELECT h.room_id, h.device_id, h.title, h.stream, r.owner, r.created_at, r.expires_at, count(*) OVER ()::int
            FROM headset_rooms h
            JOIN live_streams s ON s.tenant_id = h.tenant_id AND s.stream = h.stream AND s.live
            JOIN roomkeeper_enterable_room(h.tenant_id, h.room_id, \(viewer), \(now)) r ON true
            WHERE h.tenant_id = \(.tenant) AND h.active
            ORDER BY h.deadline DESC, h.room_id DESC LIMIT \(limit) OFFSET \(offset)
            """).decode((Int64, String, String, String, String, Date, Date, Int).self)
        return (rows.map { ListedRow(roomID: $0.0, deviceID: $0.1, title: $0.2, stream: $0.3, owner: $0.4, createdAt: $0.5, expiresAt: $0.6) },
                rows.first?.7 ?? 0)
    }

    // MARK: intercom

    func recordIntercom(_ roomID: RoomID, speakURL: String, listenURL: String, expiresAt: Date, at now: Date) async throws {
        try await tables.query("""
            INSERT INTO headset_intercom (tenant_id, room_id, speak_url, listen_url, expires_at, created_at)
            VALUES (\(.tenant), \(roomID), \(speakURL), \(listenURL), \(expiresAt), \(now))
            """)
    }
}
