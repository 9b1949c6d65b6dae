import Foundation
import Synchronization

/// What a plugin keeps on each of its rooms (#28, item 4): a `Codable` value,
/// its `RoomPlugin.Attributes`, stored as the room's `attributes` jsonb. A
/// plugin sets it once when it prepares a room and reads it typed; the list
/// cache keeps each listed room's decoded value once it is first read, so a
/// lobby polled a thousand times decodes each room it shows once.
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
    /// The listed room's attributes as the plugin's type: the list's memo
    /// (decoded on its first read, kept while the list is), or decoded now
    /// when the list has none.
    public func attributes<A: Decodable & Sendable>(as type: A.Type) -> A? {
        (attributesMemo?.value as? A) ?? room.attributes(as: type)
    }
}

/// A listed room's attributes, decoded at most once and kept with the list
/// that holds the room. Not at load: a list is read again after every change
/// of it (each create and dissolve in `ops/bench` figure 1), and decoding its
/// hundred rooms then, where a page shows twenty, cost 1.3 % of the server's
/// CPU in that run's profile.
public final class AttributesMemo: Sendable {
    private let text: String
    private let decoder: AttributesDecoder
    /// nil until first read; then the decoded value, or nil inside if the
    /// text is not one.
    private let decoded = Mutex<(any Sendable)??>(nil)

    public init(text: String, decoder: AttributesDecoder) {
        self.text = text
        self.decoder = decoder
    }

    var value: (any Sendable)? {
        if let known = decoded.withLock({ $0 }) { return known }
        let value = decoder(text)
        decoded.withLock { $0 = .some(value) }
        return value
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
