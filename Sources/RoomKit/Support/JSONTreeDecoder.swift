import Foundation

/// Values decoded from JSON text through our own parser (`JSONParser`), not
/// Foundation's `JSONDecoder`: a plugin's rows are read this way on every
/// change (`RoomRow.decoded`), and `JSONDecoder` there was 4.5 % of the
/// server's samples in ops/bench figure 5 (seat moves, `--profile-figure 5`,
/// 2026-11-29): it boxes each value and looks up generic metadata per call.
///
/// Only what decodes the ordinary way is decided here. A value this decoder
/// cannot decide exactly is handed to `JSONDecoder` whole, so the result, or
/// the error, is always `JSONDecoder`'s: a missing key, a type that does not
/// match, an integer written with a fraction or exponent, and the types
/// `JSONDecoder` reads by its own rules (`Date`, `Data`, `URL`, `Decimal`).
/// `JSONTreeDecoderTests` compare both decoders.
public enum JSONTreeDecoder {
    public static func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        if let tree = JSONParser<JSONTree>.parse(text), let value = try? T(from: TreeDecoder(tree, path: [])) { return value }
        return try JSONDecoder().decode(type, from: Data(text.utf8))
    }
}

/// Parsed JSON with its numbers as written: an `Int64` beyond 2^53 stays exact.
enum JSONTree: JSONTreeNode {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONTree])
    case object([String: JSONTree])

    static func parsedNumber(_ text: String) -> JSONTree? { .number(text) }
}

/// What `TreeDecoder` leaves to `JSONDecoder` (never seen by a caller).
struct HandedToJSONDecoder: Error {}

/// A value of `JSONTree` as `Decoder`.
struct TreeDecoder: Decoder {
    let tree: JSONTree
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ tree: JSONTree, path: [any CodingKey]) {
        self.tree = tree
        codingPath = path
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = tree else { throw HandedToJSONDecoder() }
        return KeyedDecodingContainer(TreeKeyedContainer(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = tree else { throw HandedToJSONDecoder() }
        return TreeUnkeyedContainer(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        TreeSingleValueContainer(tree: tree, codingPath: codingPath)
    }

    /// One value: scalars read here, anything else through its own `init(from:)`.
    static func value<T: Decodable>(_ tree: JSONTree, as type: T.Type, path: [any CodingKey]) throws -> T {
        // Types compared, not cast (as `WireJSONEncoder`): a cast per value is what costs.
        if T.self == String.self {
            guard case .string(let string) = tree else { throw HandedToJSONDecoder() }
            return unsafeBitCast(string, to: T.self)
        }
        if T.self == Bool.self {
            guard case .bool(let bool) = tree else { throw HandedToJSONDecoder() }
            return unsafeBitCast(bool, to: T.self)
        }
        if T.self == Int.self { return unsafeBitCast(try integer(tree, as: Int.self), to: T.self) }
        if T.self == Int64.self { return unsafeBitCast(try integer(tree, as: Int64.self), to: T.self) }
        if T.self == Int32.self { return unsafeBitCast(try integer(tree, as: Int32.self), to: T.self) }
        if T.self == UInt64.self { return unsafeBitCast(try integer(tree, as: UInt64.self), to: T.self) }
        if T.self == Double.self {
            guard case .number(let text) = tree, let double = Double(text), double.isFinite else { throw HandedToJSONDecoder() }
            return unsafeBitCast(double, to: T.self)
        }
        if T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self || T.self == Float.self {
            throw HandedToJSONDecoder()
        }
        return try T(from: TreeDecoder(tree, path: path))
    }

    /// An integer written as one (digits, an optional minus), in range.
    static func integer<I: FixedWidthInteger>(_ tree: JSONTree, as type: I.Type) throws -> I {
        guard case .number(let text) = tree, let integer = I(text, radix: 10), !text.hasPrefix("+") else { throw HandedToJSONDecoder() }
        return integer
    }
}

struct TreeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONTree]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func member(_ key: Key) throws -> JSONTree {
        guard let member = members[key.stringValue] else { throw HandedToJSONDecoder() }
        return member
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try member(key) { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try TreeDecoder.value(try member(key), as: type, path: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try TreeDecoder(try member(key), path: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try TreeDecoder(try member(key), path: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { throw HandedToJSONDecoder() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw HandedToJSONDecoder() }
}

struct TreeUnkeyedContainer: UnkeyedDecodingContainer {
    let items: [JSONTree]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(items: [JSONTree], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private mutating func next() throws -> JSONTree {
        guard !isAtEnd else { throw HandedToJSONDecoder() }
        defer { currentIndex += 1 }
        return items[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw HandedToJSONDecoder() }
        if case .null = items[currentIndex] {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let index = currentIndex
        return try TreeDecoder.value(try next(), as: type, path: codingPath + [IndexKey(index)])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let index = currentIndex
        return try TreeDecoder(try next(), path: codingPath + [IndexKey(index)]).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let index = currentIndex
        return try TreeDecoder(try next(), path: codingPath + [IndexKey(index)]).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { throw HandedToJSONDecoder() }

    struct IndexKey: CodingKey {
        let intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }
}

struct TreeSingleValueContainer: SingleValueDecodingContainer {
    let tree: JSONTree
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        if case .null = tree { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try TreeDecoder.value(tree, as: type, path: codingPath)
    }
}
