import RoomKit

/// One of a room's mic positions. Stored as facts (holder, locked, muted);
/// the clients' state bits are derived, so leaving a position can never
/// keep its occupied bit (a defect of the original).
public struct MicPosition: Sendable, Equatable, Codable {
    public var position: Int
    public var holder: AccountID?
    public var locked: Bool
    /// The host's switch of the position.
    public var muted: Bool
    /// Who muted the holder in the room (#29: `admin`, `account:<host>`)
    /// while that mute is in force; it goes with the holder.
    public var mutedBy: String?

    /// The columns of its row (`MicPositionStore.table`), in order.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case position, holder = "user_id", locked, muted, mutedBy = "muted_by"
    }

    public init(position: Int, holder: AccountID? = nil, locked: Bool = false, muted: Bool = false, mutedBy: String? = nil) {
        self.position = position
        self.holder = holder
        self.locked = locked
        self.muted = muted
        self.mutedBy = mutedBy
    }

    /// Locked 1, muted ("forbidden") 2, occupied 4: a holder a moderator
    /// muted is forbidden too, whatever the host's switch says.
    public var state: Int { (locked ? 1 : 0) | (muted || mutedBy != nil ? 2 : 0) | (holder != nil ? 4 : 0) }

    /// `user` takes the position, with the mute in force for them, if any.
    mutating func seat(_ user: AccountID?, mutedBy: [AccountID: String]) {
        holder = user
        self.mutedBy = user.flatMap { mutedBy[$0] }
    }
}

/// The `cmd` numbers of the SM:MPCtrlMsg / SM:MPChangeMsg messages and of `/room/mic/control`.
public enum MicCmd: Int, Sendable, CaseIterable {
    case carry = 0, lock, unlock, mute, unmute, kick, up, down, change
}

public enum MicCommand: Sendable, Equatable {
    /// A listener takes an empty position.
    case join(position: Int)
    /// The holder steps down from a position.
    case leave(position: Int)
    /// The holder moves to another empty position.
    case change(from: Int, to: Int)
    /// The host puts a listener (who must be in the room) on a position.
    case carry(user: AccountID, userInRoom: Bool, position: Int)
    case lock(position: Int)
    case unlock(position: Int)
    case mute(position: Int)
    case unmute(position: Int)
    /// The host takes the holder down; `user`, when given, must be the holder.
    case down(position: Int, user: AccountID?)

    var hostOnly: Bool {
        switch self {
        case .join, .leave, .change: false
        case .carry, .lock, .unlock, .mute, .unmute, .down: true
        }
    }
}

public enum MicRefusal: Error, Sendable, Equatable {
    case notHost
    case hostHasNoPosition
    case noSuchPosition(field: String, position: Int)
    case taken(position: Int)
    case empty(position: Int)
    case notYours(position: Int)
    case locked(position: Int)
    case alreadyOnMic(position: Int)
    case userNotInRoom(AccountID)
    case unchanged(position: Int, reason: String)
}

/// What a decided command changes and what the room is told.
public struct MicOutcome: Sendable, Equatable {
    /// Every position, as they become.
    public var positions: [MicPosition]
    /// The positions whose row changes.
    public var changed: [MicPosition]
    public var cmd: MicCmd
    public var targetUserID: AccountID
    public var targetPosition: Int
    /// For `change`: where the holder came from.
    public var fromPosition: Int?
}

