import ArgumentParser
import Foundation
import Hummingbird
import PostgresNIO
import RoomCore
import RoomkeeperBuild
import RoomProviders
import RoomServer
import ServiceLifecycle

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Migrate, then serve the tenants in ROOMKEEPER_TENANTS on HOST:PORT.")

    @Flag(help: "Do not apply migrations at start-up.")
    var noMigrate = false

    func run() async throws {
        let tracing = TraceExport.isOn(Env.values)
        if tracing { TraceExport.bootstrapLogging() } else { RoomkeeperCommand.bootstrapLogging() }
        let logger = Env.logger("roomkeeper")
        let env = Env.values
        var options = ServerOptions()
        options.host = env["HOST"] ?? "127.0.0.1"
        guard let port = Int(env["PORT"] ?? "8080"), (1...65535).contains(port) else { throw CommandFailure("PORT must be a port number") }
        options.port = port
        options.tenantsPath = env["ROOMKEEPER_TENANTS"] ?? "ops/tenants"
        options.schemaRoot = env["ROOMKEEPER_SCHEMA"] ?? "schema"
        options.operatorKey = env["ROOMKEEPER_OPERATOR_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        options.metricsKey = env["ROOMKEEPER_METRICS_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        // Guessable keys are refused before anything listens (#41).
        for (name, key) in [("ROOMKEEPER_OPERATOR_KEY", options.operatorKey), ("ROOMKEEPER_METRICS_KEY", options.metricsKey)] {
            if let key, let refusal = KeyStrength.refusal(key, name: name) { throw CommandFailure(refusal) }
        }
        options.extraSchemaFolders = Build.extraSchemaFolders
        if let interval = try Env.duration("ROOMKEEPER_SWEEP_INTERVAL") { options.sweeper.interval = interval }
        if let interval = try Env.duration("ROOMKEEPER_OUTBOX_POLL") { options.dispatcher.pollInterval = interval }
        if let interval = try Env.duration("ROOMKEEPER_USAGE_INTERVAL") { options.usageInterval = interval }
        if let slots = env["ROOMKEEPER_REQUEST_SLOTS"] {
            guard let value = Int(slots), (1...10_000).contains(value) else { throw CommandFailure("ROOMKEEPER_REQUEST_SLOTS must be 1-10000") }
            options.requestSlots = value
        }
        if let sockets = env["ROOMKEEPER_MAX_SOCKETS"] {
            guard let value = Int(sockets), (1...1_000_000).contains(value) else { throw CommandFailure("ROOMKEEPER_MAX_SOCKETS must be 1-1000000") }
            options.maxSockets = value
        }
        if let dataKey = env["ROOMKEEPER_DATA_KEY"], !dataKey.isEmpty {
            guard SecretBox.keyBytes(hex: dataKey) != nil else { throw CommandFailure("ROOMKEEPER_DATA_KEY must be 64 hexadecimal digits") }
            options.dataKeyHex = dataKey
        }
        if let url = env["ROOMKEEPER_OPERATOR_WEBHOOK_URL"], !url.isEmpty {
            switch WebhookEndpoint.operatorEndpoint(url: url, secrets: env["ROOMKEEPER_OPERATOR_WEBHOOK_SECRETS"] ?? "") {
            case .success(let endpoint): options.operatorWebhook = endpoint
            case .failure(let problem): throw CommandFailure("ROOMKEEPER_OPERATOR_WEBHOOK_URL/_SECRETS: \(problem)")
            }
        }
        options.trustedProxies = (env["ROOMKEEPER_TRUSTED_PROXIES"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if let idle = try Env.duration("ROOMKEEPER_IDLE_TIMEOUT") { options.idleSeconds = idle.components.seconds }
        switch WebhookAddressPolicy.from(environment: env) {
        case .success(let policy): options.webhookAddresses = policy
        case .failure(let problem): throw CommandFailure("\(WebhookAddressPolicy.environmentName): \(problem)")
        }
        if let bound = try Env.duration("ROOMKEEPER_REQUEST_TIMEOUT") {
            let seconds = bound.inSeconds
            guard (0.1...600).contains(seconds) else { throw CommandFailure("ROOMKEEPER_REQUEST_TIMEOUT must be between 100ms and 10m") }
            options.requestSeconds = seconds
        }
        if options.operatorKey == nil { logger.warning("ROOMKEEPER_OPERATOR_KEY is not set: the admin API accepts tenant keys only") }

        let (router, home) = try await Env.database(logger)
        // Cells (#43): each other cell's router runs with the first's; a
        // lease goes to its tenant's cell by the directory.
        var routers = [router]
        var database = home
        let others = try Env.otherCells()
        if !others.isEmpty {
            var cells: [Cells.Cell] = []
            for cell in others {
                let (cellRouter, cellDatabase) = try await Env.database(logger, endpoint: cell.endpoint)
                routers.append(cellRouter)
                cells.append(Cells.Cell(name: cell.name, database: cellDatabase))
            }
            database = home.routed(by: try Cells(home: Env.homeCell, others: cells))
        }
        let clock = SystemClock()
        let loader = TenantLoader(registry: Build.plugins, providers: StandardProviderCatalog(database: database, clock: clock))
        let tenants: TenantDirectory
        do {
            tenants = try TenantDirectory(path: options.tenantsPath, loader: loader)
        } catch {
            for issue in error.issues { print(issue) }
            throw CommandFailure("refusing to start: the tenant files in \(options.tenantsPath) are invalid")
        }
        if let refusal = ExposureCheck.refusal(host: options.host, tenants: tenants.current.sorted, demo: env["ROOMKEEPER_DEMO"] == "1") {
            throw CommandFailure(refusal)
        }
        let server = Roomkeeper(database: database, registry: Build.plugins, tenants: tenants, clock: clock, options: options, logger: logger)
        if !noMigrate {
            let applied = try await Env.migrateCells(try server.migrator(), logger)
            logger.info("migrations current", metadata: ["applied": "\(applied)", "cells": "\(others.count + 1)"])
        }
        if let cells = database.cells {
            try await Env.withDatabase(logger) { try await cells.load(from: $0) }
            logger.info("cells", metadata: ["cells": "\(cells.names.joined(separator: ","))",
                                            "placed": "\(tenants.current.sorted.map { "\($0.id)=\(cells.cell(of: $0.id))" }.joined(separator: ","))"])
        }
        // The exporter runs first and stops last, so the last requests' spans leave.
        let traces: [any Service] = tracing ? [try TraceExport.bootstrap()] : []
        let app = try server.buildApplication(extra: traces + routers + [server.reloader])
        logger.info("serving", metadata: [
            "url": "http://\(options.host):\(options.port)",
            "tenants": "\(tenants.current.sorted.map(\.id).joined(separator: ","))",
        ])
        try await app.runService()
    }
}

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply the schema migrations DATABASE_URL lacks (safe to run twice, and from two instances at once).")

    func run() async throws {
        RoomkeeperCommand.bootstrapLogging()
        let logger = Env.logger("roomkeeper.migrate")
        let root = URL(fileURLWithPath: Env.values["ROOMKEEPER_SCHEMA"] ?? "schema")
        let migrator = try Migrator(schemaRoot: root, folders: Roomkeeper.schemaFolders(registry: Build.plugins, extra: Build.extraSchemaFolders))
        let applied = try await Env.migrateCells(migrator, logger)
        print(applied == 0 ? "migrations current; nothing to apply" : "applied: \(applied) migrations")
    }
}
