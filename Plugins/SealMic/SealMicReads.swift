import Foundation
import RoomKit

/// What SealMic clients read about a room, in the original's shapes (times
/// in epoch milliseconds), and the background, the one room attribute
/// clients change.
struct SealMicReads {
    let call: ClientCall<SealMicPlugin.Settings>
    init(_ call: ClientCall<SealMicPlugin.Settings>) { self.call = call }


    /// Roles as the clients number them.
    enum Role: Int { case host = 1, onMic = 2, listener = 3 }

    struct Summary: Encodable, Sendable {
        let roomId: String
        let createDt: Int64
        let memCount: Int
        let creatorUserId: String
        let subject: String
        let roomType: Int
        let bgId: Int

        /// `look`: the room's attributes when the list already holds them decoded.
        init(_ room: Room, memberCount: Int, look: SealMicLook? = nil) {
            let look = look ?? room.attributes(as: SealMicLook.self)
            roomId = SealMicMessages.wireID(room)
            createDt = room.createdAt.epochMilliseconds
            memCount = memberCount
            creatorUserId = room.owner
            subject = room.name
            roomType = look?.roomType ?? 0
            bgId = look?.bgId ?? 0
        }
    }

    struct Member: Encodable, Sendable {
        let userId: String
        let joinDt: Int64
        let role: Int
    }

    struct Position: Encodable, Sendable {
        let userId: String?
        let joinDt: Int64?
        let role: Int
        let state: Int
        let position: Int
        /// Who muted the holder (#29), when a moderator did.
        let mutedBy: String?
    }

    /// The summary's fields, then the positions and the audience.
    struct Detail: Encodable, Sendable {
        let summary: Summary
        let micPositions: [Position]
        let audiences: [Member]

        enum Keys: String, CodingKey { case micPositions, audiences }

        func encode(to encoder: any Encoder) throws {
            try summary.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(micPositions, forKey: .micPositions)
            try container.encode(audiences, forKey: .audiences)
        }
    }

    /// The live ones, newest first.
    func openRooms(limit: Int) async throws -> [Summary] {
        let (listed, _) = try await call.rooms.list(limit: limit)
        return listed.map { Summary($0.room, memberCount: $0.joinedCount, look: $0.attributes(as: SealMicLook.self)) }
    }

    func members(_ room: Room) async throws -> [Member] {
        try await members(room, seated: Set(try await positions(room).compactMap(\.holder)))
    }

    private func members(_ room: Room, seated: Set<AccountID>) async throws -> [Member] {
        try await call.rooms.members(room).filter { $0.status == .joined }.map { member in
            Member(userId: member.accid, joinDt: member.joinedAt.epochMilliseconds, role: role(of: member.accid, in: room, seated: seated).rawValue)
        }
    }

    private func role(of account: AccountID, in room: Room, seated: Set<AccountID>) -> Role {
        account == room.owner ? .host : seated.contains(account) ? .onMic : .listener
    }

    /// Audiences a room's detail (and a join's answer) lists at most: the
    /// newest, oldest first among them, with the host and every seat's holder; `memCount`
    /// still counts them all, and `/room/member/list` lists them all. Why:
    /// 2,000 members joining one room were each sent every member before
    /// them, 2 million entries in all; with them figure 7 got 200 joins/s,
    /// without the list 664 (ops/bench, #41).
    static let audienceLimit = 200

    /// The positions read once for both their list and the members' roles.
    func detail(_ room: Room) async throws -> Detail {
        let positions = try await positions(room)
        let seated = positions.compactMap(\.holder)
        let (newest, joinedCount) = try await call.rooms.joinedMembers(room, newest: Self.audienceLimit, always: seated + [room.owner])
        let members = newest.sorted { ($0.joinedAt, $0.accid) < ($1.joinedAt, $1.accid) }.map { member in
            Member(userId: member.accid, joinDt: member.joinedAt.epochMilliseconds, role: role(of: member.accid, in: room, seated: Set(seated)).rawValue)
        }
        let joined = Dictionary(members.map { ($0.userId, $0.joinDt) }, uniquingKeysWith: { first, _ in first })
        return Detail(
            summary: Summary(room, memberCount: joinedCount),
            micPositions: positions.map { position in
                Position(userId: position.holder, joinDt: position.holder.flatMap { joined[$0] },
                         role: position.holder == nil ? 0 : Role.onMic.rawValue, state: position.state, position: position.position,
                         mutedBy: position.mutedBy)
            },
            audiences: members)
    }

    func positions(_ room: Room) async throws -> [MicPosition] {
        try await MicPositionStore(tables: call.tables).all(room.id)
    }

    /// Saves the background and tells the room, in one transaction on the live room.
    func setBackground(_ bgId: Int, room: Room, by host: AccountID) async throws {
        try await call.rooms.mutate(room.id) { tx in
            try await tx.updateAttributes(of: SealMicPlugin.self) { $0.bgId = bgId }
            tx.emit(SealMicMessages.background(bgId, by: host, room: tx.room))
        }
    }
}
