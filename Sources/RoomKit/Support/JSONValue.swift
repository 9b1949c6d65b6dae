import Foundation

/// Any JSON value, for passing through JSON we do not model (plugin
/// attributes, client bodies).
public enum JSONValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let bool = try? container.decode(Bool.self) { self = .bool(bool) }
        else if let number = try? container.decode(Double.self) { self = .number(number) }
        else if let string = try? container.decode(String.self) { self = .string(string) }
        else if let array = try? container.decode([JSONValue].self) { self = .array(array) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .number(let number):
            if number.rounded() == number, abs(number) < 9.0e15 { try container.encode(Int64(number)) } else { try container.encode(number) }
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }

    public static func parse(_ text: String) -> JSONValue? {
        JSONParser.parse(text)
    }

    /// The value as a wire parameter string: scalars as written, containers as JSON text.
    public var parameterText: String {
        switch self {
        case .null: ""
        case .bool(let bool): bool ? "true" : "false"
        case .number(let number): JSONWriter.numberText(number)
        case .string(let string): string
        case .array, .object: jsonText
        }
    }
}

extension JSONValue {
    /// Compact JSON text, keys sorted (`JSONWriter`).
    public var jsonText: String {
        JSONWriter.text(self)
    }

    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    public var object: [String: JSONValue]? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// A number, sent as a JSON number or a numeric string.
    public var double: Double? {
        switch self {
        case .number(let number): number
        case .string(let string): Double(string)
        default: nil
        }
    }
}

extension JSONValue {
    /// An integer, sent as a JSON number or a string.
    public var int64: Int64? {
        switch self {
        case .number(let number): Int64(exactly: number)
        case .string(let string): Int64(string)
        default: nil
        }
    }

    public var string: String? {
        if case .string(let string) = self { return string }
        return nil
    }
}

extension JSONValue {
    /// `value` as a JSON string literal, for building exact wire JSON by hand.
    public static func literal(_ value: String) -> String {
        // Most values (ids, accounts) need no escaping: copied whole.
        if !value.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }) { return "\"" + value + "\"" }
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20: out += String(format: "\\u%04x", c.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// Compact JSON text of any Encodable (message bodies, outbox payloads);
/// keys sorted so equal values give equal text.
public enum JSONText {
    public static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}
