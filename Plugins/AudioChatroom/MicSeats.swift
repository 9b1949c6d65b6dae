import Foundation
import RoomKit

/// Who sits on a seat, as the clients show them.
public struct SeatMember: Sendable, Equatable {
    public var account: AccountID
    public var nick: String
    public var avatar: String

    public init(account: AccountID, nick: String, avatar: String) {
        self.account = account
        self.nick = nick
        self.avatar = avatar
    }
}

/// One mic seat. Stored as independent facts (who, closed, masked,
/// self-muted); the clients' status number 0-7 is derived from them, so
/// masking survives someone leaving and opening keeps the mask.
public struct MicSeat: Sendable, Equatable {
    public enum Phase: String, Sendable { case empty, applying, onMic }

    public var index: Int
    public var phase: Phase
    public var member: SeatMember?
    public var closed: Bool
    public var masked: Bool
    public var selfMuted: Bool
    /// Why the seat last changed (the clients' reason 0-9).
    public var reason: Int
    /// Who muted the seat's member (#29: a room mute the member cannot
    /// lift); nil when nobody did. The seat counts as muted either way.
    public var mutedBy: String?

    public init(index: Int, phase: Phase = .empty, member: SeatMember? = nil, closed: Bool = false, masked: Bool = false, selfMuted: Bool = false,
                reason: Int = 0, mutedBy: String? = nil) {
        self.index = index
        self.phase = phase
        self.member = member
        self.closed = closed
        self.masked = masked
        self.selfMuted = selfMuted
        self.reason = reason
        self.mutedBy = mutedBy
    }

    /// Muted by its member or by a moderator.
    public var micMuted: Bool { selfMuted || mutedBy != nil }

    /// 0 empty, 1 applying, 2 on mic, 3 closed, 4 masked, 5 on mic + masked,
    /// 6 on mic + self-muted, 7 on mic + self-muted + masked.
    public var status: Int {
        if closed { return 3 }
        switch phase {
        case .empty: return masked ? 4 : 0
        case .applying: return 1
        case .onMic: return masked ? (micMuted ? 7 : 5) : (micMuted ? 6 : 2)
        }
    }
}

public enum SeatReason {
    public static let none = 0, accepted = 1, invited = 2, kicked = 3, left = 4, cancelled = 5, rejected = 6,
        maskedBeforeJoining = 7, unmasked = 8, opened = 9
}

public enum SeatCommand: Sendable, Equatable {
    // The audience's own moves.
    case apply(SeatMember)
    case cancel
    case leave
    case selfMute(Bool)
    // The host's.
    case accept
    case reject
    case invite(SeatMember)
    case kick
    case mask
    case unmask
    case close
    case open

    var hostOnly: Bool {
        switch self {
        case .apply, .cancel, .leave, .selfMute: false
        case .accept, .reject, .invite, .kick, .mask, .unmask, .close, .open: true
        }
    }

    public var name: String {
        switch self {
        case .apply: "apply"
        case .cancel: "cancel"
        case .leave: "leave"
        case .selfMute: "self-mute"
        case .accept: "accept"
        case .reject: "reject"
        case .invite: "invite"
        case .kick: "kick"
        case .mask: "mask"
        case .unmask: "unmask"
        case .close: "close"
        case .open: "open"
        }
    }
}

public enum SeatRefusal: Error, Sendable, Equatable {
    case notHost
    case notYourSeat
    case hostHasNoSeat
    case illegal(command: String, status: Int)
    case alreadySeated(index: Int)
    /// The invited account is banned from the room (#41).
    case banned
}

public struct SeatOutcome: Sendable, Equatable {
    public var seat: MicSeat
    /// The audience→host P2P notification of the original app, if this move sends one.
    public var notifyHost: String?
}

