import Crypto
import Foundation

/// Signing by the Standard Webhooks specification (standardwebhooks.com):
/// `webhook-signature` is `v1,` and the base64 HMAC-SHA256, under the
/// secret's bytes, of `<webhook-id>.<webhook-timestamp>.<body>`. Several
/// signatures, space-separated, let a receiver move to a new secret while the
/// old one still verifies (rotation).
public enum StandardWebhooks {
    /// A `whsec_` secret: the prefix, then base64 of 24 to 64 random bytes.
    public struct Secret: Sendable, Equatable {
        public let bytes: [UInt8]

        public init?(_ text: String) {
            guard text.hasPrefix("whsec_"), let data = Data(base64Encoded: String(text.dropFirst(6))),
                  (24...64).contains(data.count) else { return nil }
            bytes = Array(data)
        }

        /// A fresh secret in its text form (`roomkeeper webhooks new-secret`).
        public static func generate() -> String {
            var generator = SystemRandomNumberGenerator()
            let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            return "whsec_" + Data(bytes).base64EncodedString()
        }
    }

    /// `v1,<base64 signature>` of one message under one secret.
    public static func signature(id: String, timestamp: Int, body: [UInt8], secret: Secret) -> String {
        var signed = Array("\(id).\(timestamp).".utf8)
        signed += body
        let mac = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: secret.bytes))
        return "v1," + Data(mac).base64EncodedString()
    }

    /// The three headers of one delivery attempt; one signature per secret.
    public static func headers(id: String, timestamp: Int, body: [UInt8], secrets: [Secret]) -> [(String, String)] {
        [
            ("webhook-id", id),
            ("webhook-timestamp", String(timestamp)),
            ("webhook-signature", secrets.map { signature(id: id, timestamp: timestamp, body: body, secret: $0) }.joined(separator: " ")),
        ]
    }

    /// A new message id: random, so it names neither tenant nor sequence.
    public static func newMessageID() -> String {
        "msg_" + Secrets.randomToken(bytes: 16)
    }
}
