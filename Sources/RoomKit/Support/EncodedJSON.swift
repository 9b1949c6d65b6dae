import Foundation

/// A value already written as JSON, sent as it is wherever it is encoded:
/// an answer many requests share is encoded once, not once for each
/// (`PluginRooms.join(…answer:)`, #41: encoding SealMic's room detail was
/// 15 % of the server's samples while 2,000 members joined one room).
public struct EncodedJSON: Encodable, Sendable {
    let bytes: [UInt8]

    public init(_ value: some Encodable) throws {
        bytes = Array(try WireJSONEncoder.encode(value))
    }

    /// Only when `JSONEncoder` writes the value around it (`WireJSONEncoder`
    /// copies the bytes): the JSON read back and written again.
    public func encode(to encoder: any Encoder) throws {
        try JSONDecoder().decode(JSONValue.self, from: Data(bytes)).encode(to: encoder)
    }
}
