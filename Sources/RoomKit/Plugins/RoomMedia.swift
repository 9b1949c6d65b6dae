import Foundation

/// What a plugin reaches of its tenant's IM, live and intercom providers
/// (#42): handles scoped to one room of the call's plugin, or to one
/// account, never the tenant's providers themselves. A plugin with the
/// tenant's IM could mute any chatroom of any plugin, mint any account's
/// token, and sign any stream.

/// A room's IM chatroom: who is in it, and muting it whole.
public struct RoomChatroom: Sendable {
    /// The chatroom's id at the IM vendor.
    public let id: String
    let im: any IMProvider

    /// Members connected now.
    public func online() async throws -> Int {
        try await im.onlineCounts([id])[id] ?? 0
    }

    /// Mutes or unmutes everyone but the operator's managers; asking twice is success.
    public func mute(_ muted: Bool, by operator: AccountID, notify: Bool, notifyExt: String?) async throws {
        try await im.muteChatroom(id, operator: `operator`, muted: muted, notify: notify, notifyExt: notifyExt)
    }
}

/// A room's live stream: signed push and pull URLs.
public struct RoomStream: Sendable {
    /// The stream's name: `<kind>-<room id>` or `<kind>-<room id>-<suffix>`.
    public let name: String
    let live: any LiveProvider

    /// Where the broadcaster publishes, signed to expire at `expiresAt`.
    public func pushURL(expiresAt: Date) async throws -> String {
        try await live.pushURL(stream: name, expiresAt: expiresAt)
    }

    /// Where viewers play it, signed to expire at `expiresAt`.
    public func pullURLs(expiresAt: Date) async throws -> LivePullURLs {
        try await live.pullURLs(stream: name, expiresAt: expiresAt)
    }
}

/// One account's IM account: made (or renewed) with a token, or a new token.
public struct AccountIM: Sendable {
    public let accid: AccountID
    let im: any IMProvider

    /// Creates the IM account, or renews the existing one's token.
    /// `token`/`tokenHash`: a token the plugin chose (a password), else the vendor's.
    public func create(name: String, avatar: String = "", token: String? = nil, tokenHash: String? = nil) async throws -> IMCredentials {
        try await im.createAccount(IMAccount(accid: accid, name: name, avatar: avatar, token: token, tokenHash: tokenHash))
    }

    /// A new token; the old one stops working.
    public func refreshToken() async throws -> IMCredentials {
        try await im.refreshToken(accid: accid)
    }
}

/// A room handed to a route is of the call's tenant and plugin, or it gets
/// no handle: a room value made up by a plugin names no other's chatroom.
public struct ForeignRoom: Error, Sendable, CustomStringConvertible {
    public let roomID: RoomID
    public var description: String { "room \(roomID) is not one of this call's plugin" }
}

/// A stream name that does not name its room (`<kind>-<room id>[-…]`).
public struct StreamNotOfRoom: Error, Sendable, CustomStringConvertible {
    public let stream: String
    public let roomID: RoomID
    public var description: String { "stream \(stream) is not room \(roomID)'s" }
}

extension ClientCall {
    private func own(_ room: Room) throws {
        guard room.tenantID == tenant.id, room.pluginID == pluginID else { throw ForeignRoom(roomID: room.id) }
    }

    /// `room`'s IM chatroom; nil when the room has none.
    public func chatroom(of room: Room) throws -> RoomChatroom? {
        try own(room)
        return room.imChatroomID.map { RoomChatroom(id: $0, im: tenant.im) }
    }

    /// Members connected now to each room's chatroom (rooms without one are absent), in one call.
    public func onlineCounts(of rooms: [Room]) async throws -> [RoomID: Int] {
        for room in rooms { try own(room) }
        let chatrooms = rooms.compactMap { room in room.imChatroomID.map { (room.id, $0) } }
        guard !chatrooms.isEmpty else { return [:] }
        let counts = try await tenant.im.onlineCounts(chatrooms.map(\.1))
        return Dictionary(chatrooms.map { ($0.0, counts[$0.1] ?? 0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The stream called `name` of room `roomID`, which the name must
    /// carry as its second dash-separated part (`quiz-42`, `headset-42-x7k`):
    /// a plugin signs only streams named for a room.
    public func stream(_ name: String, of roomID: RoomID) throws -> RoomStream {
        let parts = name.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[1] == Substring(String(roomID)) else { throw StreamNotOfRoom(stream: name, roomID: roomID) }
        return RoomStream(name: name, live: tenant.live)
    }

    /// A voice intercom session for `room`, until `expiresAt`.
    public func intercomSession(of room: Room, expiresAt: Date) async throws -> IntercomSession {
        try own(room)
        return try await tenant.intercom.session(for: room.id, expiresAt: expiresAt)
    }

    /// `account`'s account in this call's tenant's IM.
    public func im(of account: Account) -> AccountIM {
        AccountIM(accid: account.accid, im: tenant.im)
    }
}
