import ArgumentParser
import Foundation
import NIOHTTP1
import RoomKit

/// `roomkeeper admin …` (#44): the admin API for an operator at a shell,
/// over HTTP with the console's URL and key. Tables by default, `--json`
/// for scripts; a refusal is the problem's title, detail and field, exit 1.
public struct Admin: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        abstract: "The admin API from a shell: ROOMKEEPER_ADMIN_URL (default http://127.0.0.1:8080) and ROOMKEEPER_ADMIN_KEY (or --key-file).",
        subcommands: [Rooms.self, Kick.self, Ban.self, Unban.self, Mute.self, Keys.self, Events.self, Usage.self, Outbox.self])

    public init() {}
}

/// What every admin command takes.
struct Connection: ParsableArguments {
    @Option(help: "The server's URL (else ROOMKEEPER_ADMIN_URL, else http://127.0.0.1:8080).")
    var url: String?

    @Option(help: "A file holding the admin key (else ROOMKEEPER_ADMIN_KEY). Never pass a key as an argument.")
    var keyFile: String?

    @Option(help: "The tenant (else ROOMKEEPER_TENANT).")
    var tenant: String?

    @Flag(help: "Print the API's JSON instead of a table.")
    var json = false

    func client() throws -> AdminClient {
        let environment = CLIOutput.environment
        let key: String
        if let keyFile {
            guard let text = try? String(contentsOfFile: keyFile, encoding: .utf8) else { throw AdminCLIError("cannot read the key file \(keyFile)") }
            key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        } else if let fromEnvironment = environment["ROOMKEEPER_ADMIN_KEY"], !fromEnvironment.isEmpty {
            key = fromEnvironment
        } else {
            throw AdminCLIError("no admin key: set ROOMKEEPER_ADMIN_KEY or pass --key-file")
        }
        return AdminClient(baseURL: url ?? environment["ROOMKEEPER_ADMIN_URL"] ?? "http://127.0.0.1:8080", key: key)
    }

    func tenantID() throws -> String {
        guard let id = tenant ?? CLIOutput.environment["ROOMKEEPER_TENANT"], !id.isEmpty else {
            throw AdminCLIError("no tenant: pass --tenant or set ROOMKEEPER_TENANT")
        }
        return Self.segment(id)
    }

    /// A path segment, percent-encoded.
    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }

    /// Prints `answer` as JSON, or `render` it.
    func show(_ answer: AdminClient.Answer, _ render: (JSONValue) -> Void) {
        if json { CLIOutput.current.line(answer.body) } else { render(answer.json) }
    }

    /// Every item of a paged listing at `path`, following `nextCursor`, with a progress line.
    func all(_ client: AdminClient, _ path: String, noun: String) async throws -> [JSONValue] {
        var items: [JSONValue] = []
        var cursor: String?
        repeat {
            let separator = path.contains("?") ? "&" : "?"
            let page = try await client.send(.GET, path + (cursor.map { "\(separator)cursor=\(Self.segment($0))" } ?? "")).json
            if case .array(let more)? = page["items"] { items += more }
            cursor = page["nextCursor"]?.string
            CLIOutput.current.progress("\(items.count) \(noun)…")
        } while cursor != nil
        CLIOutput.current.endProgress()
        return items
    }
}

extension JSONValue {
    var items: [JSONValue] {
        if case .array(let items)? = self["items"] { return items }
        return []
    }
}
