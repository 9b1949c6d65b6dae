import Hummingbird
import Metrics
import RoomCore

/// Hummingbird's request series, under Hummingbird's names and labels
/// (`hb_requests`, `http_server_request_duration`, `hb_request_errors`,
/// `http_server_active_requests`: the dashboard's active-requests panel
/// reads the last), recorded by `RequestMetrics` once the answer is made.
///
/// Why not Hummingbird's `MetricsMiddleware`: it records after the body is
/// written by wrapping every answer's body in a closure, and a closure body
/// turns off Hummingbird's one-write path (head, body and end in one
/// `write`). Every answer went out in two writes: 3 of a flow's 13 `write`
/// calls under strace (#28). Our answers are whole buffers when made, so
/// the time to write them is the socket's, not the request's.
///
/// Each series' handle, made once (`MadeOnce`); bounded by the route
/// templates, the methods and the statuses answered.
final class ServerRequestMetricHandles: Sendable {
    static let shared = ServerRequestMetricHandles()

    struct Handles: Sendable {
        let requests: Counter
        let duration: Metrics.Timer
        let errors: Counter
    }

    private struct Key: Hashable, Sendable {
        let route: String
        let method: HTTPRequest.Method
        let status: Int
    }

    private let made = MadeOnce<Key, Handles>()
    private let meters = MadeOnce<HTTPRequest.Method, Meter>()

    func active(method: HTTPRequest.Method) -> Meter {
        meters.value(for: method) { Meter(label: "http.server.active_requests", dimensions: [("http.request.method", method.rawValue)]) }
    }

    func handles(route: String, method: HTTPRequest.Method, status: HTTPResponse.Status) -> Handles {
        made.value(for: Key(route: route, method: method, status: status.code)) {
            let labels = [("http.route", route), ("http.request.method", method.rawValue), ("http.response.status_code", String(status.code))]
            return Handles(
                requests: Counter(label: "hb.requests", dimensions: labels),
                duration: Metrics.Timer(label: "http.server.request.duration", dimensions: labels, preferredDisplayUnit: .seconds),
                errors: Counter(label: "hb.request.errors",
                                dimensions: [("http.route", route), ("http.request.method", method.rawValue), ("error.type", String(status.code))]))
        }
    }
}
