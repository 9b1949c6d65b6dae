import Foundation
import RoomCore

/// NetEase Yunxin IM through its server API ("nimserver"): form bodies,
/// JSON-string arrays, a CheckSum on every call, the answer's `code`.
public struct NetEaseIMProvider: IMProvider, CallbackVerifier {
    public struct Configuration: Sendable {
        public var appKey: String
        public var appSecret: String
        public var baseURL: String
        public var timeoutSeconds: Double

        public init(appKey: String, appSecret: String, baseURL: String = "https://api.yunxinapi.com/nimserver", timeoutSeconds: Double = 5) {
            self.appKey = appKey
            self.appSecret = appSecret
            self.baseURL = baseURL
            self.timeoutSeconds = timeoutSeconds
        }
    }

    let configuration: Configuration
    let clock: any RoomClock
    let http: ProviderHTTP
    let onlineCountCache = OnlineCountCache()

    public init(_ configuration: Configuration, clock: any RoomClock) {
        self.configuration = configuration
        self.clock = clock
        self.http = ProviderHTTP(provider: "netease", timeoutSeconds: configuration.timeoutSeconds)
    }

    public var kind: String { "netease" }
    public var callbackName: String { "netease" }

    public func createAccount(_ account: IMAccount) async throws -> IMCredentials {
        var parameters = [("accid", account.accid), ("name", account.name), ("icon", account.avatar)]
        if let token = account.token { parameters.append(("token", token)) }
        let answer = try await call("/user/create.action", "createAccount", idempotent: false, parameters, allowing: [414])
        if answer["code"]?.int64 != 200 {
            // An account that exists already gets a fresh token instead.
            guard answer["desc"]?.string?.contains("already") == true else {
                throw IMError.rejected(operation: "createAccount", code: 414, message: answer["desc"]?.string ?? "")
            }
            guard let token = account.token else { return try await refreshToken(accid: account.accid) }
            _ = try await call("/user/update.action", "createAccount", idempotent: true, [("accid", account.accid), ("token", token)])
            return IMCredentials(accid: account.accid, token: token)
        }
        return IMCredentials(accid: account.accid, token: try field(answer["info"]?["token"]?.string, "createAccount"))
    }

    public func refreshToken(accid: AccountID) async throws -> IMCredentials {
        let answer = try await call("/user/refreshToken.action", "refreshToken", idempotent: false, [("accid", accid)])
        return IMCredentials(accid: accid, token: try field(answer["info"]?["token"]?.string, "refreshToken"))
    }

    /// NetEase has no revocation call: a refreshed token replaces the old one,
    /// and the new one is thrown away, so only a new login gets a working one.
    public func revokeTokens(accid: AccountID) async throws {
        _ = try await refreshToken(accid: accid)
    }

    /// NetEase picks the id; `id` cannot be honoured.
    public func createChatroom(name: String, creator: AccountID, id: String?) async throws -> String {
        let answer = try await call("/chatroom/create.action", "createChatroom", idempotent: false,
                                    [("creator", creator), ("name", name), ("announcement", ""), ("ext", ""), ("queuelevel", "1")])
        guard let roomID = answer["chatroom"]?["roomid"]?.int64 else {
            throw IMError.unavailable(operation: "createChatroom", detail: "no roomid in the answer")
        }
        return String(roomID)
    }

    /// `notifyExt` has no place in toggleCloseStat: members see the close itself.
    public func closeChatroom(_ chatroom: String, operator: AccountID, notifyExt: String?) async throws {
        _ = try await call("/chatroom/toggleCloseStat.action", "closeChatroom", idempotent: true,
                           [("roomid", chatroom), ("operator", `operator`), ("valid", "false")], chatroom: chatroom)
    }

    public func muteChatroom(_ chatroom: String, operator: AccountID, muted: Bool, notify: Bool, notifyExt: String?) async throws {
        var parameters = [("roomid", chatroom), ("operator", `operator`), ("mute", String(muted)), ("needNotify", String(notify))]
        if let notifyExt { parameters.append(("notifyExt", notifyExt)) }
        _ = try await call("/chatroom/muteRoom.action", "muteChatroom", idempotent: true, parameters, chatroom: chatroom)
    }

