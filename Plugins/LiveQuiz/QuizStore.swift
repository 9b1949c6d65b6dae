import Foundation
import RoomKit

/// A game's stored facts.
struct QuizGame: Sendable {
    let roomID: RoomID
    let deviceID: String
    let passwordHash: String
    let bonusCents: Int64
    let status: Int
    let stream: String
}

struct StoredQuestion: Sendable {
    let id: Int
    let question: String
    let options: [String]
    let rightAnswer: Int
    let publishedAt: Date?
    let windowEndsAt: Date?
    let resultPublishedAt: Date?
}

/// The SQL of games, questions, players and answers.
struct QuizStore {
    static let tables = ["quiz_games", "quiz_questions", "quiz_players", "quiz_answers"]

    let tables: PluginTables

    static let gameColumns: StaticString = "room_id, device_id, password_hash, (bonus * 100)::bigint, status, stream"

    func game(_ roomID: RoomID) async throws -> QuizGame? {
        try Self.firstGame(try await tables.query("""
            SELECT \(unescaped: Self.gameColumns) FROM quiz_games WHERE tenant_id = \(.tenant) AND room_id = \(roomID)
            """))
    }

    func openGame(device: String) async throws -> QuizGame? {
        try Self.firstGame(try await tables.query("""
            SELECT \(unescaped: Self.gameColumns) FROM quiz_games WHERE tenant_id = \(.tenant) AND device_id = \(device) AND status < 2
            """))
    }

    private static func firstGame(_ rows: [TableRow]) throws -> QuizGame? {
        try rows.decode((Int64, String, String, Int64, Int, String).self).first.map(QuizGame.init)
    }

    func questions(_ roomID: RoomID) async throws -> [StoredQuestion] {
        try await tables.query("""
            SELECT question_id, question, options, right_answer, published_at, window_ends_at, result_published_at
            FROM quiz_questions WHERE tenant_id = \(.tenant) AND room_id = \(roomID) ORDER BY question_id
            """).decode((Int, String, [String], Int, Date?, Date?, Date?).self).map(StoredQuestion.init)
    }

    /// How many accepted answers chose each option.
    func selectCounts(_ roomID: RoomID, question: Int) async throws -> [Int: Int] {
        let rows = try await tables.query("""
            SELECT option, count(*)::int FROM quiz_answers
            WHERE tenant_id = \(.tenant) AND room_id = \(roomID) AND question_id = \(question) GROUP BY option
            """)
        return Dictionary(uniqueKeysWithValues: try rows.decode((Int, Int).self).map { ($0, $1) })
    }

    /// Players still in after `questionCount` questions, and how many played.
    func standings(_ roomID: RoomID, questionCount: Int) async throws -> (players: Int, winners: [AccountID]) {
        let rows = try await tables.query("""
            SELECT accid, status, answered FROM quiz_players
            WHERE tenant_id = \(.tenant) AND room_id = \(roomID) AND status <> 'spectator' ORDER BY entered_at, accid
            """)
        let players = try rows.decode((String, String, Int).self)
        let winners = players.filter { QuizRules.isWinner(QuizPlayer(status: QuizPlayer.Status(rawValue: $0.1) ?? .out, revives: 0, answered: $0.2), questionCount: questionCount) }
        return (players.count, winners.map(\.0))
    }

    /// Registers a player on their first room query: playing before the
    /// first question went out, a spectator after.
    func enter(_ roomID: RoomID, accid: AccountID, revives: Int, now: Date) async throws {
        try await tables.query("""
            INSERT INTO quiz_players (tenant_id, room_id, accid, status, revives, entered_at)
            SELECT \(.tenant), \(roomID), \(accid),
                   CASE WHEN EXISTS (SELECT 1 FROM quiz_questions q WHERE q.tenant_id = \(.tenant) AND q.room_id = \(roomID)
                                     AND q.published_at IS NOT NULL) THEN 'spectator' ELSE 'playing' END,
                   \(revives), \(now)
            ON CONFLICT DO NOTHING
            """)
    }
}

/// The quiz's writes on a transaction the engine holds (a live room's, for
/// publishing; the player's locked row's, for an answer).
struct QuizWrites {
    let tables: PluginTables

    /// The game's row, born with its room; false when the device has a game
    /// going already (refused under the unique index).
    func openGame(_ roomID: RoomID, _ game: GameOptions, at now: Date) async throws -> Bool {
        let cents = Int64((game.bonus * 100).rounded(.down))
        return try await !tables.query("""
            INSERT INTO quiz_games (tenant_id, room_id, device_id, password_hash, bonus, stream, created_at)
            VALUES (\(.tenant), \(roomID), \(game.deviceID), \(Secrets.sha256Hex(game.password)), \(Double(cents) / 100)::numeric,
                    \("quiz-\(roomID)"), \(now))
            ON CONFLICT (tenant_id, device_id) WHERE status < 2 DO NOTHING RETURNING room_id
            """).isEmpty
    }

