import Foundation
import RoomCore

/// RongCloud's request and callback signature: SHA1(AppSecret + Nonce + Timestamp).
public enum RongCloudSigning {
    public static func signature(secret: String, nonce: String, timestamp: String) -> String {
        Digests.sha1(secret + nonce + timestamp)
    }

    static func headers(appKey: String, secret: String, now: Date) -> [(String, String)] {
        let nonce = Digests.nonce(16)
        let timestamp = String(Int64(now.timeIntervalSince1970 * 1000))
        return [
            ("App-Key", appKey), ("Nonce", nonce), ("Timestamp", timestamp),
            ("Signature", signature(secret: secret, nonce: nonce, timestamp: timestamp)),
            ("Content-Type", "application/x-www-form-urlencoded"),
        ]
    }
}

/// RongCloud IM through its server API: form bodies with repeated keys for
/// lists, a Signature on every call, the backup host after a network error
/// or a 5xx. RongCloud lets the caller choose chatroom ids, so a room's id
/// is its chatroom's. It has no NetEase-style chatroom queue.
public struct RongCloudIMProvider: IMProvider, CallbackVerifier {
    public struct Configuration: Sendable {
        public var appKey: String
        public var appSecret: String
        public var baseURL: String
        public var backupURL: String?
        public var timeoutSeconds: Double
        /// Chatrooms are destroyed by RongCloud after this many minutes at the latest; we close them first.
        public var chatroomMinutes: Int

        public init(appKey: String, appSecret: String, baseURL: String = "https://api.rong-api.com",
                    backupURL: String? = "https://api-b.rong-api.com", timeoutSeconds: Double = 5, chatroomMinutes: Int = 10_080) {
            self.appKey = appKey
            self.appSecret = appSecret
            self.baseURL = baseURL
            self.backupURL = backupURL
            self.timeoutSeconds = timeoutSeconds
            self.chatroomMinutes = chatroomMinutes
        }
    }

    let configuration: Configuration
    let clock: any RoomClock
    let http: ProviderHTTP
    let onlineCountCache = OnlineCountCache()

    public init(_ configuration: Configuration, clock: any RoomClock) {
        self.configuration = configuration
        self.clock = clock
        self.http = ProviderHTTP(provider: "rongcloud", timeoutSeconds: configuration.timeoutSeconds, attempts: 1)
    }

    public var kind: String { "rongcloud" }
    public var callbackName: String { "rongcloud" }

    public func createAccount(_ account: IMAccount) async throws -> IMCredentials {
        let answer = try await call("/user/getToken.json", "createAccount", [("userId", account.accid), ("name", account.name), ("portraitUri", account.avatar)])
        guard let token = answer["token"]?.string, !token.isEmpty else { throw IMError.unavailable(operation: "createAccount", detail: "no token in the answer") }
        return IMCredentials(accid: account.accid, token: token)
    }

    /// RongCloud issues tokens through getToken alone.
    public func refreshToken(accid: AccountID) async throws -> IMCredentials {
        try await createAccount(IMAccount(accid: accid, name: accid))
    }

    /// RongCloud's `/user/token/expire.json`: every token issued to the user
    /// before `time` (milliseconds) stops working.
    public func revokeTokens(accid: AccountID) async throws {
        let now = String(Int64(clock.now().timeIntervalSince1970 * 1000))
        _ = try await call("/user/token/expire.json", "revokeTokens", [("userId", accid), ("time", now)])
    }

    public func createChatroom(name: String, creator: AccountID, id: String?) async throws -> String {
        let chatroom = id ?? "rk" + Digests.nonce(20)
        _ = try await call("/chatroom/create_new.json", "createChatroom",
                           [("chatroomId", chatroom), ("destroyType", "1"), ("destroyTime", String(configuration.chatroomMinutes))])
        return chatroom
    }

    public func closeChatroom(_ chatroom: String, operator: AccountID, notifyExt: String?) async throws {
        _ = try await call("/chatroom/destroy.json", "closeChatroom", [("chatroomId", chatroom)])
    }

    public func muteChatroom(_ chatroom: String, operator: AccountID, muted: Bool, notify: Bool, notifyExt: String?) async throws {
        _ = try await call(muted ? "/chatroom/ban/add.json" : "/chatroom/ban/rollback.json", "muteChatroom", [("chatroomId", chatroom)])
    }

    /// RongCloud has no plain kick: a block (`user/block/add.json`) takes
    /// the account out and keeps it out for `minute`s. A kick blocks for the
    /// shortest it allows, one minute; a ban until lifted for the longest,
    /// 43,200 minutes (30 days), lifted early by `readmitToChatroom`.
    public func removeFromChatroom(_ chatroom: String, accid: AccountID, operator: AccountID, keepOut: ChatroomKeepOut?) async throws {
        let minutes = switch keepOut {
        case nil: 1
        case .minutes(let minutes): min(max(minutes, 1), Self.longestBlockMinutes)
        case .untilReadmitted: Self.longestBlockMinutes
        }
        _ = try await call("/chatroom/user/block/add.json", "removeFromChatroom",
                           [("chatroomId", chatroom), ("userId", accid), ("minute", String(minutes))])
    }

    static let longestBlockMinutes = 43_200

    public func readmitToChatroom(_ chatroom: String, accid: AccountID, operator: AccountID) async throws {
        _ = try await call("/chatroom/user/block/rollback.json", "readmitToChatroom", [("chatroomId", chatroom), ("userId", accid)])
    }

