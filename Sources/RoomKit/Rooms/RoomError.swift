/// Every way a room transition can be refused. Plugins map these onto their
/// wire codes (NetEase 804/801/403…, SealMic 20/21/…).
public enum RoomError: Error, Sendable, Equatable, CustomStringConvertible {
    case notFound
    case closed
    case notOwner
    case full(capacity: Int)
    case reservedForOthers
    case banned
    case notInIMChatroom
    case notMember
    case pluginNotEnabled(String)
    /// The tenant has as many live rooms of the plugin as its policy allows.
    case tooManyRooms(limit: Int)
    /// The owner has as many live rooms of the plugin as the policy allows one owner.
    case tooManyRoomsForOwner(limit: Int)
    /// The tenant has as many accounts as its `[limits] maxAccounts` allows.
    case tooManyAccounts(limit: Int)
    case invalid(field: String, reason: String)
    /// The creation data a plugin's rooms need is missing or wrong
    /// (`field` is `options.…`).
    case invalidOptions(field: String, reason: String)
    /// Well-formed input naming something this tenant does not have (a
    /// lesson's student, a headset bound to the owner): the admin API
    /// answers 404 naming the field, the wires as for bad input.
    case referenceNotFound(field: String, reason: String)
    /// Well-formed input the target's current state refuses (an extension
    /// past 366 days from now): 409 naming the field; the wires as for bad input.
    case conflicts(field: String, reason: String)
    /// A client address did `action` more often than the tenant allows.
    case rateLimited(action: String, limit: RateLimit)

    public var description: String {
        switch self {
        case .notFound: "room not found"
        case .closed: "room is closed"
        case .notOwner: "only the room's owner or an admin may do this"
        case .full(let capacity): "room is full (capacity \(capacity))"
        case .reservedForOthers: "room is reserved for other accounts"
        case .banned: "account is banned from this room"
        case .notInIMChatroom: "join the IM chatroom before joining the room"
        case .notMember: "account is not in this room"
        case .pluginNotEnabled(let id): "plugin \(id) is not enabled for this tenant"
        case .tooManyRooms(let limit): "the tenant already has \(limit) open rooms"
        case .tooManyRoomsForOwner(let limit): "the owner already has \(limit) open rooms"
        case .tooManyAccounts(let limit): "the tenant already has \(limit) accounts, as many as it may"
        case .invalid(let field, let reason), .invalidOptions(let field, let reason), .referenceNotFound(let field, let reason),
             .conflicts(let field, let reason): "\(field): \(reason)"
        case .rateLimited(let action, let limit): "too many \(action) (at most \(limit)); try again later"
        }
    }

    /// A short stable code for APIs that speak in strings (admin API).
    public var code: String {
        switch self {
        case .notFound: "room_not_found"
        case .closed: "room_closed"
        case .notOwner: "not_owner"
        case .full: "room_full"
        case .reservedForOthers: "reserved_for_others"
        case .banned: "banned"
        case .notInIMChatroom: "not_in_im_chatroom"
        case .notMember: "not_member"
        case .pluginNotEnabled: "plugin_not_enabled"
        case .tooManyRooms: "too_many_rooms"
        case .tooManyRoomsForOwner: "too_many_rooms_for_owner"
        case .tooManyAccounts: "too_many_accounts"
        case .invalid: "invalid_parameter"
        case .invalidOptions: "invalid_options"
        case .referenceNotFound: "reference_not_found"
        case .conflicts: "conflicts_with_state"
        case .rateLimited: "rate_limited"
        }
    }
}
