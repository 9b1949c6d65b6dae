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
        ClientRoute("/room/mic/join", handle: join),
        ClientRoute("/room/mic/leave", handle: leave),
        ClientRoute("/room/mic/change", handle: change),
        ClientRoute("/room/mic/control", handle: control),
    ]

    static func join(_ call: ClientCall<Settings>) async throws -> Bool {
        let position = try position(call, "targetPosition")
        return try await move(call) { _, _ in .join(position: position) }
    }

    /// `targetPosition` may be left out: the caller's own position.
    static func leave(_ call: ClientCall<Settings>) async throws -> Bool {
        let target = call.parameters.string("targetPosition") == nil ? nil : try position(call, "targetPosition")
        return try await move(call) { actor, positions in
            if let target { return .leave(position: target) }
            guard let own = positions.first(where: { $0.holder == actor }) else {
                throw ClientError(code: SealMicCode.micPositionError, message: "you hold no mic position")
            }
            return .leave(position: own.position)
        }
    }

    static func change(_ call: ClientCall<Settings>) async throws -> Bool {
        let from = try position(call, "fromPosition"), to = try position(call, "toPosition")
        return try await move(call) { _, _ in .change(from: from, to: to) }
    }

    static func control(_ call: ClientCall<Settings>) async throws -> Bool {
        let cmdNumber = try call.parameters.int64("cmd")
        guard let cmdNumber, let cmd = MicCmd(rawValue: Int(cmdNumber)) else {
            throw ParameterError(field: "cmd", reason: "must be one of 0-8")
        }
        let target = try position(call, "targetPosition")
        let user = call.parameters.string("targetUserId")
        let command: MicCommand
        switch cmd {
        case .carry:
            guard let user else { throw ParameterError(field: "targetUserId", reason: "is required for cmd 0 (carry)") }
            command = .carry(user: user, userInRoom: false, position: target)
        case .lock: command = .lock(position: target)
        case .unlock: command = .unlock(position: target)
        case .mute: command = .mute(position: target)
        case .unmute: command = .unmute(position: target)
        case .down: command = .down(position: target, user: user)
        case .kick: return try await kick(call, host: try await call.caller().accid, position: target, user: user)
        case .up, .change:
            throw ClientError(code: SealMicCode.badRequest, message: "cmd \(cmd.rawValue) is a member's own move: use /room/mic/join or /room/mic/change")
        }
        return try await move(call) { _, _ in command }
    }

    static func position(_ call: ClientCall<Settings>, _ field: String) throws -> Int {
        guard let value = try call.parameters.int64(field) else { throw ParameterError(field: field, reason: "is required") }
        guard (0..<Int64(call.settings.positions)).contains(value) else {
            throw ParameterError(field: field, reason: "must be between 0 and \(call.settings.positions - 1)")
        }
        return Int(value)
    }

    /// `command` is made once the caller and the positions are read: the
    /// caller's session, the room, its positions and memberships come in
    /// one read (#42 item 4: the login is checked once, with the room).
    static func move(_ call: ClientCall<Settings>,
                     _ command: @escaping @Sendable (AccountID, [MicPosition]) throws -> MicCommand) async throws -> Bool {
        try await RoomRoutes.onLiveRoom(call) { roomID in try await move(call, in: roomID, command) }
    }

    private static func move(_ call: ClientCall<Settings>, in roomID: RoomID,
                             _ command: @Sendable (AccountID, [MicPosition]) throws -> MicCommand) async throws -> Bool {
        let carried = call.parameters.string("targetUserId").map { [$0] } ?? []
        // Decided on the positions and memberships as read, written in one
        // statement only if the room did not change meanwhile.
        try await call.rooms.change(roomID, rows: MicPositionStore.table, members: carried, caller: call.session) { state in
            guard let actor = state.caller?.accid else { throw call.session.refusal }
            let room = state.room
            var command = try command(actor, state.rows)
            guard state.joined.contains(actor) else { throw ClientError(code: SealMicCode.notInRoom, message: "you are not in this room; call /room/join") }
            if case .carry(let user, _, let position) = command { command = .carry(user: user, userInRoom: state.joined.contains(user), position: position) }
            let outcome = try MicPositions.decide(command, in: state.rows, actor: actor, host: room.owner, mutedBy: state.mutedBy)
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
