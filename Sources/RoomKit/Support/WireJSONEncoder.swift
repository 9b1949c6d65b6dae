import Foundation

/// A client answer's JSON, written straight into bytes: the same bytes
/// Foundation's `JSONEncoder` (`.withoutEscapingSlashes`) writes, without
/// its tree of boxed values and the casts it tries on every value (#28,
/// item 7: the answers' `JSONEncoder` was 4.3 % of the server's samples in
/// `ops/bench` figure 1, the largest single cost of ours left).
/// `WireJSONEncoderTests` compare both encoders' bytes.
///
/// Only what encodes the ordinary way is written here: a value that needs
/// one of `JSONEncoder`'s own rules (`Data`, `URL`, `Decimal`, a
/// non-finite number), writes nothing, or uses containers out of order is
/// handed to `JSONEncoder` whole, so its answer is always `JSONEncoder`'s.
public enum WireJSONEncoder {
    public static func encode(_ value: some Encodable) throws -> Data {
        if let bytes = try? bytes(of: value) { return Data(bytes) }
        return try fallback.encode(value)
    }

    /// The bytes, or a throw when `JSONEncoder` must write this value.
    static func bytes(of value: some Encodable) throws -> [UInt8] {
        let output = JSONOutput()
        try output.write(value, at: nil)
        guard !output.handedOver else { throw Unsupported() }
        return output.bytes
    }

    struct Unsupported: Error {}

    private static let fallback: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()
}

/// The bytes written so far and the containers still open, innermost last.
/// A container may only write while it is open; writing to one closes the
/// containers opened inside it (a keyed container's nested container ends
/// when its parent writes its next key).
final class JSONOutput {
    var bytes: [UInt8] = []
    /// Set when the value must be `JSONEncoder`'s.
    var handedOver = false
    private var open: [(id: Int, closer: UInt8, count: Int)] = []
    private var nextID = 0

    init() {
        // A room with its attributes is about 300 bytes (figure 1's create).
        bytes.reserveCapacity(512)
    }

    /// Writes one value: a scalar directly, anything else through its own
    /// `encode(to:)`, closing what it opened.
    func write<T: Encodable>(_ value: T, at path: CodingPathNode?) throws {
        // Types compared, not cast: a cast per value is what made
        // JSONEncoder's cost (the bit casts below are of a value to its own type).
        if T.self == String.self {
            JSONWriter.write(unsafeBitCast(value, to: String.self), to: &bytes)
        } else if T.self == Int.self {
            writeInteger(unsafeBitCast(value, to: Int.self))
        } else if T.self == Int64.self {
            writeInteger(unsafeBitCast(value, to: Int64.self))
        } else if T.self == Bool.self {
            bytes += (unsafeBitCast(value, to: Bool.self) ? "true" : "false").utf8
        } else if T.self == EncodedJSON.self {
            bytes += unsafeBitCast(value, to: EncodedJSON.self).bytes
        } else if T.self == Data.self || T.self == URL.self || T.self == Decimal.self {
            // JSONEncoder writes these by its own rules, not by their `encode(to:)`.
            handedOver = true
        } else {
            let depth = open.count
            let encoder = ValueEncoder(output: self, path: path)
            try value.encode(to: encoder)
            if !encoder.wrote { handedOver = true }
            while open.count > depth { close() }
        }
    }

    func writeInteger(_ value: some BinaryInteger) {
        bytes += String(value).utf8
    }

