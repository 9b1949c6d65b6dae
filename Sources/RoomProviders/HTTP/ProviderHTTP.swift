import AsyncHTTPClient
import Foundation
import Logging
import Metrics
import NIOCore
import NIOHTTP1
import RoomCore

/// One vendor call as the adapters build it.
struct ProviderRequest: Sendable {
    var url: String
    var headers: [(String, String)]
    var body: [UInt8]
    /// Safe to send twice (reads, closes, token fetches): retried on
    /// transient failures. Everything else is sent once; the outbox retries it.
    var idempotent: Bool
}

struct ProviderResponse: Sendable {
    var status: Int
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// How a call failed, before each adapter maps it to its own error type.
enum ProviderCallError: Error, Equatable {
    case timeout
    /// No answer (connection refused, reset, …) or a 5xx: worth trying later.
    case unavailable(String)
}

/// Every vendor call goes through here: one shared AsyncHTTPClient, a
/// deadline on every attempt, bounded retries for idempotent calls, and
/// per-call metrics. Nothing here logs a header or a body, so no secret can
/// reach a log line.
struct ProviderHTTP: Sendable {
    let provider: String
    /// The whole call's budget, all attempts included.
    let timeout: Duration
    let attempts: Int
    let logger: Logger
    var client: HTTPClient { HTTPClient.shared }

    init(provider: String, timeoutSeconds: Double, attempts: Int = 2, logger: Logger = Logger(label: "roomkeeper.providers")) {
        self.provider = provider
        self.timeout = .milliseconds(Int64(timeoutSeconds * 1000))
        self.attempts = max(1, attempts)
        self.logger = logger
    }

    /// Sends `request` (retrying it when idempotent); `fallback` is tried
    /// after a transient failure of `request` (RongCloud's backup host).
    func send(_ operation: String, _ request: ProviderRequest, fallbackURL: String? = nil) async throws -> ProviderResponse {
        let started = ContinuousClock.now
        let deadline = started + timeout
        var urls = [request.url]
        if request.idempotent { urls += Array(repeating: request.url, count: attempts - 1) }
        if let fallbackURL { urls.append(fallbackURL) }
        var lastError = ProviderCallError.unavailable("not sent")
        for (index, url) in urls.enumerated() {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .milliseconds(10) else { lastError = .timeout; break }
            if index > 0 { try? await Task.sleep(for: min(.milliseconds(50 * index), remaining / 4)) }
            do {
                // Each attempt gets its share of what is left: an unreachable host
                // (AHC keeps reconnecting until the deadline) cannot eat the fallback's time.
                let response = try await attempt(url, request, within: (deadline - ContinuousClock.now) / (urls.count - index))
                if response.status >= 500 {
                    lastError = .unavailable("HTTP \(response.status)")
                    continue
                }
                record(operation, outcome: "ok", since: started)
                return response
            } catch let error as ProviderCallError {
                lastError = error
            }
        }
        record(operation, outcome: lastError == .timeout ? "timeout" : "unavailable", since: started)
        logger.warning("provider call failed", metadata: ["provider": "\(provider)", "operation": "\(operation)", "error": "\(lastError)"])
        throw lastError
    }

    private func attempt(_ url: String, _ request: ProviderRequest, within budget: Duration) async throws -> ProviderResponse {
        var outgoing = HTTPClientRequest(url: url)
        outgoing.method = .POST
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        outgoing.body = .bytes(ByteBuffer(bytes: request.body))
        let milliseconds = max(1, Int64(budget.components.seconds * 1000 + budget.components.attoseconds / 1_000_000_000_000_000))
        do {
            let response = try await client.execute(outgoing, timeout: .milliseconds(milliseconds))
            let body = try await response.body.collect(upTo: 4 << 20)
            return ProviderResponse(status: Int(response.status.code), body: Array(body.readableBytesView))
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw ProviderCallError.timeout
        } catch {
            throw ProviderCallError.unavailable(String(describing: type(of: error)))
        }
    }

    private func record(_ operation: String, outcome: String, since started: ContinuousClock.Instant) {
        let handles = Self.callMetrics.value(for: [provider, operation, outcome]) {
            let dimensions = [("provider", provider), ("operation", operation), ("outcome", outcome)]
            return CallMetrics(seconds: Timer(label: "roomkeeper_provider_call_duration_seconds", dimensions: dimensions, preferredDisplayUnit: .seconds),
                               calls: Counter(label: "roomkeeper_provider_calls_total", dimensions: dimensions))
        }
        handles.seconds.recordInterval(since: started)
        handles.calls.increment()
    }

    private struct CallMetrics: Sendable {
        let seconds: Timer
        let calls: Counter
    }

    /// Made once per (provider, operation, outcome) (`MadeOnce`).
    private static let callMetrics = MadeOnce<[String], CallMetrics>()
}


/// `application/x-www-form-urlencoded` bodies; a key may repeat (RongCloud lists).
struct FormBody {
    private(set) var pairs: [(String, String)] = []

    init(_ pairs: [(String, String)] = []) { self.pairs = pairs }

    mutating func add(_ key: String, _ value: String) { pairs.append((key, value)) }

    var bytes: [UInt8] {
        Array(pairs.map { "\(Self.escape($0.0))=\(Self.escape($0.1))" }.joined(separator: "&").utf8)
    }

    static func escape(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
