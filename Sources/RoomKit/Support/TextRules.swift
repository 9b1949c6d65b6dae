/// Text as the admin contract describes it and the engine checks it, from
/// one definition (#27: schemathesis found schema-valid requests refused).
/// Lengths are Unicode scalars, as JSON Schema (and Python) count them, never
/// bytes or grapheme clusters; NUL is never text (PostgreSQL refuses it).
public enum TextRules {
    /// Foundation's `whitespacesAndNewlines`, spelled out: the contract's
    /// pattern must name the very set the engine trims (a regex `\s` differs:
    /// Python's includes U+001C-U+001F, which Foundation does not trim).
    static let blankRanges: [ClosedRange<UInt32>] = [
        0x09...0x0D, 0x20...0x20, 0x85...0x85, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A,
        0x2028...0x2029, 0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000,
    ]

    public static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        blankRanges.contains { $0.contains(scalar.value) }
    }

    /// `text` without blank scalars at either end.
    public static func trimmed(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.firstIndex(where: { !isBlank($0) }), let last = scalars.lastIndex(where: { !isBlank($0) }) else { return "" }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[first...last])
        return String(view)
    }

    public static func length(_ text: String) -> Int { text.unicodeScalars.count }

    /// True for text of `range` scalars without NUL.
    public static func fits(_ text: String, _ range: ClosedRange<Int>) -> Bool {
        range.contains(length(text)) && !text.unicodeScalars.contains("\u{0}")
    }

    /// The JSON Schema of NUL-free text of `range` scalars.
    public static func schema(_ range: ClosedRange<Int>, description: String? = nil) -> JSONValue {
        var schema: [String: JSONValue] = [
            "type": "string", "minLength": .number(Double(range.lowerBound)), "maxLength": .number(Double(range.upperBound)),
            "pattern": .string(noNUL),
        ]
        if let description { schema["description"] = .string(description) }
        return .object(schema)
    }

    /// The JSON Schema of a name: NUL-free, `range` scalars, not only blanks.
    public static func nameSchema(_ range: ClosedRange<Int>, description: String) -> JSONValue {
        let blanks = blankRanges.map { $0.count == 1 ? escaped($0.lowerBound) : "\(escaped($0.lowerBound))-\(escaped($0.upperBound))" }.joined()
        return .object([
            "type": "string", "minLength": .number(Double(range.lowerBound)), "maxLength": .number(Double(range.upperBound)),
            "pattern": .string("^[^\\u0000]*[^\\u0000\(blanks)][^\\u0000]*$"), "description": .string(description),
        ])
    }

    static let noNUL = "^[^\\u0000]*$"

    private static func escaped(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
