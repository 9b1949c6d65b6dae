import Foundation

/// NetEase Yunxin's request and callback signatures, as its server API
/// documentation gives them (CheckSum headers; callbacks also MD5 the body);
/// the README's "Vendor providers" sums them up and `ProviderVectorTests`
/// holds the vectors.
public enum NetEaseSigning {
    /// `CheckSum` of a request: SHA1(AppSecret + Nonce + CurTime).
    public static func checkSum(secret: String, nonce: String, curTime: String) -> String {
        Digests.sha1(secret + nonce + curTime)
    }

    /// A callback's `MD5` header: MD5 of the raw body.
    public static func bodyMD5(_ body: [UInt8]) -> String { Digests.md5(body) }

    /// A callback's `CheckSum`: SHA1(AppSecret + MD5 + CurTime).
    public static func callbackCheckSum(secret: String, md5: String, curTime: String) -> String {
        Digests.sha1(secret + md5 + curTime)
    }

    /// The headers every request carries.
    static func headers(appKey: String, secret: String, now: Date) -> [(String, String)] {
        let nonce = Digests.nonce(32)
        let curTime = String(Int64(now.timeIntervalSince1970))
        return [
            ("AppKey", appKey), ("Nonce", nonce), ("CurTime", curTime),
            ("CheckSum", checkSum(secret: secret, nonce: nonce, curTime: curTime)),
            ("Content-Type", "application/x-www-form-urlencoded;charset=utf-8"),
        ]
    }
}
