import Hummingbird
import RoomCore

/// Every request's waits on PostgreSQL end by one deadline (10 s by default,
/// `ROOMKEEPER_REQUEST_TIMEOUT`): a lease or statement still waiting then
/// fails as `DatabaseUnavailable`, answered "unavailable, try again" in the
/// route's wire format (#27: through a primary's 40 s hang, requests already
/// sent waited past 20 s, and with a host that never answers they would wait
/// until the kernel gave up, about 15 minutes).
struct RequestDeadlineMiddleware: RouterMiddleware {
    typealias Context = RoomRequestContext
    let seconds: Double

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await DatabaseDeadline.$request.withValue(.now + .milliseconds(Int(seconds * 1000))) {
            try await next(request, context)
        }
    }
}
