import HTTPTypes

/// What an admin key may do (#44). Every admin route needs exactly one
/// scope, read from its method and path by `required(method:path:)`: a key
/// made by `POST /tenants/{t}/keys` holds some, a tenant file's bootstrap
/// keys and the operator's hold all.
public enum AdminScope: String, CaseIterable, Sendable, Codable, Comparable {
    /// Every GET.
    case read
    /// Create, extend and dissolve rooms.
    case rooms
    /// Kicks, bans, mutes and lifting them; ending an account's sessions.
    case moderation
    /// Webhook tests, outbox retries and replays.
    case webhooks
    /// Create, list and revoke admin keys.
    case keys

    public static func < (lhs: AdminScope, rhs: AdminScope) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The scope a request needs, from its method and its path below
    /// `/admin/v1/` (`tenants/demo/rooms/7/extend`); a pure function, so a
    /// test can walk the contract through it.
    public static func required(method: HTTPRequest.Method, path: String) -> AdminScope {
        let parts = path.split(separator: "/").map(String.init)
        // tenants/{t}/<area>/…: the area names the scope of a change.
        let area = parts.count >= 3 && parts[0] == "tenants" ? parts[2] : ""
        if area == "keys" { return .keys }
        if method == .get || method == .head { return .read }
        switch area {
        case "webhooks", "outbox": return .webhooks
        case "bans", "accounts": return .moderation
        case "rooms":
            // rooms/{room}/<what>: members' kicks, bans and mutes are moderation.
            let what = parts.count >= 5 ? parts[4] : ""
            return ["members", "bans", "mutes"].contains(what) ? .moderation : .rooms
        default:
            // The operator's own changes (tenants/reload) need the operator key.
            return .keys
        }
    }
}
