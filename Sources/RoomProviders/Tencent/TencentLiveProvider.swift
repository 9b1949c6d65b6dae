import Foundation
import RoomCore

/// Tencent Cloud Live: push and pull URLs signed with txSecret/txTime, the
/// online list and drop through API 3.0 (TC3-HMAC-SHA256), and the signed
/// push/cut callback.
public struct TencentLiveProvider: LiveProvider, CallbackVerifier {
    public struct Configuration: Sendable {
        public var pushDomain: String
        public var pushKey: String
        public var playDomain: String
        public var playKey: String
        public var app: String
        public var secretID: String
        public var secretKey: String
        public var callbackKey: String
        public var apiURL: String
        public var timeoutSeconds: Double

        public init(pushDomain: String, pushKey: String, playDomain: String, playKey: String, app: String = "live",
                    secretID: String, secretKey: String, callbackKey: String,
                    apiURL: String = "https://live.tencentcloudapi.com/", timeoutSeconds: Double = 5) {
            self.pushDomain = pushDomain
            self.pushKey = pushKey
            self.playDomain = playDomain
            self.playKey = playKey
            self.app = app
            self.secretID = secretID
            self.secretKey = secretKey
            self.callbackKey = callbackKey
            self.apiURL = apiURL
            self.timeoutSeconds = timeoutSeconds
        }
    }

    let configuration: Configuration
    let clock: any RoomClock
    let http: ProviderHTTP

    public init(_ configuration: Configuration, clock: any RoomClock) {
        self.configuration = configuration
        self.clock = clock
        self.http = ProviderHTTP(provider: "tencent-live", timeoutSeconds: configuration.timeoutSeconds)
    }

    public var kind: String { "tencent" }
    public var callbackName: String { "tencent" }

    public func pushURL(stream: String, expiresAt: Date) async throws -> String {
        "rtmp://\(configuration.pushDomain)/\(configuration.app)/\(stream)?\(query(stream, key: configuration.pushKey, expiresAt: expiresAt))"
    }

    public func pullURLs(stream: String, expiresAt: Date) async throws -> LivePullURLs {
        let signed = query(stream, key: configuration.playKey, expiresAt: expiresAt)
        let base = "\(configuration.playDomain)/\(configuration.app)/\(stream)"
        return LivePullURLs(rtmp: "rtmp://\(base)?\(signed)", flv: "https://\(base).flv?\(signed)", hls: "https://\(base).m3u8?\(signed)")
    }

    public func onlineStreams() async throws -> [String] {
        var streams: [String] = []
        var page = 1
        while true {
            let answer = try await api("DescribeLiveStreamOnlineList", [
                "DomainName": .string(configuration.pushDomain), "AppName": .string(configuration.app),
                "PageNum": .number(Double(page)), "PageSize": .number(100),
            ], idempotent: true)
            if case .array(let online)? = answer["OnlineInfo"] { streams += online.compactMap { $0["StreamName"]?.string } }
            let pages = answer["TotalPage"]?.int64 ?? 1
            if Int64(page) >= pages || page >= 100 { return streams }
            page += 1
        }
    }

    /// Whether Tencent lists the stream as being published now.
    public func isStreamLive(_ stream: String) async throws -> Bool {
        let answer = try await api("DescribeLiveStreamOnlineList", [
            "DomainName": .string(configuration.pushDomain), "AppName": .string(configuration.app),
            "PageNum": 1, "PageSize": 10, "StreamName": .string(stream),
        ], idempotent: true)
        guard case .array(let online)? = answer["OnlineInfo"] else { return false }
        return online.contains { $0["StreamName"]?.string == stream }
    }

    /// Tencent's `sign` covers only `t`, not the body: anyone holding one
    /// captured callback could forge a cut for any stream until `t`. A cut
    /// (which expires the live room) is acted on only when Tencent's API
    /// agrees the stream is no longer live. A start is harmless: it only
    /// marks a stream live that the room's owner was given a push URL for.
    public func confirm(_ events: [ProviderEvent]) async throws -> [ProviderEvent] {
        var confirmed: [ProviderEvent] = []
        for event in events {
            if case .stream(let name, live: false) = event, try await isStreamLive(name) { continue }
            confirmed.append(event)
        }
        return confirmed
    }

