import ArgumentParser
import Foundation
import Logging
import PostgresNIO
import RoomCore
import RoomkeeperBuild
import RoomProviders

struct Tenants: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check tenant files, make admin key hashes for them, and place tenants in cells.",
        subcommands: [Check.self, HashKey.self, Place.self, Move.self])

    /// `roomkeeper tenants place T CELL` (#43): writes T's cell in the
    /// directory (the first cell's `tenant_cells`) and has every instance
    /// read it again. Only for a tenant with no rows yet: moving rows is
    /// `tenants move`, so a tenant with rooms or accounts
    /// where it lives now is refused. Place a tenant before adding its file.
    struct Place: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Place a tenant that has no rows yet in a cell (ROOMKEEPER_CELL, ROOMKEEPER_CELLS).")

        @Argument(help: "The tenant's id.")
        var tenant: String

        @Argument(help: "The cell: ROOMKEEPER_CELL (the first) or a name in ROOMKEEPER_CELLS.")
        var cell: String

        func run() async throws {
            let logger = Env.logger("roomkeeper.tenants")
            let others = try Env.otherCells()
            let tenant = self.tenant, cell = self.cell
            // Refused before any database is reached: a bad id names no tenant.
            guard TenantLoader.isValidID(tenant) else { throw CommandFailure(CellsError.badTenant(tenant).description) }
            guard cell == Env.homeCell || others.contains(where: { $0.name == cell }) else {
                throw CommandFailure("no cell \(cell): the cells are \(([Env.homeCell] + others.map(\.name)).joined(separator: ", "))")
            }
            let (now, endpoint) = try await Env.cell(of: tenant, logger)
            try await Env.withDatabase(logger) { home in
                let rows = try await Env.withDatabase(logger, endpoint: endpoint) { current in
                    try await current.query("""
                        SELECT ((SELECT count(*) FROM rooms WHERE tenant_id = \(tenant)) + (SELECT count(*) FROM accounts WHERE tenant_id = \(tenant)))::int
                        """).decode(Int.self).first ?? 0
                }
                guard rows == 0 || now == cell else {
                    throw CommandFailure("tenant \(tenant) has \(rows) rooms and accounts in cell \(now): move it with roomkeeper tenants move")
                }
                try await Cells.record(tenant, in: cell, home: home)
                // Every instance reloads its tenants and the directory.
                try await home.query("SELECT pg_notify('roomkeeper_tenants', 'roomkeeper tenants place')")
            }
            print("tenant \(tenant) placed in cell \(cell); the instances read the directory again now")
        }
    }

    /// `roomkeeper tenants move T --to CELL` (#43): moves T's rows to CELL
    /// while T is served (`TenantMove`: copy, fence, catch up, check, flip,
    /// clean up). Run again after an interruption: a move that had not
    /// flipped is rolled back and made again, one that had is finished.
    /// `--roll-back` only undoes an interrupted move.
    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move a tenant's rows to another cell while it is served (ROOMKEEPER_CELL, ROOMKEEPER_CELLS).")

        @Argument(help: "The tenant's id.")
        var tenant: String

        @Option(help: "The cell to move it to.")
        var to: String

        @Flag(help: "Only roll back an interrupted move of the tenant (to --to) that had not flipped.")
        var rollBack = false

        func run() async throws {
            Env.connectAs(Env.values["ROOMKEEPER_MOVE_USER"])
            var configured = Env.logger("roomkeeper.tenants")
            // The subscription's statement holds the source's password.
            configured.logLevel = max(configured.logLevel, .info)
            let logger = configured
            let others = try Env.otherCells()
            let tenant = self.tenant, to = self.to, rollBack = self.rollBack
            guard TenantLoader.isValidID(tenant) else { throw CommandFailure(CellsError.badTenant(tenant).description) }
            func endpoint(_ cell: String) throws -> DatabaseURL.Endpoint {
                if cell == Env.homeCell { return try Env.databaseEndpoint() }
                guard let other = others.first(where: { $0.name == cell }) else {
                    throw CommandFailure("no cell \(cell): the cells are \(([Env.homeCell] + others.map(\.name)).joined(separator: ", "))")
                }
                return other.endpoint
            }
            let targetEndpoint = try endpoint(to)
            let interrupted = try await Env.withDatabase(logger) { home in
                try await home.query("SELECT from_cell FROM tenant_moves WHERE tenant_id = \(tenant)").decode(String.self).first
            }
            let placed = try await Env.cell(of: tenant, logger).name
            let from = interrupted ?? placed
            let sourceEndpoint = try endpoint(from)
            let report: @Sendable (String) -> Void = { print("roomkeeper tenants move: \($0)") }
            let timings = try await Env.withDatabase(logger) { home in
                try await Env.withDatabase(logger, endpoint: sourceEndpoint) { source in
                    try await Env.withDatabase(logger, endpoint: targetEndpoint) { target in
                        let move = try TenantMove(tenant: tenant, home: home,
                                                  source: .init(name: from, database: source, conninfo: DatabaseURL.conninfo(sourceEndpoint)),
                                                  target: .init(name: to, database: target, conninfo: ""), report: report)
                        if rollBack {
                            try await move.rollBack()
                            return nil as TenantMove.Timings?
                        }
                        return try await move.run()
                    }
                }
            }
            guard let timings else { return print("roomkeeper tenants move: rolled back; \(tenant) stays in \(from)") }
            let rows = timings.rows.values.reduce(0, +)
            print("roomkeeper tenants move: \(tenant) moved from \(from) to \(to): \(rows) rows; copy \(timings.copy), catch-up \(timings.catchUp), fence \(timings.fence), clean-up \(timings.cleanUp)")
        }
    }

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Validate every tenant file in DIR; print each problem with file and field.")

        @Argument(help: "The tenant directory.")
        var directory: String = "ops/tenants"

        func run() async throws {
            // Building adapters needs a database handle; checking never connects.
            let client = PostgresClient(configuration: .init(host: "127.0.0.1", username: "check", password: nil, database: nil, tls: .disable))
            let catalog = StandardProviderCatalog(database: Database(client: client, logger: Logger(label: "check")), clock: SystemClock())
            switch TenantLoader(registry: Build.plugins, providers: catalog).load(directory: directory) {
            case .success(let set):
                for tenant in set.sorted {
                    let plugins = tenant.plugins.keys.sorted().joined(separator: ", ")
                    print("ok  \(tenant.id) (\(tenant.name)): im=\(tenant.im.kind), live=\(tenant.live.kind), intercom=\(tenant.intercom.kind), plugins=[\(plugins)]")
                }
            case .failure(let failure):
                for issue in failure.issues { print(issue) }
                throw ExitCode(1)
            }
        }
    }

    struct HashKey: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hash-key",
            abstract: "Print the adminKeys entry for the admin key read from standard input (only the hash goes in a tenant file).",
            discussion: """
                The key is read from standard input, never taken as an argument: \
                arguments are visible to every user of the machine (ps). \
                Example: head -c 32 /dev/urandom | base64 | tee admin-key | roomkeeper tenants hash-key
                """)

        func run() throws {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw CommandFailure("give the admin key on standard input (one line); generate a long random one")
            }
            if let refusal = KeyStrength.refusal(line, name: "the key") { throw CommandFailure(refusal) }
            print("sha256:\(Secrets.sha256Hex(line))")
        }
    }
}