/// The seat rules as a pure value type: the seats as they are, a command, who
/// asks; out comes the seat as it becomes, or the refusal. No I/O.
public enum MicSeats {
    /// `mutedBy`: who muted the accounts concerned, for the mutes in force
    /// (#29): a muted member who applies or is invited takes the seat muted.
    /// `banned`: the accounts concerned a ban keeps out: never invited.
    public static func decide(_ command: SeatCommand, seat index: Int, in seats: [MicSeat], by actor: AccountID, isHost: Bool,
                              mutedBy: [AccountID: String] = [:], banned: Set<AccountID> = []) -> Result<SeatOutcome, SeatRefusal> {
        guard let current = seats.first(where: { $0.index == index }) else { return .failure(.illegal(command: command.name, status: -1)) }
        if command.hostOnly && !isHost { return .failure(.notHost) }
        var seat = current
        let illegal = SeatRefusal.illegal(command: command.name, status: current.status)
        func seated(_ account: AccountID) -> MicSeat? {
            seats.first { $0.index != index && $0.phase != .empty && $0.member?.account == account }
        }
        func emptied(_ reason: Int) -> MicSeat { freed(current, reason: reason) }

        switch command {
        case .apply(let member):
            if isHost { return .failure(.hostHasNoSeat) }
            guard current.phase == .empty, !current.closed else { return .failure(illegal) }
            if let other = seated(member.account) { return .failure(.alreadySeated(index: other.index)) }
            seat.phase = .applying
            seat.member = member
            seat.mutedBy = mutedBy[member.account]
            seat.reason = SeatReason.none
            let attach = #"{"command":1,"index":\#(index),"nick":\#(JSONValue.literal(member.nick)),"avatar":\#(JSONValue.literal(member.avatar))}"#
            return .success(SeatOutcome(seat: seat, notifyHost: attach))

        case .cancel:
            guard current.phase == .applying else { return .failure(illegal) }
            guard current.member?.account == actor else { return .failure(.notYourSeat) }
            return .success(SeatOutcome(seat: emptied(SeatReason.cancelled), notifyHost: #"{"command":3,"index":\#(index)}"#))

        case .leave:
            guard current.phase == .onMic else { return .failure(illegal) }
            guard current.member?.account == actor else { return .failure(.notYourSeat) }
            return .success(SeatOutcome(seat: emptied(SeatReason.left), notifyHost: #"{"command":2,"index":\#(index)}"#))

        case .selfMute(let muted):
            guard current.phase == .onMic else { return .failure(illegal) }
            guard current.member?.account == actor else { return .failure(.notYourSeat) }
            seat.selfMuted = muted
            seat.reason = SeatReason.none
            return .success(SeatOutcome(seat: seat, notifyHost: nil))

        case .accept:
            guard current.phase == .applying else { return .failure(illegal) }
            seat.phase = .onMic
            seat.reason = current.masked ? SeatReason.maskedBeforeJoining : SeatReason.accepted
            return .success(SeatOutcome(seat: seat, notifyHost: nil))

        case .reject:
            guard current.phase == .applying else { return .failure(illegal) }
            return .success(SeatOutcome(seat: emptied(SeatReason.rejected), notifyHost: nil))

        case .invite(let member):
            if banned.contains(member.account) { return .failure(.banned) }
            guard current.phase == .empty, !current.closed else { return .failure(illegal) }
            if let other = seated(member.account) { return .failure(.alreadySeated(index: other.index)) }
            seat.phase = .onMic
            seat.member = member
            seat.mutedBy = mutedBy[member.account]
            seat.reason = current.masked ? SeatReason.maskedBeforeJoining : SeatReason.invited
            return .success(SeatOutcome(seat: seat, notifyHost: nil))

        case .kick:
            guard current.phase == .onMic else { return .failure(illegal) }
            return .success(SeatOutcome(seat: emptied(SeatReason.kicked), notifyHost: nil))

        case .mask:
            guard !current.closed, !current.masked else { return .failure(illegal) }
            seat.masked = true
            seat.reason = SeatReason.none
            return .success(SeatOutcome(seat: seat, notifyHost: nil))

        case .unmask:
            guard current.masked, !current.closed else { return .failure(illegal) }
            seat.masked = false
            seat.reason = SeatReason.unmasked
            return .success(SeatOutcome(seat: seat, notifyHost: nil))

        case .close:
            guard current.phase == .empty, !current.closed else { return .failure(illegal) }
            seat.closed = true
            seat.reason = SeatReason.none
            return .success(SeatOutcome(seat: seat, notifyHost: nil))

        case .open:
            guard current.closed else { return .failure(illegal) }
            seat.closed = false
            seat.reason = SeatReason.opened
            return .success(SeatOutcome(seat: seat, notifyHost: nil))
        }
    }

    static func freed(_ seat: MicSeat, reason: Int) -> MicSeat {
        var seat = seat
        seat.phase = .empty
        seat.member = nil
        seat.selfMuted = false
        seat.mutedBy = nil
        seat.reason = reason
        return seat
    }

    /// A kick or ban took `account` out of the room (#29): every seat it
    /// holds or applied for is freed, as a host's seat kick frees one.
    public static func vacate(_ account: AccountID, in seats: [MicSeat]) -> [MicSeat] {
        seats.filter { $0.phase != .empty && $0.member?.account == account }.map { freed($0, reason: SeatReason.kicked) }
    }

    /// A moderator muted `account` (`by`) or lifted it (nil): the seats it
    /// holds or applied for show it; the member's own switch is kept as it
    /// was, so the seat is muted while either says so.
    public static func moderate(_ account: AccountID, mutedBy by: String?, in seats: [MicSeat]) -> [MicSeat] {
        seats.filter { $0.phase != .empty && $0.member?.account == account && $0.mutedBy != by }.map { seat in
            var seat = seat
            seat.mutedBy = by
            seat.reason = SeatReason.none
            return seat
        }
    }

    /// The `queue_<index>` element the clients read, exactly as the original
    /// app wrote it; a moderator's mute adds `mutedBy` (the app ignores keys
    /// it does not know) and keeps `micMute` true.
    public static func queueValue(_ seat: MicSeat) -> String {
        let member = seat.member ?? SeatMember(account: "", nick: "", avatar: "")
        let mutedBy = seat.mutedBy.map { #","mutedBy":\#(JSONValue.literal($0))"# } ?? ""
        return #"{"status":\#(seat.status),"index":\#(seat.index),"reason":\#(seat.reason),"member":{"account":\#(JSONValue.literal(member.account)),"nick":\#(JSONValue.literal(member.nick)),"avatar":\#(JSONValue.literal(member.avatar))},"micMute":\#(seat.micMuted)\#(mutedBy)}"#
    }

    public static func queueKey(_ index: Int) -> String { "queue_\(index)" }
}