    /// A stream that is not live any more counts as dropped.
    public func dropStream(_ stream: String) async throws {
        do {
            _ = try await api("DropLiveStream", [
                "StreamName": .string(stream), "DomainName": .string(configuration.pushDomain), "AppName": .string(configuration.app),
            ], idempotent: true)
        } catch MediaError.rejected(_, let code, _) where code.hasPrefix("ResourceNotFound") {
            return
        }
    }

    /// `sign` = MD5(callbackKey + t), with `t` not yet past.
    /// The longest a callback's sign may still be valid for (Tencent sends
    /// the event time plus a few minutes).
    static let signValidity: TimeInterval = 3_600

    public func verify(_ callback: ProviderCallback, now: Date) -> Result<[ProviderEvent], CallbackRefusal> {
        guard let event = JSONValue.parse(String(decoding: callback.body, as: UTF8.self)),
              let t = event["t"]?.parameterText, let sign = event["sign"]?.string else { return .failure(.badSignature) }
        guard Digests.equal(sign, TencentSigning.callbackSign(key: configuration.callbackKey, t: t)) else { return .failure(.badSignature) }
        // `t` is when the sign stops being valid: not past, and not far ahead
        // (a sign valid for days would make a captured callback a weapon).
        guard let expiry = Double(t), expiry >= now.timeIntervalSince1970, expiry <= now.timeIntervalSince1970 + Self.signValidity else {
            return .failure(.expired)
        }
        guard let stream = event["stream_id"]?.string, let type = event["event_type"]?.int64 else {
            return .failure(.malformed("stream_id and event_type are required"))
        }
        switch type {
        case 1: return .success([.stream(name: stream, live: true)])
        case 0: return .success([.stream(name: stream, live: false)])
        default: return .success([])
        }
    }

    // MARK: machinery

    private func query(_ stream: String, key: String, expiresAt: Date) -> String {
        let txTime = TencentSigning.txTime(expiresAt)
        return "txSecret=\(TencentSigning.txSecret(key: key, stream: stream, txTime: txTime))&txTime=\(txTime)"
    }

    private func api(_ action: String, _ parameters: [String: JSONValue], idempotent: Bool) async throws -> JSONValue {
        let body = JSONText.encode(JSONValue.object(parameters))
        let host = URLComponents(string: configuration.apiURL).flatMap { url in url.host.map { host in url.port.map { "\(host):\($0)" } ?? host } } ?? ""
        let contentType = "application/json; charset=utf-8"
        let signed = TencentSigning.TC3Request(
            secretID: configuration.secretID, secretKey: configuration.secretKey, service: "live", host: host,
            contentType: contentType, timestamp: Int64(clock.now().timeIntervalSince1970), body: body)
        let request = ProviderRequest(url: configuration.apiURL, headers: [
            ("Authorization", signed.authorization), ("Content-Type", contentType), ("Host", host),
            ("X-TC-Action", action), ("X-TC-Version", "2018-08-01"), ("X-TC-Timestamp", String(signed.timestamp)),
        ], body: Array(body.utf8), idempotent: idempotent)
        let response: ProviderResponse
        do {
            response = try await http.send(action, request)
        } catch let error as ProviderCallError {
            switch error {
            case .timeout: throw MediaError.timeout(operation: action)
            case .unavailable(let detail): throw MediaError.unavailable(operation: action, detail: detail)
            }
        }
        guard let answer = JSONValue.parse(response.text)?["Response"] else {
            throw MediaError.unavailable(operation: action, detail: "HTTP \(response.status) without a Tencent answer")
        }
        if let error = answer["Error"] {
            let code = error["Code"]?.string ?? "Unknown"
            if code.hasPrefix("InternalError") || code == "RequestLimitExceeded" {
                throw MediaError.unavailable(operation: action, detail: code)
            }
            throw MediaError.rejected(operation: action, code: code, message: error["Message"]?.string ?? "")
        }
        return answer
    }
}
