import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import RoomCore

/// `Idempotency-Key` on every state-changing request, client routes and the
/// admin API alike (#27, item 5: a seat move retried after a lost answer
/// moved twice). The first request with a key runs and its answer is kept
/// 24 hours; a retry with the same key and the same request gets that
/// answer again (`Idempotency-Replayed: true`) without running; the same key
/// on a different request is refused; a retry while the first still runs is
/// told to try again. An answer that says "try again" (the database or a
/// vendor unavailable, a 5xx) is not kept: its key is released and the
/// retry runs.
///
/// A write whose outcome is unknown (the database connection broke as it
/// committed) keeps its key claimed with that answer, and a claim left
/// running by an instance that died answers the same, after 60 s: a retry
/// is told to read before it writes with a new key, never run a second
/// time (#41).
///
/// Keys are scoped by who sends them (#41: anonymous client requests shared
/// one scope, so a guest login sent with another caller's key was answered
/// that caller's sid): the credential the request carries (the admin key,
/// a client wire's session), else the client's address. Neither the key nor
/// the answer is kept in clear: the row is found by a digest of the key,
/// and the answer (which may carry a session or an IM token) is sealed with
/// AES-GCM under a key derived from the Idempotency-Key itself, so only a
/// retry that sends it can read it (`IdempotencySeal`).
struct IdempotentRequest: Sendable {
    let store: IdempotencyStore
    let scope: String
    /// SHA-256 of the key in its scope: what the row is found by.
    let keyDigest: String
    let seal: IdempotencySeal
    let fingerprint: String

    static let replayed = HTTPField.Name("Idempotency-Replayed")!
    static let maxKey = 255

    /// The request's key, or nil when it has none (or is a read, or acts in
    /// no tenant: a reload, the operator's own paths). `caller`: who sends
    /// it, as `IdempotentRequest.caller` words it.
    init?(store: IdempotencyStore, method: HTTPRequest.Method, path: String, target: String, headers: HTTPFields, body: ByteBuffer,
          caller: @autoclosure () -> String) throws {
        guard method != .get, method != .head,
              let key = headers.first(where: { $0.name.canonicalName == "idempotency-key" })?.value,
              let tenant = Self.tenant(path) else { return nil }
        guard (1...Self.maxKey).contains(key.utf8.count), key.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
            throw ParameterError(field: "Idempotency-Key", reason: "must be 1-\(Self.maxKey) visible ASCII characters")
        }
        var digest = SHA256()
        digest.update(data: Data("\(method.rawValue) \(target)\n".utf8))
        digest.update(data: Data(body.readableBytesView))
        self.store = store
        scope = "\(tenant)|\(Secrets.sha256Hex(caller()))"
        keyDigest = Secrets.sha256Hex(scope + "\n" + key)
        seal = IdempotencySeal(key: key, scope: scope)
        fingerprint = Secrets.hex(digest.finalize())
    }

    /// Who sends a request: its credential when it carries one, else its address.
    static func caller(credential: String?, address: String) -> String {
        credential.map { "credential:" + $0 } ?? "address:" + address
    }

    func claim() async throws -> IdempotencyStore.Claim {
        switch try await store.claim(scope: scope, key: keyDigest, fingerprint: fingerprint) {
        case .answered(let status, let contentType, let sealed):
            // Unreadable under this key: not this caller's answer.
            guard let body = seal.open(sealed) else { return .mismatch }
            return .answered(status: status, contentType: contentType, body: body)
        case let other:
            return other
        }
    }

    /// Keeps `response` as the key's answer (reading its body once) and returns it.
    func keep(_ response: Response) async throws -> Response {
        let collector = BodyCollector()
        try await response.body.write(collector)
        try await store.complete(scope: scope, key: keyDigest, status: response.status.code, contentType: response.headers[.contentType],
                                 body: try seal.seal(Data(collector.buffer.readableBytesView)))
        var kept = response
        kept.body = .init(byteBuffer: collector.buffer)
        return kept
    }

    /// Keeps `response` if PostgreSQL is there to keep it; either way the
    /// key stays claimed (an unknown outcome is never run again).
    func keepClaimed(_ response: Response) async -> Response {
        (try? await keep(response)) ?? response
    }

    /// Lets a retry run the request again.
    func release() async {
        try? await store.release(scope: scope, key: keyDigest)
    }

    static func replay(status: Int, contentType: String?, body: Data) -> Response {
        var headers = HTTPFields()
        if let contentType { headers[.contentType] = contentType }
        headers[replayed] = "true"
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    static let inProgressText = "a request with this Idempotency-Key is still running; retry it in a moment"
    static let unknownText = "a request with this Idempotency-Key did not finish and may have been applied: read before you write again, with a new key"
    static let reusedText = "was used for a different request"

    /// The tenant a path acts in: `/t/{tenant}/…` or `/admin/v1/tenants/{tenant}/…`.
    static func tenant(_ path: String) -> String? {
        let parts = path.split(separator: "/").map(String.init)
        if parts.count >= 3, parts[0] == "t" { return parts[1] }
        if parts.count >= 5, parts[0] == "admin", parts[1] == "v1", parts[2] == "tenants" { return parts[3] }
        return nil
    }
}

