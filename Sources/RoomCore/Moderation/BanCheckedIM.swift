import Foundation

/// The tenant's IM provider as plugins see it (`call.tenant.im`): an account
/// banned from the tenant gets no IM token from any plugin's login (#29),
/// asked of `roomkeeper_banned` before the vendor is. Everything else goes
/// to the provider unchanged.
struct BanCheckedIM: IMProvider {
    let base: any IMProvider
    let tenantID: TenantID
    let bans: BanStore
    let clock: any RoomClock

    var kind: String { base.kind }

    private func refuseBanned(_ accid: AccountID) async throws {
        if try await bans.isBanned(tenantID, accid: accid, roomID: nil, now: clock.now()) { throw RoomError.banned }
    }

    func createAccount(_ account: IMAccount) async throws -> IMCredentials {
        try await refuseBanned(account.accid)
        return try await base.createAccount(account)
    }

    func refreshToken(accid: AccountID) async throws -> IMCredentials {
        try await refuseBanned(accid)
        return try await base.refreshToken(accid: accid)
    }

    func revokeTokens(accid: AccountID) async throws { try await base.revokeTokens(accid: accid) }
    func createChatroom(name: String, creator: AccountID, id: String?) async throws -> String {
        try await base.createChatroom(name: name, creator: creator, id: id)
    }
    func closeChatroom(_ chatroom: String, operator op: AccountID, notifyExt: String?) async throws {
        try await base.closeChatroom(chatroom, operator: op, notifyExt: notifyExt)
    }
    func muteChatroom(_ chatroom: String, operator op: AccountID, muted: Bool, notify: Bool, notifyExt: String?) async throws {
        try await base.muteChatroom(chatroom, operator: op, muted: muted, notify: notify, notifyExt: notifyExt)
    }

    func removeFromChatroom(_ chatroom: String, accid: AccountID, operator op: AccountID, keepOut: ChatroomKeepOut?) async throws {
        try await base.removeFromChatroom(chatroom, accid: accid, operator: op, keepOut: keepOut)
    }

    func readmitToChatroom(_ chatroom: String, accid: AccountID, operator op: AccountID) async throws {
        try await base.readmitToChatroom(chatroom, accid: accid, operator: op)
    }

    func muteMember(_ chatroom: String, accid: AccountID, operator op: AccountID, minutes: Int?) async throws {
        try await base.muteMember(chatroom, accid: accid, operator: op, minutes: minutes)
    }

    func unmuteMember(_ chatroom: String, accid: AccountID, operator op: AccountID) async throws {
        try await base.unmuteMember(chatroom, accid: accid, operator: op)
    }
    func isMember(_ accid: AccountID, of chatroom: String) async throws -> Bool { try await base.isMember(accid, of: chatroom) }
    func onlineCounts(_ chatrooms: [String]) async throws -> [String: Int] { try await base.onlineCounts(chatrooms) }
    func sendChatroomMessage(_ chatroom: String, from: AccountID, type: String, body: String, persist: Bool, messageID: String) async throws {
        try await base.sendChatroomMessage(chatroom, from: from, type: type, body: body, persist: persist, messageID: messageID)
    }
    func sendNotification(from: AccountID, to: AccountID, attach: String, storeOffline: Bool) async throws {
        try await base.sendNotification(from: from, to: to, attach: attach, storeOffline: storeOffline)
    }
    func queuePut(_ chatroom: String, key: String, value: String, operator op: AccountID) async throws {
        try await base.queuePut(chatroom, key: key, value: value, operator: op)
    }
    func queuePoll(_ chatroom: String, key: String) async throws -> String? { try await base.queuePoll(chatroom, key: key) }
    func queueList(_ chatroom: String) async throws -> [IMQueueEntry] { try await base.queueList(chatroom) }
    func queueDrop(_ chatroom: String) async throws { try await base.queueDrop(chatroom) }
}
