import Foundation
import PostgresNIO
import RoomCore

/// The PC host's paths, authenticated by room id + room password. The host
/// names questions and moments; the server builds every message from what it
/// stored and counted. A message body the host sends is ignored.
enum HostRoutes {
    typealias Settings = LiveQuizPlugin.Settings
    static let pluginID = LiveQuizPlugin.pluginID

    struct Option: Encodable, Sendable {
        let optionId: Int
        let content: String
        let selectCount: Int?
    }

    struct Question: Encodable, Sendable {
        let questionId: Int
        let question: String
        let order: Int
        let options: [Option]
        let rightAnswer: Int?
    }

    struct Created: Encodable, Sendable {
        let roomId: Int64
        let password: String
        let pushUrl: String
        let bonus: Double
        let questions: [Question]
    }

    struct BonusInfo: Encodable, Sendable {
        let playerCount: Int
        let winnerCount: Int
        let winnerSample: [String]
        let bonus: Double
    }

    struct Result: Encodable, Sendable {
        let questionId: Int
        let rightAnswer: Int
        let options: [Option]
        let bonusInfo: BonusInfo?
    }

    static let routes: [ClientRoute<Settings>] = [
        /// One open game per device: creating again returns it, with a new password.
        ClientRoute("/quiz/host/create") { call in
            let device = try call.parameters.required("deviceId")
            guard device.count <= 128 else { throw ParameterError(field: "deviceId", reason: "must be at most 128 characters") }
            guard let bonus = call.parameters.string("bonus").flatMap(Double.init), bonus > 0, bonus < 1e10 else {
                throw ParameterError(field: "bonus", reason: "must be a number above 0")
            }
            let questions = try QuestionBank.questions(call.parameters.string("questions"))
            let store = QuizStore(database: call.services.database, tenantID: call.tenant.id)
            let password = Secrets.randomToken(bytes: 8)
            if let game = try await store.openGame(device: device), let room = try await call.services.engine.store.room(call.tenant.id, game.roomID), room.isOpen {
                try await call.services.database.query("""
                    UPDATE quiz_games SET password_hash = \(Secrets.sha256Hex(password)) WHERE tenant_id = \(call.tenant.id) AND room_id = \(game.roomID)
                    """)
                return try await created(call, room: room, game: game, password: password)
            }
            let room = try await call.services.engine.createWithChatroom(
                NewRoom(pluginID: pluginID, name: "竞答 \(device.prefix(32))", owner: "host-\(device)"), in: call.tenant, by: .account("host-\(device)"))
            let cents = Int64((bonus * 100).rounded(.down))
            do {
                try await call.services.database.transaction { connection in
                    try await connection.query("""
                        INSERT INTO quiz_games (tenant_id, room_id, device_id, password_hash, bonus, stream, created_at)
                        VALUES (\(call.tenant.id), \(room.id), \(device), \(Secrets.sha256Hex(password)), \(Double(cents) / 100)::numeric,
                                \("quiz-\(room.id)"), \(call.services.clock.now()))
                        """, logger: call.logger)
                    for (index, question) in questions.enumerated() {
                        try await connection.query("""
                            INSERT INTO quiz_questions (tenant_id, room_id, question_id, question, options, right_answer)
                            VALUES (\(call.tenant.id), \(room.id), \(index + 1), \(question.question), \(question.options), \(question.rightAnswer))
                            """, logger: call.logger)
                    }
                }
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
                // A concurrent create for this device won (the unique index decided):
                // this room goes, and the caller gets the winner's game.
                _ = try? await call.services.engine.dissolve(room.id, by: .account(room.owner), in: call.tenant, pluginID: pluginID)
                guard let game = try await store.openGame(device: device),
                      let winner = try await call.services.engine.store.room(call.tenant.id, game.roomID) else { throw error }
                try await call.services.database.query("""
                    UPDATE quiz_games SET password_hash = \(Secrets.sha256Hex(password)) WHERE tenant_id = \(call.tenant.id) AND room_id = \(game.roomID)
                    """)
                return try await created(call, room: winner, game: game, password: password)
            }
            guard let game = try await store.game(room.id) else { throw RoomError.notFound }
            return try await created(call, room: room, game: game, password: password)
        },

        ClientRoute("/quiz/host/switch") { call in
            let (game, room) = try await host(call)
            let status = try call.parameters.int("status", default: -1, in: -1...2)
            guard status >= 0 else { throw ParameterError(field: "status", reason: "is required: 0 init, 1 live, 2 over") }
            if status == 2 {
                _ = try await call.services.engine.dissolve(room.id, by: .account(room.owner), in: call.tenant, pluginID: pluginID)
                call.services.wakeOutbox()
            } else {
                try await call.services.database.query("""
                    UPDATE quiz_games SET status = \(status) WHERE tenant_id = \(call.tenant.id) AND room_id = \(game.roomID) AND status < 2
                    """)
            }
            return EmptyObject()
        },

        /// Sends cmd 1 built from the stored question (no answer in it) and opens its window.
        ClientRoute("/quiz/host/question/publish") { call in
            let (game, room) = try await host(call)
            let (questionID, time) = (try call.parameters.requiredInt64("questionId"), try call.parameters.requiredInt64("time"))
            let questions = try await QuizStore(database: call.services.database, tenantID: call.tenant.id).questions(game.roomID)
            guard let question = questions.first(where: { $0.id == questionID }) else { throw QuizCodes.noQuestion(questionID) }
            guard question.publishedAt == nil else { throw ClientError(code: NetEase.badParameter, message: "question \(questionID) was published already") }
            let now = call.services.clock.now()
            let message = QuizMessages.question(question, time: time)
            try await call.services.database.transaction { connection in
                try await connection.query("""
                    UPDATE quiz_questions SET published_at = \(now), window_ends_at = \(now.addingTimeInterval(TimeInterval(call.settings.answerWindowSeconds)))
                    WHERE tenant_id = \(call.tenant.id) AND room_id = \(game.roomID) AND question_id = \(question.id)
                    """, logger: call.logger)
                try await QuizMessages.send(message, room: room, tenantID: call.tenant.id, now: now, on: connection, logger: call.logger)
            }
            call.services.wakeOutbox()
            return EmptyObject()
        },

        ClientRoute("/quiz/host/result/query") { call in
            let (game, _) = try await host(call)
            return try await result(call, game: game, questionID: try call.parameters.requiredInt64("questionId"))
        },

        /// Sends cmd 4 with the stored answer and the counted choices, then cmd 5 after the last question.
        ClientRoute("/quiz/host/result/publish") { call in
            let (game, room) = try await host(call)
            let time = try call.parameters.requiredInt64("time")
            let outcome = try await result(call, game: game, questionID: try call.parameters.requiredInt64("questionId"))
            let now = call.services.clock.now()
            try await call.services.database.transaction { connection in
                let marked = try await connection.query("""
                    UPDATE quiz_questions SET result_published_at = \(now)
                    WHERE tenant_id = \(call.tenant.id) AND room_id = \(game.roomID) AND question_id = \(outcome.questionId) AND result_published_at IS NULL
                    RETURNING 1
                    """, logger: call.logger).collect()
                guard !marked.isEmpty else { return }
                try await QuizMessages.send(QuizMessages.answer(outcome, time: time), room: room, tenantID: call.tenant.id, now: now, on: connection, logger: call.logger)
                if let bonus = outcome.bonusInfo {
                    try await QuizMessages.send(QuizMessages.final(bonus, time: time), room: room, tenantID: call.tenant.id, now: now, on: connection, logger: call.logger)
                }
            }
            call.services.wakeOutbox()
            return EmptyObject()
        },
    ]

