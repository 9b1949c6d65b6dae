import Foundation
import RoomKit

/// The PC host's paths, authenticated by room id + room password. The host
/// names questions and moments; the server builds every message from what it
/// stored and counted. A message body the host sends is ignored.
enum HostRoutes {
    typealias Settings = LiveQuizPlugin.Settings

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
        ClientRoute("/quiz/host/create", handle: create),
        ClientRoute("/quiz/host/kick", handle: kick),
        ClientRoute("/quiz/host/switch", handle: switchStage),
        ClientRoute("/quiz/host/question/publish", handle: questionPublish),
        ClientRoute("/quiz/host/result/query", effect: .reads, handle: resultQuery),
        ClientRoute("/quiz/host/result/publish", handle: resultPublish),
    ]

    /// One open game per device. Creating again resumes it only for its
    /// host (who sends its `password`); nobody else learns its answers or
    /// gets a password for it. The room's owner is an opaque host id, never
    /// the device id.
    static func create(_ call: ClientCall<Settings>) async throws -> any Encodable & Sendable {
        let device = try call.parameters.required("deviceId")
        guard device.count <= 128 else { throw ParameterError(field: "deviceId", reason: "must be at most 128 characters") }
        guard let bonus = call.parameters.string("bonus").flatMap(Double.init), GameOptions.isPayable(bonus) else {
            throw ParameterError(field: "bonus", reason: "must be " + GameOptions.payableText)
        }
        let questions = try QuestionBank.questions(call.parameters.string("questions"))
        if let resumed = try await resume(call, device: device) { return resumed }
        let password = Secrets.randomToken(bytes: 8)
        let room: Room
        do {
            room = try await call.createRoom(
                // Named without the device id (#41: a listed name gave it away,
                // and whoever knew it could take the device's next game).
                NewRoom(name: "竞答 " + Secrets.randomToken(bytes: 3), owner: "host-" + Secrets.randomToken(bytes: 8)),
                creating: GameOptions(deviceID: device, bonus: bonus, password: password, questions: questions), of: LiveQuizPlugin(),
                by: .system)
        } catch let error as ClientError where error.code == QuizCodes.deviceHasGame {
            // A concurrent create for this device won (the unique index decided).
            if let resumed = try await resume(call, device: device) { return resumed }
            throw error
        }
        guard let game = try await QuizStore(tables: call.tables).game(room.id) else { throw RoomError.notFound }
        return try await created(call, room: room, game: game, password: password)
    }

    /// The game's host (its password) takes a player out (#29): its
    /// answers stop counting, and with `durationSeconds` it cannot enter again.
    static func kick(_ call: ClientCall<Settings>) async throws -> EmptyObject {
        let (_, room) = try await host(call)
        try await call.rooms.kick(room.id, try HostKick(call.parameters), by: room.owner)
        return EmptyObject()
    }

    static func switchStage(_ call: ClientCall<Settings>) async throws -> EmptyObject {
        let (game, room) = try await host(call)
        let status = try call.parameters.int("status", default: -1, in: -1...2)
        guard status >= 0 else { throw ParameterError(field: "status", reason: "is required: 0 init, 1 live, 2 over") }
        if status == 2 {
            _ = try await call.rooms.dissolve(room.id, by: .account(room.owner))
        } else {
            // On the live room, locked: a close racing it waits, or wins
            // and the switch is refused instead of answered as done.
            try await call.rooms.mutate(room.id) { tx in
                try await QuizWrites(tables: tx.tables).setStatus(game.roomID, to: status)
            }
        }
        return EmptyObject()
    }

    /// Sends cmd 1 built from the stored question (no answer in it) and opens its window.
    static func questionPublish(_ call: ClientCall<Settings>) async throws -> EmptyObject {
        let (game, room) = try await host(call)
        // The seed publishes only in a live game: a question published
        // before would be spent on nobody, and the game never playable.
        guard game.status == 1 else { throw QuizCodes.notLive() }
        let (questionID, time) = (try call.parameters.requiredInt64("questionId"), try call.parameters.requiredInt64("time"))
        let questions = try await QuizStore(tables: call.tables).questions(game.roomID)
        guard let question = questions.first(where: { $0.id == questionID }) else { throw QuizCodes.noQuestion(questionID) }
        guard question.publishedAt == nil else { throw ClientError(code: NetEase.badParameter, message: "question \(questionID) was published already") }
        let message = QuizMessages.question(question, time: time)
        try await call.rooms.mutate(room.id) { tx in
            let writes = QuizWrites(tables: tx.tables)
            let windowEndsAt = tx.now.addingTimeInterval(TimeInterval(call.settings.answerWindowSeconds))
            guard try await writes.publish(game.roomID, question: question.id, at: tx.now, windowEndsAt: windowEndsAt) else { throw ClientError(code: NetEase.badParameter, message: "question \(questionID) was published already") }
            tx.emit(QuizMessages.chatroom(message, room: tx.room))
            // Never the right answer: that goes out with the results.
            tx.emit(.event(LiveQuizPlugin.questionPublished, roomID: room.id, data: [
                "questionId": .number(Double(question.id)), "answerWindowEndsAt": .string(ISO8601DateFormatter().string(from: windowEndsAt)),
            ]))
        }
        return EmptyObject()
    }

    static func resultQuery(_ call: ClientCall<Settings>) async throws -> any Encodable & Sendable {
        let (game, _) = try await host(call)
        return try await result(call, game: game, questionID: try call.parameters.requiredInt64("questionId"))
    }

    /// Sends cmd 4 with the stored answer and the counted choices, then cmd 5 after the last question.
    static func resultPublish(_ call: ClientCall<Settings>) async throws -> EmptyObject {
        let (game, room) = try await host(call)
        let time = try call.parameters.requiredInt64("time")
        let outcome = try await result(call, game: game, questionID: try call.parameters.requiredInt64("questionId"))
        try await call.rooms.mutate(room.id) { tx in
            let writes = QuizWrites(tables: tx.tables)
            guard try await writes.publishResult(game.roomID, question: outcome.questionId, at: tx.now) else { return }
            tx.emit(QuizMessages.chatroom(QuizMessages.answer(outcome, time: time), room: tx.room))
            var results: [String: JSONValue] = [
                "questionId": .number(Double(outcome.questionId)), "rightAnswer": .number(Double(outcome.rightAnswer)),
                "selectCounts": .array(outcome.options.map { .number(Double($0.selectCount ?? 0)) }),
            ]
            if let bonus = outcome.bonusInfo {
                results["final"] = .object(["players": .number(Double(bonus.playerCount)), "winners": .number(Double(bonus.winnerCount)),
                                            "bonusEach": .number(bonus.bonus)])
            }
            tx.emit(.event(LiveQuizPlugin.resultsPublished, roomID: room.id, data: results))
            if let bonus = outcome.bonusInfo {
                tx.emit(QuizMessages.chatroom(QuizMessages.final(bonus, time: time), room: tx.room))
            }
        }
        return EmptyObject()
    }

    /// The game and room named by `roomId`, if `password` is its password.
    static func host(_ call: ClientCall<Settings>) async throws -> (QuizGame, Room) {
        let roomID = try call.parameters.requiredInt64("roomId")
        let password = try call.parameters.required("password")
        guard let game = try await QuizStore(tables: call.tables).game(roomID),
              Secrets.equal(game.passwordHash, Secrets.sha256Hex(password)) else {
            throw NetEase.notLoggedIn("roomId and password do not match a game")
        }
        guard game.status < 2, let room = try? await call.rooms.live(roomID) else { throw QuizCodes.over() }
        return (game, room)
    }

    /// The device's open game, for its host only: the caller must send the
    /// game's password. Nil when the device has no open game.
    static func resume(_ call: ClientCall<Settings>, device: String) async throws -> Created? {
        guard let game = try await QuizStore(tables: call.tables).openGame(device: device) else { return nil }
        guard let password = call.parameters.string("password"), Secrets.equal(game.passwordHash, Secrets.sha256Hex(password)) else {
            throw QuizCodes.deviceBusy()
        }
        let room = try await call.rooms.live(game.roomID)
        return try await created(call, room: room, game: game, password: password)
    }

    static func created(_ call: ClientCall<Settings>, room: Room, game: QuizGame, password: String) async throws -> Created {
        let questions = try await QuizStore(tables: call.tables).questions(room.id)
        return Created(
            roomId: room.id, password: password, pushUrl: try await call.stream(game.stream, of: room.id).pushURL(expiresAt: room.expiresAt),
            bonus: Double(game.bonusCents) / 100,
            questions: questions.map { question in
                Question(questionId: question.id, question: question.question, order: question.id,
                         options: question.options.enumerated().map { Option(optionId: $0.offset, content: $0.element, selectCount: nil) },
                         rightAnswer: question.rightAnswer)
            })
    }

    /// The counted result of a closed question; the bonus split after the last one.
    static func result(_ call: ClientCall<Settings>, game: QuizGame, questionID: Int64) async throws -> Result {
        let store = QuizStore(tables: call.tables)
        let questions = try await store.questions(game.roomID)
        guard let question = questions.first(where: { $0.id == questionID }) else { throw QuizCodes.noQuestion(questionID) }
        guard let closes = question.windowEndsAt, closes <= call.now() else {
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
