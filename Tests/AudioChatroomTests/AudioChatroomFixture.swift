import AudioChatroom
import Foundation
import RoomCore
import RoomTestSupport

/// A live server with audio-chatroom enabled for two tenants.
struct AudioChatroomFixture {
    let server: ServerFixture
    static let registry = PluginRegistry([AnyRoomPlugin(AudioChatroomPlugin())])

    init(table: String = "[plugins.audio-chatroom]\n", clock: any RoomClock = ManualClock()) async throws {
        server = try await ServerFixture(pluginTables: [table, table], registry: Self.registry, clock: clock, sweepInterval: .milliseconds(200))
    }

    func base(_ tenant: Int = 0) -> String { "/t/\(server.id(tenant))/audio-chatroom" }
}

extension HTTP {
    /// POSTs a form body exactly as given, as the shipped app does.
    func form(_ path: String, _ body: String) async throws -> JSONValue {
        try await request(.post, path, form: body).json
    }
}

/// The data object of a NetEase success, or nil.
func data(_ answer: JSONValue) -> JSONValue? {
    answer["code"]?.int64 == 200 ? answer["data"] : nil
}
