import Foundation
import Synchronization

/// Which tables a plugin's statement may name: its own (declared in
/// `RoomPlugin.tables`) for anything, and the few engine relations published
/// for reading (`sharedForReading`). A backstop behind the handle's type:
/// the text is checked once per distinct statement and remembered, since a
/// plugin's statements are literals (a few dozen per plugin).
struct TableScope: Sendable {
    let own: Set<String>

    /// Engine relations a plugin may read, never write: account nicknames
    /// and roles (music-lesson's lessons), what the live provider reported
    /// of a stream (headset-live's list). Both are keyed by tenant.
    static let sharedForReading: Set<String> = ["accounts", "live_streams"]

    /// Why `sql` may not run, or nil.
    func refusal(_ query: TableQuery) -> String? {
        guard query.namesTenant else { return "it does not name the call's tenant (\\(.tenant))" }
        return Self.checked.withLock { cache in
            let key = CacheKey(sql: query.sql, own: own)
            if let known = cache[key] { return known }
            let verdict = Self.tableRefusal(query.sql, own: own)
            if cache.count < 4_096 { cache[key] = verdict }
            return verdict
        }
    }

    private struct CacheKey: Hashable {
        let sql: String
        let own: Set<String>
    }

    private static let checked = Mutex<[CacheKey: String?]>([:])

    /// The names after FROM, JOIN, INTO, UPDATE (a function call such as
    /// `generate_series(…)` is not a table); writes go to the plugin's own.
    static func tableRefusal(_ sql: String, own: Set<String>) -> String? {
        let ctes = commonTableExpressions(sql.lowercased())
        let words = sql.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "(") }).map(String.init)
        for (index, word) in words.enumerated() where index + 1 < words.count {
            guard ["from", "join", "into", "update"].contains(word) else { continue }
            // ON CONFLICT … DO UPDATE, FOR UPDATE, IS DISTINCT FROM x, extract(epoch FROM x): no table follows.
            let previous = index > 0 ? words[index - 1] : ""
            guard !["do", "for", "distinct"].contains(previous), !previous.hasSuffix("epoch") else { continue }
            let next = words[index + 1]
            guard !next.contains("(") else { continue }  // a function, or a subquery's parenthesis
            let writes = word == "into" || word == "update" || (word == "from" && previous == "delete")
            if own.contains(next) { continue }
            if !writes, sharedForReading.contains(next) || ctes.contains(next) { continue }
            return writes ? "it writes \(next), which is not one of the plugin's tables" : "it reads \(next), which is not one of the plugin's tables"
        }
        return nil
    }

    /// The names a statement's WITH clause gives its parts: reading one is
    /// reading what the statement itself computed (`WITH p AS (INSERT …
    /// RETURNING …) SELECT … FROM p`), not a table.
    static func commonTableExpressions(_ sql: String) -> Set<String> {
        let range = NSRange(sql.startIndex..., in: sql)
        return Set(cteName.matches(in: sql, range: range).compactMap { match in
            Range(match.range(at: 1), in: sql).map { String(sql[$0]) }
        })
    }

    private static let cteName = try! NSRegularExpression(
        pattern: #"(?:\bwith\s+(?:recursive\s+)?|\)\s*,\s*)([a-z_][a-z0-9_]*)\s+as\s+(?:not\s+)?(?:materialized\s+)?\("#)
}
