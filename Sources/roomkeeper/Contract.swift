import ArgumentParser
import RoomkeeperBuild
import RoomServer

/// Prints the admin API's OpenAPI document as this build serves it (#44):
/// `clients/generate` makes the typed clients from it, with no server up.
struct Contract: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the admin API's OpenAPI 3.1 document, as GET /admin/v1/openapi.json serves it.")

    func run() throws {
        print(Roomkeeper.adminContract(registry: Build.plugins))
    }
}
