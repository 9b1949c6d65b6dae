import Crypto
import Foundation

/// Random high-entropy secrets (session tokens, API keys) need no stretching:
/// they are stored as SHA-256 and compared in constant time.
public enum Secrets {
    /// 32 random bytes as 64 lowercase hex characters.
    public static func randomToken(bytes: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }

    public static func sha256(_ value: String) -> [UInt8] {
        Array(SHA256.hash(data: Data(value.utf8)))
    }

    public static func sha256Hex(_ value: String) -> String {
        sha256(value).map { String(format: "%02x", $0) }.joined()
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
