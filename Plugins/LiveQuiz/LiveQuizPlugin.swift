import Foundation
import RoomKit

/// NetEase's live quiz (seed 002): a host streams and publishes questions;
/// players answer in the IM chatroom's rhythm. The server keeps the
/// questions, judges every answer with its own clock and computes results,
/// so a host client cannot forge them.
public struct LiveQuizPlugin: RoomPlugin {
    public typealias Creation = GameOptions
    public static let pluginID = "live-quiz"

    public struct Settings: Sendable {
        public var sessionTTLSeconds: Int
        public var accidAsSid: Bool
        public var answerWindowSeconds: Int
        public var revives: Int
    }

    public init() {}

    public var id: String { Self.pluginID }
    public var wire: WireProtocol { .netease }
    /// An abandoned game expires after 2 h. As the seed's server: an address
    /// may create 100 tourists a day and one game every 3 s.
    public var defaultPolicy: RoomPolicy {
        RoomPolicy(ttlSeconds: 2 * 3_600, capacity: 100_000, accountsPerAddress: RateLimit(100, per: 86_400), roomsPerAddress: RateLimit(1, per: 3))
    }

    /// The seed answered 407 to an address that created too often.
    public func clientError(for error: RoomError) -> ClientError? {
        guard case .rateLimited = error else { return nil }
        return ClientError(code: QuizCodes.tooOften, message: error.description)
    }

    public func readSettings(_ reader: SettingsReader) -> Settings {
        Settings(
            sessionTTLSeconds: reader.duration("sessionTTL", default: 30 * 86_400),
            accidAsSid: reader.bool("accidAsSid", default: false),
            answerWindowSeconds: reader.duration("answerWindow", default: 20, in: 1...600),
            revives: reader.int("revives", default: 1, in: 0...10))
    }

    /// The seed's apps that send their accid where a session belongs keep
    /// working where the tenant turns `accidAsSid` on.
    public func callerRule(settings: Settings) -> CallerRule {
        settings.accidAsSid ? .sessionOrAccid : .session
    }

    public func routes() -> [ClientRoute<Settings>] {
        PlayerRoutes.routes + HostRoutes.routes
    }

    /// Players meet in the game's IM chatroom; the engine opens and closes it.
    public var chatroom: ChatroomPolicy { .perRoom(closeNotice: nil) }

    public static let questionPublished = "live-quiz.question.published", resultsPublished = "live-quiz.results.published"
    public var eventTypes: [String] { [Self.questionPublished, Self.resultsPublished] }
    public var tables: [String] { QuizStore.tables }

    /// A game needs its device, bonus and host password (`options.deviceId`,
    /// `options.bonus`, `options.password`); `options.questions` is optional.
    /// The questions as the contract can state them: one schema per number
    /// of options, so the right answer's index stays within its options.
    public var creationOptions: JSONValue {
        let question: (Int) -> JSONValue = { count in
            ["type": "object", "additionalProperties": false, "required": ["question", "options", "rightAnswer"],
             "properties": ["question": TextRules.schema(1...500),
                            "options": ["type": "array", "minItems": .number(Double(count)), "maxItems": .number(Double(count)),
                                        "items": TextRules.schema(1...200)],
                            "rightAnswer": ["type": "integer", "minimum": 0, "maximum": .number(Double(count - 1))]]]
        }
        return ["type": "object", "additionalProperties": false, "required": ["deviceId", "bonus", "password"],
                "properties": [
                    "deviceId": TextRules.schema(1...128, description: "the host's device; one open game each"),
                    "bonus": ["type": "number", "minimum": .number(0.01), "exclusiveMaximum": .number(1e10), "description": "the prize, paid in whole cents"],
                    "password": TextRules.schema(8...128, description: "the host's password"),
                    "questions": ["type": ["array", "null"], "minItems": 3, "maxItems": 50, "items": ["anyOf": .array((2...6).map(question))],
                                  "description": "the game's questions; the built-in bank when absent or null"],
                ]]
    }

    public func creation(from options: JSONValue) throws -> GameOptions {
        try GameOptions(options)
    }

    public func prepareRoom(_ spec: inout NewRoom, creation: inout GameOptions, settings: Settings, now: Date) throws {
        try creation.check()
    }

