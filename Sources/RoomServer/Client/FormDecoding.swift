import Foundation
import RoomCore

/// Client parameters from the query string and the body, merged (the body
/// wins). Tolerates what the shipped apps send: pairs joined with `&&`
/// (empty pairs are skipped) and a bare value with no `key=` (treated as
/// absent). JSON bodies are flattened to strings.
enum FormDecoding {
    static func parameters(query: String?, body: [UInt8], contentType: String?) throws(ParameterError) -> WireParameters {
        var values = parseForm(query ?? "")
        let text = String(decoding: body, as: UTF8.self)
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let isJSON = contentType?.lowercased().contains("json") == true || trimmed.hasPrefix("{")
        if isJSON, !trimmed.isEmpty {
            guard case .object(let object)? = JSONValue.parse(trimmed) else {
                throw ParameterError(field: "body", reason: "must be a JSON object")
            }
            for (key, value) in object where value != .null { values[key] = value.parameterText }
        } else {
            values.merge(parseForm(text)) { _, body in body }
        }
        // PostgreSQL text cannot hold NUL: refused here, by name, before any route runs.
        if let (key, _) = values.sorted(by: { $0.key < $1.key }).first(where: { $0.key.contains("\u{0}") || $0.value.contains("\u{0}") }) {
            throw ParameterError(field: key.replacingOccurrences(of: "\u{0}", with: ""), reason: "must not contain NUL characters")
        }
        return WireParameters(values)
    }

    static func parseForm(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let key = decode(pair[..<equals])
            guard !key.isEmpty else { continue }
            values[key] = decode(pair[pair.index(after: equals)...])
        }
        return values
    }

    private static func decode(_ part: Substring) -> String {
        let spaced = part.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
