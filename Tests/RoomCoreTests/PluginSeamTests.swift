import Foundation
import Testing

/// The seam between the engine and its plugins, checked on the source: a
/// plugin is its wire protocol, its own tables and its rules. Everything
/// that touches a room's life goes through `RoomEngine`.
@Suite struct PluginSeamTests {
    static let pluginsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Plugins")

    static func pluginSources() throws -> [(file: String, text: String)] {
        let files = FileManager.default.enumerator(at: pluginsDirectory, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return try files.map { ($0.lastPathComponent, try String(contentsOf: $0, encoding: .utf8)) }
    }

    @Test func noPluginNamesTheEnginesTables() throws {
        let sources = try Self.pluginSources()
        #expect(sources.count >= 30, "every plugin's sources were read (\(sources.count))")
        let coreTables = try Regex(#"\b(rooms|room_members|room_events|outbox)\b"#)
        let offenders = sources.filter { $0.text.contains(coreTables) }.map(\.file)
        #expect(offenders.isEmpty, "SQL on the engine's tables belongs to the engine: \(offenders)")
    }

    @Test func noPluginWritesTheOutboxOrWakesItsDispatcher() throws {
        let offenders = try Self.pluginSources().filter { $0.text.contains("wakeOutbox") || $0.text.contains("OutboxStore") }.map(\.file)
        #expect(offenders.isEmpty, "the engine writes side effects and wakes the dispatcher: \(offenders)")
    }

    /// #16, finding 8: a client creates rooms and accounts only within its
    /// address's limits, so no route may go around `ClientCall`'s helpers.
    @Test func clientsCreateRoomsAndGuestsOnlyThroughTheLimitedHelpers() throws {
        let bypass = try Regex(#"engine\.create\(|accounts\.createGuest\(|AccountStore\([^)]*\)\s*\.createGuest\("#)
        let offenders = try Self.pluginSources().filter { $0.text.contains(bypass) }.map(\.file)
        #expect(offenders.isEmpty, "use call.createRoom / call.createGuest, which count per address: \(offenders)")
    }
}
