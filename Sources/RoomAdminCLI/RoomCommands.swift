import ArgumentParser
import Foundation
import RoomKit

/// `roomkeeper admin rooms list|show|dissolve|extend`.
struct Rooms: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "A tenant's rooms.", subcommands: [List.self, Show.self, Dissolve.self, Extend.self])

    static let columns = ["id", "plugin", "name", "owner", "state", "expiresAt"]

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every room, newest first (all pages).")
        @OptionGroup var connection: Connection
        @Option(help: "open or closed") var state: String?
        @Option(help: "Only this plugin's rooms.") var plugin: String?

        func run() async throws {
            let client = try connection.client()
            var query = "tenants/\(try connection.tenantID())/rooms?limit=100"
            if let state { query += "&state=\(Connection.segment(state))" }
            if let plugin { query += "&plugin=\(Connection.segment(plugin))" }
            let rooms = try await connection.all(client, query, noun: "rooms")
            if connection.json { CLIOutput.current.line(JSONValue.array(rooms).jsonText) } else { CLIOutput.current.table(rooms, columns: Rooms.columns) }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One room, with its members.")
        @OptionGroup var connection: Connection
        @Argument var room: Int64

        func run() async throws {
            let answer = try await connection.client().send(.GET, "tenants/\(try connection.tenantID())/rooms/\(room)")
            connection.show(answer) { detail in
                CLIOutput.current.table([detail["room"] ?? .null], columns: Rooms.columns)
                if case .array(let members)? = detail["members"] {
                    CLIOutput.current.line("")
                    CLIOutput.current.table(members, columns: ["accid", "role", "status", "joinedAt"])
                }
            }
        }
    }

    struct Dissolve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Close a room now.")
        @OptionGroup var connection: Connection
        @Argument var room: Int64

        func run() async throws {
            let answer = try await connection.client().send(.POST, "tenants/\(try connection.tenantID())/rooms/\(room)/dissolve")
            connection.show(answer) { CLIOutput.current.table([$0], columns: Rooms.columns) }
        }
    }

    struct Extend: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Give a room more time.")
        @OptionGroup var connection: Connection
        @Argument var room: Int64
        @Option(help: "Seconds from now.") var ttl: Int

        func run() async throws {
            let answer = try await connection.client().send(.POST, "tenants/\(try connection.tenantID())/rooms/\(room)/extend", json: #"{"ttlSeconds":\#(ttl)}"#)
            connection.show(answer) { CLIOutput.current.table([$0], columns: Rooms.columns) }
        }
    }
}
