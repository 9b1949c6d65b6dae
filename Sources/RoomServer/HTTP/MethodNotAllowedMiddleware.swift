import Hummingbird
import Synchronization

/// An admin path asked with a method it does not have gets 405 with
/// `Allow` (RFC 9110 §15.5.6), not the router's 404: the path exists, and a
/// client (or schemathesis) learns which methods it takes.
struct MethodNotAllowedMiddleware: RouterMiddleware {
    typealias Context = RoomRequestContext
    let table: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && request.uri.path.hasPrefix("/admin/") {
            let allowed = table.methods(for: request.uri.path)
            guard !allowed.isEmpty, !allowed.contains(request.method.rawValue) else { throw error }
            let list = allowed.sorted().joined(separator: ", ")
            var response = try Problem(.methodNotAllowed, code: "method_not_allowed", detail: "\(request.method.rawValue) is not allowed here; use \(list)")
                .response(from: request, context: context)
            response.headers[.allow] = list
            return response
        }
    }
}

/// The router's routes as path templates (`:name` matches one segment),
/// filled once the router is built.
final class RouteTable: Sendable {
    private let routes = Mutex<[(segments: [String], method: String)]>([])

    func fill(_ router: Router<RoomRequestContext>) {
        let all = router.routes.map { route in
            (route.path.description.split(separator: "/").map { $0.hasPrefix("{") || $0.hasPrefix(":") ? ":" : String($0) }, route.method.rawValue)
        }
        routes.withLock { $0 = all }
    }

    /// The methods of the most specific templates the path matches: a
    /// literal segment wins over a parameter, as in the router
    /// (`tenants/reload` is not `tenants/:tenant`).
    func methods(for path: String) -> Set<String> {
        let segments = path.split(separator: "/").map(String.init)
        let matching = routes.withLock { routes in
            routes.filter { route in
                route.segments.count == segments.count && zip(route.segments, segments).allSatisfy { $0 == ":" || $0 == $1 }
            }
        }
        let literals = { (route: (segments: [String], method: String)) in route.segments.filter { $0 != ":" }.count }
        guard let most = matching.map(literals).max() else { return [] }
        return Set(matching.filter { literals($0) == most }.map(\.method))
    }
}
