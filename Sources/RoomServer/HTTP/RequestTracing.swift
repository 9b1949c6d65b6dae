import HTTPTypes
import Hummingbird
import Tracing

/// A server span per HTTP request (#30, item 1), named by its route
/// template, with the tenant and plugin it names and its status: a W3C
/// `traceparent` makes it a child of the caller's span when a trusted proxy
/// sent it (`ROOMKEEPER_TRUSTED_PROXIES`; #41: any client's was adopted, so a
/// stranger could stitch our spans into a trace of its choosing, and pick
/// which of its requests are sampled).
/// Nothing from the body, the query or the headers is recorded (a `sid`
/// travels in bodies, keys in headers). With tracing off (the default) the
/// tracer is the no-op one and this costs a task-local read.
struct RequestTracing: RouterMiddleware {
    typealias Context = RoomRequestContext
    let trustedProxies: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var parent = ServiceContext.current ?? .topLevel
        if let peer = context.peerAddress, trustedProxies.contains(peer) {
            InstrumentationSystem.instrument.extract(request.headers, into: &parent, using: HTTPFieldsExtractor())
        }
        let route = context.endpointPath ?? "unknown route"
        return try await withSpan("\(request.method.rawValue) \(route)", context: parent, ofKind: .server) { span in
            span.attributes["http.request.method"] = request.method.rawValue
            span.attributes["http.route"] = route
            if let tenant = context.parameters.get("tenant") { span.attributes["roomkeeper.tenant"] = String(tenant.prefix(64)) }
            if let plugin = Self.plugin(ofRoute: route) { span.attributes["roomkeeper.plugin"] = plugin }
            do {
                let response = try await next(request, context)
                span.attributes["http.response.status_code"] = Int(response.status.code)
                return response
            } catch {
                let status = Int((error as? any HTTPResponseError)?.status.code ?? 500)
                span.attributes["http.response.status_code"] = status
                if status >= 500 { span.setStatus(.init(code: .error)) }
                throw error
            }
        }
    }
}

extension RequestTracing {
    /// A client route's plugin: the segment after the tenant in `/t/{tenant}/<plugin>/…`.
    static func plugin(ofRoute route: String) -> String? {
        let parts = route.split(separator: "/")
        guard parts.count > 3, parts[0] == "t", !["im", "callbacks"].contains(parts[2]) else { return nil }
        return String(parts[2])
    }
}

/// Reads a propagated context (`traceparent`, `tracestate`) from request headers.
struct HTTPFieldsExtractor: Extractor {
    func extract(key: String, from carrier: HTTPFields) -> String? {
        HTTPField.Name(key).flatMap { carrier[$0] }
    }
}
