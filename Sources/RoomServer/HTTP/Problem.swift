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

    /// The admin API's rendering of a classified failure (`Failure(classifying:)`).
    public init(_ failure: Failure) {
        switch failure {
        // A plugin's own refusal met on an admin path (a second open game
        // for a device, a student's second lesson): a conflict, in words.
        case .refused(let error): self.init(.conflict, code: "plugin_refused", detail: "\(error.message) (plugin code \(error.code))")
        case .badParameter(let error): self = .invalid(error.field, error.reason)
        case .room(let error): self = .from(error)
        case .provider(let service, true, _):
            self.init(.serviceUnavailable, code: "provider_unavailable", detail: "the \(service) provider did not answer; nothing was done; try again")
        case .provider(let service, false, let detail):
            self.init(.badGateway, code: "provider_refused", detail: "the \(service) provider refused: \(detail)")
        case .databaseUnavailable:
            self.init(.serviceUnavailable, code: "database_unavailable", detail: "the database is unavailable for a moment; try again")
        case .outcomeUnknown:
            self.init(.serviceUnavailable, code: "outcome_unknown", detail: Failure.outcomeUnknownText)
        case .internal:
            self.init(.internalServerError, code: "internal", detail: "internal error; see the server log")
        }
    }

    /// Seconds a client should wait before trying again, for the failures
    /// that mean "try again": a vendor's outage lasts longer than a failover's
    /// first seconds.
    static func retryAfter(_ failure: Failure) -> String? {
        switch failure {
        case .provider(_, true, _): "5"
        case .databaseUnavailable, .outcomeUnknown: "2"
        default: nil
        }
    }

    /// The admin API's answer for an engine refusal.
    public static func from(_ error: RoomError) -> Problem {
        switch error {
        case .notFound: Problem(.notFound, code: error.code, detail: error.description)
        case .closed, .full, .reservedForOthers, .banned, .notInIMChatroom, .notMember, .tooManyRooms, .tooManyRoomsForOwner,
             .tooManyAccounts:
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
        } catch let error as HTTPError {
            let code = error.status == .notFound ? "not_found" : "http_\(error.status.code)"
            return try Problem(error.status, code: code, detail: error.body ?? error.status.reasonPhrase).response(from: request, context: context)
        } catch let error as HTTPResponseError {
            return try error.response(from: request, context: context)
        } catch {
            let failure = Failure(classifying: error)
            failure.log(to: context.logger, path: request.uri.path)
            var response = try Problem(failure).response(from: request, context: context)
            if let seconds = Problem.retryAfter(failure) { response.headers[.retryAfter] = seconds }
            return response
        }
    }
}