    /// The game and room named by `roomId`, if `password` is its password.
    static func host(_ call: ClientCall<Settings>) async throws -> (QuizGame, Room) {
        let roomID = try call.parameters.requiredInt64("roomId")
        let password = try call.parameters.required("password")
        guard let game = try await QuizStore(database: call.services.database, tenantID: call.tenant.id).game(roomID),
              Secrets.equal(game.passwordHash, Secrets.sha256Hex(password)) else {
            throw NetEase.notLoggedIn("roomId and password do not match a game")
        }
        guard let room = try await call.services.engine.store.room(call.tenant.id, roomID), room.isOpen, game.status < 2 else { throw QuizCodes.over() }
        return (game, room)
    }

    static func created(_ call: ClientCall<Settings>, room: Room, game: QuizGame, password: String) async throws -> Created {
        let questions = try await QuizStore(database: call.services.database, tenantID: call.tenant.id).questions(room.id)
        return Created(
            roomId: room.id, password: password, pushUrl: try await call.tenant.live.pushURL(stream: game.stream, expiresAt: room.expiresAt),
            bonus: Double(game.bonusCents) / 100,
            questions: questions.map { question in
                Question(questionId: question.id, question: question.question, order: question.id,
                         options: question.options.enumerated().map { Option(optionId: $0.offset, content: $0.element, selectCount: nil) },
                         rightAnswer: question.rightAnswer)
            })
    }

    /// The counted result of a closed question; the bonus split after the last one.
    static func result(_ call: ClientCall<Settings>, game: QuizGame, questionID: Int64) async throws -> Result {
        let store = QuizStore(database: call.services.database, tenantID: call.tenant.id)
        let questions = try await store.questions(game.roomID)
        guard let question = questions.first(where: { $0.id == questionID }) else { throw QuizCodes.noQuestion(questionID) }
        guard let closes = question.windowEndsAt, closes <= call.services.clock.now() else {
            throw ClientError(code: QuizCodes.answeringOpen, message: "question \(questionID) is still open for answers")
        }
        let counts = try await store.selectCounts(game.roomID, question: question.id)
        var bonusInfo: BonusInfo?
        if question.id == questions.count {
            let standings = try await store.standings(game.roomID, questionCount: questions.count)
            let share = QuizRules.share(bonusCents: game.bonusCents, winners: standings.winners.count)
            bonusInfo = BonusInfo(playerCount: standings.players, winnerCount: standings.winners.count,
                                  winnerSample: Array(standings.winners.prefix(5)), bonus: Double(share) / 100)
        }
        return Result(questionId: question.id, rightAnswer: question.rightAnswer,
                      options: question.options.enumerated().map { Option(optionId: $0.offset, content: $0.element, selectCount: counts[$0.offset] ?? 0) },
                      bonusInfo: bonusInfo)
    }
}
