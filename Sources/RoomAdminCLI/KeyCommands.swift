import ArgumentParser
import Foundation
import RoomKit

/// `roomkeeper admin keys create|list|revoke`.
struct Keys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "A tenant's admin keys.", subcommands: [Create.self, List.self, Revoke.self])

    static let columns = ["id", "label", "scopes", "createdAt", "expiresAt", "lastUsedAt", "revokedAt"]

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a key; the key is printed once (keep it: it is not stored).")
        @OptionGroup var connection: Connection
        @Option(help: "Who holds it.") var label: String
        @Option(name: .customLong("scope"), help: "read, rooms, moderation, webhooks or keys; repeat for more.") var scopes: [String]
        @Option(help: "Seconds until it expires.") var expiresIn: Int?

        func run() async throws {
            let body = JSONValue.object(["label": .string(label), "scopes": .array(scopes.map(JSONValue.string)),
                                         "expiresInSeconds": expiresIn.map { .number(Double($0)) } ?? .null]).jsonText
            let answer = try await connection.client().send(.POST, "tenants/\(try connection.tenantID())/keys", json: body)
            connection.show(answer) { made in
                CLIOutput.current.table([made], columns: Keys.columns)
                CLIOutput.current.line("key: \(made["key"]?.string ?? "")")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The tenant's keys (never the keys themselves).")
        @OptionGroup var connection: Connection

        func run() async throws {
            let answer = try await connection.client().send(.GET, "tenants/\(try connection.tenantID())/keys")
            connection.show(answer) { CLIOutput.current.table($0.items, columns: Keys.columns) }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a key: refused everywhere from its next request.")
        @OptionGroup var connection: Connection
        @Argument var id: String

        func run() async throws {
            let answer = try await connection.client().send(.DELETE, "tenants/\(try connection.tenantID())/keys/\(Connection.segment(id))")
            connection.show(answer) { CLIOutput.current.table([$0], columns: Keys.columns) }
        }
    }
}
