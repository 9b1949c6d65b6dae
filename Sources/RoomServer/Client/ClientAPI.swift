import Foundation
import Hummingbird
import Logging
import RoomCore

/// Mounts every registered plugin's routes at `/t/{tenant}/{plugin}/…`. A
/// tenant that does not exist or does not enable the plugin gets a clear 404;
/// everything else answers in the plugin's wire envelope.
struct ClientAPI: Sendable {
    let services: RoomServices
    let registry: PluginRegistry
    /// Peers whose `X-Forwarded-For` is believed (the load balancer's addresses).
    let trustedProxies: Set<String>
    let idempotency: IdempotencyStore
    static let maxBody = 256 * 1024

    func register(on router: Router<RoomRequestContext>) {
        for plugin in registry.plugins {
            for (index, route) in plugin.routeSignatures.enumerated() {
                for method in route.methods {
                    router.on(RouterPath("t/:tenant/\(plugin.id)\(route.path)"), method: HTTPRequest.Method(rawValue: method.rawValue)!) { request, context in
                        try await handle(request, context: context, plugin: plugin, route: index)
                    }
                }
            }
        }
        for method in [HTTPRequest.Method.get, .post] {
            router.on("t/:tenant/**", method: method) { request, context -> Response in
                let tenant = context.parameters.get("tenant") ?? ""
                guard services.tenants[tenant] != nil else { throw Problem.notFound("no tenant \(tenant)") }
                throw Problem.notFound("no route \(request.method) \(request.uri.path)")
            }
        }
    }

    private func handle(_ request: Request, context: RoomRequestContext, plugin: AnyRoomPlugin, route: Int) async throws -> Response {
        let tenantID = try context.parameters.require("tenant")
        guard let tenant = services.tenants[tenantID] else { throw Problem.notFound("no tenant \(tenantID)") }
        guard let enabled = tenant.plugin(plugin.id) else {
            throw Problem.notFound("tenant \(tenantID) does not enable plugin \(plugin.id)")
        }
        var logger = context.logger
        logger[metadataKey: "tenant"] = "\(tenantID)"
        logger[metadataKey: "plugin"] = "\(plugin.id)"
        let style = plugin.wire
        let body: ByteBuffer
        let keyed: IdempotentRequest?
        do {
            do {
                body = try await request.body.collect(upTo: Self.maxBody)
            } catch {
                throw ParameterError(field: "body", reason: "must be at most \(Self.maxBody) bytes")
            }
            keyed = try IdempotentRequest(store: idempotency, method: request.method, path: request.uri.path, target: request.uri.description,
                                          headers: request.headers, body: body)
        } catch let error as ParameterError {
            return WireEnvelope.failure(style, .badParameter(error))
        }
        if let keyed {
            switch try await Self.unavailableAsNil({ try await keyed.claim() }) {
            case .answered(let status, let contentType, let stored)?:
                return IdempotentRequest.replay(status: status, contentType: contentType, body: stored)
            case .inProgress?, nil:
                return WireEnvelope.failure(style, .databaseUnavailable(detail: "the Idempotency-Key's claim"))
            case .mismatch?:
                return WireEnvelope.failure(style, .badParameter(ParameterError(field: "Idempotency-Key", reason: IdempotentRequest.reusedText)))
            case .fresh?:
                break
            }
        }
        let (response, final) = await answer(request, body: body, context: context, tenant: tenant, enabled: enabled,
                                             route: plugin.routeSignatures[route].path, index: route, logger: logger)
        guard let keyed else { return response }
        guard final else {
            await keyed.release()
            return response
        }
        return try await keyed.keep(response)
    }

    /// nil when PostgreSQL is unavailable (the claim's answer is then "try again").
    private static func unavailableAsNil<T>(_ body: () async throws -> T) async throws -> T? {
        do {
            return try await body()
        } catch where DatabaseUnavailable.matches(error) {
            return nil
        }
    }

    /// The route's answer in the plugin's wire envelope, and whether it is
    /// final (kept for an `Idempotency-Key`): success and refusals are; "try
    /// again" (the database or a vendor unavailable, an internal error) is not.
    private func answer(_ request: Request, body: ByteBuffer, context: RoomRequestContext, tenant: Tenant, enabled: EnabledPlugin,
                        route path: String, index route: Int, logger: Logger) async -> (Response, final: Bool) {
        let style = enabled.plugin.wire
        do {
            let parameters = try FormDecoding.parameters(
                query: request.uri.query, body: Array(body.readableBytesView), contentType: request.headers[.contentType])
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            let address = ClientAddress.resolve(peer: context.peerAddress, forwardedFor: headers["x-forwarded-for"], trusted: trustedProxies)
            let parts = ClientCallParts(
                tenant: tenant, policy: enabled.policy, parameters: parameters, headers: headers, clientAddress: address,
                services: services, logger: logger)
            // A host's kick is audited with where it came from (#29).
            let caller = AuditCaller(actor: "client", requestID: RequestID.of(request.headers, context: context), clientAddress: address)
            let data = try await AuditCaller.$current.withValue(caller) { try await enabled.plugin.handle(route: route, parts) }
            return (try WireEnvelope.success(style, data), true)
        } catch {
            let failure = Failure(classifying: error)
            failure.log(to: logger, path: path)
            let answer = style.clientError(for: failure) { enabled.plugin.clientError(for: $0) }
            return (WireEnvelope.failure(style, answer), failure.isFinal)
        }
    }
}
