import ArgumentParser
import Foundation
import RoomKit

/// `roomkeeper admin outbox list|retry`: provider side effects and webhook deliveries.
struct Outbox: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The tenant's outbox.", subcommands: [List.self, Retry.self])

    static let columns = ["id", "kind", "status", "attempts", "roomId", "nextAttemptAt", "lastError"]

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Entries, newest first (all pages).")
        @OptionGroup var connection: Connection
        @Option(help: "pending, delivered or dead") var status: String?
        @Option(help: "im, live or webhook") var kind: String?

        func run() async throws {
            var query = "tenants/\(try connection.tenantID())/outbox?limit=100"
            if let status { query += "&status=\(Connection.segment(status))" }
            if let kind { query += "&kind=\(Connection.segment(kind))" }
            let entries = try await connection.all(try connection.client(), query, noun: "entries")
            if connection.json { CLIOutput.current.line(JSONValue.array(entries).jsonText) } else { CLIOutput.current.table(entries, columns: Outbox.columns) }
        }
    }

    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Give a dead (or backing-off) entry fresh attempts now.")
        @OptionGroup var connection: Connection
        @Argument var entry: Int64

        func run() async throws {
            let answer = try await connection.client().send(.POST, "tenants/\(try connection.tenantID())/outbox/\(entry)/retry")
            connection.show(answer) { CLIOutput.current.table([$0], columns: Outbox.columns) }
        }
    }
}
