import ArgumentParser
import RoomAdminCLI
import Logging

struct RoomkeeperCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roomkeeper",
        abstract: "The application server behind real-time apps' IM and RTC SDKs.",
        subcommands: [Serve.self, Migrate.self, Tenants.self, IM.self, Sweep.self, Webhooks.self, Admin.self, Contract.self, LoadTestCommand.self],
        defaultSubcommand: Serve.self)

    static func bootstrapLogging() {
        LoggingSystem.bootstrap { StreamLogHandler.standardOutput(label: $0) }
    }
}
