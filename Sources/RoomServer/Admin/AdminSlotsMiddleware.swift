import Hummingbird
import RoomCore

/// An authorised admin request (within its key's budget) takes one of the
/// instance's request slots before it runs, as a client request does
/// (`FairPermits`, #41): the owner is the tenant its path names, or the
/// operator for what spans tenants. Before, a tenant key's burst of 100
/// usage exports or event pages ran all at once beside every client request
/// the slots had just made wait their turn.
struct AdminSlotsMiddleware: RouterMiddleware {
    typealias Context = RoomRequestContext
    let slots: FairPermits

    /// Not a tenant id (those are `[a-z0-9-]`): the operator's cross-tenant requests.
    static let operatorOwner = "(operator)"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let owner = LeaseOwnerMiddleware.tenant(inPath: request.uri.path) ?? Self.operatorOwner
        do {
            try await slots.acquire(for: owner, until: DatabaseDeadline.until(atMost: 10))
        } catch {
            var response = try Problem(.serviceUnavailable, code: "service_busy",
                                       detail: "too many requests of this tenant are running here; nothing was done; try again")
                .response(from: request, context: context)
            response.headers[.retryAfter] = "1"
            return response
        }
        defer { slots.release(for: owner) }
        return try await RequestSlot.$current.withValue(RequestSlot(slots, owner: owner)) {
            try await next(request, context)
        }
    }
}
