import Crypto
import Foundation
import RoomCore

/// The digests vendors sign with, as lowercase hex.
enum Digests {
    static func sha1(_ text: String) -> String { hex(Insecure.SHA1.hash(data: Data(text.utf8))) }
    static func md5(_ text: String) -> String { md5(Array(text.utf8)) }
    static func md5(_ bytes: [UInt8]) -> String { hex(Insecure.MD5.hash(data: bytes)) }
    static func sha256(_ bytes: [UInt8]) -> String { hex(SHA256.hash(data: bytes)) }
    static func hmacSHA256(key: [UInt8], _ text: String) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: SymmetricKey(data: key)))
    }

    static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Secrets.hex(bytes)
    }

    /// Constant-time comparison of two signatures as sent.
    static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.lowercased().utf8), y = Array(b.lowercased().utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    static func nonce(_ length: Int = 16) -> String {
        String((0..<length).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement()! })
    }
}
