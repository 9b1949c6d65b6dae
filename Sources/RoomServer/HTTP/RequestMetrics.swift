import Hummingbird
import Metrics
import RoomCore

/// Every request counted once, in both series families, by one middleware:
/// - by tenant and route template (#30: the dashboard's per-tenant panels,
///   and requests counted per tenant): `roomkeeper_http_requests_total{tenant,
///   route, status}` and `roomkeeper_http_request_duration_seconds{tenant,
///   route}`. A tenant label is only ever a configured tenant's id ("-"
///   otherwise: a path's made-up tenant must not make series);
/// - Hummingbird's own series under its names (`ServerRequestMetricHandles`),
///   recorded once the answer is made rather than by Hummingbird's
///   `MetricsMiddleware`, whose post-write closure sent each answer in two
///   writes.
struct RequestMetrics: RouterMiddleware {
    typealias Context = RoomRequestContext

    let tenants: TenantDirectory

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let active = ServerRequestMetricHandles.shared.active(method: request.method)
        active.increment()
        defer { active.decrement() }
        do {
            let response = try await next(request, context)
            record(request, context, status: response.status, failed: false, since: started)
            return response
        } catch {
            record(request, context, status: (error as? any HTTPResponseError)?.status ?? .internalServerError, failed: true, since: started)
            throw error
        }
    }

    private func record(_ request: Request, _ context: Context, status: HTTPResponse.Status, failed: Bool, since started: ContinuousClock.Instant) {
        let tenant = context.parameters.get("tenant").flatMap { tenants[$0] != nil ? $0 : nil } ?? "-"
        let handles = RequestMetricHandles.shared.handles(tenant: tenant, route: context.endpointPath ?? "unknown", status: Int(status.code))
        handles.requests.increment()
        handles.duration.recordInterval(since: started)
        // Hummingbird's: a thrown error counts as an error, without a duration.
        let server = ServerRequestMetricHandles.shared.handles(route: context.endpointPath ?? (failed ? "NotFound" : "Unknown"),
                                                               method: request.method, status: status)
        server.requests.increment()
        if failed { server.errors.increment() } else { server.duration.recordInterval(since: started) }
    }
}

/// The counter and timer of each (tenant, route, status), made once
/// (`MadeOnce`). Bounded by the tenants loaded, the route templates and the
/// statuses answered.
final class RequestMetricHandles: Sendable {
    static let shared = RequestMetricHandles()

    struct Handles: Sendable {
        let requests: Counter
        let duration: Metrics.Timer
    }

    private struct Key: Hashable, Sendable {
        let tenant: String
        let route: String
        let status: Int
    }

    private let made = MadeOnce<Key, Handles>()

    func handles(tenant: String, route: String, status: Int) -> Handles {
        made.value(for: Key(tenant: tenant, route: route, status: status)) {
            Handles(
                requests: Counter(label: "roomkeeper_http_requests_total", dimensions: [("tenant", tenant), ("route", route), ("status", String(status))]),
                duration: Metrics.Timer(label: "roomkeeper_http_request_duration_seconds", dimensions: [("tenant", tenant), ("route", route)],
                                        preferredDisplayUnit: .seconds))
        }
    }
}
