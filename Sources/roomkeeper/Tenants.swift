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
