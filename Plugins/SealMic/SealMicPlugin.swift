import Foundation
import PostgresNIO
import RoomCore

/// RongCloud's SealMic (seed 003): signed Authorization tokens, 2 h rooms
/// whose id is also their IM chatroom's, join-IM-first, 8 mic positions
/// kept by the server, and SM:* chatroom messages for every change.
public struct SealMicPlugin: RoomPlugin {
    public static let pluginID = "sealmic"

    public struct Settings: Sendable {
        public var positions: Int
        public var maxRooms: Int
        public var tokenTTLSeconds: Int
    }

    public init() {}

    public var id: String { Self.pluginID }
    public var wire: WireStyle { .sealmic }
    /// 2 h rooms (the seed), 1000 members (errCode 27 beyond), IM chatroom first.
    public var defaultPolicy: RoomPolicy { RoomPolicy(ttlSeconds: 2 * 3_600, capacity: 1_000, joinRequiresIM: true) }

    public func readSettings(_ reader: SettingsReader) -> Settings {
        Settings(
            positions: reader.int("positions", default: 8, in: 1...16),
            maxRooms: reader.int("maxRooms", default: 500, in: 1...1_000_000),
            tokenTTLSeconds: reader.duration("tokenTTL", default: 30 * 86_400))
    }

    public func routes() -> [ClientRoute<Settings>] {
        UserRoutes.routes + RoomRoutes.routes + MicRoutes.routes
    }

    public func clientError(for error: RoomError) -> ClientError? {
        switch error {
        case .notInIMChatroom: ClientError(code: SealMicCode.notInRoom, message: "enter the room's IM chatroom before calling /room/join")
        case .notMember: ClientError(code: SealMicCode.notInRoom, message: "you are not in this room; call /room/join")
        case .full(let capacity): ClientError(code: SealMicCode.tooManyMembers, message: "the room is full (\(capacity) members)")
        default: nil
        }
    }

    /// The room's positions are born with it; the tenant's room limit is
    /// checked under a lock per tenant, so concurrent creates cannot pass it.
    public func roomCreated(_ room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage] {
        try await hook.connection.query("SELECT pg_advisory_xact_lock(hashtext(\(room.tenantID + "/sealmic/rooms")))", logger: hook.logger)
        let rows = try await hook.connection.query("""
            SELECT count(*)::int FROM rooms WHERE tenant_id = \(room.tenantID) AND plugin_id = \(Self.pluginID) AND state = 'open'
            """, logger: hook.logger).collect()
        if let open = try rows.decode(Int.self).first, open > hook.settings.maxRooms {
            throw ClientError(code: SealMicCode.tooManyRooms, message: "the tenant already has \(hook.settings.maxRooms) open rooms")
        }
        try await MicPositionStore(connection: hook.connection, logger: hook.logger).create(room, count: hook.settings.positions, now: hook.now)
        return []
    }

    public func memberJoined(_ account: AccountID, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage] {
        [SealMicMessages.memberChanged(.join, user: account, room: room)]
    }

    /// Leaving takes the account off its position too; when someone else
    /// took it out (the host's kick, an admin's ban) the room hears "kick".
    public func memberLeft(_ account: AccountID, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage] {
        let kicked = hook.actor != .account(account)
        let store = MicPositionStore(connection: hook.connection, logger: hook.logger)
        var messages: [OutboxMessage] = []
        if let outcome = MicPositions.vacate(account, in: try await store.lockAll(room.tenantID, room.id), cmd: kicked ? .kick : .down) {
            try await store.save(outcome.changed, room.tenantID, room.id, now: hook.now)
            let by: AccountID = if case .account(let actor) = hook.actor { actor } else { room.owner }
            messages.append(SealMicMessages.positions(outcome, by: by, room: room))
        }
        messages.append(SealMicMessages.memberChanged(kicked ? .kick : .leave, user: account, room: room))
        return messages
    }

    /// Destroyed or expired: members hear SM:RDNtfyMsg, then the IM chatroom closes.
    public func roomsClosing(_ rooms: [Room], reason: CloseReason, hook: HookContext<Settings>) async throws -> [OutboxMessage] {
        rooms.flatMap { room in
            [SealMicMessages.destroyed(room)]
                + (room.imChatroomID.map { [.im(.closeChatroom(chatroom: $0, operator: room.owner, notifyExt: nil), roomID: room.id)] } ?? [])
        }
    }
}
