import ArgumentParser
import Foundation
import PostgresNIO
import RoomCore
import RoomkeeperBuild
import RoomProviders

/// One sweeper pass outside a server: expire and lapse every due room, then
/// exit. Several may run at once (SKIP LOCKED shares the work); ops/bench
/// times them.
struct Sweep: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Expire and lapse every room that is due now, then exit (prints the count).")

    @Option(help: "Rooms per transaction.")
    var batch = 1000

    @Flag(help: "Also print the seconds the sweep itself took (after start-up), for ops/bench.")
    var timed = false

    func run() async throws {
        RoomkeeperCommand.bootstrapLogging()
        let logger = Env.logger("sweep")
        let tenantsPath = Env.values["ROOMKEEPER_TENANTS"] ?? "ops/tenants"
        let batch = batch
        // Every cell (#43), one after another: each holds its own tenants' rooms.
        var swept = 0, seconds = 0.0
        for endpoint in [nil] + (try Env.otherCells().map(\.endpoint)) {
            let (count, elapsed) = try await Env.withDatabase(logger, endpoint: endpoint) { database in
                let clock = SystemClock()
                let loader = TenantLoader(registry: Build.plugins, providers: StandardProviderCatalog(database: database, clock: clock))
                let tenants = try TenantDirectory(path: tenantsPath, loader: loader)
                let engine = RoomEngine(database: database, clock: clock, registry: Build.plugins, tenants: { tenants[$0] })
                var configuration = ExpirySweeper.Configuration()
                configuration.batchSize = batch
                let started = ContinuousClock.now
                let count = try await ExpirySweeper(engine: engine, configuration: configuration, logger: logger).sweepOnce()
                return (count, (ContinuousClock.now - started).inSeconds)
            }
            swept += count
            seconds += elapsed
        }
        print(timed ? "\(swept) \(seconds)" : "\(swept)")
    }
}
