import Foundation

/// What a plugin keeps on each of its rooms (#28, item 4): a `Codable` value,
/// its `RoomPlugin.Attributes`, stored as the room's `attributes` jsonb. A
/// plugin sets it once when it prepares a room and reads it typed; the list
/// cache keeps it decoded, so a lobby's rooms are decoded once when they
/// enter memory, not per row per request.
public struct NoAttributes: Codable, Sendable, Equatable {
    public init() {}
}

/// One encoder and decoder for attributes: keys sorted, so equal values are
/// equal text.
enum AttributeCoding {
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decode<A: Decodable>(_ type: A.Type, from text: String) -> A? {
        try? JSONDecoder().decode(type, from: Data(text.utf8))
    }
}

extension NewRoom {
    /// Sets the room's attributes from the plugin's typed value.
    public mutating func setAttributes(_ value: some Encodable) throws {
        attributes = try AttributeCoding.encode(value)
    }
}

extension Room {
    /// The room's attributes as the plugin's type, or nil when the stored
    /// object is not one (a room written before a field was added).
    public func attributes<A: Decodable>(as type: A.Type) -> A? {
        AttributeCoding.decode(type, from: attributes)
    }
}

extension ListedRoom {
    /// The listed room's attributes as the plugin's type: decoded when the
    /// list entered memory (`decodedAttributes`), or now if it was not.
    public func attributes<A: Decodable & Sendable>(as type: A.Type) -> A? {
        (decodedAttributes as? A) ?? room.attributes(as: type)
    }
}

/// Decodes a plugin's attributes once (the engine's side, made from
/// `RoomPlugin.Attributes` when the plugin binds).
public struct AttributesDecoder: Sendable {
    let decode: @Sendable (String) -> (any Sendable)?

    public init<A: Decodable & Sendable>(_ type: A.Type) {
        decode = { AttributeCoding.decode(type, from: $0) }
    }

    public func callAsFunction(_ text: String) -> (any Sendable)? { decode(text) }
}
