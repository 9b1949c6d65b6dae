import Foundation
@testable import RoomKit
import Testing

/// Client answers are written by `WireJSONEncoder` (#28, item 7), whose
/// text must be Foundation's `JSONEncoder`'s with `.withoutEscapingSlashes`,
/// what every shipped client has parsed: each test compares both encoders on
/// the same value, and checks the value was written by ours, not handed over.
/// Only the order of an object's keys may differ: Foundation's follows its
/// dictionaries' hashing (another order in each process, even for a
/// struct's fields); ours is the order the value encodes them in.
@Suite struct WireJSONEncoderTests {
    static let foundation: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    /// Ours wrote it, byte for byte as Foundation.
    func expectSame<T: Encodable>(_ value: T, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let ours = try WireJSONEncoder.bytes(of: value)
        let theirs = try Self.foundation.encode(value)
        #expect(CanonicalJSON.text(ours) != nil, "ours is JSON", sourceLocation: sourceLocation)
        #expect(CanonicalJSON.text(ours) == CanonicalJSON.text(theirs), comment, sourceLocation: sourceLocation)
    }

    @Test func keysInTheOrderTheValueEncodesThem() throws {
        #expect(String(decoding: try WireProtocol.netease.successBody(Seat(index: 1, account: "a", muted: false)), as: UTF8.self)
                == #"{"code":200,"data":{"index":1,"account":"a","muted":false}}"#)
        #expect(String(decoding: WireProtocol.netease.failureBody(ClientError(code: 404, message: "no room")), as: UTF8.self)
                == #"{"code":404,"msg":"no room"}"#)
        #expect(String(decoding: try WireProtocol.sealmic.successBody([1, 2]), as: UTF8.self)
                == #"{"errCode":0,"errMsg":"OK","errDetail":"","data":{"result":[1,2]}}"#)
    }

    @Test func everyASCIICharacterAndSomeBeyond() throws {
        for scalar in 0..<0x80 {
            try expectSame("a\(Character(Unicode.Scalar(UInt8(scalar))))b", "U+\(String(scalar, radix: 16))")
        }
        for text in ["聊天室", "é", "🎤 mic", "\u{2028}\u{2029}", "\u{7F}", "https://x/a.png", "", "\\\"/"] {
            try expectSame(text)
            try expectSame(["key \(text)": text])
        }
    }

    @Test func numbersAsFoundationWritesThem() throws {
        var generator = SplitMix(seed: 28)
        var doubles: [Double] = [0, -0.0, 1, -1, 0.1, 1.5, 100, 1e15, 1e16, 1e21, 1e22, 1e-7, 123456789.125, .ulpOfOne,
                                 .leastNonzeroMagnitude, .greatestFiniteMagnitude, 9.0e15, -2.5e-300]
        for _ in 0..<2_000 {
            let double = Double(bitPattern: generator.next())
            if double.isFinite { doubles.append(double) }
            doubles.append(Double(Int64(bitPattern: generator.next()) % 1_000_000) / 1000)
        }
        try expectSame(doubles)
        for double in doubles.prefix(200) { try expectSame(double) }
        try expectSame(doubles.map { Float($0) }.filter(\.isFinite))
        try expectSame([Int.min, Int.max, 0, -1])
        try expectSame([Int64.min, Int64.max])
        try expectSame([UInt64.max])
        try expectSame([Int8.min, Int8.max])
        try expectSame([true, false])
    }

    @Test func randomJSONValues() throws {
        var generator = SplitMix(seed: 2028)
        for round in 0..<500 {
            try expectSame(JSONValue.random(using: &generator, depth: 4), "round \(round)")
        }
    }

    struct Seat: Codable { var index: Int; var account: String?; var muted: Bool }
    enum Kind: String, Codable { case open, closed }
    struct RoomAnswer: Codable {
        var roomId: Int64
        var name: String
        var kind: Kind
        var createdAt: Date
        var seats: [Seat]
        var attributes: JSONValue
        var note: String?
        var ratio: Double
        var nested: [[String]]
    }

    @Test func theWiresEnvelopesOfATypicalAnswer() throws {
        let answer = RoomAnswer(roomId: 1_234_567_890, name: "周五 \"night\" / room", kind: .open, createdAt: Date(timeIntervalSince1970: 1_764_000_000.25),
                                seats: (0..<8).map { Seat(index: $0, account: $0 % 3 == 0 ? nil : "acc\($0)", muted: $0 % 2 == 0) },
                                attributes: .object(["thumbnail": .string("https://cdn/x.png"), "level": .number(3)]),
                                note: nil, ratio: 0.75, nested: [[], ["a"], ["b", "c"]])
        for wire in [WireProtocol.netease, .sealmic] {
            try expectSame(wire.success(answer), "\(wire.name)")
            #expect(try wire.successBody(answer) == Data(WireJSONEncoder.bytes(of: wire.success(answer))))
            let error = ClientError(code: 404, message: "room 7 not found: \"x\"")
            try expectSame(wire.failure(error), "\(wire.name)")
        }
    }