    /// The game and its questions are born with the room; a second open game
    /// for the device is refused here, under the unique index.
    public func roomCreated(_ room: Room, creation game: GameOptions, hook: HookContext<Settings>) async throws -> [OutboxMessage] {
        let writes = QuizWrites(tables: hook.tables)
        guard try await writes.openGame(room.id, game, at: hook.now) else { throw QuizCodes.deviceBusy() }
        for (index, question) in game.questions.enumerated() {
            try await writes.addQuestion(room.id, number: index + 1, question)
        }
        return []
    }

    /// Over, dissolved or expired: the game is over (the engine closes its chatroom).
    public func roomsClosing(_ closing: [Room], reason: CloseReason, hook: HookContext<Settings>) async throws -> [OutboxMessage] {
        try await QuizWrites(tables: hook.tables).endGames(RoomIDList(closing.map(\.id)))
        return []
    }
}

/// A game's creation data (the plugin's `Creation`): built by the host's
/// create route, or decoded from the admin API's options; checked once
/// for every create path (`check`).
public struct GameOptions: Sendable {
    let deviceID: String
    let bonus: Double
    let password: String
    let questions: [QuestionBank.Entry]

    init(deviceID: String, bonus: Double, password: String, questions: [QuestionBank.Entry]) {
        self.deviceID = deviceID
        self.bonus = bonus
        self.password = password
        self.questions = questions
    }

    /// The values a game can be created with, whoever built them.
    func check() throws {
        guard TextRules.fits(deviceID, 1...128) else { throw Self.badDevice }
        guard Self.isPayable(bonus) else { throw Self.badBonus }
        guard TextRules.fits(password, 8...128) else { throw Self.badPassword }
    }

    private static let badDevice = RoomError.invalidOptions(field: "options.deviceId", reason: "is required: 1-128 characters")
    private static let badBonus = RoomError.invalidOptions(field: "options.bonus", reason: "is required: " + payableText)
    private static let badPassword = RoomError.invalidOptions(field: "options.password", reason: "is required: the host's password, 8-128 characters")

    init(_ options: JSONValue) throws {
        guard let device = options["deviceId"]?.string else { throw Self.badDevice }
        guard let bonus = options["bonus"]?.double else { throw Self.badBonus }
        guard let password = options["password"]?.string else { throw Self.badPassword }
        var json: String?
        switch options["questions"] {
        case nil, .null?: json = nil
        case .string(let text)?: json = text
        case let other?: json = other.jsonText
        }
        do {
            questions = try QuestionBank.questions(json)
        } catch let error as ParameterError {
            throw RoomError.invalidOptions(field: "options." + error.field, reason: error.reason)
        }
        deviceID = device
        self.bonus = bonus
        self.password = password
    }

    /// The game pays in whole cents (the bonus column is numeric(14,2), > 0):
    /// a bonus under a cent would be stored as 0, which the game cannot pay
    /// (#27: `bonus=0.001` answered the internal error).
    static func isPayable(_ bonus: Double) -> Bool { bonus.isFinite && bonus >= 0.01 && bonus < 1e10 }
    static let payableText = "a number of at least 0.01 (one cent) and below 1e10"
}

/// The quiz codes of the NetEase apps.
enum QuizCodes {
    static let noSuchQuestion = 1201
    static let answeringOpen = 1202
    static let gameOver = 1203

    static func noQuestion(_ id: Int64) -> ClientError { ClientError(code: noSuchQuestion, message: "no question \(id) in this game") }
    static func over() -> ClientError { ClientError(code: gameOver, message: "the game is over") }
    static let deviceHasGame = 1204
    static let notLiveYet = 1205
    static let tooOften = 407
    static func notLive() -> ClientError {
        ClientError(code: notLiveYet, message: "the game is not live: switch it to live (status 1) before publishing a question")
    }
    /// The device has an open game: only its host (who has its password) may resume it.
    static func deviceBusy() -> ClientError {
        ClientError(code: deviceHasGame, message: "this device has an open game; send its password to resume it")
    }
}

extension LiveQuizPlugin {
    /// A kick or ban changes nothing this plugin keeps and tells the room
    /// nothing of its own: the engine writes it in one statement (#42).
    public func removal(settings: Settings) -> MemberRemoval? { .nothing }

    /// A mute shows on nothing of the plugin's.
    public func muting(settings: Settings) -> MemberMuting? { .nothing }
}
