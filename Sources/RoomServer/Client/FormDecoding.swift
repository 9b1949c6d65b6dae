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
        if isJSON(body, text: text, contentType: contentType) {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty {
                guard case .object(let object)? = JSONValue.parse(trimmed) else {
                    throw ParameterError(field: "body", reason: "must be a JSON object")
                }
                for (key, value) in object where value != .null { values[key] = value.parameterText }
            }
        } else {
            values.merge(parseForm(text)) { _, body in body }
        }
        // PostgreSQL text cannot hold NUL: refused here, by name, before any route runs.
        // (By bytes: Foundation's substring search here was 0.9 % of figure 1's server samples.)
        let hasNUL: (String, String) -> Bool = { key, value in key.utf8.contains(0) || value.utf8.contains(0) }
        if values.contains(where: hasNUL), let (key, _) = values.sorted(by: { $0.key < $1.key }).first(where: hasNUL) {
            throw ParameterError(field: key.replacingOccurrences(of: "\u{0}", with: ""), reason: "must not contain NUL characters")
        }
        return WireParameters(values)
    }

    /// A JSON body: said so, or starting with `{` after white space. Only a
    /// body that starts with a byte past ASCII is trimmed by Foundation to
    /// find out (its white space includes Unicode's).
    private static func isJSON(_ body: [UInt8], text: String, contentType: String?) -> Bool {
        if let contentType, containsJSON(contentType.utf8) { return true }
        guard let first = body.first(where: { !($0 == 0x20 || (0x09...0x0D).contains($0)) }) else { return false }
        if first < 0x80 { return first == UInt8(ascii: "{") }
        return text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("{")
    }

    /// "json" in any case, as `lowercased().contains("json")` found it.
    static func containsJSON(_ bytes: String.UTF8View) -> Bool {
        let word = Array("json".utf8)
        var matched = 0
        for byte in bytes {
            let lower = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
            if lower == word[matched] {
                matched += 1
                if matched == word.count { return true }
            } else {
                matched = lower == word[0] ? 1 : 0
            }
        }
        return false
    }

    static func parseForm(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for pair in Array(text.utf8).split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let key = decode(pair[..<equals])
            guard !key.isEmpty else { continue }
            values[key] = decode(pair[pair.index(after: equals)...])
        }
        return values
    }

    /// `+` as a space and `%XX` as its byte. A part with a malformed escape,
    /// or that is not UTF-8 once decoded, is kept as sent (`+` still a
    /// space), as Foundation's `removingPercentEncoding` left it: by bytes
    /// instead, since Foundation's string methods were 3.5 % of the server's
    /// CPU samples in figure 1.
    static func decode(_ part: ArraySlice<UInt8>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(part.count)
        var index = part.startIndex
        var escaped = true
        while index < part.endIndex {
            let byte = part[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < part.endIndex, let high = hexValue(part[index + 1]), let low = hexValue(part[index + 2]) else {
                    escaped = false
                    break
                }
                bytes.append(high << 4 | low)
                index += 3
                continue
            }
            bytes.append(byte == UInt8(ascii: "+") ? 0x20 : byte)
            index += 1
        }
        if escaped, let decoded = String(validating: bytes, as: UTF8.self) { return decoded }
        return String(decoding: part.map { $0 == UInt8(ascii: "+") ? 0x20 : $0 }, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