    /// As `JSONEncoder` writes a finite number: its description, without a
    /// trailing ".0".
    func writeFloat<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) {
        guard value.isFinite else { handedOver = true; return }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes += text.utf8
    }

    /// Opens a container; its id is what its writes name.
    func begin(_ opener: UInt8, _ closer: UInt8) -> Int {
        bytes.append(opener)
        nextID += 1
        open.append((nextID, closer, 0))
        return nextID
    }

    /// Before a container's next element: the containers opened inside it
    /// end, and a comma goes between elements.
    func element(of id: Int) {
        guard let index = open.lastIndex(where: { $0.id == id }) else {
            handedOver = true
            return
        }
        while open.count > index + 1 { close() }
        if open[index].count > 0 { bytes.append(UInt8(ascii: ",")) }
        open[index].count += 1
    }

    func key(_ key: some CodingKey, of id: Int) {
        element(of: id)
        JSONWriter.write(key.stringValue, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    func isOpen(_ id: Int) -> Bool {
        open.contains { $0.id == id }
    }

    private func close() {
        bytes.append(open.removeLast().closer)
    }
}

/// The coding path, kept as a list from the leaf so a value pays for it only
/// when its code asks.
final class CodingPathNode {
    let parent: CodingPathNode?
    let key: any CodingKey

    init(parent: CodingPathNode?, key: any CodingKey) {
        self.parent = parent
        self.key = key
    }

    static func path(_ node: CodingPathNode?) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var current = node
        while let node = current {
            keys.append(node.key)
            current = node.parent
        }
        return keys.reversed()
    }
}

struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

/// The `Encoder` one value writes through: it may ask for one kind of
/// container (a keyed one again and again, as `JSONEncoder` merges them).
final class ValueEncoder: Encoder {
    let output: JSONOutput
    let path: CodingPathNode?
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var codingPath: [any CodingKey] { CodingPathNode.path(path) }
    private var keyed: Int?
    private(set) var wrote = false

    init(output: JSONOutput, path: CodingPathNode?) {
        self.output = output
        self.path = path
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if let keyed, output.isOpen(keyed) {
            return KeyedEncodingContainer(KeyedWriter(output: output, id: keyed, path: path))
        }
        if wrote { output.handedOver = true }
        wrote = true
        let id = output.begin(UInt8(ascii: "{"), UInt8(ascii: "}"))
        keyed = id
        return KeyedEncodingContainer(KeyedWriter(output: output, id: id, path: path))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if wrote { output.handedOver = true }
        wrote = true
        return UnkeyedWriter(output: output, id: output.begin(UInt8(ascii: "["), UInt8(ascii: "]")), path: path)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleWriter(encoder: self)
    }

    /// A single value's write: once, and only where nothing else was written.
    func claimSingle() -> Bool {
        if wrote {
            output.handedOver = true
            return false
        }
        wrote = true
        return true
    }
}

struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let output: JSONOutput
    let id: Int
    let path: CodingPathNode?
    var codingPath: [any CodingKey] { CodingPathNode.path(path) }

    mutating func encodeNil(forKey key: Key) throws {
        output.key(key, of: id)
        output.bytes += "null".utf8
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        output.key(key, of: id)
        output.bytes += (value ? "true" : "false").utf8
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        output.key(key, of: id)
        JSONWriter.write(value, to: &output.bytes)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws { output.key(key, of: id); output.writeFloat(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { output.key(key, of: id); output.writeFloat(value) }
    mutating func encode(_ value: Int, forKey key: Key) throws { output.key(key, of: id); output.writeInteger(value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { output.key(key, of: id); output.writeInteger(value) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { output.key(key, of: id); output.writeInteger(value) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { output.key(key, of: id); output.writeInteger(value) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { output.key(key, of: id); output.writeInteger(value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { output.key(key, of: id); output.writeInteger(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { output.key(key, of: id); output.writeInteger(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { output.key(key, of: id); output.writeInteger(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { output.key(key, of: id); output.writeInteger(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { output.key(key, of: id); output.writeInteger(value) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        output.key(key, of: id)
        try output.write(value, at: CodingPathNode(parent: path, key: key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        output.key(key, of: id)
        let nested = output.begin(UInt8(ascii: "{"), UInt8(ascii: "}"))
        return KeyedEncodingContainer(KeyedWriter<NestedKey>(output: output, id: nested, path: CodingPathNode(parent: path, key: key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        output.key(key, of: id)
        return UnkeyedWriter(output: output, id: output.begin(UInt8(ascii: "["), UInt8(ascii: "]")),
                             path: CodingPathNode(parent: path, key: key))
    }

    mutating func superEncoder() -> any Encoder {
        output.handedOver = true
        return ValueEncoder(output: JSONOutput(), path: path)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        output.handedOver = true
        return ValueEncoder(output: JSONOutput(), path: path)
    }
}

struct UnkeyedWriter: UnkeyedEncodingContainer {
    let output: JSONOutput
    let id: Int
    let path: CodingPathNode?
    private(set) var count = 0
    var codingPath: [any CodingKey] { CodingPathNode.path(path) }

    init(output: JSONOutput, id: Int, path: CodingPathNode?) {
        self.output = output
        self.id = id
        self.path = path
    }

    private mutating func next() {
        output.element(of: id)
        count += 1
    }

    mutating func encodeNil() throws { next(); output.bytes += "null".utf8 }
    mutating func encode(_ value: Bool) throws { next(); output.bytes += (value ? "true" : "false").utf8 }
    mutating func encode(_ value: String) throws { next(); JSONWriter.write(value, to: &output.bytes) }
    mutating func encode(_ value: Double) throws { next(); output.writeFloat(value) }
    mutating func encode(_ value: Float) throws { next(); output.writeFloat(value) }
    mutating func encode(_ value: Int) throws { next(); output.writeInteger(value) }
    mutating func encode(_ value: Int64) throws { next(); output.writeInteger(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        next()
        try output.write(value, at: CodingPathNode(parent: path, key: IndexKey(intValue: count - 1)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        next()
        return KeyedEncodingContainer(KeyedWriter<NestedKey>(output: output, id: output.begin(UInt8(ascii: "{"), UInt8(ascii: "}")),
                                                             path: CodingPathNode(parent: path, key: IndexKey(intValue: count - 1))))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        next()
        return UnkeyedWriter(output: output, id: output.begin(UInt8(ascii: "["), UInt8(ascii: "]")),
                             path: CodingPathNode(parent: path, key: IndexKey(intValue: count - 1)))
    }

    mutating func superEncoder() -> any Encoder {
        output.handedOver = true
        return ValueEncoder(output: JSONOutput(), path: path)
    }
}

struct SingleWriter: SingleValueEncodingContainer {
    let encoder: ValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    private var output: JSONOutput { encoder.output }

    mutating func encodeNil() throws { if encoder.claimSingle() { output.bytes += "null".utf8 } }
    mutating func encode(_ value: Bool) throws { if encoder.claimSingle() { output.bytes += (value ? "true" : "false").utf8 } }
    mutating func encode(_ value: String) throws { if encoder.claimSingle() { JSONWriter.write(value, to: &output.bytes) } }
    mutating func encode(_ value: Double) throws { if encoder.claimSingle() { output.writeFloat(value) } }
    mutating func encode(_ value: Float) throws { if encoder.claimSingle() { output.writeFloat(value) } }
    mutating func encode(_ value: Int) throws { if encoder.claimSingle() { output.writeInteger(value) } }
    mutating func encode(_ value: Int8) throws { if encoder.claimSingle() { output.writeInteger(value) } }
    mutating func encode(_ value: Int16) throws { if encoder.claimSingle() { output.writeInteger(value) } }
    mutating func encode(_ value: Int32) throws { if encoder.claimSingle() { output.writeInteger(value) } }
    mutating func encode(_ value: Int64) throws { if encoder.claimSingle() { output.writeInteger(value) } }
    mutating func encode(_ value: UInt) throws { if encoder.claimSingle() { output.writeInteger(value) } }
    mutating func encode(_ value: UInt8) throws { if encoder.claimSingle() { output.writeInteger(value) } }
    mutating func encode(_ value: UInt16) throws { if encoder.claimSingle() { output.writeInteger(value) } }
    mutating func encode(_ value: UInt32) throws { if encoder.claimSingle() { output.writeInteger(value) } }
    mutating func encode(_ value: UInt64) throws { if encoder.claimSingle() { output.writeInteger(value) } }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if encoder.claimSingle() { try output.write(value, at: encoder.path) }
    }
}
