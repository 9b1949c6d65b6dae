import Foundation
import RoomKit

/// `/room/create`, `/room/list`, `/room/detail`, `/room/join`, `/room/leave`,
/// `/room/destroy`, `/room/member/list`, `/room/background`.
enum RoomRoutes {
    typealias Settings = SealMicPlugin.Settings

    static let routes: [ClientRoute<Settings>] = [
        ClientRoute("/room/create", handle: create),
        ClientRoute("/room/list", methods: [.get, .post], effect: .reads, handle: list),
        ClientRoute("/room/detail", methods: [.get, .post], effect: .reads, handle: detail),
        ClientRoute("/room/join", handle: join),
        ClientRoute("/room/leave", handle: leave),
        ClientRoute("/room/kick", handle: kick),
        ClientRoute("/room/destroy", handle: destroy),
        ClientRoute("/room/member/list", methods: [.get, .post], effect: .reads, handle: memberList),
        ClientRoute("/room/background", handle: background),
    ]

    static func create(_ call: ClientCall<Settings>) async throws -> SealMicReads.Summary {
        let account = try await call.caller()
        let subject = try call.parameters.text("subject", characters: 1...64)
        let roomType = try call.parameters.int("roomType", default: call.parameters.int("type", default: 0, in: 0...1_000), in: 0...1_000)
        let room = try await call.createRoom(NewRoom(name: subject, owner: account.accid),
                                             creating: SealMicCreation(roomType: roomType), of: SealMicPlugin(), by: .account(account.accid))
        return SealMicReads.Summary(room, memberCount: 1)
    }

    static func list(_ call: ClientCall<Settings>) async throws -> any Encodable & Sendable {
        _ = try await call.caller()
        return try await SealMicReads(call).openRooms(limit: call.policy.maxRooms ?? 1_000)
    }

    static func detail(_ call: ClientCall<Settings>) async throws -> any Encodable & Sendable {
        _ = try await call.caller()
        return try await SealMicReads(call).detail(try await liveRoom(call))
    }

    /// After entering the room's IM chatroom (the seed's order; checked
    /// with the IM provider unless the tenant turns `joinRequiresIM` off).
    static func join(_ call: ClientCall<Settings>) async throws -> any Encodable & Sendable {
        // Not logged in is answered first, as before the room's id is read.
        guard call.session.sid != nil else { throw call.session.refusal }
        // The join answers the room as its batch left it: no read of its
        // own before, its session read with every other join of its batch
        // (one statement less a join each), and the detail read and
        // encoded once for every join written with it (ops/bench figure 7).
        return try await onLiveRoom(call) { roomID in
            try await call.rooms.join(roomID, caller: call.session, role: "listener", answer: "detail") { room in
                try EncodedJSON(try await SealMicReads(call).detail(room))
            }
        }
    }

    /// The host leaving ends the room for everyone (the seed).
    static func leave(_ call: ClientCall<Settings>) async throws -> Bool {
        let account = try await call.caller()
        let room = try await liveRoom(call)
        if account.accid == room.owner {
            _ = try await call.rooms.dissolve(room.id, by: .account(account.accid))
        } else {
            try await call.rooms.leave(room.id, account: account.accid)
        }
        return true
    }

    /// The host takes a member out (#29): off its mic position (cmd 5
    /// to the room), out of the IM chatroom, and with `durationSeconds`
    /// kept out that long.
    static func kick(_ call: ClientCall<Settings>) async throws -> Bool {
        let host = try await call.caller()
        let room = try await liveRoom(call)
        try await call.rooms.kick(room.id, try HostKick(call.parameters), by: host.accid)
        return true
    }

    static func destroy(_ call: ClientCall<Settings>) async throws -> Bool {
        let account = try await call.caller()
        let room = try await liveRoom(call)
        _ = try await call.rooms.dissolve(room.id, by: .account(account.accid))
        return true
    }

    static func memberList(_ call: ClientCall<Settings>) async throws -> any Encodable & Sendable {
        let account = try await call.caller()
        let room = try await liveRoom(call)
        let reads = SealMicReads(call)
        let members = try await reads.members(room)
        guard members.contains(where: { $0.userId == account.accid }) else {
            throw ClientError(code: SealMicCode.notInRoom, message: "you are not in this room; call /room/join")
        }
        return members
    }

    static func background(_ call: ClientCall<Settings>) async throws -> Bool {
        let account = try await call.caller()
        let room = try await liveRoom(call)
        guard let bgId = try call.parameters.int64("bgId") else { throw ParameterError(field: "bgId", reason: "is required") }
        guard (0...1_000).contains(bgId) else { throw ParameterError(field: "bgId", reason: "must be between 0 and 1000") }
        guard account.accid == room.owner else {
            throw ClientError(code: SealMicCode.accessDenied, message: "only the room's host may change its background")
        }
        try await SealMicReads(call).setBackground(Int(bgId), room: room, by: account.accid)
        return true
    }

    /// The live SealMic room named by `roomId` (the engine decides what
    /// live is); anything else does not exist, in SealMic's words.
    static func liveRoom(_ call: ClientCall<Settings>) async throws -> Room {
        try await onLiveRoom(call) { try await call.rooms.live($0) }
    }

    /// `body` on the room `roomId` names; a room that does not exist or has
    /// closed is SealMic's "room not found".
    static func onLiveRoom<Result: Sendable>(_ call: ClientCall<Settings>, _ body: (RoomID) async throws -> Result) async throws -> Result {
        let text = try call.parameters.required("roomId")
        let missing = ClientError(code: SealMicCode.roomNotFound, message: "room \(text) does not exist")
        guard let roomID = RoomID(text) else { throw missing }
        do {
            return try await body(roomID)
        } catch RoomError.notFound, RoomError.closed {
            throw missing
        }
    }
}
