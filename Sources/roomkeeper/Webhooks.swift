import ArgumentParser
import RoomCore

/// `roomkeeper webhooks new-secret`: a Standard Webhooks signing secret.
struct Webhooks: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Tools for tenants' webhook endpoints.",
        subcommands: [NewSecret.self])

    struct NewSecret: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "new-secret",
            abstract: "Print a fresh whsec_ secret (32 random bytes) for an endpoint's secretEnv variable and its receiver.")

        func run() {
            print(StandardWebhooks.Secret.generate())
        }
    }
}
