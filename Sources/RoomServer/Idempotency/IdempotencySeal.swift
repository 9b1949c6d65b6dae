import Crypto
import Foundation

/// Seals a kept answer under its `Idempotency-Key` (#41): a guest login's
/// answer holds a session and an IM token for 24 hours, and the rows are
/// read by whoever reads the database (a backup, a replica, an operator).
/// The key stays with its caller and only a digest of it is stored, so a
/// row opens only for a retry that sends the key again. AES-GCM: a row
/// changed or moved to another key's place fails to open.
struct IdempotencySeal: Sendable {
    /// The derived key's 32 bytes (SymmetricKey is not Sendable).
    private let keyBytes: Data

    init(key: String, scope: String) {
        let derived = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: Data(key.utf8)), salt: Data(scope.utf8),
                                             info: Data("roomkeeper idempotency answer v1".utf8), outputByteCount: 32)
        keyBytes = derived.withUnsafeBytes { Data($0) }
    }

    private var key: SymmetricKey { SymmetricKey(data: keyBytes) }

    func seal(_ plain: Data) throws -> Data {
        guard let combined = try AES.GCM.seal(plain, using: key).combined else { throw SealFailed() }
        return combined
    }

    /// nil when `sealed` was not sealed under this key.
    func open(_ sealed: Data) -> Data? {
        guard let box = try? AES.GCM.SealedBox(combined: sealed) else { return nil }
        return try? AES.GCM.open(box, using: key)
    }

    private struct SealFailed: Error {}
}
