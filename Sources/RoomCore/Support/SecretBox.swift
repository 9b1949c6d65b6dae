import Crypto
import Foundation

/// Seals secrets a plugin must keep and show again later (a booked
/// teacher's password, for its student), so they are never stored in
/// clear. AES-GCM with `ROOMKEEPER_DATA_KEY` when the operator sets one, so
/// a database dump alone reveals nothing; otherwise with a key the database
/// keeps (`token_keys`, "data-v1"), which still keeps them out of logs,
/// exports and casual reads.
public final class SecretBox: Sendable {
    /// The operator's key bytes (SymmetricKey is not Sendable; bytes are).
    private let configured: [UInt8]?
    private let stored = TokenKeyring(keyID: "data-v1")

    /// `keyHex`: 64 hexadecimal digits, or nil for the database's key.
    public init(keyHex: String? = nil) {
        configured = keyHex.flatMap(Self.keyBytes(hex:))
    }

    /// 32 key bytes from 64 hexadecimal digits; nil for anything else.
    public static func keyBytes(hex: String) -> [UInt8]? {
        guard hex.utf8.count == 64 else { return nil }
        return TokenKeyring.bytes(hex: hex)
    }

    private func key(_ database: Database) async throws -> SymmetricKey {
        if let configured { return SymmetricKey(data: configured) }
        return try await stored.key(database)
    }

    /// "v1:" and the base64 of nonce, ciphertext and tag.
    public func seal(_ secret: String, database: Database) async throws -> String {
        let box = try AES.GCM.seal(Data(secret.utf8), using: try await key(database))
        guard let combined = box.combined else { throw RoomError.invalid(field: "secret", reason: "could not be sealed") }
        return "v1:" + combined.base64EncodedString()
    }

    /// The secret, or nil when `sealed` is not one of ours or the key changed.
    public func open(_ sealed: String, database: Database) async throws -> String? {
        guard sealed.hasPrefix("v1:"), let data = Data(base64Encoded: String(sealed.dropFirst(3))),
              let box = try? AES.GCM.SealedBox(combined: data),
              let plain = try? AES.GCM.open(box, using: try await key(database)) else { return nil }
        return String(data: plain, encoding: .utf8)
    }
}
