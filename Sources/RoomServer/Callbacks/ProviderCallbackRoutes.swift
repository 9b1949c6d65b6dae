import Foundation
import Hummingbird
import RoomCore

/// `POST /t/{tenant}/callbacks/{provider}`: a vendor tells us about chatroom
/// members or live streams. The tenant's adapter verifies the signature with
/// the tenant's secret; a refused callback gets 401 and changes nothing.
struct ProviderCallbackRoutes: Sendable {
    let services: RoomServices
    static let maxBody = 256 * 1024

    struct Accepted: ResponseEncodable {
        let code: Int
    }

    /// What identifies one signed callback: its body, its query and the
    /// headers vendors sign with. The same bytes again are a replay (a vendor
    /// that resends signs again, with a new time).
    static func receipt(_ callback: ProviderCallback, provider: String) -> String {
        let query = callback.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        let signed = ["md5", "curtime", "checksum", "signature", "timestamp", "nonce"].map { callback.headers[$0] ?? "" }.joined(separator: "|")
        return Secrets.sha256Hex(provider + "\n" + query + "\n" + signed + "\n" + String(decoding: callback.body, as: UTF8.self))
    }

    func register(on router: Router<RoomRequestContext>) {
        router.post("t/:tenant/callbacks/:provider", use: receiveCallback)
    }

    @Sendable func receiveCallback(_ request: Request, context: RoomRequestContext) async throws -> Accepted {
        let tenantID = try context.parameters.require("tenant")
        let provider = try context.parameters.require("provider")
        guard let tenant = services.tenants[tenantID] else { throw Problem.notFound("no tenant \(tenantID)") }
        guard let verifier = tenant.callbacks[provider] else {
            throw Problem.notFound("tenant \(tenantID) uses no \(provider) provider that sends callbacks")
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.maxBody)
        } catch {
            throw Problem(.contentTooLarge, code: "callback_too_large", detail: "a callback body is at most \(Self.maxBody) bytes")
        }
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        var query: [String: String] = [:]
        for (key, value) in request.uri.queryParameters { query[String(key)] = String(value) }
        let callback = ProviderCallback(headers: headers, query: query, body: Array(body.readableBytesView))
        switch verifier.verify(callback, now: services.clock.now()) {
        case .failure(let refusal):
            context.logger.warning("provider callback refused", metadata: ["tenant": "\(tenantID)", "provider": "\(provider)", "reason": "\(refusal)"])
            if case .malformed = refusal { throw Problem(.badRequest, code: "callback_malformed", detail: refusal.description) }
            throw Problem(.unauthorized, code: "callback_refused", detail: refusal.description)
        case .success(let events):
            if let problem = events.lazy.compactMap(\.problem).first {
                throw Problem(.badRequest, code: "callback_malformed", detail: "malformed callback: \(problem)")
            }
            let confirmed: [ProviderEvent]
            do {
                confirmed = try await verifier.confirm(events)
            } catch {
                context.logger.warning("provider callback unconfirmed", metadata: ["tenant": "\(tenantID)", "provider": "\(provider)"])
                throw Problem(.serviceUnavailable, code: "callback_unconfirmed", detail: "the provider could not confirm the event; send it again")
            }
            do {
                // What it queued wakes every dispatcher through the outbox's trigger.
                try await services.engine.applyProviderEvents(confirmed, tenant: tenant, provider: provider,
                                                              receipt: Self.receipt(callback, provider: provider))
            } catch is ProviderStateStore.Replayed {
                context.logger.warning("provider callback replayed", metadata: ["tenant": "\(tenantID)", "provider": "\(provider)"])
                throw Problem(.conflict, code: "callback_replayed", detail: "this callback was received before; it changes nothing again")
            }
            // Tencent reads {"code":0}; NetEase and RongCloud only need the 200.
            return Accepted(code: provider == "tencent" ? 0 : 200)
        }
    }
}
