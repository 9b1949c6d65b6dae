import Foundation
@testable import RoomServer
import Testing

/// #42, item 5: an admin request body's fields are its contract schema's,
/// written once. Each body (`AdminAPI.bodies`) is decoded by a decoder that
/// records every key it asks for; those keys must be exactly the schema's
/// properties, and the keys it may read as absent exactly the optional ones.
@Suite struct AdminBodyTests {
    @Test func eachBodyReadsExactlyItsSchemasFields() throws {
        #expect(AdminAPI.bodies.count >= 6)
        for body in AdminAPI.bodies {
            let contract = AdminContract.body(body.schema)
            let read = try KeyRecorder.keys(of: body)
            #expect(read.all == contract.fields, "\(body) reads \(read.all.sorted()); \(body.schema) has \(contract.fields.sorted())")
            // A field the contract lets be null must be one the body may lack.
            #expect(contract.nullable.isSubset(of: read.optional), "\(body): \(contract.nullable.subtracting(read.optional).sorted()) may be null but are required")
        }
    }

    /// A backstop to the list: every `AdminBody` declared in the sources is
    /// in `AdminAPI.bodies` (the list is what start-up checks and this suite
    /// walks).
    @Test func everyDeclaredBodyIsListed() throws {
        let sources = AdminContractTests.sources.appendingPathComponent("RoomServer")
        var declared: Set<String> = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: #/struct (\w+): AdminBody\b/#) { declared.insert(String(match.output.1)) }
        }
        let listed = Set(AdminAPI.bodies.map { String(describing: $0) })
        #expect(!declared.isEmpty)
        #expect(declared == listed, "declared, not listed: \(declared.subtracting(listed).sorted()); listed, not declared: \(listed.subtracting(declared).sorted())")
    }

    @Test func aSchemaTheContractLacksIsNotABody() {
        #expect(AdminContract.bodies["NoSuchSchema"] == nil)
        #expect(AdminContract.body("NewBan").nullable == ["durationSeconds"])
        #expect(AdminContract.body("CreateRoom").fields == ["plugin", "name", "owner", "ttlSeconds", "options"])
    }
}

/// A decoder that answers every value with a placeholder and records the
/// keys a type's `init(from:)` asks for: all of them, and those it reads
/// with `decodeIfPresent` (absent allowed).
private final class KeyRecorder: Decoder {
    var all: Set<String> = []
    var optional: Set<String> = []
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(codingPath: [any CodingKey] = []) { self.codingPath = codingPath }

    static func keys(of type: any Decodable.Type) throws -> (all: Set<String>, optional: Set<String>) {
        let recorder = KeyRecorder()
        _ = try type.init(from: recorder)
        return (recorder.all, recorder.optional)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        // Only the top level is recorded: nested values are the fields' own.
        KeyedDecodingContainer(Keyed<Key>(recorder: codingPath.isEmpty ? self : KeyRecorder(codingPath: codingPath), codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { Empty(codingPath: codingPath) }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(codingPath: codingPath) }

    static func placeholder<T: Decodable>(_ type: T.Type, at path: [any CodingKey]) throws -> T {
        switch type {
        case is String.Type: return "" as! T
        case is Int.Type: return 0 as! T
        case is Int64.Type: return Int64(0) as! T
        case is Double.Type: return 0.0 as! T
        case is Bool.Type: return false as! T
        default: return try T(from: KeyRecorder(codingPath: path))
        }
    }

    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let recorder: KeyRecorder
        let codingPath: [any CodingKey]
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool {
            recorder.all.insert(key.stringValue)
            recorder.optional.insert(key.stringValue)
            return false
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            recorder.all.insert(key.stringValue)
            recorder.optional.insert(key.stringValue)
            return true
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            recorder.all.insert(key.stringValue)
            return try KeyRecorder.placeholder(type, at: codingPath + [key])
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            recorder.all.insert(key.stringValue)
            recorder.optional.insert(key.stringValue)
            return nil
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            recorder.all.insert(key.stringValue)
            return KeyedDecodingContainer(Keyed<NestedKey>(recorder: KeyRecorder(codingPath: codingPath + [key]), codingPath: codingPath + [key]))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            recorder.all.insert(key.stringValue)
            return Empty(codingPath: codingPath + [key])
        }

        func superDecoder() throws -> any Decoder { KeyRecorder(codingPath: codingPath) }
        func superDecoder(forKey key: Key) throws -> any Decoder { KeyRecorder(codingPath: codingPath + [key]) }
    }

    /// An empty array.
    private struct Empty: UnkeyedDecodingContainer {
        let codingPath: [any CodingKey]
        var count: Int? { 0 }
        var isAtEnd: Bool { true }
        var currentIndex: Int { 0 }
        mutating func decodeNil() throws -> Bool { true }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "empty"))
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "empty"))
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { self }
        mutating func superDecoder() throws -> any Decoder { KeyRecorder(codingPath: codingPath) }
    }

    /// A single value: its placeholder.
    private struct Single: SingleValueDecodingContainer {
        let codingPath: [any CodingKey]
        func decodeNil() -> Bool { true }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try KeyRecorder.placeholder(type, at: codingPath) }
    }
}
