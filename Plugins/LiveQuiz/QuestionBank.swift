import RoomKit

/// A game's questions: those the host's create call gives (`questions`, a
/// JSON array of `{question, options:[text…], rightAnswer}` with the right
/// answer's 0-based index), or the built-in bank. At least 3, as the seed's.
enum QuestionBank {
    struct Entry: Sendable, Equatable {
        let question: String
        let options: [String]
        let rightAnswer: Int
    }

    static let builtIn = [
        Entry(question: "中国的首都是哪座城市？", options: ["上海", "北京", "广州"], rightAnswer: 1),
        Entry(question: "一年有几个季节？", options: ["三个", "四个", "五个"], rightAnswer: 1),
        Entry(question: "水的化学式是什么？", options: ["H2O", "CO2", "O2"], rightAnswer: 0),
    ]

    static let fields: Set<String> = ["question", "options", "rightAnswer"]

    static func questions(_ json: String?) throws -> [Entry] {
        guard let json else { return builtIn }
        guard case .array(let items)? = JSONValue.parse(json) else { throw ParameterError(field: "questions", reason: "must be a JSON array") }
        guard (3...50).contains(items.count) else { throw ParameterError(field: "questions", reason: "must hold 3 to 50 questions") }
        return try items.enumerated().map { index, item in
            let field = "questions[\(index)]"
            // Exactly these fields, as the admin contract states them (a typo is refused, not ignored).
            if let extra = item.object?.keys.sorted().first(where: { !Self.fields.contains($0) }) {
                throw ParameterError(field: "\(field).\(extra)", reason: "is not a field of a question (question, options, rightAnswer)")
            }
            guard let question = item["question"]?.string, TextRules.fits(question, 1...500) else {
                throw ParameterError(field: "\(field).question", reason: "must be 1-500 characters without NUL")
            }
            guard case .array(let options)? = item["options"], (2...6).contains(options.count),
                  let texts = Optional(options.compactMap(\.string)), texts.count == options.count, texts.allSatisfy({ TextRules.fits($0, 1...200) }) else {
                throw ParameterError(field: "\(field).options", reason: "must be 2-6 texts of 1-200 characters without NUL")
            }
            guard let right = item["rightAnswer"]?.int64, (0..<Int64(texts.count)).contains(right) else {
                throw ParameterError(field: "\(field).rightAnswer", reason: "must be the right option's index, 0 to \(texts.count - 1)")
            }
            return Entry(question: question, options: texts, rightAnswer: Int(right))
        }
    }
}
