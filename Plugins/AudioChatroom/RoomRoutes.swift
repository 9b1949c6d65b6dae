import Foundation
import RoomKit

/// `/room/list`, `/room/create`, `/room/dissolve`, `/room/kick`, `/room/mute`.
enum RoomRoutes {
    typealias Settings = AudioChatroomPlugin.Settings

    struct RoomInfo: Encodable, Sendable {
        let roomId: Int64
        let name: String
        let creator: String
        let thumbnail: String
        let onlineUserCount: Int
        let createTime: Int64
    }

    struct Created: Encodable, Sendable {
        let roomId: Int64
        let creator: String
        let name: String
        let thumbnail: String
        let createTime: Int64
    }

    struct Listing: Encodable, Sendable {
        let total: Int
        let list: [RoomInfo]
    }

    static let routes: [ClientRoute<Settings>] = [
        ClientRoute("/room/list", effect: .reads, handle: list),
        ClientRoute("/room/create", handle: create),
        ClientRoute("/room/dissolve", handle: dissolve),
        /// The host takes a member out (#29): off its seat, out of the IM
        /// chatroom, and with `durationSeconds` kept out that long.
        .hostKick("/room/kick"),
        ClientRoute("/room/mute", handle: mute),
    ]

    static func list(_ call: ClientCall<Settings>) async throws -> any Encodable & Sendable {
        let limit = try call.parameters.int("limit", default: 20, in: 1...100)
        let offset = try call.parameters.int("offset", default: 0, in: 0...1_000_000)
        let (listed, total) = try await call.rooms.list(limit: limit, offset: offset)
        let online = try await call.onlineCounts(of: listed.map(\.room))
        return Listing(total: total, list: listed.map { listed in
            let room = listed.room
            return RoomInfo(roomId: room.id, name: room.name, creator: room.owner, thumbnail: listed.attributes(as: RoomLook.self)?.thumbnail ?? "",
                     onlineUserCount: online[room.id] ?? 0, createTime: room.createdAt.epochMilliseconds)
        })
    }

    static func create(_ call: ClientCall<Settings>) async throws -> Created {
        let name = try validRoomName(call.parameters)
        // One open room per creator, so the earlier ones are dissolved
        // first; the session is checked with the create (#28).
        let room = try await call.createRoom(NewRoom(name: name, owner: ""), caller: call.session,
                                             replacingOpenRooms: true)
        return Created(roomId: room.id, creator: room.owner, name: room.name, thumbnail: thumbnail(room), createTime: room.createdAt.epochMilliseconds)
    }

    static func dissolve(_ call: ClientCall<Settings>) async throws -> EmptyObject {
        let roomID = try call.parameters.requiredInt64("roomId")
        // The session is read with the room (#28): no round trip of its own.
        _ = try await call.rooms.dissolve(roomID, caller: call.session)
        return EmptyObject()
    }


    static func mute(_ call: ClientCall<Settings>) async throws -> EmptyObject {
        let account = try await call.caller()
        let roomID = try call.parameters.requiredInt64("roomId")
        guard call.parameters.string("mute") != nil else { throw ParameterError(field: "mute", reason: "is required") }
        let mute = try call.parameters.bool("mute", default: false)
        let notify = try call.parameters.bool("needNotify", default: true)
        let notifyExt = try call.parameters.bool("notifyExt", default: false)
        let room = try await call.rooms.live(roomID)
        guard room.owner == account.accid else { throw RoomError.notOwner }
        guard let chatroom = try call.chatroom(of: room) else { throw ClientError(code: NetEase.chatroomError, message: "room \(roomID) has no IM chatroom") }
        // Whole-room mute is the IM provider's; asking twice is success.
        try await chatroom.mute(mute, by: account.accid, notify: notify, notifyExt: notifyExt ? #"{"mute":\#(mute)}"# : nil)
        return EmptyObject()
    }

    /// 1-16 characters of Chinese, letters or digits.
    static func validRoomName(_ parameters: WireParameters) throws -> String {
        let name = try parameters.required("roomName")
        let allowed = name.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || isHan(scalar)
        }
        guard (1...16).contains(name.count), allowed else {
            throw ParameterError(field: "roomName", reason: "must be 1-16 characters of Chinese, letters or digits")
        }
        return name
    }

    static func isHan(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x2A6DF, 0x2A700...0x2EBEF, 0xF900...0xFAFF: true
        default: false
        }
    }

    static func thumbnail(_ room: Room) -> String {
        room.attributes(as: RoomLook.self)?.thumbnail ?? ""
    }
}
