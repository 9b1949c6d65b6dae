import Crypto
import Foundation
import Synchronization

/// The key that signs client tokens, made once per database and kept there
/// so tokens stay valid across restarts and across instances; cached here
/// after the first use.
public final class TokenKeyring: Sendable {
    let keyID: String
    private let cached = Mutex<[UInt8]?>(nil)

    /// `keyID` names the key: "v1" signs tokens, "data-v1" seals secrets.
    public init(keyID: String = "v1") {
        self.keyID = keyID
    }

    public func key(_ database: Database) async throws -> SymmetricKey {
        if let bytes = cached.withLock({ $0 }) { return SymmetricKey(data: bytes) }
        // The first cell's, whichever tenant asks first (#43): made in a
        // tenant's cell, it would differ from the key another restart reads.
        let keyID = keyID
        let rows = try await database.inFirstCell {
            try await database.query("""
                INSERT INTO token_keys (key_id, secret, created_at)
                VALUES (\(keyID), \(Secrets.randomToken(bytes: 32)), now())
                ON CONFLICT (key_id) DO NOTHING
                """)
            return try await database.query("SELECT secret FROM token_keys WHERE key_id = \(keyID)")
        }
        guard let secret = try rows.decode(String.self).first, let bytes = Self.bytes(hex: secret) else {
            throw RoomError.invalid(field: "token_keys", reason: "the signing key is missing or damaged")
        }
        cached.withLock { $0 = bytes }
        return SymmetricKey(data: bytes)
    }

    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2), !digits.isEmpty else { return nil }
        var bytes: [UInt8] = []
        var index = 0
        while index < digits.count {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
            index += 2
        }
        return bytes
    }
}
