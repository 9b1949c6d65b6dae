import Foundation
import RoomCore

/// A tiny plugin that exists only in Tests, to exercise the engine, the
/// plugin protocol and the conformance suite before real plugins land.
/// Its accounts are trusted by name (`sid` = accid): never ship this.
public struct TestRoomsPlugin: RoomPlugin {
    public static let pluginID = "test-rooms"

    /// What its rooms keep: a background a test may set (as SealMic's).
    public struct Look: Codable, Sendable, Equatable {
        public var bgId: Int?
    }

    public typealias Attributes = Look

    public struct Settings: Sendable {
        public var greeting: String
    }

    public init() {}

    public var id: String { Self.pluginID }
    public var wire: WireProtocol { .netease }
    public var defaultPolicy: RoomPolicy { RoomPolicy(ttlSeconds: 3_600, capacity: 50) }
    /// The engine opens each room's chatroom and closes it with this notice.
    public var chatroom: ChatroomPolicy { .perRoom(closeNotice: #"{"type":1}"#) }

    public func readSettings(_ reader: SettingsReader) -> Settings {
        Settings(greeting: reader.string("greeting", default: "hello"))
    }

    struct Created: Encodable, Sendable {
        let roomId: Int64
        let greeting: String
    }

    public func routes() -> [ClientRoute<Settings>] {
        [
            ClientRoute("/room/create") { call in
                let owner = try call.parameters.required("sid")
                let name = try call.parameters.required("name")
                // Not counted per address, as before the handles: tests make many rooms from 127.0.0.1.
                let room = try await call.createRoom(NewRoom(name: name, owner: owner), by: .account(owner), counted: true)
                return Created(roomId: room.id, greeting: call.settings.greeting)
            },
            ClientRoute("/room/join") { call in
                let account = try call.parameters.required("sid")
                let roomID = try call.parameters.requiredInt64("roomId")
                _ = try await call.rooms.join(roomID, account: account)
                return EmptyObject()
            },
            ClientRoute("/room/kick") { call in
                let host = try call.parameters.required("sid")
                try await call.rooms.kick(try call.parameters.requiredInt64("roomId"), try HostKick(call.parameters), by: host)
                return EmptyObject()
            },
            ClientRoute("/room/dissolve") { call in
                let account = try call.parameters.required("sid")
                let roomID = try call.parameters.requiredInt64("roomId")
                _ = try await call.rooms.dissolve(roomID, by: .account(account))
                return EmptyObject()
            },
        ]
    }

    /// No rows of its own: its creates and closes are one statement each (#28, item 3).
    public func firstRows(of spec: NewRoom, creation: NoCreation, settings: Settings) -> FirstRows? { .empty }

    public func closingMessages(_ closing: [Room], reason: CloseReason, settings: Settings) -> [OutboxMessage]? { [] }

    /// Announces each kick in the room's chatroom, decided without I/O: a
    /// kick is one statement (#42).
    public func removal(settings: Settings) -> MemberRemoval? {
        .messages { leaver in
            guard let chatroom = leaver.room.imChatroomID else { return [] }
            return [.im(.chatroomMessage(chatroom: chatroom, from: leaver.room.owner, type: "100", body: #"{"kicked":"\#(leaver.account)"}"#,
                                         persist: false), roomID: leaver.room.id)]
        }
    }

    /// A mute shows on nothing of its own: a room's first mute is one statement (#42).
    public func muting(settings: Settings) -> MemberMuting? { .nothing }

    /// Announces each arrival in the room's chatroom (a local IM's in the join's statement, a vendor's through the outbox).
    public func memberJoined(_ account: AccountID, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage] {
        guard let chatroom = room.imChatroomID else { return [] }
        return [.im(.chatroomMessage(chatroom: chatroom, from: account, type: "100", body: #"{"joined":"\#(account)"}"#, persist: false), roomID: room.id)]
    }
}
