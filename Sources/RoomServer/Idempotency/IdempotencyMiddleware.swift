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
/// What this does not give: the key and the request's own writes commit
/// separately, so an instance that dies between them leaves the key in
/// progress, and a retry 60 s later runs the request again (the plugin SDK,
/// #28, can write both in one statement).
struct IdempotentRequest: Sendable {
    let store: IdempotencyStore
    let scope: String
    let key: String
    let fingerprint: String

    static let replayed = HTTPField.Name("Idempotency-Replayed")!
    static let maxKey = 255

    /// The request's key, or nil when it has none (or is a read, or acts in
    /// no tenant: a reload, the operator's own paths).
    init?(store: IdempotencyStore, method: HTTPRequest.Method, path: String, target: String, headers: HTTPFields, body: ByteBuffer) throws {
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
        self.key = key
        scope = "\(tenant)|\(Secrets.sha256Hex(headers[.authorization] ?? ""))"
        fingerprint = Secrets.hex(digest.finalize())
    }

    func claim() async throws -> IdempotencyStore.Claim {
        try await store.claim(scope: scope, key: key, fingerprint: fingerprint)
    }

    /// Keeps `response` as the key's answer (reading its body once) and returns it.
    func keep(_ response: Response) async throws -> Response {
        let collector = BodyCollector()
        try await response.body.write(collector)
        try await store.complete(scope: scope, key: key, status: response.status.code, contentType: response.headers[.contentType],
                                 body: Data(collector.buffer.readableBytesView))
        var kept = response
        kept.body = .init(byteBuffer: collector.buffer)
        return kept
    }

    /// Lets a retry run the request again.
    func release() async {
        try? await store.release(scope: scope, key: key)
    }

    static func replay(status: Int, contentType: String?, body: Data) -> Response {
        var headers = HTTPFields()
        if let contentType { headers[.contentType] = contentType }
        headers[replayed] = "true"
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    static let inProgressText = "a request with this Idempotency-Key is still running; retry it in a moment"
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
                                          headers: request.headers, body: body)
        } catch let error as ParameterError {
            throw Problem.invalid(error.field, error.reason)
        }
        guard let keyed else { return try await next(request, context) }
        switch try await keyed.claim() {
        case .answered(let status, let contentType, let stored):
            return IdempotentRequest.replay(status: status, contentType: contentType, body: stored)
        case .inProgress:
            throw Problem(.conflict, code: "idempotency_in_progress", detail: IdempotentRequest.inProgressText)
        case .mismatch:
            throw Problem(.unprocessableContent, code: "idempotency_key_reused", detail: "Idempotency-Key: \(IdempotentRequest.reusedText)",
                          field: "Idempotency-Key")
        case .fresh:
            let response: Response
            do {
                response = try await next(request, context)
            } catch {
                await keyed.release()
                throw error
            }
            guard response.status.code < 500 else {
                await keyed.release()
                return response
            }
            return try await keyed.keep(response)
        }
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
