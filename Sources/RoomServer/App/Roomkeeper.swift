import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import Prometheus
import RoomCore
import RoomProviders
import ServiceLifecycle

/// One Roomkeeper server: the router and every long-running part, run as
/// services of one Hummingbird application (one ServiceGroup, graceful
/// shutdown on SIGTERM/SIGINT).
public struct Roomkeeper: Sendable {
    public let services: RoomServices
    public let registry: PluginRegistry
    public let options: ServerOptions
    public let logger: Logger
    /// This instance's fan-out of local-IM events to its WebSocket clients.
    public let hub: LocalIMHub
    /// The local IM's sockets waiting to log in.
    let loginWaitingRoom: LoginWaitingRoom
    /// The instances alive, for each one's share of the request budgets.
    public let roster: InstanceRoster
    let budgets: RequestBudgetGate
    /// Client requests running at once, shared by tenant.
    let requestSlots: FairPermits
    /// How webhook deliveries leave.
    public var webhookSender: any WebhookSender

    public init(database: Database, registry: PluginRegistry, tenants: TenantDirectory, clock: any RoomClock, options: ServerOptions, logger: Logger) {
        let engine = RoomEngine(database: database, clock: clock, registry: registry, tenants: { tenants[$0] })
        self.services = RoomServices(database: database, clock: clock, engine: engine, tenants: tenants,
                                     secrets: SecretBox(keyHex: options.dataKeyHex))
        self.registry = registry
        self.options = options
        self.logger = logger
        self.webhookSender = HTTPWebhookSender(policy: options.webhookAddresses)
        self.hub = LocalIMHub(database: database, clock: clock, logger: logger, maxConnections: options.maxSockets)
        self.loginWaitingRoom = LoginWaitingRoom(limits: options.loginWaiting)
        self.roster = InstanceRoster(database: database, logger: logger)
        self.budgets = RequestBudgetGate(roster: roster, answerDelay: options.throttledAnswerDelay)
        self.requestSlots = FairPermits(capacity: options.requestSlots)
    }

    /// The audit fingerprints' HMAC secret: the data key, else the operator
    /// key's digest (a deployment without either fingerprints under a fixed
    /// secret, as good as a bare digest: set one of them).
    public static func fingerprintSecret(_ options: ServerOptions) -> [UInt8] {
        if let hex = options.dataKeyHex { return Secrets.sha256(hex) }
        if let key = options.operatorKey { return Secrets.sha256("roomkeeper audit fingerprints\n" + key) }
        return Secrets.sha256("roomkeeper audit fingerprints")
    }

    /// Schema folders in the order they apply: core, providers, plugins.
    public static func schemaFolders(registry: PluginRegistry, extra: [String]) -> [String] {
        ["core"] + extra + registry.ids
    }

    public func migrator() throws -> Migrator {
        try Migrator(
            schemaRoot: URL(fileURLWithPath: options.schemaRoot),
            folders: Self.schemaFolders(registry: registry, extra: options.extraSchemaFolders))
    }

    /// Reloads the tenant files on SIGHUP. Signals are the process's: only
    /// `roomkeeper serve` adds this, not every application built in tests.
    public var reloader: TenantReloader {
        TenantReloader(tenants: services.tenants, broadcast: reloadBroadcast, logger: logger)
    }

    /// How this instance tells the others it reloaded the tenants.
    public var reloadBroadcast: TenantReloadBroadcast {
        TenantReloadBroadcast(database: services.database, instanceID: hub.instanceID)
    }

    /// The instance's one LISTEN connection (#28, item 5), followed by the
    /// tenant reloads, the room lists, the local IM and the outbox.
    public func notifications(dispatcherSignal: OutboxSignal) -> NotificationService {
        notifications(dispatcherSignal: dispatcherSignal, cell: nil)
    }

    /// `cell`: another cell's LISTEN (#43), which follows what its tenants'
    /// commits announce; tenant reloads are announced in the first cell only.
    func notifications(dispatcherSignal: OutboxSignal, cell: String?) -> NotificationService {
        var reloads: [any NotificationFollower] = cell == nil
            ? [TenantReloadFollower(broadcast: reloadBroadcast, tenants: services.tenants, logger: logger)] : []
        // Moves' fences and flips are announced in the first cell (#43).
        if cell == nil, services.database.cells != nil {
            reloads.append(CellDirectoryFollower(database: services.database, instanceID: roster.id, logger: logger))
        }
        return NotificationService(database: cell.map(services.database.inCell) ?? services.database, followers: reloads + [
            RoomListFollower(cache: services.engine.listCache),
            hub.follower,
            OutboxWakeFollower(signal: dispatcherSignal),
        ], logger: logger)
    }