    /// Question `number` (1-based, its order) of the game.
    func addQuestion(_ roomID: RoomID, number: Int, _ question: QuestionBank.Entry) async throws {
        try await tables.query("""
            INSERT INTO quiz_questions (tenant_id, room_id, question_id, question, options, right_answer)
            VALUES (\(.tenant), \(roomID), \(number), \(question.question), \(question.options), \(question.rightAnswer))
            """)
    }

    /// Over, dissolved or expired: the games are over.
    func endGames(_ ids: RoomIDList) async throws {
        try await tables.query("""
            UPDATE quiz_games SET status = 2 WHERE tenant_id = \(.tenant) AND room_id = ANY(\(ids))
            """)
    }

    /// The game's status (0 init, 1 live); a game over (2) stays over.
    func setStatus(_ roomID: RoomID, to status: Int) async throws {
        try await tables.query("""
            UPDATE quiz_games SET status = \(status) WHERE tenant_id = \(.tenant) AND room_id = \(roomID) AND status < 2
            """)
    }

    /// Opens the question's answer window; false when it was published before.
    func publish(_ roomID: RoomID, question: Int, at now: Date, windowEndsAt: Date) async throws -> Bool {
        try await !tables.query("""
            UPDATE quiz_questions SET published_at = \(now), window_ends_at = \(windowEndsAt)
            WHERE tenant_id = \(.tenant) AND room_id = \(roomID) AND question_id = \(question) AND published_at IS NULL
            RETURNING 1
            """).isEmpty
    }

    /// Marks the question's result published; false when it was before.
    func publishResult(_ roomID: RoomID, question: Int, at now: Date) async throws -> Bool {
        try await !tables.query("""
            UPDATE quiz_questions SET result_published_at = \(now)
            WHERE tenant_id = \(.tenant) AND room_id = \(roomID) AND question_id = \(question) AND result_published_at IS NULL
            RETURNING 1
            """).isEmpty
    }

    /// Whether the game is over, read after the player's row is locked: in
    /// a statement of its own, since a statement that waited for a row lock
    /// under READ COMMITTED re-reads the locked row but not what it joins.
    func isOver(_ roomID: RoomID) async throws -> Bool {
        try await tables.query("""
            SELECT status FROM quiz_games WHERE tenant_id = \(.tenant) AND room_id = \(roomID)
            """).decode(Int.self).first.map { $0 >= 2 } ?? true
    }

    func hasAnswered(_ roomID: RoomID, question: Int, _ accid: AccountID) async throws -> Bool {
        try await !tables.query("""
            SELECT 1 FROM quiz_answers WHERE tenant_id = \(.tenant) AND room_id = \(roomID) AND question_id = \(question) AND accid = \(accid)
            """).isEmpty
    }

    func save(_ player: QuizPlayer, _ roomID: RoomID, _ accid: AccountID) async throws {
        try await tables.query("""
            UPDATE quiz_players SET status = \(player.status.rawValue), revives = \(player.revives), answered = \(player.answered)
            WHERE tenant_id = \(.tenant) AND room_id = \(roomID) AND accid = \(accid)
            """)
    }

    func recordAnswer(_ roomID: RoomID, question: Int, _ accid: AccountID, option: Int, at now: Date) async throws {
        try await tables.query("""
            INSERT INTO quiz_answers (tenant_id, room_id, question_id, accid, option, at)
            VALUES (\(.tenant), \(roomID), \(question), \(accid), \(option), \(now))
            """)
    }
}

/// A player's row as an answer locks it (`PluginRooms.onLockedRow`): an
/// answer's first-wins is its player's row, so a duplicate sent twice at
/// once is judged as a duplicate, never as a second answer.
struct PlayerRow: RoomRow {
    static let table = RoomRowTable<PlayerRow>(name: "quiz_players", key: .accid, stamp: nil)

    /// The row's columns: what `table` reads and writes.
    enum Column: String, CodingKey, CaseIterable {
        case accid, status, revives, answered
    }

    let accid: AccountID
    let player: QuizPlayer

    init(from decoder: any Decoder) throws {
        let row = try decoder.container(keyedBy: Column.self)
        accid = try row.decode(String.self, forKey: .accid)
        player = QuizPlayer(status: QuizPlayer.Status(rawValue: try row.decode(String.self, forKey: .status)) ?? .out,
                            revives: try row.decode(Int.self, forKey: .revives), answered: try row.decode(Int.self, forKey: .answered))
    }

    func encode(to encoder: any Encoder) throws {
        var row = encoder.container(keyedBy: Column.self)
        try row.encode(accid, forKey: .accid)
        try row.encode(player.status.rawValue, forKey: .status)
        try row.encode(player.revives, forKey: .revives)
        try row.encode(player.answered, forKey: .answered)
    }
}