    struct HasData: Encodable { var blob = Data([1, 2, 255]); var url = URL(string: "https://x/y")!; var amount = Decimal(string: "1.10")! }
    struct WritesNothing: Encodable { func encode(to encoder: any Encoder) throws {} }
    struct Wrapper<T: Encodable>: Encodable { var inner: T }
    /// Writes to a nested container after its parent moved on to another key.
    struct OutOfOrder: Encodable {
        enum Keys: String, CodingKey { case a, b }
        enum Inner: String, CodingKey { case x }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var first = container.nestedContainer(keyedBy: Inner.self, forKey: .a)
            try container.encode(1, forKey: .b)
            try first.encode(2, forKey: .x)
        }
    }

    @Test func whatFoundationWritesByItsOwnRulesIsHandedToIt() throws {
        #expect(throws: (any Error).self) { try WireJSONEncoder.bytes(of: HasData()) }
        #expect(CanonicalJSON.text(try WireJSONEncoder.encode(HasData())) == CanonicalJSON.text(try Self.foundation.encode(HasData())))
        #expect(throws: (any Error).self) { try WireJSONEncoder.bytes(of: Wrapper(inner: WritesNothing())) }
        #expect(try WireJSONEncoder.encode(Wrapper(inner: WritesNothing())) == Self.foundation.encode(Wrapper(inner: WritesNothing())))
        #expect(String(decoding: try WireJSONEncoder.encode(Wrapper(inner: WritesNothing())), as: UTF8.self) == #"{"inner":{}}"#)
        #expect(throws: (any Error).self) { try WireJSONEncoder.bytes(of: OutOfOrder()) }
        #expect(CanonicalJSON.text(try WireJSONEncoder.encode(OutOfOrder())) == CanonicalJSON.text(try Self.foundation.encode(OutOfOrder())))
        #expect(throws: (any Error).self) { try WireJSONEncoder.bytes(of: [Double.nan]) }
        #expect(throws: (any Error).self) { try WireJSONEncoder.encode([Double.infinity]) }
    }
}

/// A seeded generator: the same values on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension JSONValue {
    static func random(using generator: inout SplitMix, depth: Int) -> JSONValue {
        let pick = Int.random(in: 0..<(depth > 0 ? 7 : 5), using: &generator)
        switch pick {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .number(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)) / [1, 10, 1000][Int.random(in: 0..<3, using: &generator)])
        case 3, 4: return .string(randomText(using: &generator))
        case 5: return .array((0..<Int.random(in: 0..<5, using: &generator)).map { _ in random(using: &generator, depth: depth - 1) })
        default:
            var object: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0..<5, using: &generator) {
                object[randomText(using: &generator)] = random(using: &generator, depth: depth - 1)
            }
            return .object(object)
        }
    }

    static func randomText(using generator: inout SplitMix) -> String {
        let pieces = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{1F}", "é", "聊", "🎤", "\u{2028}", "{}", "[", ":"]
        return (0..<Int.random(in: 0..<8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }
}

/// JSON text with each object's members sorted by their key as written,
/// every other byte as written: two encoders' outputs compared but for key order.
enum CanonicalJSON {
    static func text(_ bytes: some Collection<UInt8>) -> String? {
        var reader = Reader(bytes: Array(bytes))
        guard let value = reader.value(), reader.index == reader.bytes.count else { return nil }
        return value
    }

    struct Reader {
        let bytes: [UInt8]
        var index = 0

        mutating func value() -> String? {
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [String] = []
                while index < bytes.count, bytes[index] != UInt8(ascii: "}") {
                    if !members.isEmpty { guard take(",") else { return nil } }
                    guard let key = string(), take(":"), let value = value() else { return nil }
                    members.append(key + ":" + value)
                }
                guard take("}") else { return nil }
                return "{" + members.sorted().joined(separator: ",") + "}"
            case UInt8(ascii: "["):
                index += 1
                var elements: [String] = []
                while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
                    if !elements.isEmpty { guard take(",") else { return nil } }
                    guard let element = value() else { return nil }
                    elements.append(element)
                }
                guard take("]") else { return nil }
                return "[" + elements.joined(separator: ",") + "]"
            case UInt8(ascii: "\""):
                return string()
            default:
                let start = index
                while index < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}")].contains(bytes[index]) { index += 1 }
                return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
            }
        }

        mutating func string() -> String? {
            guard take("\"") else { return nil }
            let start = index - 1
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard take("\"") else { return nil }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }
    }
}