/// The mic rules as a pure value type: positions, a command, who asks and
/// who hosts; out comes the outcome or the refusal. No I/O.
public enum MicPositions {
    /// `mutedBy`: who muted the accounts concerned, for the mutes in force
    /// in the room (#29): an account a moderator muted takes a position muted.
    public static func decide(_ command: MicCommand, in positions: [MicPosition], actor: AccountID, host: AccountID,
                              mutedBy: [AccountID: String] = [:]) -> Result<MicOutcome, MicRefusal> {
        if command.hostOnly && actor != host { return .failure(.notHost) }
        var next = positions
        func at(_ index: Int, _ field: String) -> Result<Int, MicRefusal> {
            guard let slot = next.firstIndex(where: { $0.position == index }) else { return .failure(.noSuchPosition(field: field, position: index)) }
            return .success(slot)
        }
        func seatOf(_ user: AccountID) -> MicPosition? { positions.first { $0.holder == user } }
        func outcome(_ slots: [Int], _ cmd: MicCmd, _ target: AccountID, _ position: Int, from: Int? = nil) -> Result<MicOutcome, MicRefusal> {
            .success(MicOutcome(positions: next, changed: slots.map { next[$0] }, cmd: cmd, targetUserID: target, targetPosition: position, fromPosition: from))
        }
        /// Someone new sits down: the position must exist, be open and be empty.
        func seat(_ index: Int, field: String) -> Result<Int, MicRefusal> {
            at(index, field).flatMap { slot in
                if next[slot].locked { return .failure(.locked(position: index)) }
                if next[slot].holder != nil { return .failure(.taken(position: index)) }
                return .success(slot)
            }
        }

        switch command {
        case .join(let index):
            if actor == host { return .failure(.hostHasNoPosition) }
            if let seated = seatOf(actor) { return .failure(.alreadyOnMic(position: seated.position)) }
            return seat(index, field: "targetPosition").flatMap { slot in
                next[slot].seat(actor, mutedBy: mutedBy)
                return outcome([slot], .up, actor, index)
            }

        case .leave(let index):
            return at(index, "targetPosition").flatMap { slot in
                guard next[slot].holder == actor else { return .failure(.notYours(position: index)) }
                next[slot].seat(nil, mutedBy: mutedBy)
                return outcome([slot], .down, actor, index)
            }

        case .change(let from, let to):
            return at(from, "fromPosition").flatMap { source in
                guard next[source].holder == actor else { return .failure(.notYours(position: from)) }
                if from == to { return .failure(.unchanged(position: to, reason: "is already yours")) }
                return seat(to, field: "toPosition").flatMap { target in
                    next[source].seat(nil, mutedBy: mutedBy)
                    next[target].seat(actor, mutedBy: mutedBy)
                    return outcome([source, target], .change, actor, to, from: from)
                }
            }

        case .carry(let user, let userInRoom, let index):
            if user == host { return .failure(.hostHasNoPosition) }
            guard userInRoom else { return .failure(.userNotInRoom(user)) }
            if let seated = seatOf(user) { return .failure(.alreadyOnMic(position: seated.position)) }
            return seat(index, field: "targetPosition").flatMap { slot in
                next[slot].seat(user, mutedBy: mutedBy)
                return outcome([slot], .carry, user, index)
            }

        case .lock(let index):
            return at(index, "targetPosition").flatMap { slot in
                if next[slot].locked { return .failure(.unchanged(position: index, reason: "is already locked")) }
                // A locked position holds nobody: its holder goes back to the audience.
                let holder = next[slot].holder
                next[slot].locked = true
                next[slot].seat(nil, mutedBy: mutedBy)
                return outcome([slot], .lock, holder ?? "", index)
            }

        case .unlock(let index):
            return at(index, "targetPosition").flatMap { slot in
                guard next[slot].locked else { return .failure(.unchanged(position: index, reason: "is not locked")) }
                next[slot].locked = false
                return outcome([slot], .unlock, "", index)
            }

        case .mute(let index):
            return at(index, "targetPosition").flatMap { slot in
                if next[slot].muted { return .failure(.unchanged(position: index, reason: "is already muted")) }
                next[slot].muted = true
                return outcome([slot], .mute, next[slot].holder ?? "", index)
            }

        case .unmute(let index):
            return at(index, "targetPosition").flatMap { slot in
                guard next[slot].muted else { return .failure(.unchanged(position: index, reason: "is not muted")) }
                next[slot].muted = false
                return outcome([slot], .unmute, next[slot].holder ?? "", index)
            }

        case .down(let index, let user):
            return at(index, "targetPosition").flatMap { slot in
                guard let holder = next[slot].holder else { return .failure(.empty(position: index)) }
                if let user, user != holder { return .failure(.notYours(position: index)) }
                next[slot].seat(nil, mutedBy: mutedBy)
                return outcome([slot], .down, holder, index)
            }
        }
    }

    /// The account's position leaves with it (leave, kick, ban): `cmd` is
    /// `.down` when it left by itself, `.kick` when the host took it out.
    public static func vacate(_ user: AccountID, in positions: [MicPosition], cmd: MicCmd) -> MicOutcome? {
        guard let slot = positions.firstIndex(where: { $0.holder == user }) else { return nil }
        var next = positions
        next[slot].seat(nil, mutedBy: [:])
        return MicOutcome(positions: next, changed: [next[slot]], cmd: cmd, targetUserID: user, targetPosition: next[slot].position, fromPosition: nil)
    }

    /// A moderator's mute of `user` (`mutedBy`), or its lift (nil), shown on
    /// the position they hold (#29): the room hears cmd 3 (mute) or 4
    /// (unmute) for it. nil when they hold none or it shows that already.
    public static func moderate(_ user: AccountID, mutedBy by: String?, in positions: [MicPosition]) -> MicOutcome? {
        guard let slot = positions.firstIndex(where: { $0.holder == user }), positions[slot].mutedBy != by else { return nil }
        var next = positions
        next[slot].mutedBy = by
        return MicOutcome(positions: next, changed: [next[slot]], cmd: by == nil ? .unmute : .mute, targetUserID: user,
                          targetPosition: next[slot].position, fromPosition: nil)
    }
}
