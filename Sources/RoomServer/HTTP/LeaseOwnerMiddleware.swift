import Hummingbird
import RoomCore

/// Binds the tenant a request serves as its database leases' owner
/// (`LeaseOwner.tenant`), so the pool is shared fairly among tenants
/// (`FairPermits`, #41). Read from the path before routing, as the routes'
/// parameters are only known inside them: `/t/{tenant}/…` (client routes,
/// callbacks, the IM socket) and `/admin/v1/tenants/{tenant}…`. A name that
/// is not a loaded tenant's owns nothing: it shares the instance's own
/// share (such requests are answered 404 before any statement anyway).
struct LeaseOwnerMiddleware: RouterMiddleware {
    typealias Context = RoomRequestContext
    let tenants: TenantDirectory

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let name = Self.tenant(inPath: request.uri.path), tenants[name] != nil else { return try await next(request, context) }
        return try await LeaseOwner.$tenant.withValue(name) { try await next(request, context) }
    }

    /// The tenant a path names, if it has the shape of a tenant's route.
    static func tenant(inPath path: String) -> String? {
        let parts = path.split(separator: "/", maxSplits: 4, omittingEmptySubsequences: false).dropFirst()
        if parts.count >= 3, parts.first == "t", !parts[parts.startIndex + 1].isEmpty { return String(parts[parts.startIndex + 1]) }
        let words = Array(parts.prefix(4))
        if words.count == 4, words[0] == "admin", words[1] == "v1", words[2] == "tenants", !words[3].isEmpty {
            return String(words[3].split(separator: "/").first ?? "")
        }
        return nil
    }
}
