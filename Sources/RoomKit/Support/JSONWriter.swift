/// Compact JSON text of a `JSONValue`, written by hand (#28, item 7's
/// profile: Foundation's JSONEncoder, through its generic containers, took
/// 3.7 % of the server's CPU in `ops/bench` figure 1, almost all of it for
/// audio-chatroom's eight first seat rows of each create). Keys are sorted,
/// so equal values are equal text; `/` is not escaped.
enum JSONWriter {
    static func text(_ value: JSONValue) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        write(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func write(_ value: JSONValue, to bytes: inout [UInt8]) {
        switch value {
        case .null: bytes += "null".utf8
        case .bool(let bool): bytes += (bool ? "true" : "false").utf8
        case .number(let number): bytes += numberText(number).utf8
        case .string(let string): write(string, to: &bytes)
        case .array(let array):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in object.keys.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                write(object[key]!, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// As `JSONEncoder` writes a `JSONValue`'s number: whole numbers without
    /// a fraction (beyond 9 × 10¹⁵ too, where `JSONValue` encodes a
    /// `Double`, which `JSONEncoder` writes whole); JSON has no infinity or
    /// NaN, so those are `null`.
    static func numberText(_ number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number.rounded() == number, abs(number) < 9.2e18 { return String(Int64(number)) }
        return String(number)
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    static func write(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0..<0x20: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
