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
            let room = try await RoomRoutes.openRoom(roomID, call)
            let seats = try await call.services.database.transaction { connection in
                try await SeatStore(connection: connection, logger: call.logger).lockAll(call.tenant.id, room.id)
            }
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
        let room = try await RoomRoutes.openRoom(roomID, call)
        guard let chatroom = room.imChatroomID else { throw ClientError(code: NetEase.chatroomError, message: "room \(roomID) has no IM chatroom") }
        let now = call.services.clock.now()
        let seat: MicSeat = try await call.services.database.transaction { connection in
            // Re-read the room under lock: a dissolve racing this move wins or loses as a whole.
            let state = try await connection.query("""
                SELECT state FROM rooms WHERE tenant_id = \(call.tenant.id) AND room_id = \(roomID) FOR SHARE
                """, logger: call.logger).collect()
            guard try state.decode(String.self).first == "open" else { throw RoomError.closed }
            let store = SeatStore(connection: connection, logger: call.logger)
            let seats = try await store.lockAll(call.tenant.id, roomID)
            let outcome = try MicSeats.decide(command, seat: Int(index), in: seats, by: account.accid, isHost: account.accid == room.owner)
                .mapError(clientError).get()
            try await store.save(outcome.seat, call.tenant.id, roomID, now: now)
            var effects: [OutboxMessage] = [.im(.queuePut(chatroom: chatroom, key: MicSeats.queueKey(outcome.seat.index),
                                                          value: MicSeats.queueValue(outcome.seat), operator: room.owner), roomID: roomID)]
            if let attach = outcome.notifyHost {
                effects.append(.im(.notification(from: account.accid, to: room.owner, attach: attach, storeOffline: false), roomID: roomID))
            }
            try await OutboxStore.enqueue(effects, tenantID: call.tenant.id, now: now, on: connection, logger: call.logger)
            return outcome.seat
        }
        call.services.wakeOutbox()
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
