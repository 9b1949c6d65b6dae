import AudioChatroom
import Foundation
import RoomCore
import RoomTestSupport

/// A live server with audio-chatroom enabled for two tenants.
struct AudioChatroomFixture {
    let server: ServerFixture
    static let registry = PluginRegistry([AnyRoomPlugin(AudioChatroomPlugin())])

    /// `second`: the second tenant's table when it differs from the first's.
    init(table: String = "[plugins.audio-chatroom]\n", second: String? = nil, clock: any RoomClock = ManualClock()) async throws {
        server = try await ServerFixture(pluginTables: [table, second ?? table], registry: Self.registry, clock: clock, sweepInterval: .milliseconds(200))
    }

    func base(_ tenant: Int = 0) -> String { "/t/\(server.id(tenant))/audio-chatroom" }
}
