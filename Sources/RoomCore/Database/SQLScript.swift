import Foundation

/// Splits a SQL file into statements. PostgresNIO sends every query as a
/// prepared statement, which holds one command, so a migration file runs
/// statement by statement. Semicolons inside quotes, identifiers, comments
/// and dollar-quoted bodies do not split.
public enum SQLScript {
    public static func statements(_ script: String) -> [String] {
        let characters = Array(script)
        var statements: [String] = []
        var current = ""
        var index = 0

        func flush() {
            let trimmed = current.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty, !isOnlyComments(trimmed) { statements.append(trimmed) }
            current = ""
        }

        while index < characters.count {
            let character = characters[index]
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            switch character {
            case "'", "\"":
                let end = closing(character, in: characters, from: index + 1)
                current += String(characters[index..<end])
                index = end
            case "-" where next == "-":
                let end = characters[index...].firstIndex(of: "\n") ?? characters.count
                current += String(characters[index..<end])
                index = end
            case "/" where next == "*":
                var end = index + 2
                while end + 1 < characters.count, !(characters[end] == "*" && characters[end + 1] == "/") { end += 1 }
                end = min(characters.count, end + 2)
                current += String(characters[index..<end])
                index = end
            case "$":
                if let tagEnd = dollarTagEnd(characters, from: index) {
                    let tag = characters[index...tagEnd]
                    var end = tagEnd + 1
                    while end < characters.count, !characters[end...].starts(with: tag) { end += 1 }
                    end = min(characters.count, end + tag.count)
                    current += String(characters[index..<end])
                    index = end
                } else {
                    current.append(character)
                    index += 1
                }
            case ";":
                flush()
                index += 1
            default:
                current.append(character)
                index += 1
            }
        }
        flush()
        return statements
    }

    /// Index just past the closing quote ('' and "" escape themselves).
    private static func closing(_ quote: Character, in characters: [Character], from start: Int) -> Int {
        var index = start
        while index < characters.count {
            if characters[index] == quote {
                if index + 1 < characters.count, characters[index + 1] == quote { index += 2; continue }
                return index + 1
            }
            index += 1
        }
        return characters.count
    }

    /// `$tag$` or `$$` starting at `start`: the index of its closing `$`.
    private static func dollarTagEnd(_ characters: [Character], from start: Int) -> Int? {
        var index = start + 1
        while index < characters.count {
            let character = characters[index]
            if character == "$" { return index }
            guard character.isLetter || character == "_" || (character.isNumber && index > start + 1) else { return nil }
            index += 1
        }
        return nil
    }

    private static func isOnlyComments(_ text: String) -> Bool {
        text.split(separator: "\n").allSatisfy { $0.trimmingCharacters(in: .whitespaces).hasPrefix("--") }
    }
}
