import Foundation
import RoomKit

/// `/quiz/player/create`, `/quiz/player/room/query`, `/quiz/player/answer`.
enum PlayerRoutes {
    typealias Settings = LiveQuizPlugin.Settings

    struct Player: Encodable, Sendable {
        let accid: String
        let nickname: String
        let imToken: String
        let sid: String
        let availableAt: Int64
    }

    struct RoomInfo: Encodable, Sendable {
        let roomId: Int64
        let name: String
        let creator: String
        let rtmpPullUrl: String
        let hlsPullUrl: String
        let httpPullUrl: String
        let roomStatus: Bool
        let liveStatus: Int
        let onlineUserCount: Int
        let bonus: Double
        let quizCount: Int
        let questionCount: Int
        let gameStatus: Int
        let addr: [String]
    }

    struct Answered: Encodable, Sendable {
        let result: Int
    }

    static let routes: [ClientRoute<Settings>] = [
        ClientRoute("/quiz/player/create", handle: create),
        ClientRoute("/quiz/player/room/query", handle: roomQuery),
        ClientRoute("/quiz/player/answer", handle: answer),
    ]

    /// Login and registration in one: a live sid is renewed, anything else gets a new guest.
    static func create(_ call: ClientCall<Settings>) async throws -> Player {
        let login = try await GuestLogin.login(call, ttlSeconds: call.settings.sessionTTLSeconds,
                                               prefix: "quiz", nickname: { "玩家" + $0.suffix(6) })
        return Player(accid: login.account.accid, nickname: login.account.nickname, imToken: login.imToken, sid: login.sid,
                      availableAt: login.expiresAt.epochMilliseconds)
    }

    /// Entering: the shipped app queries the room as it enters, which makes it a player.
    static func roomQuery(_ call: ClientCall<Settings>) async throws -> RoomInfo {
        let account = try await call.caller()
        let roomID = try call.parameters.requiredInt64("roomId")
        let store = QuizStore(tables: call.tables)
        guard let game = try await store.game(roomID) else { throw RoomError.notFound }
        guard game.status < 2 else { throw QuizCodes.over() }
        // A player's way in: a banned account is not registered (#29).
        let room: Room
        do {
            room = try await call.rooms.enter(roomID, as: account.accid)
        } catch let refusal as RoomError where refusal != .banned {
            throw QuizCodes.over()  // closed or gone: the game is over for its players
        }
        try await store.enter(roomID, accid: account.accid, revives: call.settings.revives, now: call.now())
        let pull = try await call.stream(game.stream, of: room.id).pullURLs(expiresAt: room.expiresAt)
        let online = try await call.chatroom(of: room)?.online() ?? 0
        let streaming = try await call.rooms.stream(game.stream)?.live ?? false
        let count = try await store.questions(roomID).count
        return RoomInfo(roomId: roomID, name: room.name, creator: room.owner, rtmpPullUrl: pull.rtmp, hlsPullUrl: pull.hls, httpPullUrl: pull.flv,
                        roomStatus: room.isOpen, liveStatus: streaming || game.status == 1 ? 1 : 0, onlineUserCount: online,
                        bonus: Double(game.bonusCents) / 100, quizCount: count, questionCount: count, gameStatus: game.status, addr: [])
    }

    /// Judged on the player's row, locked by the engine (`PlayerRow`),
    /// with the server's clock.
    static func answer(_ call: ClientCall<Settings>) async throws -> Answered {
        let account = try await call.caller()
        let roomID = try call.parameters.requiredInt64("roomId")
        let questionID = try call.parameters.requiredInt64("questionId")
        let option = try call.parameters.requiredInt64("answer")
        let store = QuizStore(tables: call.tables)
        guard let game = try await store.game(roomID) else { throw RoomError.notFound }
        guard game.status < 2 else { throw QuizCodes.over() }
        let now = call.now()
        let judged: Int
        do {
            judged = try await call.rooms.onLockedRow(roomID, rows: PlayerRow.table, key: account.accid, enteringAs: account.accid) { row, tables in
                try await judge(option, to: questionID, by: row?.player, in: roomID, of: account.accid, at: now, on: tables)
            }
        } catch let refusal as RoomError where refusal != .banned {
            // A player banned from the game's room answers nothing (#29);
            // a room closed or gone is a game over for its players.
            throw QuizCodes.over()
        }
        return Answered(result: judged)
    }

    /// An answer judged on its player's locked row, with the questions and
    /// answers read after the lock.
    static func judge(_ option: Int64, to questionID: Int64, by player: QuizPlayer?, in roomID: RoomID, of accid: AccountID, at now: Date,
                      on tables: PluginTables) async throws -> Int {
        let writes = QuizWrites(tables: tables)
        // The game may have ended while this answer waited for the
        // player's row: an answer after the end is none (#28).
        guard try await !writes.isOver(roomID) else { throw QuizCodes.over() }
        let questions = try await QuizStore(tables: tables).questions(roomID)
        guard let stored = questions.first(where: { $0.id == questionID }) else { throw QuizCodes.noQuestion(questionID) }
        guard (0..<Int64(stored.options.count)).contains(option) else {
            throw ParameterError(field: "answer", reason: "must be an option id from 0 to \(stored.options.count - 1)")
        }
        let answered = try await writes.hasAnswered(roomID, question: stored.id, accid)
        let current = questions.filter { $0.publishedAt != nil }.max { $0.id < $1.id }?.id
        let question = QuizQuestion(id: stored.id, optionCount: stored.options.count, rightAnswer: stored.rightAnswer,
                                    windowEndsAt: stored.windowEndsAt, isCurrent: current == stored.id)
        let judgement = QuizRules.judge(Int(option), to: question, by: player, alreadyAnswered: answered, now: now)
        if let after = judgement.player, after != player { try await writes.save(after, roomID, accid) }
        if judgement.accepted { try await writes.recordAnswer(roomID, question: stored.id, accid, option: Int(option), at: now) }
        return judgement.result
    }
}