    /// `kickMember.action` takes the account out; a ban (until lifted, or
    /// for some minutes) also blacklists it (`setMemberRole.action`, opt -1),
    /// which keeps it from entering again. NetEase's blacklist has no end of
    /// its own: the engine readmits the account when a ban with an end ends
    /// (`RoomEngine.readmitDue`), as it does when one is lifted.
    public func removeFromChatroom(_ chatroom: String, accid: AccountID, operator: AccountID, keepOut: ChatroomKeepOut?) async throws {
        if keepOut != nil {
            _ = try await call("/chatroom/setMemberRole.action", "removeFromChatroom", idempotent: true,
                               [("roomid", chatroom), ("operator", `operator`), ("target", accid), ("opt", "-1"), ("optvalue", "true")], chatroom: chatroom)
        }
        // 404: not in the chatroom (or the chatroom is gone): out already,
        // which is what was asked (the outbox may deliver twice).
        _ = try await call("/chatroom/kickMember.action", "removeFromChatroom", idempotent: true,
                           [("roomid", chatroom), ("accid", `operator`), ("targetAccid", accid)], allowing: [404])
    }

    public func readmitToChatroom(_ chatroom: String, accid: AccountID, operator: AccountID) async throws {
        _ = try await call("/chatroom/setMemberRole.action", "readmitToChatroom", idempotent: true,
                           [("roomid", chatroom), ("operator", `operator`), ("target", accid), ("opt", "-1"), ("optvalue", "false")], chatroom: chatroom)
    }

    /// `temporaryMute.action`: seconds, at most 2,592,000 (30 days), its
    /// longest, which a mute until lifted asks; 0 lifts it.
    public func muteMember(_ chatroom: String, accid: AccountID, operator: AccountID, minutes: Int?) async throws {
        let seconds = minutes.map { min(max($0, 1) * 60, Self.longestMuteSeconds) } ?? Self.longestMuteSeconds
        try await temporaryMute(chatroom, accid: accid, operator: `operator`, seconds: seconds, operation: "muteMember")
    }

    public func unmuteMember(_ chatroom: String, accid: AccountID, operator: AccountID) async throws {
        try await temporaryMute(chatroom, accid: accid, operator: `operator`, seconds: 0, operation: "unmuteMember")
    }

    static let longestMuteSeconds = 2_592_000

    private func temporaryMute(_ chatroom: String, accid: AccountID, operator: AccountID, seconds: Int, operation: String) async throws {
        _ = try await call("/chatroom/temporaryMute.action", operation, idempotent: true,
                           [("roomid", chatroom), ("operator", `operator`), ("target", accid), ("muteDuration", String(seconds)),
                            ("needNotify", "true")], chatroom: chatroom)
    }

    public func isMember(_ accid: AccountID, of chatroom: String) async throws -> Bool {
        let answer = try await call("/chatroom/queryMembers.action", "isMember", idempotent: true,
                                    [("roomid", chatroom), ("accids", JSONValue.array([.string(accid)]).jsonText)], chatroom: chatroom)
        guard case .array(let members)? = answer["desc"]?["data"] else { return false }
        return members.contains { $0["accid"]?.string == accid && $0["onlineStat"] == .bool(true) }
    }

    /// One `/chatroom/get.action` per chatroom (NetEase has no batch count):
    /// cached briefly and asked in parallel (see `OnlineCountCache`).
    public func onlineCounts(_ chatrooms: [String]) async throws -> [String: Int] {
        try await onlineCountCache.counts(chatrooms) { chatroom in
            let answer = try await call("/chatroom/get.action", "onlineCounts", idempotent: true,
                                        [("roomid", chatroom), ("needOnlineUserCount", "true")], chatroom: chatroom)
            return answer["chatroom"]?["onlineusercount"]?.int64.map(Int.init) ?? 0
        }
    }

    /// `type` is the msgType (100 for the apps' custom messages).
    public func sendChatroomMessage(_ chatroom: String, from: AccountID, type: String, body: String, persist: Bool, messageID: String) async throws {
        // NetEase deduplicates on msgId, so with a stable id a retry is safe.
        _ = try await call("/chatroom/sendMsg.action", "sendChatroomMessage", idempotent: true, [
            ("roomid", chatroom), ("msgId", messageID), ("fromAccid", from), ("msgType", type),
            ("attach", body), ("highPriority", "false"),
        ], chatroom: chatroom)
    }

    public func sendNotification(from: AccountID, to: AccountID, attach: String, storeOffline: Bool) async throws {
        _ = try await call("/msg/sendAttachMsg.action", "sendNotification", idempotent: false,
                           [("from", from), ("msgtype", "0"), ("to", to), ("attach", attach), ("save", storeOffline ? "2" : "1")])
    }

    public func queuePut(_ chatroom: String, key: String, value: String, operator: AccountID) async throws {
        _ = try await call("/chatroom/queueOffer.action", "queuePut", idempotent: true,
                           [("roomid", chatroom), ("key", key), ("value", value), ("operator", `operator`), ("transient", "false")], chatroom: chatroom)
    }

