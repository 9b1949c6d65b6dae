import Hummingbird
import RoomCore

/// The admin API's one edge check on text input: no query parameter and no
/// JSON string may carry NUL, which PostgreSQL refuses (a 500 before), and
/// a query value is at most 1 KiB. The field is named in a 400 problem.
struct AdminInputMiddleware: RouterMiddleware {
    typealias Context = RoomRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        for (name, value) in request.uri.queryParameters {
            if value.contains("\u{0}") { throw Problem.invalid(String(name), "must not contain NUL") }
            if value.utf8.count > 1_024 { throw Problem.invalid(String(name), "must be at most 1024 bytes") }
        }
        return try await next(request, context)
    }

    /// The first field (dotted path) of a JSON body whose string holds NUL.
    static func fieldWithNUL(_ value: JSONValue, path: String = "") -> String? {
        switch value {
        case .string(let text): return text.contains("\u{0}") ? (path.isEmpty ? "body" : path) : nil
        case .object(let object):
            for key in object.keys.sorted() {
                if key.contains("\u{0}") { return path.isEmpty ? "body" : path }
                if let found = fieldWithNUL(object[key]!, path: path.isEmpty ? key : "\(path).\(key)") { return found }
            }
            return nil
        case .array(let items):
            for (index, item) in items.enumerated() {
                if let found = fieldWithNUL(item, path: "\(path)[\(index)]") { return found }
            }
            return nil
        default: return nil
        }
    }
}
