import Foundation
import RoomKit

/// `/room/mic/join`, `/room/mic/leave`, `/room/mic/change`, `/room/mic/control`.
/// Each move is decided by `MicPositions` on the positions as read, and
/// written with the SM:* message of every position in one statement that
/// applies only if the room did not change since (else it decides again),
/// so concurrent moves are serialized by PostgreSQL and the room hears each.
enum MicRoutes {
    typealias Settings = SealMicPlugin.Settings

    static let routes: [ClientRoute<Settings>] = [
        ClientRoute("/room/mic/join") { call in
            let account = try await SealMicAuth.account(call)
            return try await move(call, actor: account.accid, .join(position: try position(call, "targetPosition")))
        },

        /// `targetPosition` may be left out: the caller's own position.
        ClientRoute("/room/mic/leave") { call in
            let account = try await SealMicAuth.account(call)
            if call.parameters.string("targetPosition") != nil {
                return try await move(call, actor: account.accid, .leave(position: try position(call, "targetPosition")))
            }
            let room = try await RoomRoutes.liveRoom(call)
            guard let own = try await SealMicReads(call).positions(room).first(where: { $0.holder == account.accid }) else {
                throw ClientError(code: SealMicCode.micPositionError, message: "you hold no mic position")
            }
            return try await move(call, actor: account.accid, .leave(position: own.position))
        },

        ClientRoute("/room/mic/change") { call in
            let account = try await SealMicAuth.account(call)
            return try await move(call, actor: account.accid, .change(from: try position(call, "fromPosition"), to: try position(call, "toPosition")))
        },

        ClientRoute("/room/mic/control") { call in
            let account = try await SealMicAuth.account(call)
            let cmdNumber = try call.parameters.int64("cmd")
            guard let cmdNumber, let cmd = MicCmd(rawValue: Int(cmdNumber)) else {
                throw ParameterError(field: "cmd", reason: "must be one of 0-8")
            }
            let target = try position(call, "targetPosition")
            let user = call.parameters.string("targetUserId")
            switch cmd {
            case .carry:
                guard let user else { throw ParameterError(field: "targetUserId", reason: "is required for cmd 0 (carry)") }
                return try await move(call, actor: account.accid, .carry(user: user, userInRoom: false, position: target))
            case .lock: return try await move(call, actor: account.accid, .lock(position: target))
            case .unlock: return try await move(call, actor: account.accid, .unlock(position: target))
            case .mute: return try await move(call, actor: account.accid, .mute(position: target))
            case .unmute: return try await move(call, actor: account.accid, .unmute(position: target))
            case .down: return try await move(call, actor: account.accid, .down(position: target, user: user))
            case .kick: return try await kick(call, host: account.accid, position: target, user: user)
            case .up, .change:
                throw ClientError(code: SealMicCode.badRequest, message: "cmd \(cmd.rawValue) is a member's own move: use /room/mic/join or /room/mic/change")
            }
        },
    ]

    static func position(_ call: ClientCall<Settings>, _ field: String) throws -> Int {
        guard let value = try call.parameters.int64(field) else { throw ParameterError(field: field, reason: "is required") }
        guard (0..<Int64(call.settings.positions)).contains(value) else {
            throw ParameterError(field: field, reason: "must be between 0 and \(call.settings.positions - 1)")
        }
        return Int(value)
    }

    static func move(_ call: ClientCall<Settings>, actor: AccountID, _ command: MicCommand) async throws -> Bool {
        let room = try await RoomRoutes.liveRoom(call)
        var asked = [actor]
        if case .carry(let user, _, _) = command { asked.append(user) }
        // Decided on the positions and memberships as read, written in one
        // statement only if the room did not change meanwhile.
        try await call.rooms.change(room.id, rows: MicPositionStore.table, members: asked) { state in
            guard state.joined.contains(actor) else { throw ClientError(code: SealMicCode.notInRoom, message: "you are not in this room; call /room/join") }
            var command = command
            if case .carry(let user, _, let position) = command { command = .carry(user: user, userInRoom: state.joined.contains(user), position: position) }
            let outcome = try MicPositions.decide(command, in: state.rows, actor: actor, host: state.room.owner, mutedBy: state.mutedBy)
                .mapError(clientError).get()
            var change = RoomChange<MicPosition>()
            // In order: a move frees its old position before taking the new one
            // (one position per user is a unique index).
            change.save(outcome.changed)
            change.emit(SealMicMessages.positions(outcome, by: actor, room: state.room))
            change.emit(.event(SealMicPlugin.positionsChanged, roomID: room.id, actor: .account(actor), data: [
                "positions": .array(outcome.changed.map { position in
                    .object(["position": .number(Double(position.position)), "holder": position.holder.map(JSONValue.string) ?? .null,
                             "locked": .bool(position.locked), "muted": .bool(position.muted),
                             "mutedBy": position.mutedBy.map(JSONValue.string) ?? .null])
                }),
            ]))
            return (change, ())
        }
        return true
    }

    /// Kick takes the holder off the position and out of the room in one
    /// engine transition (a host's kick, #29: `member.kicked`); the plugin's
    /// leave hook frees the position and tells the room (cmd 5). The kicked
    /// account may join again.
    static func kick(_ call: ClientCall<Settings>, host: AccountID, position: Int, user: AccountID?) async throws -> Bool {
        let room = try await RoomRoutes.liveRoom(call)
        guard host == room.owner else { throw clientError(.notHost) }
        let seats = try await SealMicReads(call).positions(room)
        guard let holder = seats.first(where: { $0.position == position })?.holder else { throw clientError(.empty(position: position)) }
        if let user, user != holder { throw clientError(.notYours(position: position)) }
        try await call.rooms.kick(room.id, account: holder, forSeconds: nil, reason: "", by: .account(host))
        return true
    }

    static func clientError(_ refusal: MicRefusal) -> ClientError {
        switch refusal {
        case .notHost: ClientError(code: SealMicCode.accessDenied, message: "only the room's host may control mic positions")
        case .hostHasNoPosition: ClientError(code: SealMicCode.accessDenied, message: "the host speaks from the host seat and takes no mic position")
        case .noSuchPosition(let field, let position): ClientError(code: SealMicCode.badParameter, message: "\(field) \(position) does not exist")
        case .taken(let position): ClientError(code: SealMicCode.micPositionError, message: "mic position \(position) is taken")
        case .empty(let position): ClientError(code: SealMicCode.micPositionError, message: "mic position \(position) is empty")
        case .notYours(let position): ClientError(code: SealMicCode.micPositionError, message: "mic position \(position) is not held by that user")
        case .locked(let position): ClientError(code: SealMicCode.micPositionLocked, message: "mic position \(position) is locked")
        case .alreadyOnMic(let position): ClientError(code: SealMicCode.alreadyOnMic, message: "already on mic position \(position)")
        case .userNotInRoom(let user): ClientError(code: SealMicCode.notInRoom, message: "user \(user) is not in this room")
        case .unchanged(let position, let reason): ClientError(code: SealMicCode.micPositionError, message: "mic position \(position) \(reason)")
        }
    }
}
