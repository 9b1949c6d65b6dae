import ArgumentParser
import Foundation
import Logging
import PostgresNIO
import RoomCore
import RoomProviders

struct IM: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "im", abstract: "The embedded IM provider.", subcommands: [Tail.self])

    /// Prints a chatroom's traffic as its clients see it: the last events,
    /// then every new one as it happens, from any server instance.
    struct Tail: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Follow a room's chatroom traffic (local IM).")

        @Option(help: "The tenant id.") var tenant: String
        @Option(help: "The room id (its IM chatroom is looked up).") var room: Int64?
        @Option(help: "The IM chatroom id, instead of --room.") var chatroom: String?
        @Option(help: "How many earlier events to print first.") var history = 20

        func validate() throws {
            guard (room == nil) != (chatroom == nil) else { throw ValidationError("name exactly one of --room and --chatroom") }
        }

        func run() async throws {
            RoomkeeperCommand.bootstrapLogging()
            var logger = Env.logger("roomkeeper.im")
            logger.logLevel = .warning
            let (tenant, room, chatroom, history) = (self.tenant, self.room, self.chatroom, self.history)
            // The tenant's cell (#43): its events and its NOTIFYs are there.
            let cell = try await Env.cell(of: tenant, logger)
            try await Env.withDatabase(logger, endpoint: cell.endpoint) { database in
                let target = try await resolve(database, tenant: tenant, room: room, chatroom: chatroom)
                emit("following chatroom \(target) of tenant \(tenant) (Ctrl-C stops)")
                let rows = try await database.query("""
                    SELECT event_id, kind, payload::text, (extract(epoch FROM at) * 1000)::bigint FROM (
                        SELECT * FROM im_events WHERE tenant_id = \(tenant) AND chatroom_id = \(target)
                        ORDER BY event_id DESC LIMIT \(history)) recent ORDER BY event_id
                    """)
                for (id, kind, payload, at) in try rows.decode((Int64, String, String, Int64).self) {
                    emit(Self.line(id: id, kind: kind, payload: payload, at: at))
                }
                try await database.withConnection { connection in
                    try await connection.listen(on: "roomkeeper_im") { notifications in
                        for try await notification in notifications {
                            guard case .object(let event)? = JSONValue.parse(notification.payload),
                                  event["t"] == .string(tenant), event["c"] == .string(target),
                                  let id = event["e"]?.int64 else { continue }
                            let payload = event["p"].map { Frames.encode($0) } ?? "(too large for a notification; see im_events \(id))"
                            let at = event["at"]?.int64 ?? Int64(Date().timeIntervalSince1970 * 1000)
                            emit(Self.line(id: id, kind: event["k"]?.string ?? "?", payload: payload, at: at))
                        }
                    }
                }
            }
        }

        func resolve(_ database: Database, tenant: String, room: Int64?, chatroom: String?) async throws -> String {
            if let chatroom { return chatroom }
            let rows = try await database.query("SELECT im_chatroom_id FROM rooms WHERE tenant_id = \(tenant) AND room_id = \(room)")
            for id in try rows.decode(String?.self) {
                guard let id else { throw CommandFailure("room \(room ?? 0) has no IM chatroom") }
                return id
            }
            throw CommandFailure("no room \(room ?? 0) in tenant \(tenant)")
        }

        static func line(id: Int64, kind: String, payload: String, at: Int64) -> String {
            let time = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(at) / 1000))
            return "\(time)  #\(id)  \(kind.padding(toLength: 8, withPad: " ", startingAt: 0))  \(payload)"
        }
    }
}

/// Writes a line at once (unbuffered), so a follower shows events as they
/// happen, also into a pipe or a file.
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
