import Foundation
import RoomKit

/// NetEase's multi-person voice chatroom (seed 001): guest accounts, 48 h
/// lifetimes with an IM chatroom for each room, whole-room mute, and mic seats kept by the
/// server (the original left them to the clients).
public struct AudioChatroomPlugin: RoomPlugin {
    public typealias Attributes = RoomLook
    public typealias Creation = ChatroomCreation

    public static let pluginID = "audio-chatroom"

    public struct Settings: Sendable {
        public var seats: Int
        public var sessionTTLSeconds: Int
        public var thumbnails: [String]
        public var avatars: [String]
    }

    public init() {}

    public var id: String { Self.pluginID }
    public var wire: WireProtocol { .netease }
    public var defaultPolicy: RoomPolicy { RoomPolicy(ttlSeconds: 48 * 3_600, capacity: 10_000) }

    /// The pictures of the original demo.
    static let defaultThumbnails = [
        "https://s2.ax1x.com/2019/01/15/FzNb5V.png", "https://s2.ax1x.com/2019/01/15/FzNL4A.png",
        "https://s2.ax1x.com/2019/01/15/FzNHU0.png", "https://s2.ax1x.com/2019/01/15/FzNqEq.png",
    ]
    static let defaultAvatars = ["https://s2.ax1x.com/2019/01/15/FzUSbR.png", "https://s2.ax1x.com/2019/01/15/FzUpVK.png"]

    public func readSettings(_ reader: SettingsReader) -> Settings {
        let thumbnails = reader.stringArray("thumbnails", default: Self.defaultThumbnails)
        let avatars = reader.stringArray("avatars", default: Self.defaultAvatars)
        if thumbnails.isEmpty { reader.report("thumbnails", "name at least one picture") }
        if avatars.isEmpty { reader.report("avatars", "name at least one picture") }
        return Settings(
            seats: reader.int("seats", default: 8, in: 1...16),
            sessionTTLSeconds: reader.duration("sessionTTL", default: 30 * 86_400),
            thumbnails: thumbnails.isEmpty ? Self.defaultThumbnails : thumbnails,
            avatars: avatars.isEmpty ? Self.defaultAvatars : avatars)
    }

    public func routes() -> [ClientRoute<Settings>] {
        AccountRoutes.routes + RoomRoutes.routes + SeatRoutes.routes
    }

    /// Every room has an IM chatroom; closing it tells members with the
    /// room-closed attachment the shipped app expects.
    public var chatroom: ChatroomPolicy { .perRoom(closeNotice: #"{"type":1}"#) }

    public var tables: [String] { SeatStore.tables }

    public static let seatChanged = "audio-chatroom.seat.changed"
    public var eventTypes: [String] { [Self.seatChanged] }

    /// A room shows a picture: the one asked for, or one of the tenant's.
    public var creationOptions: JSONValue {
        ["type": "object", "additionalProperties": false,
         "properties": ["thumbnail": TextRules.schema(1...1_024, description: "the room's picture (URL); one of the tenant's thumbnails when absent")]]
    }

    /// Its creation data is the room's picture, which only the admin API
    /// names (the app's create takes one of the tenant's thumbnails).
    public func creation(from options: JSONValue) throws -> ChatroomCreation {
        guard let asked = options["thumbnail"] else { return ChatroomCreation(thumbnail: nil) }
        guard let thumbnail = asked.string else {
            throw RoomError.invalidOptions(field: "options.thumbnail", reason: "must be a picture's URL, 1-1024 characters")
        }
        return ChatroomCreation(thumbnail: thumbnail)
    }

    /// The picture is kept as an attribute.
    public func prepareRoom(_ spec: inout NewRoom, creation: inout ChatroomCreation, settings: Settings, now: Date) throws {
        if let asked = creation.thumbnail, !TextRules.fits(asked, 1...1_024) {
            throw RoomError.invalidOptions(field: "options.thumbnail", reason: "must be a picture's URL, 1-1024 characters")
        }
        try spec.setAttributes(RoomLook(thumbnail: creation.thumbnail ?? settings.thumbnails.randomElement() ?? ""))
    }

    /// A kick or ban frees the account's seats (#29); the room's members
    /// read the freed `queue_<index>` elements (reason 3, kicked).
    public func memberRemoved(_ account: AccountID, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage] {
        try await seatsChanged(room, hook: hook) { MicSeats.vacate(account, in: $0) }
    }

    /// A kick or ban, decided on the seats read with the room (#42): as
    /// `memberRemoved`, whether or not the account had joined.
    public func removal(settings: Settings) -> MemberRemoval? {
        .of(SeatStore.table) { leaver, seats in Self.saved(MicSeats.vacate(leaver.account, in: seats), in: leaver.room) }
    }

    /// A moderator's mute shows on the account's seat, and its lift: the
    /// seat saved and its queue element put, decided without I/O (a first
    /// mute is the engine's one statement).
    public func muting(settings: Settings) -> MemberMuting? {
        .of(SeatStore.table) { muted, seats in
            Self.saved(MicSeats.moderate(muted.account, mutedBy: muted.mutedBy?.description, in: seats), in: muted.room)
        }
    }

    /// Seats a rule changed, saved, and their queue elements put for the
    /// clients when the room has a chatroom to tell.
    static func saved(_ seats: [MicSeat], in room: Room) -> RoomChange<MicSeat> {
        var change = RoomChange<MicSeat>()
        change.save(seats)
        if let chatroom = room.imChatroomID {
            for seat in seats {
                change.emit(.im(.queuePut(chatroom: chatroom, key: MicSeats.queueKey(seat.index), value: MicSeats.queueValue(seat),
                                          operator: room.owner), roomID: room.id))
            }
        }
        return change
    }

    /// Seats changed by a rule on the engine's transaction (a kick over a
    /// ban in force): as `saved`, on the seats as locked.
    private func seatsChanged(_ room: Room, hook: HookContext<Settings>, _ rule: ([MicSeat]) -> [MicSeat]) async throws -> [OutboxMessage] {
        let change = Self.saved(rule(try await SeatStore.lockAll(room.id, on: hook.tables)), in: room)
        if !change.rows.isEmpty { try await SeatStore.save(change.rows, room.id, now: hook.now, on: hook.tables) }
        return change.effects
    }

    /// Every seat is born empty with its room, in the room's statement.
    public func firstRows(of spec: NewRoom, creation: ChatroomCreation, settings: Settings) -> FirstRows? {
        FirstRows(SeatStore.table, (0..<settings.seats).map { MicSeat(index: $0) })
    }

    /// A closed room's seats simply end with it; the engine closes the chatroom.
    public func closingMessages(_ closing: [Room], reason: CloseReason, settings: Settings) -> [OutboxMessage]? { [] }
}

/// What an audio chatroom keeps on its room (the plugin's `Attributes`).
public struct RoomLook: Codable, Sendable, Equatable {
    /// The room's picture (URL).
    public var thumbnail: String
}

/// A room's creation data (the plugin's `Creation`): its picture, or nil
/// for one of the tenant's thumbnails.
public struct ChatroomCreation: Sendable {
    public var thumbnail: String?

    public init(thumbnail: String?) {
        self.thumbnail = thumbnail
    }
}
