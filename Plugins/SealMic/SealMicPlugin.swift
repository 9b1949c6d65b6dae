import Foundation
import RoomKit

/// RongCloud's SealMic (seed 003): signed Authorization tokens, 2 h room lifetime,
/// whose id is also their IM chatroom's, join-IM-first, 8 mic positions
/// kept by the server, and SM:* chatroom messages for every change.
public struct SealMicPlugin: RoomPlugin {
    public typealias Attributes = SealMicLook
    public typealias Creation = SealMicCreation

    public static let pluginID = "sealmic"

    public struct Settings: Sendable {
        public var positions: Int
        public var tokenTTLSeconds: Int
    }

    public init() {}

    public var id: String { Self.pluginID }
    public var wire: WireProtocol { .sealmic }
    /// A 2 h lifetime (the seed), 1000 members (errCode 27 beyond), IM
    /// chatroom first, at most 500 live at once per tenant and 3 per host
    /// (errCode 26 beyond), so one guest cannot take them all.
    public var defaultPolicy: RoomPolicy {
        RoomPolicy(ttlSeconds: 2 * 3_600, capacity: 1_000, joinRequiresIM: true, maxRooms: 500, maxRoomsPerOwner: 3)
    }
    /// A room's id is its IM chatroom's; destroying it closes the chatroom
    /// after the room hears SM:RDNtfyMsg.
    public var chatroom: ChatroomPolicy { .perRoom(closeNotice: nil) }

    public static let positionsChanged = "sealmic.mic.changed"
    public var eventTypes: [String] { [Self.positionsChanged] }
    public var tables: [String] { MicPositionStore.tables }

    public func readSettings(_ reader: SettingsReader) -> Settings {
        Settings(
            positions: reader.int("positions", default: 8, in: 1...16),
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
        case .notFound, .closed: ClientError(code: SealMicCode.roomNotFound, message: "the room does not exist")
        case .tooManyRooms(let limit): ClientError(code: SealMicCode.tooManyRooms, message: "the tenant has reached its limit of live SealMic room count (\(limit))")
        case .tooManyRoomsForOwner(let limit): ClientError(code: SealMicCode.tooManyRooms, message: "you already host \(limit) live SealMic room(s)")
        default: nil
        }
    }

    /// The host is the room's first member; `roomType` is the one creation
    /// option (0 unless asked).
    public var creationOptions: JSONValue {
        ["type": "object", "additionalProperties": false,
         "properties": ["roomType": ["type": "integer", "minimum": 0, "maximum": 1_000, "description": "the app's room type (0 when absent)"]]]
    }

    /// Its creation data is the room type (0 when the admin API names none).
    public func creation(from options: JSONValue) throws -> SealMicCreation {
        guard let value = options["roomType"] else { return SealMicCreation(roomType: 0) }
        guard let type = value.int64, let roomType = Int(exactly: type) else {
            throw RoomError.invalidOptions(field: "options.roomType", reason: SealMicCreation.roomTypeText)
        }
        return SealMicCreation(roomType: roomType)
    }

    /// The room type is kept as an attribute; the creator is the first member.
    public func prepareRoom(_ spec: inout NewRoom, creation: inout SealMicCreation, settings: Settings, now: Date) throws {
        guard SealMicCreation.roomTypes.contains(creation.roomType) else {
            throw RoomError.invalidOptions(field: "options.roomType", reason: SealMicCreation.roomTypeText)
        }
        try spec.setAttributes(SealMicLook(roomType: creation.roomType, bgId: 0))
        spec.ownerJoins = true
    }

    /// The room's positions are born free with it, in the room's statement.
    public func firstRows(of spec: NewRoom, creation: SealMicCreation, settings: Settings) -> FirstRows? {
        FirstRows(MicPositionStore.table, (0..<settings.positions).map { MicPosition(position: $0, holder: nil, locked: false, muted: false) })
    }

    public func memberJoined(_ account: AccountID, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage] {
        [SealMicMessages.memberChanged(.join, user: account, room: room)]
    }

    /// Leaving takes the account off its position too; when someone else
    /// took it out (the host's kick, an admin's ban) the room hears "kick".
    public func memberLeft(_ account: AccountID, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage] {
        let kicked = hook.actor != .account(account)
        let store = MicPositionStore(tables: hook.tables)
        var messages: [OutboxMessage] = []
        if let outcome = MicPositions.vacate(account, in: try await store.lockAll(room.id), cmd: kicked ? .kick : .down) {
            try await store.save(outcome.changed, room.id, now: hook.now)
            let by: AccountID = if case .account(let actor) = hook.actor { actor } else { room.owner }
            messages.append(SealMicMessages.positions(outcome, by: by, room: room))
        }
        messages.append(SealMicMessages.memberChanged(kicked ? .kick : .leave, user: account, room: room))
        return messages
    }

    /// A kick or ban, decided on the positions read with the room (#42):
    /// as `memberLeft` for a member; one who had not joined holds no position.
    public func removal(settings: Settings) -> MemberRemoval? {
        .of(MicPositionStore.table) { leaver, positions in
            var change = RoomChange<MicPosition>()
            guard leaver.hadJoined else { return change }
            let kicked = leaver.actor != .account(leaver.account)
            if let outcome = MicPositions.vacate(leaver.account, in: positions, cmd: kicked ? .kick : .down) {
                change.save(outcome.changed)
                let by: AccountID = if case .account(let actor) = leaver.actor { actor } else { leaver.room.owner }
                change.emit(SealMicMessages.positions(outcome, by: by, room: leaver.room))
            }
            change.emit(SealMicMessages.memberChanged(kicked ? .kick : .leave, user: leaver.account, room: leaver.room))
            return change
        }
    }

    /// A moderator's mute shows on the position the account holds (#29:
    /// state bit 2 and `mutedBy`), and its lift; the room hears cmd 3 / 4.
    public func muting(settings: Settings) -> MemberMuting? {
        .of(MicPositionStore.table) { muted, positions in
            var change = RoomChange<MicPosition>()
            guard let outcome = MicPositions.moderate(muted.account, mutedBy: muted.mutedBy?.description, in: positions) else { return change }
            change.save(outcome.changed)
            let by: AccountID = if case .account(let actor) = muted.actor { actor } else { muted.room.owner }
            change.emit(SealMicMessages.positions(outcome, by: by, room: muted.room))
            return change
        }
    }

    /// Destroyed or expired: members hear SM:RDNtfyMsg (the engine closes
    /// the IM chatroom after it).
    public func closingMessages(_ closing: [Room], reason: CloseReason, settings: Settings) -> [OutboxMessage]? {
        closing.map(SealMicMessages.destroyed)
    }
}

/// What a SealMic room keeps (the plugin's `Attributes`): the app's room
/// type and its background, which the host changes.
public struct SealMicLook: Codable, Sendable, Equatable {
    public var roomType: Int
    public var bgId: Int
}

/// A room's creation data (the plugin's `Creation`): the app's room type.
public struct SealMicCreation: Sendable {
    public var roomType: Int

    static let roomTypes = 0...1_000
    static let roomTypeText = "must be an integer from 0 to 1000"

    public init(roomType: Int) {
        self.roomType = roomType
    }
}
