import Foundation
import PostgresNIO
import RoomCore

/// NetEase's live quiz (seed 002): a host streams and publishes questions;
/// players answer in the IM chatroom's rhythm. The server keeps the
/// questions, judges every answer with its own clock and computes results,
/// so a host client cannot forge them.
public struct LiveQuizPlugin: RoomPlugin {
    public static let pluginID = "live-quiz"

    public struct Settings: Sendable {
        public var sessionTTLSeconds: Int
        public var accidAsSid: Bool
        public var answerWindowSeconds: Int
        public var revives: Int
    }

    public init() {}

    public var id: String { Self.pluginID }
    public var wire: WireStyle { .netease }
    /// An abandoned game expires after 2 h.
    public var defaultPolicy: RoomPolicy { RoomPolicy(ttlSeconds: 2 * 3_600, capacity: 100_000) }

    public func readSettings(_ reader: SettingsReader) -> Settings {
        Settings(
            sessionTTLSeconds: reader.duration("sessionTTL", default: 30 * 86_400),
            accidAsSid: reader.bool("accidAsSid", default: false),
            answerWindowSeconds: reader.duration("answerWindow", default: 20, in: 1...600),
            revives: reader.int("revives", default: 1, in: 0...10))
    }

    public func routes() -> [ClientRoute<Settings>] {
        PlayerRoutes.routes + HostRoutes.routes
    }

    /// Over, dissolved or expired: the game is over and its chatroom closes.
    public func roomsClosing(_ rooms: [Room], reason: CloseReason, hook: HookContext<Settings>) async throws -> [OutboxMessage] {
        try await hook.connection.query("""
            UPDATE quiz_games SET status = 2 WHERE tenant_id = \(hook.tenantID) AND room_id = ANY(\(rooms.map(\.id)))
            """, logger: hook.logger)
        return rooms.compactMap { room in
            room.imChatroomID.map { .im(.closeChatroom(chatroom: $0, operator: room.owner, notifyExt: nil), roomID: room.id) }
        }
    }
}

/// The quiz codes of the NetEase apps.
enum QuizCodes {
    static let noSuchQuestion = 1201
    static let answeringOpen = 1202
    static let gameOver = 1203

    static func noQuestion(_ id: Int64) -> ClientError { ClientError(code: noSuchQuestion, message: "no question \(id) in this game") }
    static func over() -> ClientError { ClientError(code: gameOver, message: "the game is over") }
}
