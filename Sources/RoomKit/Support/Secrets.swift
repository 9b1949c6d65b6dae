import Crypto
import Foundation

/// Random high-entropy secrets (session tokens, API keys) need no stretching:
/// they are stored as SHA-256 and compared in constant time.
public enum Secrets {
    /// 32 random bytes as 64 lowercase hex characters.
    public static func randomToken(bytes: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        return hex((0..<bytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    public static func sha256(_ value: String) -> [UInt8] {
        Array(SHA256.hash(data: Data(value.utf8)))
    }

    public static func sha256Hex(_ value: String) -> String {
        hex(SHA256.hash(data: Data(value.utf8)))
    }

    /// Lowercase hex. Every session check hashes its token: `String(format:)`
    /// per byte was 4 % of the server's CPU in ops/bench's flow (#19).
    public static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Constant-time comparison of two hex digests.
    public static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
