import Foundation
import PostgresNIO
import RoomCore

/// Smart-headset live streaming (seed 004): a headset bound to one phone, a
/// live room per device whose stream is signed by the tenant's live provider,
/// a voice intercom on Red5, and rooms that expire when their stream idles.
///
/// Idle expiry reuses the engine's durable expiry: a room's `expires_at` is
/// start + `idleTimeout` until its stream starts, the TTL deadline while it
/// is live, and cut + `idleTimeout` after a cut (never past the deadline).
public struct HeadsetLivePlugin: RoomPlugin {
    public static let pluginID = "headset-live"

    public struct Settings: Sendable {
        public var sessionTTLSeconds: Int
        public var idleTimeoutSeconds: Int
    }

    public init() {}

    public var id: String { Self.pluginID }
    public var wire: WireStyle { .netease }
    /// Every live room ends within 4 h.
    public var defaultPolicy: RoomPolicy { RoomPolicy(ttlSeconds: 4 * 3_600, capacity: 100_000) }

    public func readSettings(_ reader: SettingsReader) -> Settings {
        Settings(sessionTTLSeconds: reader.duration("sessionTTL", default: 30 * 86_400),
                 idleTimeoutSeconds: reader.duration("idleTimeout", default: 10 * 60))
    }

    public func routes() -> [ClientRoute<Settings>] {
        DeviceRoutes.routes + LiveRoutes.routes
    }

    /// Stop, expiry or unbind: the stream is dropped through the live
    /// provider, intercom sessions end, and the chatroom closes.
    public func roomsClosing(_ rooms: [Room], reason: CloseReason, hook: HookContext<Settings>) async throws -> [OutboxMessage] {
        let ids = rooms.map(\.id)
        try await hook.connection.query("""
            UPDATE headset_intercom SET ended_at = \(hook.now) WHERE tenant_id = \(hook.tenantID) AND room_id = ANY(\(ids)) AND ended_at IS NULL
            """, logger: hook.logger)
        let rows = try await hook.connection.query("""
            UPDATE headset_rooms SET active = false WHERE tenant_id = \(hook.tenantID) AND room_id = ANY(\(ids)) RETURNING room_id, stream
            """, logger: hook.logger).collect()
        let streams = Dictionary(uniqueKeysWithValues: try rows.decode((Int64, String).self).map { ($0, $1) })
        return rooms.flatMap { room -> [OutboxMessage] in
            var effects: [OutboxMessage] = []
            if let stream = streams[room.id] { effects.append(.live(.dropStream(stream), roomID: room.id)) }
            if let chatroom = room.imChatroomID { effects.append(.im(.closeChatroom(chatroom: chatroom, operator: room.owner, notifyExt: nil), roomID: room.id)) }
            return effects
        }
    }

    /// A stream started: the room lives to its deadline. Cut: it idles towards
    /// an early expiry.
    public func providerEvent(_ event: ProviderEvent, hook: HookContext<Settings>) async throws -> [OutboxMessage] {
        guard case .stream(let stream, let live) = event else { return [] }
        let rows = try await hook.connection.query("""
            SELECT room_id, deadline FROM headset_rooms WHERE tenant_id = \(hook.tenantID) AND stream = \(stream) AND active
            """, logger: hook.logger).collect()
        for (roomID, deadline) in try rows.decode((Int64, Date).self) {
            let expiry = live ? deadline : min(deadline, hook.now.addingTimeInterval(TimeInterval(hook.settings.idleTimeoutSeconds)))
            try await RoomDeadline.set(roomID, to: expiry, reason: live ? "stream started" : "stream cut", hook: hook)
        }
        return []
    }
}

/// The codes headset-live adds to the NetEase ones.
enum HeadsetCodes {
    static let boundElsewhere = 1301
    static let notYours = 1302

    static func notBound(_ device: String) -> ClientError {
        ClientError(code: notYours, message: "device \(device) is not bound to you")
    }
}
