import Foundation

/// The IM operations plugins need, whatever the vendor. Every call is async,
/// bounded by a timeout in the adapter, and fails with `IMError`.
public protocol IMProvider: Sendable {
    /// "local", "netease", "rongcloud".
    var kind: String { get }
    /// Whether every call already ends in bounded time without a timer of
    /// its own: the local IM's calls are PostgreSQL statements under the
    /// request's deadline (`ROOMKEEPER_REQUEST_TIMEOUT`) or reads of memory.
    /// `TimeLimitedIM` then adds none: no task group and timer per call
    /// (one per `/room/list`, for the online counts; about 0.1 % of the
    /// server's samples in `ops/bench` figure 1's profile).
    var callsAreBounded: Bool { get }

    func createAccount(_ account: IMAccount) async throws -> IMCredentials
    func refreshToken(accid: AccountID) async throws -> IMCredentials
    /// Ends every IM token the account holds, so no new IM login succeeds
    /// with them, and closes its open connections where the provider can.
    /// Revoking an account's sessions calls it.
    func revokeTokens(accid: AccountID) async throws

    /// Returns the provider's chatroom id: `id` where the provider lets the
    /// caller choose (local, RongCloud), its own otherwise (NetEase).
    func createChatroom(name: String, creator: AccountID, id: String?) async throws -> String
    /// Closes a chatroom; members receive `notifyExt` (e.g. `{"type":1}`) with the close event.
    func closeChatroom(_ chatroom: String, operator: AccountID, notifyExt: String?) async throws
    func muteChatroom(_ chatroom: String, operator: AccountID, muted: Bool, notify: Bool, notifyExt: String?) async throws
    /// Takes the account out of the chatroom now: every connection of it
    /// leaves, and the members see the provider's own notice (#29). With
    /// `keepOut`, the provider also keeps it out where it can hold that
    /// itself; the engine refuses a banned account's joins and local IM
    /// enters whatever the provider holds.
    func removeFromChatroom(_ chatroom: String, accid: AccountID, operator: AccountID, keepOut: ChatroomKeepOut?) async throws
    /// Lifts what `removeFromChatroom`'s `keepOut` asked the provider to hold.
    func readmitToChatroom(_ chatroom: String, accid: AccountID, operator: AccountID) async throws
    /// The account's chatroom texts are refused for `minutes` (nil: for as
    /// long as the provider can hold, until `unmuteMember`); it stays in.
    func muteMember(_ chatroom: String, accid: AccountID, operator: AccountID, minutes: Int?) async throws
    func unmuteMember(_ chatroom: String, accid: AccountID, operator: AccountID) async throws
    /// Is the account in the chatroom now (connected and entered)?
    func isMember(_ accid: AccountID, of chatroom: String) async throws -> Bool
    /// How many accounts are in each chatroom now; missing keys count zero.
    func onlineCounts(_ chatrooms: [String]) async throws -> [String: Int]

    /// A chatroom message: `type` names it (NetEase msgType "100", RongCloud
    /// objectName "SM:RDNtfyMsg"), `body` is its JSON text.
    /// `messageID` is stable for one message however often it is retried, so
    /// a vendor that deduplicates (NetEase's `msgId`) delivers it once.
    func sendChatroomMessage(_ chatroom: String, from: AccountID, type: String, body: String, persist: Bool, messageID: String) async throws
    /// A peer-to-peer custom notification with a JSON attachment.
    func sendNotification(from: AccountID, to: AccountID, attach: String, storeOffline: Bool) async throws

    /// The NetEase-style chatroom queue: a string key → string value map per chatroom.
    func queuePut(_ chatroom: String, key: String, value: String, operator: AccountID) async throws
    func queuePoll(_ chatroom: String, key: String) async throws -> String?
    func queueList(_ chatroom: String) async throws -> [IMQueueEntry]
    func queueDrop(_ chatroom: String) async throws
}

extension IMProvider {
    /// A vendor's calls cross the network: `TimeLimitedIM` bounds them.
    public var callsAreBounded: Bool { false }

    /// A chatroom whose id the provider picks.
    public func createChatroom(name: String, creator: AccountID) async throws -> String {
        try await createChatroom(name: name, creator: creator, id: nil)
    }
}

public struct IMAccount: Sendable, Equatable {
    public var accid: AccountID
    public var name: String
    public var avatar: String
    /// The token the account logs in with, where the app decides it (the
    /// music-lesson apps log in with their password's MD5); nil: the provider's.
    public var token: String?
    /// The token's bcrypt, already checked against it (music-lesson: the
    /// account's password hash, which the password just verified): a
    /// provider that keeps a slow hash stores this instead of hashing the
    /// token again (#41: two bcrypts a login starved the blocking threads).
    public var tokenHash: String?

    public init(accid: AccountID, name: String, avatar: String = "", token: String? = nil, tokenHash: String? = nil) {
        self.accid = accid
        self.name = name
        self.avatar = avatar
        self.token = token
        self.tokenHash = tokenHash
    }
}

public struct IMCredentials: Sendable, Equatable {
    public var accid: AccountID
    public var token: String

    public init(accid: AccountID, token: String) {
        self.accid = accid
        self.token = token
    }
}

public struct IMQueueEntry: Sendable, Equatable {
    public var key: String
    public var value: String

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

public enum IMError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The provider did not answer in time.
    case timeout(operation: String)
    /// Network failure or a 5xx: worth retrying later.
    case unavailable(operation: String, detail: String)
    /// The provider refused (bad parameter, forbidden, …): retrying will not help.
    case rejected(operation: String, code: Int, message: String)
    case chatroomNotFound(String)

    public var description: String {
        switch self {
        case .timeout(let operation): "IM provider timed out on \(operation)"
        case .unavailable(let operation, let detail): "IM provider unavailable on \(operation): \(detail)"
        case .rejected(let operation, let code, let message): "IM provider refused \(operation): \(code) \(message)"
        case .chatroomNotFound(let id): "IM chatroom \(id) not found"
        }
    }

    /// Whether the outbox should try again.
    public var isTransient: Bool {
        switch self {
        case .timeout, .unavailable: true
        case .rejected, .chatroomNotFound: false
        }
    }
}

/// How long a provider should keep a removed account out of a chatroom.
public enum ChatroomKeepOut: Codable, Sendable, Equatable {
    case minutes(Int)
    /// Until `readmitToChatroom`.
    case untilReadmitted
}
