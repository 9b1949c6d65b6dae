import Foundation
import RoomKit

/// `/user/get`, `/call/ring`, `/call/accept`, `/call/reject`, `/call/cancel`,
/// `/call/hangup`, `/call/kick`, `/call/current`. Every route takes a JSON
/// body (or a form) with the session in `sid`.
enum CallRoutes {
    typealias Settings = OneToOneCallPlugin.Settings

    struct Guest: Encodable, Sendable {
        let sid: String
        let accid: String
        let imToken: String
    }

    struct Ringing: Encodable, Sendable {
        let roomId: Int64
        let callee: String
        let ringsUntil: Int64
    }

    struct Answered: Encodable, Sendable {
        let roomId: Int64
        let caller: String
    }

    struct Current: Encodable, Sendable {
        let roomId: Int64?
        let caller: String?
        let callee: String?
        let answered: Bool
    }

    static let routes: [ClientRoute<Settings>] = [
        ClientRoute("/user/get", handle: userGet),
        ClientRoute("/call/ring", handle: callRing),
        ClientRoute("/call/accept", handle: callAccept),
        ClientRoute("/call/reject", handle: callReject),
        ClientRoute("/call/cancel", handle: callCancel),
        ClientRoute("/call/hangup", handle: callHangup),
        /// The caller drops the callee and keeps it out for `durationSeconds`
        /// (the engine's host kick: the owner only).
        .hostKick("/call/kick"),
        ClientRoute("/call/current", methods: [.get, .post], effect: .reads, handle: callCurrent),
    ]

    static func userGet(_ call: ClientCall<Settings>) async throws -> Guest {
        let login = try await GuestLogin.login(call, ttlSeconds: call.settings.sessionTTLSeconds, prefix: "caller",
                                               nickname: { "caller" + $0.suffix(6) }, avatar: "")
        return Guest(sid: login.sid, accid: login.account.accid, imToken: login.imToken)
    }

    /// Rings `callee`: 486 when it is in another call, 488 when the caller is.
    static func callRing(_ call: ClientCall<Settings>) async throws -> Ringing {
        let caller = try await call.caller()
        let callee = try call.parameters.text("callee", characters: 1...128)
        let room = try await call.createRoom(NewRoom(name: "call", owner: caller.accid), creating: CallCreation(callee: callee),
                                             of: OneToOneCallPlugin(), by: .account(caller.accid))
        return Ringing(roomId: room.id, callee: callee, ringsUntil: (room.reservation?.until ?? room.expiresAt).epochMilliseconds)
    }

    /// The callee answers: its join claims the room's reservation.
    static func callAccept(_ call: ClientCall<Settings>) async throws -> Answered {
        let account = try await call.caller()
        let (found, _) = try await party(call, account.accid, must: .callee, "only the callee answers a call")
        _ = try await call.rooms.join(found.roomID, account: account.accid, role: CallParty.callee.rawValue)
        return Answered(roomId: found.roomID, caller: found.caller)
    }

    /// The callee refuses (an answered call is hung up instead).
    static func callReject(_ call: ClientCall<Settings>) async throws -> any Encodable & Sendable {
        let account = try await call.caller()
        let (found, _) = try await party(call, account.accid, must: .callee, "only the callee rejects a call; the caller cancels")
        return try await end(call, found, by: account.accid)
    }

    /// The caller gives up (an answered call is hung up instead).
    static func callCancel(_ call: ClientCall<Settings>) async throws -> any Encodable & Sendable {
        let account = try await call.caller()
        let (found, _) = try await party(call, account.accid, must: .caller, "only the caller cancels a call; the callee rejects")
        return try await end(call, found, by: account.accid)
    }

    /// Either side ends the call, answered or not.
    static func callHangup(_ call: ClientCall<Settings>) async throws -> any Encodable & Sendable {
        let account = try await call.caller()
        let (found, _) = try await party(call, account.accid, must: nil, "only the call's two accounts hang it up")
        return try await end(call, found, by: account.accid)
    }


    /// The account's live call, if any.
    static func callCurrent(_ call: ClientCall<Settings>) async throws -> Current {
        let account = try await call.caller()
        let store = CallStore(tables: call.tables)
        guard let roomID = try await store.liveCall(of: account.accid), let found = try await store.call(roomID) else {
            return Current(roomId: nil, caller: nil, callee: nil, answered: false)
        }
        return Current(roomId: roomID, caller: found.call.caller, callee: found.call.callee, answered: found.answered)
    }

    /// The live call `roomId` names, with `account` on the side `must` (either
    /// side when nil); a stranger is refused with `refusal`.
    static func party(_ call: ClientCall<Settings>, _ account: AccountID, must side: CallParty?, _ refusal: String) async throws -> (Call, CallParty) {
        let roomID = try call.parameters.requiredInt64("roomId")
        guard let found = try await CallStore(tables: call.tables).call(roomID) else {
            throw ClientError(code: CallCodes.noSuchCall, message: "call \(roomID) does not exist")
        }
        guard !found.ended else { throw ClientError(code: CallCodes.ended, message: "the call has ended") }
        guard let party = found.call.party(account), side == nil || side == party else { throw CallCodes.notYours(refusal) }
        return (found.call, party)
    }

    /// Ends the call: the caller dissolves the room it owns; the callee's end
    /// is the engine's close on its behalf (only a room's owner may dissolve
    /// it). Whoever ended it, both hear why (`CallEnd`).
    static func end(_ call: ClientCall<Settings>, _ found: Call, by account: AccountID) async throws -> EmptyObject {
        _ = try await call.rooms.dissolve(found.roomID, by: account == found.caller ? .account(account) : .system)
        return EmptyObject()
    }
}
