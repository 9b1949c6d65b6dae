import Foundation

/// A client request's parameters, merged from the query string and the body
/// (form or JSON), as strings. Accessors throw `ParameterError` naming the
/// field; each wire style turns that into its own bad-parameter answer.
public struct WireParameters: Sendable, Equatable {
    public var values: [String: String]

    public init(_ values: [String: String] = [:]) {
        self.values = values
    }

    public subscript(_ name: String) -> String? {
        values[name]
    }

    public func string(_ name: String) -> String? {
        guard let value = values[name], !value.isEmpty else { return nil }
        return value
    }

    public func required(_ name: String) throws(ParameterError) -> String {
        guard let value = string(name) else { throw ParameterError(field: name, reason: "is required") }
        return value
    }

    /// An integer sent as a number or as a string ("60935727" and 60935727 alike).
    public func int64(_ name: String) throws(ParameterError) -> Int64? {
        guard let text = string(name) else { return nil }
        guard let value = Int64(text.trimmingCharacters(in: [" "])) else {
            throw ParameterError(field: name, reason: "must be an integer")
        }
        return value
    }

    public func requiredInt64(_ name: String) throws(ParameterError) -> Int64 {
        guard let value = try int64(name) else { throw ParameterError(field: name, reason: "is required") }
        return value
    }

    public func int(_ name: String, default fallback: Int, in range: ClosedRange<Int>) throws(ParameterError) -> Int {
        guard let value = try int64(name) else { return fallback }
        guard range.contains(Int(value)) else {
            throw ParameterError(field: name, reason: "must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return Int(value)
    }

    /// A required text of `characters` characters, trimmed. Its length is
    /// measured in bytes too (at most 4 a character): one "character" can be a
    /// base letter with thousands of combining marks.
    public func text(_ name: String, characters: ClosedRange<Int>) throws(ParameterError) -> String {
        let text = try required(name).trimmingCharacters(in: .whitespacesAndNewlines)
        guard characters.contains(text.count), text.utf8.count <= characters.upperBound * 4 else {
            throw ParameterError(field: name, reason: "must be \(characters.lowerBound)-\(characters.upperBound) characters (at most \(characters.upperBound * 4) bytes)")
        }
        return text
    }

    /// true/false, also 1/0 as some clients send.
    public func bool(_ name: String, default fallback: Bool) throws(ParameterError) -> Bool {
        guard let text = string(name) else { return fallback }
        switch text.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw ParameterError(field: name, reason: "must be true or false")
        }
    }
}

public struct ParameterError: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { "\(field) \(reason)" }
}

private extension String {
    func trimmingCharacters(in set: Set<Character>) -> String {
        String(drop(while: set.contains).reversed().drop(while: set.contains).reversed())
    }
}