    public func queuePoll(_ chatroom: String, key: String) async throws -> String? {
        let answer = try await call("/chatroom/queuePoll.action", "queuePoll", idempotent: false, [("roomid", chatroom), ("key", key)], chatroom: chatroom)
        return answer["desc"]?["value"]?.string
    }

    public func queueList(_ chatroom: String) async throws -> [IMQueueEntry] {
        let answer = try await call("/chatroom/queueList.action", "queueList", idempotent: true, [("roomid", chatroom)], chatroom: chatroom)
        guard case .array(let list)? = answer["desc"]?["list"] else { return [] }
        return list.flatMap { entry -> [IMQueueEntry] in
            guard case .object(let pairs) = entry else { return [] }
            return pairs.sorted { $0.key < $1.key }.map { IMQueueEntry(key: $0.key, value: $0.value.string ?? $0.value.jsonText) }
        }
    }

    public func queueDrop(_ chatroom: String) async throws {
        _ = try await call("/chatroom/queueDrop.action", "queueDrop", idempotent: true, [("roomid", chatroom)], chatroom: chatroom)
    }

    // MARK: callbacks

    /// `MD5` must be the body's and `CheckSum` SHA1(AppSecret + MD5 + CurTime).
    /// A chatroom in/out event (`eventType` 9) updates membership.
    public func verify(_ callback: ProviderCallback, now: Date) -> Result<[ProviderEvent], CallbackRefusal> {
        guard let md5 = callback.headers["md5"], let curTime = callback.headers["curtime"], let checkSum = callback.headers["checksum"] else {
            return .failure(.badSignature)
        }
        guard Digests.equal(md5, NetEaseSigning.bodyMD5(callback.body)),
              Digests.equal(checkSum, NetEaseSigning.callbackCheckSum(secret: configuration.appSecret, md5: md5.lowercased(), curTime: curTime)) else {
            return .failure(.badSignature)
        }
        guard CallbackWindow.contains(curTime, now: now) else { return .failure(.expired) }
        guard let event = JSONValue.parse(String(decoding: callback.body, as: UTF8.self)) else { return .failure(.malformed("the body is not JSON")) }
        guard event["eventType"]?.parameterText == "9" else { return .success([]) }
        guard let room = event["roomId"]?.parameterText, !room.isEmpty, let accid = event["accid"]?.string else {
            return .failure(.malformed("eventType 9 needs roomId and accid"))
        }
        let present = event["enterOrOut"]?.parameterText.uppercased() == "IN"
        return .success([.chatroomMember(chatroom: room, accid: accid, present: present)])
    }

    // MARK: machinery

    /// POSTs the form; answers the JSON when `code` is 200 (or in `allowing`).
    private func call(_ path: String, _ operation: String, idempotent: Bool, _ parameters: [(String, String)],
                      allowing: Set<Int64> = [], chatroom: String? = nil) async throws -> JSONValue {
        let request = ProviderRequest(
            url: configuration.baseURL + path,
            headers: NetEaseSigning.headers(appKey: configuration.appKey, secret: configuration.appSecret, now: clock.now()),
            body: FormBody(parameters).bytes, idempotent: idempotent)
        let response: ProviderResponse
        do {
            response = try await http.send(operation, request)
        } catch let error as ProviderCallError {
            throw error.imError(operation)
        }
        guard let answer = JSONValue.parse(response.text), let code = answer["code"]?.int64 else {
            throw IMError.unavailable(operation: operation, detail: "HTTP \(response.status) without a NetEase answer")
        }
        if code == 200 || allowing.contains(code) { return answer }
        let message = answer["desc"]?.string ?? answer["desc"]?.jsonText ?? ""
        switch code {
        case 416, 500, 503: throw IMError.unavailable(operation: operation, detail: "\(code) \(message)")
        case 404 where chatroom != nil: throw IMError.chatroomNotFound(chatroom!)
        default: throw IMError.rejected(operation: operation, code: Int(code), message: message)
        }
    }

    private func field(_ value: String?, _ operation: String) throws -> String {
        guard let value, !value.isEmpty else { throw IMError.unavailable(operation: operation, detail: "the answer lacks a token") }
        return value
    }
}

extension ProviderCallError {
    func imError(_ operation: String) -> IMError {
        switch self {
        case .timeout: .timeout(operation: operation)
        case .unavailable(let detail): .unavailable(operation: operation, detail: detail)
        }
    }
}
