import ArgumentParser
import Foundation
import Logging
import PostgresNIO
import RoomCore
import RoomkeeperBuild
import RoomProviders

struct Tenants: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check tenant files, and make admin key hashes for them.",
        subcommands: [Check.self, HashKey.self])

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
            abstract: "Print the adminKeys entry for KEY (only the hash goes in a tenant file).")

        @Argument(help: "The admin key; generate a long random one.")
        var key: String

        func run() throws {
            if let refusal = KeyStrength.refusal(key, name: "KEY") { throw CommandFailure(refusal) }
            print("sha256:\(Secrets.sha256Hex(key))")
        }
    }
}
