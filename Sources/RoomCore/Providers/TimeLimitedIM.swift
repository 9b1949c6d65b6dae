import Foundation

/// Bounds every call of an IM provider: past `seconds` the caller gets
/// `IMError.timeout` naming the operation. The catalog wraps every tenant's
/// provider in it, whatever the vendor; a provider whose calls are bounded
/// already (`callsAreBounded`: the local IM) gets no timer of its own.
public struct TimeLimitedIM: IMProvider {
    public let base: any IMProvider
    public let seconds: Double

    public init(_ base: any IMProvider, seconds: Double) {
        self.base = base
        self.seconds = seconds
    }

    public var kind: String { base.kind }

    public var callsAreBounded: Bool { true }

    private func limited<T: Sendable>(_ operation: String, _ call: @escaping @Sendable () async throws -> T) async throws -> T {
        if base.callsAreBounded { return try await call() }
        do {
            return try await withTimeout(seconds, operation: operation, call)
        } catch is TimeoutError {
            throw IMError.timeout(operation: operation)
        }
    }

    public func createAccount(_ account: IMAccount) async throws -> IMCredentials {
        try await limited("createAccount") { try await base.createAccount(account) }
    }

    public func refreshToken(accid: AccountID) async throws -> IMCredentials {
        try await limited("refreshToken") { try await base.refreshToken(accid: accid) }
    }

    public func revokeTokens(accid: AccountID) async throws {
        try await limited("revokeTokens") { try await base.revokeTokens(accid: accid) }
    }

    public func createChatroom(name: String, creator: AccountID, id: String?) async throws -> String {
        try await limited("createChatroom") { try await base.createChatroom(name: name, creator: creator, id: id) }
    }

    public func closeChatroom(_ chatroom: String, operator op: AccountID, notifyExt: String?) async throws {
        try await limited("closeChatroom") { try await base.closeChatroom(chatroom, operator: op, notifyExt: notifyExt) }
    }

    public func muteChatroom(_ chatroom: String, operator op: AccountID, muted: Bool, notify: Bool, notifyExt: String?) async throws {
        try await limited("muteChatroom") { try await base.muteChatroom(chatroom, operator: op, muted: muted, notify: notify, notifyExt: notifyExt) }
    }

    public func removeFromChatroom(_ chatroom: String, accid: AccountID, operator op: AccountID, keepOut: ChatroomKeepOut?) async throws {
        try await limited("removeFromChatroom") { try await base.removeFromChatroom(chatroom, accid: accid, operator: op, keepOut: keepOut) }
    }

    public func readmitToChatroom(_ chatroom: String, accid: AccountID, operator op: AccountID) async throws {
        try await limited("readmitToChatroom") { try await base.readmitToChatroom(chatroom, accid: accid, operator: op) }
    }

    public func muteMember(_ chatroom: String, accid: AccountID, operator op: AccountID, minutes: Int?) async throws {
        try await limited("muteMember") { try await base.muteMember(chatroom, accid: accid, operator: op, minutes: minutes) }
    }

    public func unmuteMember(_ chatroom: String, accid: AccountID, operator op: AccountID) async throws {
        try await limited("unmuteMember") { try await base.unmuteMember(chatroom, accid: accid, operator: op) }
    }

    public func isMember(_ accid: AccountID, of chatroom: String) async throws -> Bool {
        try await limited("isMember") { try await base.isMember(accid, of: chatroom) }
    }

    public func onlineCounts(_ chatrooms: [String]) async throws -> [String: Int] {
        try await limited("onlineCounts") { try await base.onlineCounts(chatrooms) }
    }

    public func sendChatroomMessage(_ chatroom: String, from: AccountID, type: String, body: String, persist: Bool, messageID: String) async throws {
        try await limited("sendChatroomMessage") { try await base.sendChatroomMessage(chatroom, from: from, type: type, body: body, persist: persist, messageID: messageID) }
    }

    public func sendNotification(from: AccountID, to: AccountID, attach: String, storeOffline: Bool) async throws {
        try await limited("sendNotification") { try await base.sendNotification(from: from, to: to, attach: attach, storeOffline: storeOffline) }
    }

    public func queuePut(_ chatroom: String, key: String, value: String, operator op: AccountID) async throws {
        try await limited("queuePut") { try await base.queuePut(chatroom, key: key, value: value, operator: op) }
    }

    public func queuePoll(_ chatroom: String, key: String) async throws -> String? {
        try await limited("queuePoll") { try await base.queuePoll(chatroom, key: key) }
    }

    public func queueList(_ chatroom: String) async throws -> [IMQueueEntry] {
        try await limited("queueList") { try await base.queueList(chatroom) }
    }

    public func queueDrop(_ chatroom: String) async throws {
        try await limited("queueDrop") { try await base.queueDrop(chatroom) }
    }
}
