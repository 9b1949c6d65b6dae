import Foundation

/// Tencent Cloud's signatures, as Tencent Cloud Live's documentation gives
/// them (URL anti-leech, API 3.0 signature v3, callback authentication) and
/// the README's "Vendor providers" sums them up: the live URL anti-leech
/// `txSecret`, API 3.0's TC3-HMAC-SHA256, and the push/cut callback `sign`.
/// `ProviderVectorTests` holds the vectors they are checked against.
public enum TencentSigning {
    /// `txTime`: the expiry as uppercase hex Unix seconds.
    public static func txTime(_ expiresAt: Date) -> String {
        String(Int64(expiresAt.timeIntervalSince1970), radix: 16, uppercase: true)
    }

    /// `txSecret` = MD5(key + stream + txTime).
    public static func txSecret(key: String, stream: String, txTime: String) -> String {
        Digests.md5(key + stream + txTime)
    }

    /// The callback's `sign` = MD5(callbackKey + t).
    public static func callbackSign(key: String, t: String) -> String {
        Digests.md5(key + t)
    }

    public struct TC3Request: Sendable {
        public var secretID: String
        public var secretKey: String
        public var service: String
        public var host: String
        public var contentType: String
        public var timestamp: Int64
        public var body: String

        public init(secretID: String, secretKey: String, service: String, host: String, contentType: String, timestamp: Int64, body: String) {
            self.secretID = secretID
            self.secretKey = secretKey
            self.service = service
            self.host = host
            self.contentType = contentType
            self.timestamp = timestamp
            self.body = body
        }

        /// yyyy-mm-dd of the timestamp, UTC.
        public var date: String {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(timestamp)))
            return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
        }

        public var signature: String {
            let canonical = "POST\n/\n\ncontent-type:\(contentType)\nhost:\(host)\n\ncontent-type;host\n\(Digests.sha256(Array(body.utf8)))"
            let scope = "\(date)/\(service)/tc3_request"
            let stringToSign = "TC3-HMAC-SHA256\n\(timestamp)\n\(scope)\n\(Digests.sha256(Array(canonical.utf8)))"
            let kDate = Digests.hmacSHA256(key: Array("TC3\(secretKey)".utf8), date)
            let kService = Digests.hmacSHA256(key: kDate, service)
            let kSigning = Digests.hmacSHA256(key: kService, "tc3_request")
            return Digests.hex(Digests.hmacSHA256(key: kSigning, stringToSign))
        }

        public var authorization: String {
            "TC3-HMAC-SHA256 Credential=\(secretID)/\(date)/\(service)/tc3_request, SignedHeaders=content-type;host, Signature=\(signature)"
        }
    }
}
