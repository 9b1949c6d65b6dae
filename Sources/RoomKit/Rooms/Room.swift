import Foundation

public typealias TenantID = String
public typealias RoomID = Int64
public typealias AccountID = String

public enum CloseReason: String, Sendable, Codable, Equatable {
    case dissolved, expired, lapsed
}

public enum RoomState: Sendable, Equatable {
    case open
    case closed(CloseReason)

    public var name: String {
        switch self {
        case .open: "open"
        case .closed: "closed"
        }
    }
}

/// What happens to an open room whose reservation deadline passes unclaimed.
public enum LapseAction: String, Sendable, Codable, Equatable {
    /// The hold ends; anyone may join.
    case release
    /// The room closes with reason `lapsed` (a booked lesson nobody opened).
    case close
}

/// A hold on a room for named accounts until a deadline.
public struct Reservation: Sendable, Equatable {
    public var accounts: [AccountID]
    public var until: Date
    /// Set when one of `accounts` first joins; a claimed reservation never lapses.
    public var claimedAt: Date?
    public var onLapse: LapseAction

    public init(accounts: [AccountID], until: Date, claimedAt: Date? = nil, onLapse: LapseAction) {
        self.accounts = accounts
        self.until = until
        self.claimedAt = claimedAt
        self.onLapse = onLapse
    }
}

public enum MemberStatus: String, Sendable, Codable, Equatable {
    case joined, left, banned
}

/// Who asks for a transition.
public enum Actor: Sendable, Equatable, CustomStringConvertible {
    case account(AccountID)
    /// An operator or tenant admin (admin API).
    case admin
    /// The engine itself (sweeper).
    case system

    public var description: String {
        switch self {
        case .account(let id): "account:\(id)"
        case .admin: "admin"
        case .system: "system"
        }
    }
}

/// A room as stored.
public struct Room: Sendable, Equatable {
    public var tenantID: TenantID
    public var id: RoomID
    public var pluginID: String
    public var name: String
    public var owner: AccountID
    public var state: RoomState
    public var capacity: Int
    public var createdAt: Date
    public var expiresAt: Date
    public var closedAt: Date?
    public var reservation: Reservation?
    public var imChatroomID: String?
    /// Plugin-owned attributes, a JSON object as text.
    public var attributes: String

    public init(
        tenantID: TenantID, id: RoomID, pluginID: String, name: String, owner: AccountID,
        state: RoomState, capacity: Int, createdAt: Date, expiresAt: Date, closedAt: Date? = nil,
        reservation: Reservation? = nil, imChatroomID: String? = nil, attributes: String = "{}"
    ) {
        self.tenantID = tenantID
        self.id = id
        self.pluginID = pluginID
        self.name = name
        self.owner = owner
        self.state = state
        self.capacity = capacity
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.closedAt = closedAt
        self.reservation = reservation
        self.imChatroomID = imChatroomID
        self.attributes = attributes
    }

    public var isOpen: Bool { state == .open }
}

public struct RoomMember: Sendable, Equatable {
    public var accid: AccountID
    public var role: String
    public var status: MemberStatus
    public var joinedAt: Date

    public init(accid: AccountID, role: String, status: MemberStatus, joinedAt: Date) {
        self.accid = accid
        self.role = role
        self.status = status
        self.joinedAt = joinedAt
    }
}

public struct RoomEvent: Sendable, Equatable {
    public var id: Int64
    public var at: Date
    public var kind: RoomEventKind
    public var actor: String
    public var detail: String

    public init(id: Int64, at: Date, kind: RoomEventKind, actor: String, detail: String) {
        self.id = id
        self.at = at
        self.kind = kind
        self.actor = actor
        self.detail = detail
    }
}
