import ArgumentParser
import Foundation
import RoomKit

/// `roomkeeper admin events tail` and `roomkeeper admin usage`.
struct Events: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The tenant's event feed.", subcommands: [Tail.self])

    struct Tail: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print events after a cursor; with --cursor-file resume from the saved one and save each page's; --follow keeps polling.")
        @OptionGroup var connection: Connection
        @Option(help: "Read the cursor from this file and write each page's back.") var cursorFile: String?
        @Option(help: "Start after this cursor (else the file's, else the beginning).") var after: String?
        @Flag(help: "Keep polling every second (stop with Ctrl-C).") var follow = false

        func run() async throws {
            let client = try connection.client()
            let tenant = try connection.tenantID()
            var cursor = after ?? cursorFile.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "0"
            if cursor.isEmpty { cursor = "0" }
            while true {
                let page = try await client.send(.GET, "tenants/\(tenant)/events?after=\(Connection.segment(cursor))&limit=100").json
                for event in page.items {
                    if connection.json {
                        CLIOutput.current.line(event.jsonText)
                    } else {
                        CLIOutput.current.line([event["cursor"], event["type"], event["timestamp"]].map(CLIOutput.cell).joined(separator: "  ")
                                               + "  " + (event["data"]?.jsonText ?? ""))
                    }
                }
                let next = page["nextCursor"]?.string ?? cursor
                if let cursorFile, next != cursor { try next.write(toFile: cursorFile, atomically: true, encoding: .utf8) }
                let caughtUp = next == cursor || page.items.isEmpty
                cursor = next
                if caughtUp {
                    guard follow else { return }
                    try await Task.sleep(for: .seconds(1))
                }
            }
        }
    }
}

struct Usage: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The tenant's usage: JSON, or CSV with --csv.")
    @OptionGroup var connection: Connection
    @Flag(help: "The CSV the API serves.") var csv = false
    @Option(help: "hour or day") var granularity: String?

    func run() async throws {
        var path = "tenants/\(try connection.tenantID())/usage?format=\(csv ? "csv" : "json")"
        if let granularity { path += "&granularity=\(Connection.segment(granularity))" }
        let answer = try await connection.client().send(.GET, path)
        if csv || connection.json {
            CLIOutput.current.line(answer.body.last?.isNewline == true ? String(answer.body.dropLast()) : answer.body)
        } else {
            CLIOutput.current.table(answer.json.items, columns: ["start", "roomsOpened", "roomMinutes", "joins", "memberMinutes", "peakMembers", "imMessages", "apiRequests", "webhookDeliveries"])
        }
    }
}
