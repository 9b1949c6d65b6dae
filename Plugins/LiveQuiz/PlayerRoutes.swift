import Foundation
import PostgresNIO
import RoomCore

/// `/quiz/player/create`, `/quiz/player/room/query`, `/quiz/player/answer`.
enum PlayerRoutes {
    typealias Settings = LiveQuizPlugin.Settings
    static let pluginID = LiveQuizPlugin.pluginID

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
        /// Login and registration in one: a live sid is renewed, anything else gets a new guest.
        ClientRoute("/quiz/player/create") { call in
            let login = try await GuestLogin.login(call, pluginID: pluginID, ttlSeconds: call.settings.sessionTTLSeconds,
                                                   prefix: "quiz", nickname: { "玩家" + $0.suffix(6) })
            return Player(accid: login.account.accid, nickname: login.account.nickname, imToken: login.imToken, sid: login.sid,
                          availableAt: login.expiresAt.epochMilliseconds)
        },

        /// Entering: the shipped app queries the room as it enters, which makes it a player.
        ClientRoute("/quiz/player/room/query") { call in
            let account = try await NetEase.account(call, pluginID: pluginID, accidAsSid: call.settings.accidAsSid)
            let roomID = try call.parameters.requiredInt64("roomId")
            let store = QuizStore(database: call.services.database, tenantID: call.tenant.id)
            guard let game = try await store.game(roomID) else { throw RoomError.notFound }
            guard game.status < 2, let room = try? await call.services.engine.liveRoom(roomID, in: call.tenant, pluginID: pluginID) else { throw QuizCodes.over() }
            try await store.enter(roomID, accid: account.accid, revives: call.settings.revives, now: call.services.clock.now())
            let pull = try await call.tenant.live.pullURLs(stream: game.stream, expiresAt: room.expiresAt)
            var online = 0
            if let chatroom = room.imChatroomID { online = try await call.tenant.im.onlineCounts([chatroom])[chatroom] ?? 0 }
            let streaming = try await ProviderStateStore(database: call.services.database).stream(call.tenant.id, game.stream)?.live ?? false
            let count = try await store.questions(roomID).count
            return RoomInfo(roomId: roomID, name: room.name, creator: room.owner, rtmpPullUrl: pull.rtmp, hlsPullUrl: pull.hls, httpPullUrl: pull.flv,
                            roomStatus: room.isOpen, liveStatus: streaming || game.status == 1 ? 1 : 0, onlineUserCount: online,
                            bonus: Double(game.bonusCents) / 100, quizCount: count, questionCount: count, gameStatus: game.status, addr: [])
        },

        /// Judged in one transaction on the player's row, with the server's clock.
        ClientRoute("/quiz/player/answer") { call in
            let account = try await NetEase.account(call, pluginID: pluginID, accidAsSid: call.settings.accidAsSid)
            let roomID = try call.parameters.requiredInt64("roomId")
            let questionID = try call.parameters.requiredInt64("questionId")
            let option = try call.parameters.requiredInt64("answer")
            let store = QuizStore(database: call.services.database, tenantID: call.tenant.id)
            guard let game = try await store.game(roomID) else { throw RoomError.notFound }
            guard game.status < 2 else { throw QuizCodes.over() }
            let now = call.services.clock.now()
            let result: Int = try await call.services.database.transaction { connection in
                // The player's row is the lock, taken in a statement of its own:
                // what is read after it (answers, the current question) sees every
                // answer committed before it, so a duplicate sent twice at once is
                // judged as a duplicate, never as a second answer.
                let rows = try await connection.query("""
                    SELECT status, revives, answered FROM quiz_players
                    WHERE tenant_id = \(call.tenant.id) AND room_id = \(roomID) AND accid = \(account.accid) FOR UPDATE
                    """, logger: call.logger).collect()
                let player = try rows.decode((String, Int, Int).self).first.map {
                    QuizPlayer(status: QuizPlayer.Status(rawValue: $0.0) ?? .out, revives: $0.1, answered: $0.2)
                }
                let questions = try await store.questions(roomID, on: connection, logger: call.logger)
                guard let stored = questions.first(where: { $0.id == questionID }) else { throw QuizCodes.noQuestion(questionID) }
                guard (0..<Int64(stored.options.count)).contains(option) else {
                    throw ParameterError(field: "answer", reason: "must be an option id from 0 to \(stored.options.count - 1)")
                }
                let answered = try await connection.query("""
                    SELECT 1 FROM quiz_answers WHERE tenant_id = \(call.tenant.id) AND room_id = \(roomID)
                    AND question_id = \(stored.id) AND accid = \(account.accid)
                    """, logger: call.logger).collect()
                let current = questions.filter { $0.publishedAt != nil }.max { $0.id < $1.id }?.id
                let question = QuizQuestion(id: stored.id, optionCount: stored.options.count, rightAnswer: stored.rightAnswer,
                                            windowEndsAt: stored.windowEndsAt, isCurrent: current == stored.id)
                let judgement = QuizRules.judge(Int(option), to: question, by: player, alreadyAnswered: !answered.isEmpty, now: now)
                if let after = judgement.player, after != player {
                    try await connection.query("""
                        UPDATE quiz_players SET status = \(after.status.rawValue), revives = \(after.revives), answered = \(after.answered)
                        WHERE tenant_id = \(call.tenant.id) AND room_id = \(roomID) AND accid = \(account.accid)
                        """, logger: call.logger)
                }
                if judgement.accepted {
                    try await connection.query("""
                        INSERT INTO quiz_answers (tenant_id, room_id, question_id, accid, option, at)
                        VALUES (\(call.tenant.id), \(roomID), \(stored.id), \(account.accid), \(Int(option)), \(now))
                        """, logger: call.logger)
                }
                return judgement.result
            }
            return Answered(result: result)
        },
    ]
}
