import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import RoomCore
import Synchronization

/// A fake's own state, shared between its handler and the test.
final class Store<State: Sendable>: Sendable {
    let state: Mutex<State>
    init(_ initial: State) { state = Mutex(initial) }
}

/// What a fake vendor server received, in order.
struct ReceivedCall: Sendable {
    let path: String
    let headers: [String: String]
    let parameters: [(String, String)]
    let body: String

    /// The form parameters as a dictionary (last value wins).
    var form: [String: String] { Dictionary(parameters, uniquingKeysWith: { _, last in last }) }
}

/// How a fake answers right now: normally, with a 503, or not at all.
enum FakeMode: Sendable { case normal, unavailable, hang }

/// A vendor's API on 127.0.0.1 for tests: `answer` checks each request as
/// the vendor would (signature, method, content type, parameters) and
/// answers in the vendor's format. Calls answered normally are recorded.
final class FakeVendor: Sendable {
    typealias Answer = (status: HTTPResponse.Status, body: String)
    private let state = Mutex<(mode: FakeMode, calls: [ReceivedCall], refused: Int, answering: Int)>((.normal, [], 0, 0))
    let answer: @Sendable (ReceivedCall, HTTPRequest.Method) -> Answer

    init(answer: @escaping @Sendable (ReceivedCall, HTTPRequest.Method) -> Answer) {
        self.answer = answer
    }

    /// A vendor whose answers read and change `state`.
    static func stateful<State: Sendable>(
        _ state: State, _ answer: @escaping @Sendable (Store<State>, ReceivedCall, HTTPRequest.Method) -> Answer
    ) -> (Store<State>, FakeVendor) {
        let store = Store(state)
        return (store, FakeVendor { call, method in answer(store, call, method) })
    }

    var mode: FakeMode {
        get { state.withLock { $0.mode } }
        set { state.withLock { $0.mode = newValue } }
    }

    /// The calls answered normally, in order. A call's handler changes the
    /// fake's state first and records the call after (two locks), so a test
    /// that saw the state change could read the calls before the call was in
    /// them: a CI run read kim's blacklist as the last `setMemberRole` call
    /// right after seeing kim readmitted. So calls being answered are waited
    /// for (a handler takes microseconds; at most a second).
    var calls: [ReceivedCall] {
        let deadline = ContinuousClock.now + .seconds(1)
        while state.withLock({ $0.answering > 0 }) && ContinuousClock.now < deadline { usleep(500) }
        return state.withLock { $0.calls }
    }
    /// Requests the fake refused (bad signature, parameters, …).
    var refused: Int { state.withLock { $0.refused } }
    func calls(to path: String) -> [ReceivedCall] { calls.filter { $0.path == path } }

    /// Runs the fake for the duration of `body`, which gets its base URL.
    func run<T: Sendable>(_ body: @Sendable (String) async throws -> T) async throws -> T {
        let router = Router()
        let handle: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            let bytes = try await request.body.collect(upTo: 1 << 20)
            let text = String(buffer: bytes)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            // HTTPTypes moves Host into the authority.
            if let authority = request.head.authority { headers["host"] = authority }
            let call = ReceivedCall(path: request.uri.path, headers: headers, parameters: Self.form(text, query: request.uri.query), body: text)
            switch self.mode {
            case .hang:
                try await Task.sleep(for: .seconds(30))
                return Response(status: .gatewayTimeout)
            case .unavailable:
                return Response(status: .serviceUnavailable, body: .init(byteBuffer: ByteBuffer(string: "busy")))
            case .normal:
                self.state.withLock { $0.answering += 1 }
                let (status, answer) = self.answer(call, request.method)
                self.state.withLock { state in
                    if status == .ok && !answer.contains("\"Error\"") && Self.succeeded(answer) { state.calls.append(call) } else { state.refused += 1 }
                    state.answering -= 1
                }
                var fields = HTTPFields()
                fields[.contentType] = "application/json"
                return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: answer)))
            }
        }
        router.on("/", method: .post, use: handle)
        router.on("**", method: .post, use: handle)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "fake-vendor")
        // Cancelling the server at the end logs a harmless "already closed".
        logger.logLevel = .critical
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        let server = Task { try await app.runService(gracefulShutdownSignals: []) }
        defer { server.cancel() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw FakeFailed() }
        return try await body("http://127.0.0.1:\(port)")
    }

    struct FakeFailed: Error {}

    /// Vendors answer success as `code` 200 (NetEase, RongCloud) or a `Response` without `Error` (Tencent).
    static func succeeded(_ answer: String) -> Bool {
        guard let json = JSONValue.parse(answer) else { return false }
        if let code = json["code"]?.int64 { return code == 200 }
        return json["Response"] != nil
    }

    static func form(_ text: String, query: String?) -> [(String, String)] {
        let source = text.isEmpty ? (query ?? "") : text
        guard !source.hasPrefix("{"), !source.hasPrefix("[") else { return [] }
        return source.split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            func decode(_ part: Substring) -> String {
                let spaced = part.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (decode(parts[0]), decode(parts[1]))
        }
    }
}
