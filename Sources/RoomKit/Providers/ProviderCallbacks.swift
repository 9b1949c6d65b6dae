import Foundation

/// A vendor's HTTP callback to `/t/{tenant}/callbacks/{provider}`, as received.
public struct ProviderCallback: Sendable {
    /// Header names lowercased.
    public var headers: [String: String]
    public var query: [String: String]
    public var body: [UInt8]

    public init(headers: [String: String], query: [String: String], body: [UInt8]) {
        self.headers = headers
        self.query = query
        self.body = body
    }
}

/// What a verified callback tells us.
public enum ProviderEvent: Sendable, Equatable {
    /// An account entered (`present`) or left an IM chatroom.
    case chatroomMember(chatroom: String, accid: AccountID, present: Bool)
    case chatroomClosed(chatroom: String)
    /// A live stream started (`live`) or was cut.
    case stream(name: String, live: Bool)

    /// Why the event cannot be stored (an id that is empty, longer than 256
    /// characters or holding NUL, which PostgreSQL text refuses), or nil.
    public var problem: String? {
        let ids: [(String, String)] = switch self {
        case .chatroomMember(let chatroom, let accid, _): [("chatroom", chatroom), ("accid", accid)]
        case .chatroomClosed(let chatroom): [("chatroom", chatroom)]
        case .stream(let name, _): [("stream", name)]
        }
        for (field, value) in ids where value.isEmpty || value.count > 256 || value.contains("\u{0}") {
            return "\(field) must be 1-256 characters without NUL"
        }
        return nil
    }
}

/// Why a callback is refused (HTTP 401, nothing changes).
public enum CallbackRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    case badSignature
    case expired
    case malformed(String)

    public var description: String {
        switch self {
        case .badSignature: "the signature does not verify"
        case .expired: "the callback's time is outside the accepted window"
        case .malformed(let detail): "malformed callback: \(detail)"
        }
    }
}

/// An adapter that verifies its vendor's callbacks. `name` is the
/// `{provider}` path segment ("netease", "rongcloud", "tencent").
public protocol CallbackVerifier: Sendable {
    var callbackName: String { get }
    func verify(_ callback: ProviderCallback, now: Date) -> Result<[ProviderEvent], CallbackRefusal>
    /// The verified events the provider itself confirms, asked of its API
    /// where the signature does not cover what the event claims (Tencent's
    /// sign covers only a time). Throws when the provider cannot be asked:
    /// the callback is then refused with 503, to be sent again.
    func confirm(_ events: [ProviderEvent]) async throws -> [ProviderEvent]
}

extension CallbackVerifier {
    /// A signature over the whole body is confirmation enough.
    public func confirm(_ events: [ProviderEvent]) async throws -> [ProviderEvent] { events }
}

/// How far a signed callback's own time may be from ours: a captured
/// callback is worthless after this (and within it, its receipt refuses it).
public enum CallbackWindow {
    public static let seconds: TimeInterval = 300

    /// `stamp` in Unix seconds or milliseconds (vendors differ), as sent.
    public static func contains(_ stamp: String, now: Date) -> Bool {
        guard let value = Double(stamp), value.isFinite, value > 0 else { return false }
        let seconds = value > 100_000_000_000 ? value / 1_000 : value
        return abs(seconds - now.timeIntervalSince1970) <= Self.seconds
    }
}