/// The admin API's side: problems for refusals, and only answers below 500 kept.
struct AdminIdempotencyMiddleware: RouterMiddleware {
    typealias Context = RoomRequestContext
    let store: IdempotencyStore

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var request = request
        guard request.method != .get, request.headers.contains(where: { $0.name.canonicalName == "idempotency-key" }) else {
            return try await next(request, context)
        }
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: context.maxUploadSize)
        } catch {
            // As the route itself would answer it (decodeJSON).
            throw Problem(.contentTooLarge, code: "body_too_large", detail: "the body may be at most \(context.maxUploadSize) bytes")
        }
        let keyed: IdempotentRequest?
        do {
            keyed = try IdempotentRequest(store: store, method: request.method, path: request.uri.path, target: request.uri.description,
                                          headers: request.headers, body: body, caller: Self.caller(request.headers))
        } catch let error as ParameterError {
            throw Problem.invalid(error.field, error.reason)
        }
        guard let keyed else { return try await next(request, context) }
        switch try await keyed.claim() {
        case .answered(let status, let contentType, let stored):
            return IdempotentRequest.replay(status: status, contentType: contentType, body: stored)
        case .inProgress:
            throw Problem(.conflict, code: "idempotency_in_progress", detail: IdempotentRequest.inProgressText)
        case .outcomeUnknown:
            throw Problem(.conflict, code: "idempotency_outcome_unknown", detail: IdempotentRequest.unknownText)
        case .mismatch:
            throw Problem(.unprocessableContent, code: "idempotency_key_reused", detail: "Idempotency-Key: \(IdempotentRequest.reusedText)",
                          field: "Idempotency-Key")
        case .fresh:
            let response: Response
            do {
                response = try await next(request, context)
            } catch {
                guard Self.outcomeUnknown(error) else {
                    await keyed.release()
                    throw error
                }
                return await keyed.keepClaimed(try ProblemMiddleware.response(for: error, request, context: context))
            }
            // "Try again" is no final answer, and neither is "too often" (429).
            guard response.status.code < 500, response.status != .tooManyRequests else {
                await keyed.release()
                return response
            }
            return try await keyed.keep(response)
        }
    }
}

extension AdminIdempotencyMiddleware {
    /// Who sends an admin request: its key, however its header spells the
    /// Bearer scheme (the raw header made "bearer K" a stranger to "Bearer K").
    static func caller(_ headers: HTTPFields) -> String {
        let header = headers[.authorization] ?? ""
        return "admin-key:" + (AuthorizationHeader.bearer(header) ?? header)
    }

    /// Whether a route's error leaves its write's outcome unknown, classified
    /// or already rendered as a problem.
    static func outcomeUnknown(_ error: any Error) -> Bool {
        if let problem = error as? Problem { return problem.code == Problem(.outcomeUnknown(detail: "")).code }
        if case .outcomeUnknown = Failure(classifying: error) { return true }
        return false
    }
}

/// Reads a response's body into one buffer.
final class BodyCollector: ResponseBodyWriter {
    var buffer = ByteBuffer()

    func write(_ part: ByteBuffer) async throws {
        var part = part
        buffer.writeBuffer(&part)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
