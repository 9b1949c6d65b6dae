import Crypto
import Foundation
import HTTPTypes
import RoomCore
import Synchronization

/// Tencent Cloud Live API 3.0 as its API 3.0 documentation describes it (docs/providers.md): JSON bodies,
/// TC3-HMAC-SHA256 recomputed here from the request as received, answers in
/// `{"Response":{…}}`.
final class FakeTencent: Sendable {
    static let secretID = "AKIDfakeTencent"
    static let secretKey = "fake-tencent-secret-key"
    static let domain = "push.example.com"

    static let parameters: [String: Set<String>] = [
        "DescribeLiveStreamOnlineList": ["DomainName", "AppName", "PageNum", "PageSize"],
        "DropLiveStream": ["StreamName", "DomainName", "AppName"],
    ]

    struct State {
        var online: Set<String> = []
        /// The fake's "now" for the 5-minute timestamp check (tests move it).
        var clock: any RoomClock = SystemClock()
    }

    let store: Store<State>
    let vendor: FakeVendor

    init(clock: any RoomClock = SystemClock()) {
        (store, vendor) = FakeVendor.stateful(State(clock: clock), Self.answer)
    }

    func publish(_ stream: String) { store.state.withLock { _ = $0.online.insert(stream) } }
    /// The broadcaster stops publishing.
    func stop(_ stream: String) { store.state.withLock { _ = $0.online.remove(stream) } }
    var online: Set<String> { store.state.withLock { $0.online } }

    static func answer(_ store: Store<State>, _ call: ReceivedCall, _ method: HTTPRequest.Method) -> FakeVendor.Answer {
        guard method == .post, call.path == "/" else { return failure("InvalidParameter", "POST /") }
        let contentType = "application/json; charset=utf-8"
        guard call.headers["content-type"] == contentType, call.headers["x-tc-version"] == "2018-08-01",
              let host = call.headers["host"], let action = call.headers["x-tc-action"],
              let timestamp = call.headers["x-tc-timestamp"], let seconds = Int64(timestamp),
              abs(Double(seconds) - store.state.withLock({ $0.clock.now() }).timeIntervalSince1970) < 300 else { return failure("AuthFailure.InvalidAuthorization", "headers") }
        guard call.headers["authorization"] == authorization(host: host, contentType: contentType, timestamp: seconds, body: call.body) else {
            return failure("AuthFailure.SignatureFailure", "signature")
        }
        // A list may be filtered to one stream.
        guard let expected = parameters[action], case .object(let body)? = JSONValue.parse(call.body),
              Set(body.keys).subtracting(action == "DescribeLiveStreamOnlineList" ? ["StreamName"] : []) == expected else {
            return failure("InvalidParameter", "parameters")
        }
        guard body["DomainName"]?.string == domain, body["AppName"]?.string == "live" else { return failure("InvalidParameter.DomainNotExist", "domain") }
        return store.state.withLock { state -> FakeVendor.Answer in
            switch action {
            case "DescribeLiveStreamOnlineList":
                let named = body["StreamName"]?.string
                let info = state.online.sorted().filter { named == nil || $0 == named }.map { JSONValue.object(["StreamName": .string($0), "AppName": "live", "DomainName": .string(domain)]) }
                return ok(["TotalNum": .number(Double(info.count)), "TotalPage": 1, "PageNum": 1, "PageSize": 100, "OnlineInfo": .array(info)])
            default:
                guard let stream = body["StreamName"]?.string, state.online.remove(stream) != nil else {
                    return failure("ResourceNotFound.StreamNotAlive", "the stream is not live")
                }
                return ok([:])
            }
        }
    }

    /// The signature, computed here independently of the adapter's code.
    static func authorization(host: String, contentType: String, timestamp: Int64, body: String) -> String {
        func hex<D: Sequence>(_ bytes: D) -> String where D.Element == UInt8 { bytes.map { String(format: "%02x", $0) }.joined() }
        func hmac(_ key: [UInt8], _ text: String) -> [UInt8] { Array(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: SymmetricKey(data: key))) }
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(identifier: "UTC")
        let date = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(timestamp)))
        let canonical = ["POST", "/", "", "content-type:\(contentType)", "host:\(host)", "", "content-type;host", hex(SHA256.hash(data: Data(body.utf8)))]
            .joined(separator: "\n")
        let toSign = ["TC3-HMAC-SHA256", String(timestamp), "\(date)/live/tc3_request", hex(SHA256.hash(data: Data(canonical.utf8)))].joined(separator: "\n")
        let signing = hmac(hmac(hmac(Array("TC3\(secretKey)".utf8), date), "live"), "tc3_request")
        return "TC3-HMAC-SHA256 Credential=\(secretID)/\(date)/live/tc3_request, SignedHeaders=content-type;host, Signature=\(hex(hmac(signing, toSign)))"
    }

    private static func ok(_ payload: [String: JSONValue]) -> FakeVendor.Answer {
        var response = payload
        response["RequestId"] = .string(UUID().uuidString)
        return (.ok, JSONValue.object(["Response": .object(response)]).jsonText)
    }

    private static func failure(_ code: String, _ message: String) -> FakeVendor.Answer {
        (.ok, JSONValue.object(["Response": ["Error": ["Code": .string(code), "Message": .string(message)], "RequestId": "r"]]).jsonText)
    }
}
