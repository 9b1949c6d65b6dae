import Foundation

/// The room lifecycle as a pure value type: given a room snapshot, a command
/// and the time, it decides the transition or the refusal. No I/O: the engine
/// loads the snapshot under a row lock, asks, and writes what it is told.
public enum RoomLifecycle {
    public struct Snapshot: Sendable, Equatable {
        public var room: Room
        /// How many accounts are joined now.
        public var joinedCount: Int
        /// The acting account's membership, if any.
        public var memberStatus: MemberStatus?

        public init(room: Room, joinedCount: Int, memberStatus: MemberStatus?) {
            self.room = room
            self.joinedCount = joinedCount
            self.memberStatus = memberStatus
        }
    }

    public enum Command: Sendable, Equatable {
        /// `inIMChatroom` is the IM provider's answer, asked before the
        /// transaction; nil when the policy does not require it.
        case join(AccountID, inIMChatroom: Bool?)
        case leave(AccountID)
        case ban(AccountID, by: Actor)
        case reserve([AccountID], until: Date, onLapse: LapseAction, by: Actor)
        case dissolve(by: Actor)
        case extend(seconds: Int, by: Actor)
        case expire
        case lapse
    }

    public enum Transition: Sendable, Equatable {
        /// `claimsReservation`: the first reserved account to arrive.
        case join(claimsReservation: Bool)
        /// Already joined: joining again changes nothing.
        case alreadyJoined
        case leave
        case ban
        case reserve(Reservation)
        case close(CloseReason)
        case releaseReservation
        case extend(newExpiry: Date)
        /// The sweeper looked at a room that is no longer due.
        case nothing
    }

    /// The longest a room may live, from creation or by one extension: a
    /// bound at the edge, so no number reaches date arithmetic unchecked.
    public static let ttlRange = 1...(366 * 86_400)
    package static let ttlRangeText = "must be between 1 and \(366 * 86_400) seconds (366 days)"

    public static func decide(_ command: Command, on snapshot: Snapshot, now: Date) -> Result<Transition, RoomError> {
        let room = snapshot.room
        switch command {
        case .expire:
            guard room.isOpen, room.expiresAt <= now else { return .success(.nothing) }
            return .success(.close(.expired))

        case .lapse:
            guard room.isOpen, let reservation = room.reservation,
                  reservation.claimedAt == nil, reservation.until <= now else { return .success(.nothing) }
            return .success(reservation.onLapse == .close ? .close(.lapsed) : .releaseReservation)

        case .dissolve(let actor):
            guard room.isOpen else { return .failure(.closed) }
            guard may(actor, administer: room) else { return .failure(.notOwner) }
            return .success(.close(.dissolved))

        case .extend(let seconds, let actor):
            guard ttlRange.contains(seconds) else { return .failure(.invalid(field: "ttlSeconds", reason: ttlRangeText)) }
            guard isLive(room, now) else { return .failure(.closed) }
            guard may(actor, administer: room) else { return .failure(.notOwner) }
            let expiry = room.expiresAt.addingTimeInterval(TimeInterval(seconds))
            guard expiry <= now.addingTimeInterval(TimeInterval(ttlRange.upperBound)) else {
                return .failure(.conflicts(field: "ttlSeconds", reason: "would keep the room beyond 366 days from now"))
            }
            return .success(.extend(newExpiry: expiry))

        case .reserve(let accounts, let until, let onLapse, let actor):
            guard isLive(room, now) else { return .failure(.closed) }
            guard may(actor, administer: room) else { return .failure(.notOwner) }
            guard !accounts.isEmpty else { return .failure(.invalid(field: "accounts", reason: "name at least one account")) }
            guard until > now else { return .failure(.invalid(field: "until", reason: "must be in the future")) }
            return .success(.reserve(Reservation(accounts: accounts, until: until, claimedAt: nil, onLapse: onLapse)))

        case .join(let account, let inIMChatroom):
            guard isLive(room, now) else { return .failure(.closed) }
            switch snapshot.memberStatus {
            case .banned: return .failure(.banned)
            case .joined: return .success(.alreadyJoined)
            case .left, nil: break
            }
            var claims = false
            if let reservation = room.reservation, !lapsedAndReleased(reservation, now) {
                guard reservation.accounts.contains(account) else { return .failure(.reservedForOthers) }
                claims = reservation.claimedAt == nil
            }
            guard snapshot.joinedCount < room.capacity else { return .failure(.full(capacity: room.capacity)) }
            if inIMChatroom == false { return .failure(.notInIMChatroom) }
            return .success(.join(claimsReservation: claims))

        case .leave:
            guard snapshot.memberStatus == .joined else { return .failure(.notMember) }
            return .success(.leave)

        case .ban(_, let actor):
            guard room.isOpen else { return .failure(.closed) }
            guard may(actor, administer: room) else { return .failure(.notOwner) }
            return .success(.ban)
        }
    }

    /// Open and neither past its TTL nor past an unclaimed reservation that
    /// closes on lapse: the sweeper may not have run yet, but the answer must
    /// not depend on when it does.
    public static func isLive(_ room: Room, _ now: Date) -> Bool {
        guard room.isOpen, room.expiresAt > now else { return false }
        if let reservation = room.reservation, reservation.claimedAt == nil,
           reservation.onLapse == .close, reservation.until <= now {
            return false
        }
        return true
    }

    static func lapsedAndReleased(_ reservation: Reservation, _ now: Date) -> Bool {
        reservation.claimedAt == nil && reservation.onLapse == .release && reservation.until <= now
    }

    static func may(_ actor: Actor, administer room: Room) -> Bool {
        switch actor {
        case .admin, .system: true
        case .account(let id): id == room.owner
        }
    }
}
