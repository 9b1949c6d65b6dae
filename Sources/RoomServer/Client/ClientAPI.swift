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
    /// The tenants' request budgets, this instance's share (#41).
    let budgets: RequestBudgetGate
    /// What runs at once, shared by tenant (#41).
    let slots: FairPermits
    static let maxBody = 256 * 1024

    func register(on router: Router<RoomRequestContext>) {
        for plugin in registry.plugins {
            for route in plugin.routeSignatures {
                for method in route.methods {
                    router.on(RouterPath("t/:tenant/\(plugin.id)\(route.path)"), method: HTTPRequest.Method(rawValue: method.rawValue)!) { request, context in
                        try await handle(request, context: context, plugin: plugin, route: route)
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

    private func handle(_ request: Request, context: RoomRequestContext, plugin: AnyRoomPlugin,
                        route signature: ClientRouteSignature) async throws -> Response {
        let tenantID = try context.parameters.require("tenant")
        guard let tenant = services.tenants[tenantID] else { throw Problem.notFound("no tenant \(tenantID)") }
        guard let enabled = tenant.plugin(plugin.id) else {
            throw Problem.notFound("tenant \(tenantID) does not enable plugin \(plugin.id)")
        }
        var logger = context.logger
        logger[metadataKey: "tenant"] = "\(tenantID)"
        logger[metadataKey: "plugin"] = "\(plugin.id)"
        let style = plugin.wire
        // Past the tenant's budget nothing is read, written or billed.
        if let refusal = await budgets.admit(.client(tenantID), budget: tenant.budgets.client) { return Self.throttled(refusal, style) }
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let address = ClientAddress.resolve(peer: context.peerAddress, forwardedFor: headers["x-forwarded-for"], trusted: trustedProxies)
        let parameters: WireParameters
        let keyed: IdempotentRequest?
        do {
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: Self.maxBody)
            } catch {
                throw ParameterError(field: "body", reason: "must be at most \(Self.maxBody) bytes")
            }
            parameters = try FormDecoding.parameters(
                query: request.uri.query, body: Array(body.readableBytesView), contentType: request.headers[.contentType])
            // Only a change needs its key (#41): a read's is ignored.
            keyed = signature.effect == .reads ? nil : try IdempotentRequest(
                store: idempotency, method: request.method, path: request.uri.path, target: request.uri.description,
                headers: request.headers, body: body,
                caller: IdempotentRequest.caller(credential: style.credential(parameters: parameters, headers: headers), address: address))
        } catch let error as ParameterError {
            return WireEnvelope.failure(style, .badParameter(error))
        }
        // One account's share of its tenant (by its session credential).
        if let credential = style.credential(parameters: parameters, headers: headers),
           let refusal = await budgets.admit(.account(tenantID, Secrets.sha256Hex(credential)), budget: tenant.budgets.account) {
            return Self.throttled(refusal, style)
        }
        // Admitted, it runs when its tenant's share of the instance allows:
        // one tenant's burst no longer takes the cores from the others.
        do {
            try await slots.acquire(for: tenantID, until: DatabaseDeadline.until(atMost: 10))
        } catch {
            return WireEnvelope.failure(style, .databaseUnavailable(detail: "too many of this tenant's requests are running here; try again"))
        }
        defer { slots.release(for: tenantID) }
        if let keyed {
            switch try await Self.unavailableAsNil({ try await keyed.claim() }) {
            case .answered(let status, let contentType, let stored)?:
                return IdempotentRequest.replay(status: status, contentType: contentType, body: stored)
            case .inProgress?, nil:
                return WireEnvelope.failure(style, .databaseUnavailable(detail: "the Idempotency-Key's claim"))
            case .outcomeUnknown?:
                return WireEnvelope.failure(style, ClientError(code: style.codes.unavailable, message: IdempotentRequest.unknownText))
            case .mismatch?:
                return WireEnvelope.failure(style, .badParameter(ParameterError(field: "Idempotency-Key", reason: IdempotentRequest.reusedText)))
            case .fresh?:
                break
            }
        }
        let parts = ClientCallParts(
            tenant: tenant, policy: enabled.policy, parameters: parameters, headers: headers, clientAddress: address,
            services: services, logger: logger)
        let (response, failure) = await RequestSlot.$current.withValue(RequestSlot(slots, owner: tenantID)) {
            await answer(request, parts: parts, context: context, enabled: enabled, route: signature.path)
        }
        BilledRequest.count(tenant.id, at: services.clock.now(), unless: failure.map { Self.unauthenticated($0, style) } ?? false)
        guard let keyed else { return response }
        switch failure {
        case .outcomeUnknown?:
            return await keyed.keepClaimed(response)
        case let failure? where !failure.isFinal:
            await keyed.release()
            return response
        default:
            return try await keyed.keep(response)
        }
    }

    /// 429 with the wire's own "too often" code in its envelope, and when to come back.
    static func throttled(_ refusal: RequestBudgetGate.Refusal, _ style: WireProtocol) -> Response {
        let limit = RateLimit(refusal.budget.perSecond, per: 1)
        var response = WireEnvelope.failure(style, .room(.rateLimited(action: "requests (\(refusal.scope.name) budget)", limit: limit)))
        response.status = .tooManyRequests
        refusal.apply(to: &response.headers)
        return response
    }

    /// A refusal for want of a valid session: not billed (#41).
    private static func unauthenticated(_ failure: Failure, _ style: WireProtocol) -> Bool {
        guard case .refused(let error) = failure else { return false }
        return error.code == style.codes.notLoggedIn
    }

    /// nil when PostgreSQL is unavailable (the claim's answer is then "try again").
    private static func unavailableAsNil<T>(_ body: () async throws -> T) async throws -> T? {
        do {
            return try await body()
        } catch where DatabaseUnavailable.matches(error) {
            return nil
        }
    }

    /// The route's answer in the plugin's wire envelope, and the failure it
    /// answers, if any: what an `Idempotency-Key` keeps depends on it.
    private func answer(_ request: Request, parts: ClientCallParts, context: RoomRequestContext, enabled: EnabledPlugin,
                        route path: String) async -> (Response, Failure?) {
        let style = enabled.plugin.wire
        do {
            // A host's kick is audited with where it came from (#29).
            let caller = AuditCaller(actor: "client", requestID: RequestID.of(request.headers, context: context), clientAddress: parts.clientAddress)
            let data = try await AuditCaller.$current.withValue(caller) { try await enabled.plugin.handle(route: path, parts) }
            return (try WireEnvelope.success(style, data), nil)
        } catch {
            let failure = Failure(classifying: error)
            failure.log(to: parts.logger, path: path)
            let answer = style.clientError(for: failure) { enabled.plugin.clientError(for: $0) }
            return (WireEnvelope.failure(style, answer), failure)
        }
    }
}