    /// The instance's own work over tenants' rows (#43): the sweeper, the
    /// outbox dispatcher, retention and LISTEN once per cell, each cell's
    /// with its leases in that cell (`LeaseOwner.cell`); the usage rollup
    /// once, each tenant's fold in its own cell.
    func workOverTenants(deliverer: (any OutboxDeliverer)?) -> [any Service] {
        guard let cells = services.database.cells else {
            return [sweeper, dispatcher(deliverer: deliverer), retention, usage, notifications(dispatcherSignal: options.dispatcher.signal)]
        }
        // The usage rollup runs once: it takes this instance's in-memory
        // counts of each tenant, which one loop per cell would split between
        // the cells; each tenant's fold goes to its own cell.
        return [usage] + cells.names.map { name in
            let home = name == cells.home
            // Each cell's dispatcher is woken by its own cell's commits.
            let signal = home ? options.dispatcher.signal : OutboxSignal()
            return InCell(name: name, services: [
                sweeper, dispatcher(deliverer: deliverer, signal: signal), retention,
                notifications(dispatcherSignal: signal, cell: home ? nil : name),
            ])
        }
    }

    public var sweeper: ExpirySweeper {
        ExpirySweeper(engine: services.engine, configuration: options.sweeper, logger: logger)
    }

    /// Purges what tenants' retention no longer keeps, once a minute.
    public var retention: RetentionPurger {
        let tenants = services.tenants
        return RetentionPurger(database: services.database, clock: services.clock, tenants: { tenants.current.sorted },
                               keepers: registry.plugins.flatMap(\.accountReferences), dependents: LocalIMProvider.accountDependents, logger: logger)
    }

    /// Folds each tenant's usage into hours every 30 s (#30, item 3).
    public var usage: UsageRollup {
        let tenants = services.tenants
        return UsageRollup(database: services.database, clock: services.clock, tenants: { tenants.current.sorted.map(\.id) },
                           interval: options.usageInterval, logger: logger)
    }

    public func dispatcher(deliverer: (any OutboxDeliverer)? = nil, signal: OutboxSignal? = nil) -> OutboxDispatcher {
        let tenants = services.tenants
        let clock = services.clock
        var configuration = options.dispatcher
        if let signal { configuration.signal = signal }
        let operatorWebhook = options.operatorWebhook
        configuration.webhooks = { (tenants[$0]?.webhooks ?? []) + (operatorWebhook.map { [$0] } ?? []) }
        return OutboxDispatcher(
            store: OutboxStore(database: services.database),
            deliverer: deliverer ?? ProviderOutboxDeliverer(tenants: { tenants[$0] }, webhooks: webhookSender, operatorEndpoint: operatorWebhook,
                                                            now: { clock.now() }),
            clock: clock, configuration: configuration, logger: logger)
    }

    var idempotency: IdempotencyStore { IdempotencyStore(database: services.database, clock: services.clock) }

    public func buildRouter() throws -> Router<RoomRequestContext> {
        let router = Router(context: RoomRequestContext.self)
        let table = RouteTable()
        router.add(middleware: ProblemMiddleware())
        router.add(middleware: RequestTracing(trustedProxies: Set(options.trustedProxies)))
        router.add(middleware: RequestDeadlineMiddleware(seconds: options.requestSeconds))
        router.add(middleware: RequestMetrics(tenants: services.tenants))
        router.add(middleware: LeaseOwnerMiddleware(tenants: services.tenants))
        router.add(middleware: MethodNotAllowedMiddleware(table: table))
        OpsRoutes(services: services, migrator: try migrator(), metrics: AppMetrics.registry,
                  metricsKeyDigest: options.metricsKey.map(Secrets.sha256Hex)).register(on: router)
        AdminAPI(services: services, registry: registry, operatorKeyDigest: options.operatorKey.map(Secrets.sha256Hex),
                 reloadBroadcast: reloadBroadcast, idempotency: idempotency, trustedProxies: Set(options.trustedProxies),
                 budgets: budgets, fingerprintSecret: Self.fingerprintSecret(options), slots: requestSlots).register(on: router)
        ProviderCallbackRoutes(services: services).register(on: router)
        ConsoleRoutes().register(on: router)
        ClientAPI(services: services, registry: registry, trustedProxies: Set(options.trustedProxies), idempotency: idempotency, budgets: budgets,
                  slots: requestSlots).register(on: router)
        table.fill(router)
        return router
    }

    /// The WebSocket routes (the local IM), kept apart from the HTTP router.
    public func buildWebSocketRouter() -> Router<IMSocketContext> {
        let router = Router(context: IMSocketContext.self)
        LocalIMSocket(tenants: services.tenants, hub: hub, trustedProxies: Set(options.trustedProxies), waitingRoom: loginWaitingRoom).register(on: router)
        return router
    }

    /// The application with the sweeper, the outbox dispatcher and the
    /// local-IM hub; `extra` adds more services (the PostgreSQL client and
    /// the SIGHUP reloader when a real process owns them).
    public func buildApplication(extra: [any Service] = [], deliverer: (any OutboxDeliverer)? = nil) throws -> some ApplicationProtocol {
        Application(
            router: try buildRouter(),
            server: .boundedHTTP1WebSocket(webSocketRouter: buildWebSocketRouter(), headSeconds: options.requestHeadSeconds, idleSeconds: options.idleSeconds),
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: "roomkeeper"),
            services: extra + workOverTenants(deliverer: deliverer) + [hub, roster],
            logger: logger)
    }
}
