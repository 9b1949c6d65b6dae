import Foundation
import RoomKit

/// Smart-headset live streaming (seed 004): a headset bound to one phone, a
/// live room per device whose stream is signed by the tenant's live provider,
/// a voice intercom on Red5, and a room that expires when its stream idles.
///
/// Idle expiry reuses the engine's durable expiry: a room's `expires_at` is
/// start + `idleTimeout` until its stream starts, the TTL deadline while it
/// is live, and cut + `idleTimeout` after a cut (never past the deadline).
public struct HeadsetLivePlugin: RoomPlugin {
    public typealias Attributes = LiveLook
    public typealias Creation = LiveCreation

    public static let pluginID = "headset-live"

    public struct Settings: Sendable {
        public var sessionTTLSeconds: Int
        public var idleTimeoutSeconds: Int
    }

    public init() {}

    public var id: String { Self.pluginID }
    public var wire: WireProtocol { .netease }
    /// Every live room ends within 4 h.
    public var defaultPolicy: RoomPolicy { RoomPolicy(ttlSeconds: 4 * 3_600, capacity: 100_000) }

    public func readSettings(_ reader: SettingsReader) -> Settings {
        Settings(sessionTTLSeconds: reader.duration("sessionTTL", default: 30 * 86_400),
                 idleTimeoutSeconds: reader.duration("idleTimeout", default: 10 * 60))
    }

    public func routes() -> [ClientRoute<Settings>] {
        DeviceRoutes.routes + LiveRoutes.routes
    }

    /// Viewers chat in the room's IM chatroom; the engine opens and closes it.
    public var chatroom: ChatroomPolicy { .perRoom(closeNotice: nil) }

    public static let streamStarted = "headset-live.stream.started", streamCut = "headset-live.stream.cut"
    public var eventTypes: [String] { [Self.streamStarted, Self.streamCut] }
    public var tables: [String] { HeadsetStore.tables }

    /// A bound headset keeps its phone's account: a guest purged while bound
    /// would leave the binding to whoever drew the id next (#27).
    public var accountReferences: [AccountReference] { [AccountReference(table: "headset_devices", column: "owner")] }

    /// A live room is a bound device's (`options.deviceId`); its TTL is its
    /// deadline, and it idles towards an early expiry until a push starts.
    public var creationOptions: JSONValue {
        ["type": "object", "additionalProperties": false, "required": ["deviceId"],
         "properties": ["deviceId": ["type": "string", "pattern": "^[A-Za-z0-9_-]{4,64}$", "description": "a headset bound to the room's owner"]]]
    }

    public func creation(from options: JSONValue) throws -> LiveCreation {
        guard let device = options["deviceId"]?.string else { throw LiveCreation.noDevice }
        return LiveCreation(deviceID: device)
    }

    /// The room idles towards an early expiry until its stream starts; its
    /// TTL is its deadline then.
    public func prepareRoom(_ spec: inout NewRoom, creation: inout LiveCreation, settings: Settings, now: Date) throws {
        guard DeviceRoutes.isDeviceID(creation.deviceID) else { throw LiveCreation.noDevice }
        let ttl = spec.ttlSeconds ?? defaultPolicy.ttlSeconds
        spec.ttlSeconds = min(ttl, settings.idleTimeoutSeconds)
        try spec.setAttributes(LiveLook(deviceId: creation.deviceID))
        creation.deadline = now.addingTimeInterval(TimeInterval(ttl))
    }

    /// The live room's row is born with the room, for a device bound to the
    /// room's owner; a second live room for the device is refused here,
    /// under the unique index.
    public func roomCreated(_ room: Room, creation: LiveCreation, hook: HookContext<Settings>) async throws -> [OutboxMessage] {
        let device = creation.deviceID
        let deadline = StorableDate.clamped(creation.deadline, from: hook.now)
        let store = HeadsetStore(tables: hook.tables)
        guard try await store.owner(of: device) == room.owner else {
            throw RoomError.referenceNotFound(field: "options.deviceId", reason: "no headset \(device) bound to the room's owner")
        }
        let stream = "headset-\(room.id)-\(Secrets.randomToken(bytes: 6))"
        guard try await store.open(room.id, device: device, title: room.name, stream: stream, deadline: deadline) else {
            throw HeadsetCodes.deviceLive(device)
        }
        return []
    }

    /// Stop, expiry or unbind: the stream is dropped through the live
    /// provider and intercom sessions end (the engine closes the chatroom).
    public func roomsClosing(_ closing: [Room], reason: CloseReason, hook: HookContext<Settings>) async throws -> [OutboxMessage] {
        try await HeadsetStore(tables: hook.tables).end(RoomIDList(closing.map(\.id)), at: hook.now).map { ended in
            .live(.dropStream(ended.stream), roomID: ended.roomID)
        }
    }

    /// A stream started: the room lives to its deadline. Cut: it idles towards
    /// an early expiry.
    public func providerEvent(_ event: ProviderEvent, hook: HookContext<Settings>) async throws -> [OutboxMessage] {
        guard case .stream(let stream, let live) = event else { return [] }
        var events: [OutboxMessage] = []
        for (roomID, deadline) in try await HeadsetStore(tables: hook.tables).liveRows(streaming: stream) {
            let expiry = live ? deadline : min(deadline, hook.now.addingTimeInterval(TimeInterval(hook.settings.idleTimeoutSeconds)))
            try await RoomDeadline.set(roomID, to: expiry, reason: live ? "stream started" : "stream cut", hook: hook)
            events.append(.event(live ? Self.streamStarted : Self.streamCut, roomID: roomID, data: ["stream": .string(stream)]))
        }
        return events
    }
}

/// The codes headset-live adds to the NetEase ones.
enum HeadsetCodes {
    static let boundElsewhere = 1301
    static let notYours = 1302

    static let alreadyLive = 1303

    static func deviceLive(_ device: String) -> ClientError {
        ClientError(code: alreadyLive, message: "device \(device) already has a live room")
    }

    static func notBound(_ device: String) -> ClientError {
        ClientError(code: notYours, message: "device \(device) is not bound to you")
    }
}

/// A live room's creation data (the plugin's `Creation`): the bound headset,
/// and when the room ends if its stream never keeps it alive (its TTL).
public struct LiveCreation: Sendable {
    public let deviceID: String
    /// Set by `prepareRoom` from the TTL in force.
    var deadline: Date = .distantFuture

    public init(deviceID: String) {
        self.deviceID = deviceID
    }

    static let noDevice = RoomError.invalidOptions(field: "options.deviceId", reason: "is required: the bound headset's id, 4-64 letters, digits, - or _")
}

/// What a live room keeps (the plugin's `Attributes`): its headset.
public struct LiveLook: Codable, Sendable, Equatable {
    public var deviceId: String
}

extension HeadsetLivePlugin {
    /// A kick or ban changes nothing this plugin keeps and tells the room
    /// nothing of its own: the engine writes it in one statement (#42).
    public func removal(settings: Settings) -> MemberRemoval? { .nothing }

    /// A mute shows on nothing of the plugin's.
    public func muting(settings: Settings) -> MemberMuting? { .nothing }
}
