import Foundation
import Hummingbird
import Logging
import RoomCore

/// `/admin/v1`: JSON, proper statuses, RFC 9457 problems, Bearer keys.
struct AdminAPI: Sendable {
    let services: RoomServices
    let registry: PluginRegistry
    let operatorKeyDigest: String?
    let reloadBroadcast: TenantReloadBroadcast
    let idempotency: IdempotencyStore
    let trustedProxies: Set<String>
    let budgets: RequestBudgetGate
    /// `ROOMKEEPER_DATA_KEY`, else the operator key's digest: a secret every
    /// instance shares and no tenant holds.
    let fingerprintSecret: [UInt8]
    /// The instance's request slots, shared with client requests (#41).
    let slots: FairPermits

    var tenants: TenantDirectory { services.tenants }
    var rooms: RoomStore { services.engine.store }
    var outbox: OutboxStore { OutboxStore(database: services.database) }

    /// Every admin request body. Each names its schema in the contract,
    /// checked here at start-up (a name the contract lacks stops the server
    /// before it answers anything); `AdminContractTests` proves that each
    /// reads exactly its schema's fields.
    static let bodies: [any AdminBody.Type] = [CreateRoomBody.self, ExtendBody.self, KickBody.self, BanBody.self, CreateKeyBody.self, ReplayBody.self]

    func register(on router: Router<RoomRequestContext>) {
        for body in Self.bodies { _ = AdminContract.body(body.schema) }
        // The contract is public: a client generator or a validator needs no key.
        let contract = AdminContract.document(plugins: registry.plugins)
        router.get("admin/v1/openapi.json") { _, _ -> Response in
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            headers[.cacheControl] = "public, max-age=300"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: contract)))
        }
        let admin = router.group("admin/v1")
            .add(middleware: AdminAuthMiddleware(operatorKeyDigest: operatorKeyDigest, tenants: tenants, trustedProxies: trustedProxies, clock: services.clock, budgets: budgets,
                                             fingerprintSecret: fingerprintSecret, keys: AdminKeyStore(database: services.database)))
            .add(middleware: AdminSlotsMiddleware(slots: slots))
            .add(middleware: AdminInputMiddleware())
            .add(middleware: AdminIdempotencyMiddleware(store: idempotency))
        registerTenantRoutes(admin)
        registerRoomRoutes(admin.group("tenants/:tenant/rooms"))
        registerModerationRoutes(rooms: admin.group("tenants/:tenant/rooms"), tenant: admin.group("tenants/:tenant"))
        registerOutboxRoutes(admin.group("tenants/:tenant"))
        registerWebhookRoutes(admin.group("tenants/:tenant"))
        registerAccountRoutes(admin.group("tenants/:tenant/accounts"))
        registerAuditRoutes(admin)
        registerEventRoutes(admin.group("tenants/:tenant"))
        registerSessionRoutes(admin.group("tenants/:tenant"))
        registerUsageRoutes(admin.group("tenants/:tenant"))
        registerLimitsRoutes(admin.group("tenants/:tenant"))
        registerKeyRoutes(admin.group("tenants/:tenant"))
        registerMeRoute(admin)
    }

    /// Revocation: every session (sid, SealMic authorization) of an account
    /// ends now; its IM tokens and sockets end through the outbox.
    private func registerAccountRoutes(_ accounts: RouterGroup<RoomRequestContext>) {
        accounts.post(":accid/sessions/revoke", use: revokeAccountSessions)
    }

    @Sendable private func revokeAccountSessions(_ request: Request, context: RoomRequestContext) async throws -> RevokedDTO {
        let tenant = try context.authorizedTenant(tenants)
        let accid = try context.parameters.text("accid")
        guard TextRules.fits(accid, 1...128) else { throw Problem.invalid("accid", "must be 1-128 characters without NUL") }
        let store = AccountStore(database: services.database, clock: services.clock)
        guard try await store.account(tenant.id, accid) != nil else { throw Problem.notFound("no account \(accid)") }
        return RevokedDTO(revoked: try await store.revokeAccess(tenant.id, accid: accid, audited: AuditStamp(by: .admin, in: tenant)))
    }

    private func registerTenantRoutes(_ admin: RouterGroup<RoomRequestContext>) {
        admin.get("tenants", use: listTenants)
        admin.get("tenants/:tenant", use: showTenant)
        admin.post("tenants/reload", use: reloadTenants)
        admin.get("plugins", use: listPlugins)
    }

    @Sendable private func listTenants(_ request: Request, context: RoomRequestContext) async throws -> Page<TenantDTO> {
        let visible = tenants.current.sorted.filter { context.principal?.mayAccess($0.id) == true }
        return Page(items: visible.map(TenantDTO.init), nextCursor: nil)
    }

    @Sendable private func showTenant(_ request: Request, context: RoomRequestContext) async throws -> TenantDTO {
        TenantDTO(try context.authorizedTenant(tenants))
    }

    @Sendable private func reloadTenants(_ request: Request, context: RoomRequestContext) async throws -> ReloadDTO {
        try context.requireOperator()
        switch tenants.reload(logger: context.logger) {
        case .applied(let count):
            try await services.database.reloadCells()
            // The files are already in force: a reload cannot be undone, so
            // a failed audit write is logged, not answered as a failure.
            do {
                try await AuditLog(database: services.database).append(
                    AuditAct(tenantID: nil, action: .tenantsReload, target: "tenants", outcome: "\(count) tenants"),
                    by: .admin, keep: RetentionPolicy().audit, now: services.clock.now())
            } catch {
                context.logger.error("could not audit a tenant reload", metadata: ["error": "\(LoggableError.describe(error))"])
            }
            // Every other instance follows (a failed announcement is only
            // a delay: their next reload, or reconnect, catches up).
            do { try await reloadBroadcast.announce() } catch {
                context.logger.warning("could not announce the reload to other instances", metadata: ["error": "\(LoggableError.describe(error))"])
            }
            return ReloadDTO(applied: true, tenants: count)
        case .rejected(let failure):
            throw Problem(.unprocessableContent, code: "invalid_tenants",
                          detail: "the tenant files are invalid; the previous tenants stay in force",
                          issues: failure.issues.map(\.description))
        }
    }

    @Sendable private func listPlugins(_ request: Request, context: RoomRequestContext) async throws -> Page<PluginDTO> {
        Page(items: registry.plugins.map {
            PluginDTO(id: $0.id, wire: $0.wire.name, defaultRoomTTLSeconds: $0.defaultPolicy.ttlSeconds,
                      defaultCapacity: $0.defaultPolicy.capacity, routes: $0.routeSignatures.map(\.path))
        }, nextCursor: nil)
    }
}

struct RevokedDTO: ResponseEncodable {
    let revoked: Int
}

struct ReloadDTO: ResponseEncodable {
    let applied: Bool
    let tenants: Int
}

struct PluginDTO: Encodable {
    let id: String
    let wire: String
    let defaultRoomTTLSeconds: Int
    let defaultCapacity: Int
    let routes: [String]
}