    /// `user/gag/add.json`: minutes, at most 43,200 (30 days), which a
    /// mute until lifted asks.
    public func muteMember(_ chatroom: String, accid: AccountID, operator: AccountID, minutes: Int?) async throws {
        let minutes = min(max(minutes ?? Self.longestBlockMinutes, 1), Self.longestBlockMinutes)
        _ = try await call("/chatroom/user/gag/add.json", "muteMember", [("chatroomId", chatroom), ("userId", accid), ("minute", String(minutes))])
    }

    public func unmuteMember(_ chatroom: String, accid: AccountID, operator: AccountID) async throws {
        _ = try await call("/chatroom/user/gag/rollback.json", "unmuteMember", [("chatroomId", chatroom), ("userId", accid)])
    }

    public func isMember(_ accid: AccountID, of chatroom: String) async throws -> Bool {
        try await call("/chatroom/user/exist.json", "isMember", [("chatroomId", chatroom), ("userId", accid)])["isInChrm"] == .bool(true)
    }

    /// One query per chatroom: cached briefly and asked in parallel (see `OnlineCountCache`).
    public func onlineCounts(_ chatrooms: [String]) async throws -> [String: Int] {
        try await onlineCountCache.counts(chatrooms) { chatroom in
            let answer = try await call("/chatroom/user/query.json", "onlineCounts", [("chatroomId", chatroom), ("count", "1"), ("order", "1")])
            return answer["total"]?.int64.map(Int.init) ?? 0
        }
    }

    /// `type` is the objectName ("SM:RDNtfyMsg").
    public func sendChatroomMessage(_ chatroom: String, from: AccountID, type: String, body: String, persist: Bool, messageID: String) async throws {
        _ = try await call("/message/chatroom/publish.json", "sendChatroomMessage", [
            ("fromUserId", from), ("toChatroomId", chatroom), ("objectName", type), ("content", body),
            ("isPersisted", persist ? "1" : "0"), ("isIncludeSender", "1"),
        ])
    }

    /// A private command message whose content is the attachment.
    public func sendNotification(from: AccountID, to: AccountID, attach: String, storeOffline: Bool) async throws {
        _ = try await call("/message/private/publish.json", "sendNotification",
                           [("fromUserId", from), ("toUserId", to), ("objectName", "RC:CmdMsg"),
                            ("content", JSONValue.object(["name": .string("notification"), "data": .string(attach)]).jsonText)])
    }

    public func queuePut(_ chatroom: String, key: String, value: String, operator: AccountID) async throws { throw unsupported("queuePut") }
    public func queuePoll(_ chatroom: String, key: String) async throws -> String? { throw unsupported("queuePoll") }
    public func queueList(_ chatroom: String) async throws -> [IMQueueEntry] { throw unsupported("queueList") }
    public func queueDrop(_ chatroom: String) async throws { throw unsupported("queueDrop") }

    private func unsupported(_ operation: String) -> IMError {
        .rejected(operation: operation, code: 0, message: "RongCloud has no chatroom queue; use NetEase or the local IM for plugins that need one")
    }

    // MARK: callbacks

    /// Signed in the query string; a JSON array of chatroom status changes
    /// (type 1 join, 2 quit, 3 destroy).
    public func verify(_ callback: ProviderCallback, now: Date) -> Result<[ProviderEvent], CallbackRefusal> {
        guard let nonce = callback.query["nonce"], let timestamp = callback.query["timestamp"] ?? callback.query["signTimestamp"],
              let signature = callback.query["signature"],
              Digests.equal(signature, RongCloudSigning.signature(secret: configuration.appSecret, nonce: nonce, timestamp: timestamp)) else {
            return .failure(.badSignature)
        }
        guard CallbackWindow.contains(timestamp, now: now) else { return .failure(.expired) }
        guard case .array(let changes)? = JSONValue.parse(String(decoding: callback.body, as: UTF8.self)) else {
            return .failure(.malformed("the body is not a JSON array"))
        }
        var events: [ProviderEvent] = []
        for change in changes {
            guard let chatroom = change["chatRoomId"]?.string, let type = change["type"]?.int64 else {
                return .failure(.malformed("each change needs chatRoomId and type"))
            }
            let users: [String] = if case .array(let ids)? = change["userIds"] { ids.compactMap(\.string) } else { [] }
            switch type {
            case 1, 2: events += users.map { .chatroomMember(chatroom: chatroom, accid: $0, present: type == 1) }
            case 3: events.append(.chatroomClosed(chatroom: chatroom))
            default: break
            }
        }
        return .success(events)
    }

    // MARK: machinery

    private func call(_ path: String, _ operation: String, _ parameters: [(String, String)]) async throws -> JSONValue {
        let request = ProviderRequest(
            url: configuration.baseURL + path,
            headers: RongCloudSigning.headers(appKey: configuration.appKey, secret: configuration.appSecret, now: clock.now()),
            body: FormBody(parameters).bytes, idempotent: false)
        let response: ProviderResponse
        do {
            response = try await http.send(operation, request, fallbackURL: configuration.backupURL.map { $0 + path })
        } catch let error as ProviderCallError {
            throw error.imError(operation)
        }
        let answer = JSONValue.parse(response.text)
        let code = answer?["code"]?.int64 ?? Int64(response.status)
        if code == 200, response.status == 200, let answer { return answer }
        let message = answer?["errorMessage"]?.string ?? "HTTP \(response.status)"
        if code == 1008 || response.status == 429 { throw IMError.unavailable(operation: operation, detail: "rate limited: \(message)") }
        throw IMError.rejected(operation: operation, code: Int(code), message: message)
    }
}
