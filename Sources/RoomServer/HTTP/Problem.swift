import Foundation
import Hummingbird
import RoomCore

/// An RFC 9457 problem details answer (`application/problem+json`): the admin
/// API's and the router's error format. `code` is stable for programs,
/// `detail` names the field for people.
public struct Problem: HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    public var code: String
    public var detail: String
    public var field: String?
    /// Every problem found, when there are several (an invalid tenant set).
    public var issues: [String]?

    public init(_ status: HTTPResponse.Status, code: String, detail: String, field: String? = nil, issues: [String]? = nil) {
        self.status = status
        self.code = code
        self.detail = detail
        self.field = field
        self.issues = issues
    }

    struct Body: Encodable {
        let type: String
        let title: String
        let status: Int
        let detail: String
        let code: String
        let field: String?
        let issues: [String]?
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = Body(type: "https://roomkeeper.dev/problems/\(code)", title: status.reasonPhrase, status: status.code, detail: detail, code: code, field: field, issues: issues)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(body)
        var headers = HTTPFields()
        headers[.contentType] = "application/problem+json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    public static func invalid(_ field: String, _ reason: String) -> Problem {
        Problem(.badRequest, code: "invalid_parameter", detail: "\(field): \(reason)", field: field)
    }

    public static func notFound(_ what: String) -> Problem {
        Problem(.notFound, code: "not_found", detail: what)
    }

    /// The admin API's answer for an engine refusal.
    public static func from(_ error: RoomError) -> Problem {
        switch error {
        case .notFound: Problem(.notFound, code: error.code, detail: error.description)
        case .closed, .full, .reservedForOthers, .banned, .notInIMChatroom, .notMember, .tooManyRooms, .tooManyRoomsForOwner:
            Problem(.conflict, code: error.code, detail: error.description)
        case .notOwner: Problem(.forbidden, code: error.code, detail: error.description)
        // As a client route answers a tenant that does not enable the plugin.
        case .pluginNotEnabled: Problem(.notFound, code: error.code, detail: error.description, field: "plugin")
        case .referenceNotFound(let field, _): Problem(.notFound, code: error.code, detail: error.description, field: field)
        case .conflicts(let field, _): Problem(.conflict, code: error.code, detail: error.description, field: field)
        case .invalid(let field, _): Problem(.badRequest, code: error.code, detail: error.description, field: field)
        case .invalidOptions(let field, _): Problem(.unprocessableContent, code: error.code, detail: error.description, field: field)
        case .rateLimited: Problem(.tooManyRequests, code: error.code, detail: error.description)
        }
    }
}

/// Turns any error escaping a route into problem+json, so nothing leaves as
/// an empty 500. Unexpected errors are logged, their text is not sent.
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = RoomRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return try Self.response(for: error, request, context: context)
        }
    }

    /// The problem+json answer for an error a route threw.
    static func response(for error: any Error, _ request: Request, context: Context) throws -> Response {
        do {
            throw error
        } catch let problem as Problem {
            return try problem.response(from: request, context: context)
        } catch let error as RoomError {
            return try Problem.from(error).response(from: request, context: context)
        } catch let error as ClientError {
            // A plugin's own refusal met on an admin path (a second open game
            // for a device, a student's second lesson): a conflict, in words.
            return try Problem(.conflict, code: "plugin_refused", detail: "\(error.message) (plugin code \(error.code))")
                .response(from: request, context: context)
        } catch let error as ParameterError {
            return try Problem.invalid(error.field, error.reason).response(from: request, context: context)
        } catch let error as HTTPError {
            let code = error.status == .notFound ? "not_found" : "http_\(error.status.code)"
            return try Problem(error.status, code: code, detail: error.body ?? error.status.reasonPhrase).response(from: request, context: context)
        } catch let error as HTTPResponseError {
            return try error.response(from: request, context: context)
        } catch let error where ProviderFailure(error) != nil {
            // A vendor the request needed did not answer (503, retry) or refused (502).
            let failure = ProviderFailure(error)!
            context.logger.warning("provider call failed", metadata: ["error": "\(failure.error)", "path": "\(request.uri.path)"])
            var response = try failure.problem.response(from: request, context: context)
            if failure.transient { response.headers[.retryAfter] = "5" }
            return response
        } catch where DatabaseUnavailable.matches(error) {
            context.logger.warning("database unavailable", metadata: ["error": "\(LoggableError.describe(error))", "path": "\(request.uri.path)"])
            var response = try Problem(.serviceUnavailable, code: "database_unavailable", detail: "the database is unavailable for a moment; try again")
                .response(from: request, context: context)
            response.headers[.retryAfter] = "2"
            return response
        } catch {
            context.logger.error("unhandled error", metadata: ["error": "\(LoggableError.describe(error))", "path": "\(request.uri.path)"])
            return try Problem(.internalServerError, code: "internal", detail: "internal error; see the server log").response(from: request, context: context)
        }
    }
}
