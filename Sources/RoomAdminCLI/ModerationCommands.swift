import ArgumentParser
import Foundation
import RoomKit

/// `roomkeeper admin kick|ban|unban`.
struct Kick: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Take an account out of a room; with --seconds keep it out until then.")
    @OptionGroup var connection: Connection
    @Argument var room: Int64
    @Argument var account: String
    @Option(help: "Keep it out this many seconds.") var seconds: Int?
    @Option var reason: String?

    func run() async throws {
        let body = JSONValue.object(["durationSeconds": seconds.map { .number(Double($0)) } ?? .null, "reason": .string(reason ?? "")]).jsonText
        let answer = try await connection.client()
            .send(.POST, "tenants/\(try connection.tenantID())/rooms/\(room)/members/\(Connection.segment(account))/kick", json: body)
        connection.show(answer) { kicked in
            CLIOutput.current.line("kicked \(account) from room \(room)" + (kicked["ban"]?["id"].map { ", ban \($0.parameterText)" } ?? ""))
        }
    }
}

struct Ban: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Ban an account from a room (--room) or from every room of the tenant.")
    @OptionGroup var connection: Connection
    @Argument var account: String
    @Option(help: "Only this room.") var room: Int64?
    @Option(help: "Until this many seconds from now (else until lifted).") var seconds: Int?
    @Option var reason: String?

    func run() async throws {
        let body = JSONValue.object(["account": .string(account), "durationSeconds": seconds.map { .number(Double($0)) } ?? .null,
                                     "reason": .string(reason ?? "")]).jsonText
        let tenant = try connection.tenantID()
        let path = room.map { "tenants/\(tenant)/rooms/\($0)/bans" } ?? "tenants/\(tenant)/bans"
        let answer = try await connection.client().send(.POST, path, json: body)
        connection.show(answer) { CLIOutput.current.table([$0], columns: ["id", "account", "room", "expiresAt", "reason"]) }
    }
}

struct Unban: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Lift a ban by its id (--room for a room's ban).")
    @OptionGroup var connection: Connection
    @Argument var ban: Int64
    @Option(help: "The ban's room, for a room's ban.") var room: Int64?

    func run() async throws {
        let tenant = try connection.tenantID()
        let path = room.map { "tenants/\(tenant)/rooms/\($0)/bans/\(ban)" } ?? "tenants/\(tenant)/bans/\(ban)"
        let answer = try await connection.client().send(.DELETE, path)
        connection.show(answer) { CLIOutput.current.table([$0], columns: ["id", "account", "room", "liftedAt", "liftedBy"]) }
    }
}

struct Mute: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Mute a room's member (until lifted, or for --seconds).")
    @OptionGroup var connection: Connection
    @Argument var room: Int64
    @Argument var account: String
    @Option(help: "For this many seconds (else until lifted).") var seconds: Int?
    @Option var reason: String?

    func run() async throws {
        let body = JSONValue.object(["account": .string(account), "durationSeconds": seconds.map { .number(Double($0)) } ?? .null,
                                     "reason": .string(reason ?? "")]).jsonText
        let answer = try await connection.client().send(.POST, "tenants/\(try connection.tenantID())/rooms/\(room)/mutes", json: body)
        connection.show(answer) { CLIOutput.current.table([$0], columns: ["id", "account", "room", "expiresAt", "reason"]) }
    }
}
