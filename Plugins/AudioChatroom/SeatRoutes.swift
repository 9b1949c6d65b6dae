import Foundation
import RoomKit

/// `/mic/…`: seat moves decided by the server. Each checks the move is legal
/// from the seat's state for the caller's role (host = the room's creator),
/// then, in one statement guarded by the room's version, saves the seat and
/// queues the `queue_<index>` element and any P2P notice for the IM provider
/// (delivered in order per room).
enum SeatRoutes {
    typealias Settings = AudioChatroomPlugin.Settings

    struct SeatInfo: Encodable, Sendable {
        let index: Int
        let status: Int
        let reason: Int
        let member: Member?
        let micMute: Bool
        /// Who muted the member, when a moderator did (absent otherwise).
        let mutedBy: String?

        struct Member: Encodable, Sendable {
            let account: String
            let nick: String
            let avatar: String
        }

        init(_ seat: MicSeat) {
            index = seat.index
            status = seat.status
            reason = seat.reason
            member = seat.member.map { Member(account: $0.account, nick: $0.nick, avatar: $0.avatar) }
            micMute = seat.micMuted
            mutedBy = seat.mutedBy
        }
    }

    struct Seats: Encodable, Sendable {
        let total: Int
        let list: [SeatInfo]
    }

    static var routes: [ClientRoute<Settings>] {
        // Each move's parameters are read first (bad input is refused before
        // anything is read); the command is made once the caller is known.
        let moves: [(String, @Sendable (ClientCall<Settings>) throws -> @Sendable (Account) -> SeatCommand)] = [
            ("apply", { _ in { account in .apply(SeatMember(account: account.accid, nick: account.nickname, avatar: account.avatar)) } }),
            ("cancel", { _ in { _ in .cancel } }),
            ("leave", { _ in { _ in .leave } }),
            ("self-mute", { call in let muted = try call.parameters.bool("mute", default: true); return { _ in .selfMute(muted) } }),
            ("accept", { _ in { _ in .accept } }),
            ("reject", { _ in { _ in .reject } }),
            ("invite", { call in let invitee = try invitee(call.parameters); return { _ in .invite(invitee) } }),
            ("kick", { _ in { _ in .kick } }),
            ("mask", { _ in { _ in .mask } }),
            ("unmask", { _ in { _ in .unmask } }),
            ("close", { _ in { _ in .close } }),
            ("open", { _ in { _ in .open } }),
        ]
        return moves.map { name, command in
            ClientRoute("/mic/\(name)") { call in
                try await move(call, command: try command(call))
            }
        } + [ClientRoute("/mic/list", effect: .reads, handle: list)]
    }

    /// A read: no lock, the seats as last committed.
    static func list(_ call: ClientCall<Settings>) async throws -> Seats {
        let roomID = try call.parameters.requiredInt64("roomId")
        let room = try await call.rooms.live(roomID)
        let seats = try await SeatStore.seats(room.id, on: call.tables)
        return Seats(total: seats.count, list: seats.map(SeatInfo.init))
    }

    static func invitee(_ parameters: WireParameters) throws -> SeatMember {
        SeatMember(account: try parameters.required("account"), nick: parameters.string("nick") ?? "", avatar: parameters.string("avatar") ?? "")
    }

    static func move(_ call: ClientCall<Settings>, command: @Sendable (Account) -> SeatCommand) async throws -> SeatInfo {
        let roomID = try call.parameters.requiredInt64("roomId")
        guard let index = try call.parameters.int64("index") else { throw ParameterError(field: "index", reason: "is required") }
        guard (0..<Int64(call.settings.seats)).contains(index) else {
            throw ParameterError(field: "index", reason: "must be between 0 and \(call.settings.seats - 1)")
        }
        // The caller's session, the room and its seats in one read; decided
        // on them and written only if the room did not change meanwhile (a
        // racing move or close decides again or wins).
        // An invitee is read with the room: whether a mute holds it (#29).
        let invitee = call.parameters.string("account").map { [$0] } ?? []
        let seat = try await call.rooms.change(roomID, rows: SeatStore.table, members: invitee,
                                                         caller: call.session) { state in
            let room = state.room
            guard let account = state.caller else { throw call.session.refusal }
            guard let chatroom = room.imChatroomID else { throw ClientError(code: NetEase.chatroomError, message: "room \(roomID) has no IM chatroom") }
            let command = command(account)
            let outcome = try MicSeats.decide(command, seat: Int(index), in: state.rows, by: account.accid, isHost: account.accid == room.owner,
                                              mutedBy: state.mutedBy, banned: state.banned)
                .mapError(clientError).get()
            var change = RoomChange<MicSeat>()
            change.save(outcome.seat)
            change.emit(.im(.queuePut(chatroom: chatroom, key: MicSeats.queueKey(outcome.seat.index), value: MicSeats.queueValue(outcome.seat), operator: room.owner),
                            roomID: room.id))
            change.emit(.event(AudioChatroomPlugin.seatChanged, roomID: room.id, actor: .account(account.accid), data: [
                "seat": .number(Double(outcome.seat.index)), "status": .number(Double(outcome.seat.status)),
                "account": outcome.seat.member.map { .string($0.account) } ?? .null, "command": .string(command.name),
            ]))
            if let attach = outcome.notifyHost {
                change.emit(.im(.notification(from: account.accid, to: room.owner, attach: attach, storeOffline: false), roomID: room.id))
            }
            return (change, outcome.seat)
        }
        return SeatInfo(seat)
    }

    static func clientError(_ refusal: SeatRefusal) -> ClientError {
        switch refusal {
        case .notHost: ClientError(code: NetEase.forbidden, message: "only the room's host may do this")
        case .notYourSeat: ClientError(code: NetEase.forbidden, message: "this seat is not yours")
        case .hostHasNoSeat: ClientError(code: NetEase.forbidden, message: "the host is always on mic and takes no seat")
        case .illegal(let command, let status): ClientError(code: NetEase.seatStateConflict, message: "cannot \(command) a seat in status \(status)")
        case .alreadySeated(let index): ClientError(code: NetEase.alreadySeated, message: "already on or applying for seat \(index)")
        case .banned: ClientError(code: NetEase.forbidden, message: "account is banned from this room")
        }
    }
}
