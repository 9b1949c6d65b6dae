import Foundation
import PostgresNIO
import RoomCore

/// `/mic/…`: seat moves decided by the server. Each checks the move is legal
/// from the seat's state for the caller's role (host = the room's creator),
/// then, in one transaction, saves the seat and queues the `queue_<index>`
/// element and any P2P notice for the IM provider (delivered in order per room).
enum SeatRoutes {
    typealias Settings = AudioChatroomPlugin.Settings

    struct SeatInfo: Encodable, Sendable {
        let index: Int
        let status: Int
        let reason: Int
        let member: Member?
        let micMute: Bool

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
            micMute = seat.selfMuted
        }
    }

    struct Seats: Encodable, Sendable {
        let total: Int
        let list: [SeatInfo]
    }

    static var routes: [ClientRoute<Settings>] {
        let moves: [(String, @Sendable (ClientCall<Settings>, Account) throws -> SeatCommand)] = [
            ("apply", { _, account in .apply(SeatMember(account: account.accid, nick: account.nickname, avatar: account.avatar)) }),
            ("cancel", { _, _ in .cancel }),
            ("leave", { _, _ in .leave }),
            ("self-mute", { call, _ in .selfMute(try call.parameters.bool("mute", default: true)) }),
            ("accept", { _, _ in .accept }),
            ("reject", { _, _ in .reject }),
            ("invite", { call, _ in .invite(try invitee(call.parameters)) }),
            ("kick", { _, _ in .kick }),
            ("mask", { _, _ in .mask }),
            ("unmask", { _, _ in .unmask }),
            ("close", { _, _ in .close }),
            ("open", { _, _ in .open }),
        ]
        return moves.map { name, command in
            ClientRoute("/mic/\(name)") { call in
                let account = try await NetEase.account(call, pluginID: AudioChatroomPlugin.pluginID)
                return try await move(call, account: account, command: try command(call, account))
            }
        } + [ClientRoute("/mic/list") { call in
            let roomID = try call.parameters.requiredInt64("roomId")
            let room = try await call.services.engine.liveRoom(roomID, in: call.tenant, pluginID: AudioChatroomPlugin.pluginID)
            // A read: no lock, the seats as last committed.
            let seats = try await SeatStore.seats(call.tenant.id, room.id, database: call.services.database)
            return Seats(total: seats.count, list: seats.map(SeatInfo.init))
        }]
    }

    static func invitee(_ parameters: WireParameters) throws -> SeatMember {
        SeatMember(account: try parameters.required("account"), nick: parameters.string("nick") ?? "", avatar: parameters.string("avatar") ?? "")
    }

    static func move(_ call: ClientCall<Settings>, account: Account, command: SeatCommand) async throws -> SeatInfo {
        let roomID = try call.parameters.requiredInt64("roomId")
        guard let index = try call.parameters.int64("index") else { throw ParameterError(field: "index", reason: "is required") }
        guard (0..<Int64(call.settings.seats)).contains(index) else {
            throw ParameterError(field: "index", reason: "must be between 0 and \(call.settings.seats - 1)")
        }
        // The room is locked and live for the whole move: a dissolve racing it waits or wins.
        let seat = try await call.services.engine.mutate(roomID, in: call.tenant, pluginID: AudioChatroomPlugin.pluginID) { tx in
            let room = tx.room
            guard let chatroom = room.imChatroomID else { throw ClientError(code: NetEase.chatroomError, message: "room \(roomID) has no IM chatroom") }
            let store = SeatStore(connection: tx.connection, logger: tx.logger)
            let seats = try await store.lockAll(room.tenantID, room.id)
            let outcome = try MicSeats.decide(command, seat: Int(index), in: seats, by: account.accid, isHost: account.accid == room.owner)
                .mapError(clientError).get()
            try await store.save(outcome.seat, room.tenantID, room.id, now: tx.now)
            tx.emit(.im(.queuePut(chatroom: chatroom, key: MicSeats.queueKey(outcome.seat.index), value: MicSeats.queueValue(outcome.seat), operator: room.owner),
                        roomID: room.id))
            tx.emit(.event(AudioChatroomPlugin.seatChanged, roomID: room.id, actor: .account(account.accid), data: [
                "seat": .number(Double(outcome.seat.index)), "status": .number(Double(outcome.seat.status)),
                "account": outcome.seat.member.map { .string($0.account) } ?? .null, "command": .string(command.name),
            ]))
            if let attach = outcome.notifyHost {
                tx.emit(.im(.notification(from: account.accid, to: room.owner, attach: attach, storeOffline: false), roomID: room.id))
            }
            return outcome.seat
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
        }
    }
}
