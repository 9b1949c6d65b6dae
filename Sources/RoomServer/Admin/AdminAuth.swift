import Hummingbird
import RoomCore

/// Who is calling the admin API.
public enum AdminPrincipal: Sendable, Equatable {
    /// The operator key (`ROOMKEEPER_OPERATOR_KEY`): every tenant.
    case `operator`
    /// A tenant's admin key: that tenant only.
    case tenant(TenantID)

    public func mayAccess(_ tenant: TenantID) -> Bool {
        switch self {
        case .operator: true
        case .tenant(let own): own == tenant
        }
    }
}

/// `Authorization: Bearer <key>`. Keys are compared as SHA-256 digests; the
/// operator key itself is never kept, only its digest.
struct AdminAuthMiddleware: RouterMiddleware {
    typealias Context = RoomRequestContext

    let operatorKeyDigest: String?
    let tenants: TenantDirectory
    let trustedProxies: Set<String>
    /// A tenant's usage counts its requests by this clock's hour.
    let clock: any RoomClock
    /// Tenant keys' budgets and failed keys per address (#41).
    let budgets: RequestBudgetGate
    /// The HMAC secret of the audit log's key fingerprints (#41).
    let fingerprintSecret: [UInt8]
    /// Keys made through the admin API (#44).
    let keys: AdminKeyStore

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], let key = AuthorizationHeader.bearer(header) else {
            throw Problem(.unauthorized, code: "unauthorized", detail: "send Authorization: Bearer <admin key>")
        }
        let address = ClientAddress.resolve(peer: context.peerAddress, forwardedFor: request.headers[ClientAddress.forwardedFor], trusted: trustedProxies)
        // An address that sent too many unknown keys waits, whatever it sends now (#41).
        let failures = RequestBudgetGate.Scope.failedAdminKeys(AddressSubject.of(address))
        if let refusal = await budgets.isExhausted(failures, budget: RequestBudgetGate.failedAdminKeys) { throw Throttled(refusal: refusal) }
        var context = context
        var actor = "tenant-admin"
        context.adminScopes = Set(AdminScope.allCases)
        if let operatorKeyDigest, Secrets.equal(Secrets.sha256Hex(key), operatorKeyDigest) {
            context.principal = .operator
            actor = "operator"
        } else if let tenant = tenants.current.sorted.first(where: { $0.acceptsAdminKey(key) }) {
            context.principal = .tenant(tenant.id)
        } else if AdminKeyStore.looksLikeKey(key), let made = try await keys.resolve(hash: Secrets.sha256Hex(key), now: clock.now()),
                  tenants[made.tenantID] != nil {
            // Read on every request: a revoked or expired key is refused on
            // every instance at once, with no cache to outlive it.
            context.principal = .tenant(made.tenantID)
            context.adminScopes = Set(made.scopes.compactMap(AdminScope.init(rawValue:)))
            actor = "key:\(made.id) (\(made.label))"
        } else {
            // Counted, answered 401 now: only the next unknown key past the limit waits.
            _ = budgets.count(failures, budget: RequestBudgetGate.failedAdminKeys)
            throw Problem(.unauthorized, code: "unauthorized", detail: "unknown admin key")
        }
        // A tenant key's requests count against its tenant's admin budget;
        // the operator's do not (it answers for every tenant).
        if case .tenant(let own)? = context.principal, let tenant = tenants[own],
           let refusal = await budgets.admit(.admin(own), budget: tenant.budgets.admin) {
            throw Throttled(refusal: refusal)
        }
        context.adminActor = actor
        // A key made with some scopes reaches only the routes of those (#44).
        let needed = AdminScope.required(method: request.method, path: String(request.uri.path.dropFirst("/admin/v1/".count)))
        guard context.adminScopes.contains(needed) else {
            throw Problem(.forbidden, code: "forbidden", detail: "this key lacks the scope \(needed.rawValue)")
        }
        // Who this is, for the audit rows of whatever the request does (#29).
        let caller = AuditCaller(
            actor: actor, keyFingerprint: AuditCaller.fingerprint(ofKey: key, secret: fingerprintSecret),
            requestID: RequestID.of(request.headers, context: context), clientAddress: address)
        // The request id goes back on refusals too, so a caller can match its
        // own records to ours either way.
        var response: Response
        do {
            response = try await AuditCaller.$current.withValue(caller) { try await next(request, context) }
        } catch {
            response = try ProblemMiddleware.response(for: error, request, context: context)
        }
        response.headers[RequestID.header] = caller.requestID
        // Billed to a tenant only once the key reaches it (#41).
        if let tenant = context.parameters.get("tenant"), context.principal?.mayAccess(tenant) == true, tenants[tenant] != nil {
            BilledRequest.count(tenant, at: clock.now())
        }
        return response
    }
}

/// An admin request past a budget: 429 problem+json with when to come back.
struct Throttled: HTTPResponseError {
    let refusal: RequestBudgetGate.Refusal
    var status: HTTPResponse.Status { .tooManyRequests }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let limit = RateLimit(refusal.budget.perSecond, per: 1)
        var response = try Problem.from(.rateLimited(action: "admin requests (\(refusal.scope.name) budget)", limit: limit))
            .response(from: request, context: context)
        refusal.apply(to: &response.headers)
        return response
    }
}

extension RoomRequestContext {
    /// The tenant named in the path, if this caller may reach it: 403 for a
    /// tenant key elsewhere (whether or not that tenant exists), 404 for an
    /// operator asking for a tenant that does not exist.
    func authorizedTenant(_ tenants: TenantDirectory) throws -> Tenant {
        let id = try parameters.text("tenant")
        guard let principal, principal.mayAccess(id) else {
            throw Problem(.forbidden, code: "forbidden", detail: "this key does not reach tenant \(id)")
        }
        guard let tenant = tenants[id] else { throw Problem.notFound("no tenant \(id)") }
        return tenant
    }

    func requireOperator() throws {
        guard principal == .operator else {
            throw Problem(.forbidden, code: "forbidden", detail: "only the operator key may do this")
        }
    }
}
