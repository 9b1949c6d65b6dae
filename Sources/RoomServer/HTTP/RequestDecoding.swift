import Foundation
import Hummingbird
import RoomCore

extension Request {
    /// Decodes a JSON body; a malformed body or a wrong field type becomes a
    /// 400 problem naming the field.
    func decodeJSON<T: AdminBody>(_ type: T.Type, context: RoomRequestContext) async throws -> T {
        let buffer: ByteBuffer
        do {
            buffer = try await body.collect(upTo: context.maxUploadSize)
        } catch {
            throw Problem(.contentTooLarge, code: "body_too_large", detail: "the body may be at most \(context.maxUploadSize) bytes")
        }
        let data = buffer.readableBytes == 0 ? Data("{}".utf8) : Data(buffer.readableBytesView)
        // Only the fields the route reads: the contract lets a body carry
        // others, which are ignored whatever they hold.
        if case .object(let parsed)? = JSONValue.parse(String(decoding: data, as: UTF8.self)) {
            if let field = AdminInputMiddleware.fieldWithNUL(.object(parsed.filter { T.fields.contains($0.key) })) {
                throw Problem.invalid(field, "must not contain NUL")
            }
            // Decoding reads an explicit null as absent; the contract types
            // these fields without null, so a null is refused as it says.
            if let field = T.fields.subtracting(T.nullable).sorted().first(where: { parsed[$0] == .null }) {
                throw Problem.invalid(field, "must not be null")
            }
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch DecodingError.typeMismatch(let expected, let where_) {
            let field = where_.codingPath.map(\.stringValue).joined(separator: ".")
            throw Problem.invalid(field.isEmpty ? "body" : field, "must be \(Self.describe(expected))")
        } catch DecodingError.keyNotFound(let key, _) {
            throw Problem.invalid(key.stringValue, "is required")
        } catch DecodingError.dataCorrupted(let where_) where !where_.codingPath.isEmpty {
            throw Problem.invalid(where_.codingPath.map(\.stringValue).joined(separator: "."), "is out of range")
        } catch {
            // Foundation calls a number beyond every integer (1e30) invalid
            // JSON, and fails a fraction (1.5) for an integer field without
            // naming it; our own parser reads both, so the field can be named.
            if let object = JSONValue.parse(String(decoding: data, as: UTF8.self))?.object {
                func number(_ key: String) -> Double? { if case .number(let n)? = object[key] { n } else { nil } }
                if let field = object.keys.sorted().first(where: { number($0).map { abs($0) >= 9.2e18 } ?? false }) {
                    throw Problem.invalid(field, "is out of range")
                }
                if let field = object.keys.sorted().first(where: { number($0).map { $0 != $0.rounded() } ?? false }) {
                    throw Problem.invalid(field, "must be an integer")
                }
            }
            throw Problem.invalid("body", "must be a JSON object")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "an integer"
        case is Bool.Type: "true or false"
        default: "a JSON object"
        }
    }
}

extension Parameters {
    func requireInt64(_ name: String) throws -> Int64 {
        guard let text = get(name), let value = Int64(text) else {
            throw Problem.invalid(name, "must be an integer id")
        }
        return value
    }
}

/// A JSON body of the admin API: the contract's schema it is. Its fields,
/// and those that may be null, are that schema's (`AdminContract.body`);
/// `AdminContractTests` decodes each body listed in `AdminAPI.bodies` and
/// proves it reads exactly those fields.
protocol AdminBody: Decodable, SendableMetatype {
    static var schema: String { get }
}

extension AdminBody {
    static var fields: Set<String> { AdminContract.body(schema).fields }
    /// Fields the contract lets be null (absent, in effect).
    static var nullable: Set<String> { AdminContract.body(schema).nullable }
}
