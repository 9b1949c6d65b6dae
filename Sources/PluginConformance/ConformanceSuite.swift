import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import RoomCore
import RoomProviders
import RoomServer

/// The checks every plugin must pass, run against a real server on
/// 127.0.0.1 and a real PostgreSQL. Each check sets up its own two tenants
/// (both enabling the plugin), so checks run in parallel without sharing.
///
/// Use from a plugin's tests (the suite counts its own expectations, and
/// fails a check that held none):
/// `@Test(arguments: ConformanceSuite.Check.allCases) func conformance(_ check: ConformanceSuite.Check) async throws {
///     let held = try await ConformanceSuite(driver: MyDriver(), database: db).run(check)
///     #expect(!held.isEmpty) }`
public struct ConformanceSuite: Sendable {
    public enum Check: String, CaseIterable, Sendable, CustomStringConvertible {
        case visibleInAdminAPI
        case ownerDissolvesOthersCannot
        case expiresAfterTTL
        case closedRoomRefusesJoins
        case otherTenantsCannotSeeOrTouch
        case adminCreatedRoomServesClients
        case absurdTTLsAreRefusedOnCreateAndExtend
        case closingReachesTheIMProvider
        case sideEffectsAreOrderedPerRoom
        case bannedAccountsStayOut
        case hostsKickOthersCannot

        public var description: String { rawValue }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let check: Check
        public let message: String
        public var description: String { "conformance \(check): \(message)" }
    }

    let driver: any ConformanceDriver
    let database: Database

    public init(driver: any ConformanceDriver, database: Database) {
        self.driver = driver
        self.database = database
    }

    /// Runs one check; throws `Failure` naming the first expectation that
    /// does not hold (or when a check stated none), and returns every
    /// expectation that held: the suite counts them itself.
    @discardableResult
    public func run(_ check: Check) async throws -> [String] {
        let world = try World(driver: driver, database: database)
        // Given a database routed by cells (#43): the checked tenant lives in
        // another cell than the first, and the other tenant in the first.
        if let cells = database.cells, let other = cells.others.keys.sorted().first {
            try await cells.place(world.tenantIDs[0], in: other, home: database)
            try await cells.place(world.tenantIDs[1], in: cells.home, home: database)
        }
        let app = try world.server.buildApplication(deliverer: world.deliveries)
        return try await app.test(.live) { http in
            let context = CheckContext(check: check, world: world, driver: driver, http: http)
            switch check {
            case .visibleInAdminAPI: try await context.visibleInAdminAPI()
            case .ownerDissolvesOthersCannot: try await context.ownerDissolvesOthersCannot()
            case .expiresAfterTTL: try await context.expiresAfterTTL()
            case .closedRoomRefusesJoins: try await context.closedRoomRefusesJoins()
            case .otherTenantsCannotSeeOrTouch: try await context.otherTenantsCannotSeeOrTouch()
            case .adminCreatedRoomServesClients: try await context.adminCreatedRoomServesClients()
            case .absurdTTLsAreRefusedOnCreateAndExtend: try await context.absurdTTLsAreRefusedOnCreateAndExtend()
            case .closingReachesTheIMProvider: try await context.closingReachesTheIMProvider()
            case .sideEffectsAreOrderedPerRoom: try await context.sideEffectsAreOrderedPerRoom()
            case .bannedAccountsStayOut: try await context.bannedAccountsStayOut()
            case .hostsKickOthersCannot: try await context.hostsKickOthersCannot()
            }
            guard !context.held.all.isEmpty else { throw Failure(check: check, message: "the check stated no expectation") }
            return context.held.all
        }
    }
}

/// Two fresh tenants in a temporary directory, a clock the checks move, and a server.
struct World: Sendable {
    let tenantIDs: [TenantID]
    /// The server's outbox deliveries, in the order they happened.
    let deliveries: DeliveryLog
    let clock: ManualClock
    let server: Roomkeeper
    let operatorKey: String

    init(driver: any ConformanceDriver, database: Database) throws {
        let ids = (0..<2).map { _ in "conf" + Secrets.randomToken(bytes: 4) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-" + Secrets.randomToken(bytes: 4)).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for id in ids {
            let file = """
                name = "Conformance \(id)"
                adminKeys = ["sha256:\(Secrets.sha256Hex("\(id)-key"))"]
                [providers.im]
                kind = "local"
                \(driver.pluginTable)
                """
            try file.write(toFile: "\(directory)/\(id).toml", atomically: true, encoding: .utf8)
        }
        let clock = ManualClock()
        let registry = PluginRegistry([driver.plugin])
        let loader = TenantLoader(registry: registry, providers: StandardProviderCatalog(database: database, clock: clock))
        let tenants = try TenantDirectory(path: directory, loader: loader)
        var options = ServerOptions()
        options.port = 0
        options.operatorKey = Secrets.randomToken()
        options.sweeper.tenants = ids
        options.dispatcher.tenants = ids
        var logger = Logger(label: "conformance")
        logger.logLevel = .warning
        self.tenantIDs = ids
        self.clock = clock
        let tenantsInForce = tenants
        self.deliveries = DeliveryLog(next: ProviderOutboxDeliverer(tenants: { tenantsInForce[$0] }))
        self.operatorKey = options.operatorKey!
        self.server = Roomkeeper(database: database, registry: registry, tenants: tenants, clock: clock, options: options, logger: logger)
    }
}
