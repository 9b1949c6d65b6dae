import Foundation
@testable import RoomCore
import RoomkeeperBuild
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

    /// Every statement a plugin's store sends passes the scope check the
    /// engine applies when it runs (`TableScope`), read from the source, so
    /// one that runs rarely is checked too: it names only the plugin's own
    /// tables, and the engine's only where they are shared for reading
    /// (`accounts`, `live_streams`), never written.
    @Test func everyPluginStatementStaysInItsPluginsTables() throws {
        let manager = FileManager.default
        let statement = try Regex(#"tables\.query\("""(.*?)""""#).dotMatchesNewlines()
        var checked = 0
        for plugin in Build.plugins.plugins {
            let folder = try #require(try manager.contentsOfDirectory(at: Self.pluginsDirectory, includingPropertiesForKeys: nil).first {
                $0.lastPathComponent.lowercased() == plugin.id.replacingOccurrences(of: "-", with: "")
            }, "\(plugin.id)'s sources")
            for file in try manager.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) where file.pathExtension == "swift" {
                for match in try String(contentsOf: file, encoding: .utf8).matches(of: statement) {
                    let sql = String(match.output[1].substring ?? "")
                    checked += 1
                    #expect(TableScope.tableRefusal(sql, own: Set(plugin.tables)) == nil, "\(file.lastPathComponent): \(sql.prefix(120))")
                }
            }
        }
        #expect(checked >= 40, "every store's statements were read (\(checked))")
    }

    @Test func noPluginWritesTheOutboxOrWakesItsDispatcher() throws {
        let offenders = try Self.pluginSources().filter { $0.text.contains("wakeOutbox") || $0.text.contains("OutboxStore") }.map(\.file)
        #expect(offenders.isEmpty, "the engine writes side effects and wakes the dispatcher: \(offenders)")
    }

    /// #28, item 1: a route reaches rooms and accounts through `call.rooms`
    /// and `call.accounts`, bound to its tenant and plugin (the types do it:
    /// `PluginRooms` cannot be made by a plugin); this is the backstop that no
    /// plugin goes around them by naming a plugin id or the engine's stores.
    @Test func pluginsReachRoomsAndAccountsOnlyThroughTheirHandles() throws {
        let bypass = try Regex(#"pluginID:|services\.engine|AccountStore\(|\.store\.room|ProviderStateStore\(database"#)
        let offenders = try Self.pluginSources().filter { $0.text.contains(bypass) }.map(\.file)
        #expect(offenders.isEmpty, "use call.rooms and call.accounts: \(offenders)")
    }

    /// #42 item 4: a route's caller is read once, by the engine, where the
    /// plugin's wire carries the credential (`call.caller()`, or
    /// `call.session` for a read that checks it with the room). The types
    /// do it: `CallerSession`'s initialiser is the engine's SPI and
    /// `WireProtocol` no longer reads a call. This is the backstop that no
    /// plugin reads a `sid` or an `Authorization` header by hand, or opens
    /// the engine's SPI.
    @Test func noRouteReadsItsCallersCredentialByHand() throws {
        let byHand = try Regex(#"\("sid"\)|headers\[|"authorization"|@_spi"#).ignoresCase()
        let offenders = try Self.pluginSources().filter { $0.text.contains(byHand) }.map(\.file)
        #expect(offenders.isEmpty, "use call.caller() or call.session: \(offenders)")
        // And every route is known by its own path: two at one path would hide one.
        for plugin in Build.plugins.plugins {
            let paths = plugin.routeSignatures.map(\.path)
            #expect(Set(paths).count == paths.count, "\(plugin.id): \(paths)")
        }
    }

    /// #28, item 1: a plugin's rows go through `PluginTables`, which binds
    /// the call's tenant as `\(.tenant)`. The types keep the connection and
    /// the pool out of a plugin's reach; this is the backstop that none
    /// imports the driver or binds a tenant id of its choosing.
    @Test func pluginsReachTheirRowsOnlyThroughTheirTables() throws {
        let sources = try Self.pluginSources()
        let driver = try Regex(#"import PostgresNIO|PostgresConnection|PostgresQuery|database\.transaction|services\.database"#)
        #expect(sources.filter { $0.text.contains(driver) }.map(\.file).isEmpty, "use call.tables, hook.tables or tx.tables")
        let ownTenant = try Regex(#"\\\((call\.tenant\.id|room\.tenantID|hook\.tenantID|tenantID)\)"#)
        let offenders = sources.filter { $0.text.contains(ownTenant) }.map(\.file)
        #expect(offenders.isEmpty, "bind the call's tenant as \\(.tenant): \(offenders)")
    }

    /// #28, item 6: one shape per plugin. Its SQL is in its one store
    /// (`…Store.swift`, as audio-chatroom's `SeatStore`), so its routes read
    /// as its wire protocol and its hooks as its rules, and a newcomer finds
    /// every statement of a plugin in one file.
    @Test func eachPluginsStatementsAreInItsOneStore() throws {
        let manager = FileManager.default
        let plugins = try manager.contentsOfDirectory(at: Self.pluginsDirectory, includingPropertiesForKeys: nil).filter(\.hasDirectoryPath)
        // As many directories as the build registers plugins: a sixth plugin needs no edit here.
        #expect(plugins.count == Build.plugins.plugins.count, "every plugin's directory was read (\(plugins.map(\.lastPathComponent)))")
        for plugin in plugins {
            let files = try manager.contentsOfDirectory(at: plugin, includingPropertiesForKeys: nil).filter { $0.pathExtension == "swift" }
            let stores = files.map(\.lastPathComponent).filter { $0.hasSuffix("Store.swift") }
            #expect(stores.count == 1, "\(plugin.lastPathComponent) has one store: \(stores)")
            // A statement is sent by `tables.query(…)`, or by a row table's `tables.rows(of:…)` and `tables.save(…)`.
            let sends = try Regex(#"tables\.(query|rows|save)\("#)
            let sending = try files.filter { try String(contentsOf: $0, encoding: .utf8).contains(sends) }.map(\.lastPathComponent)
            #expect(sending == stores, "\(plugin.lastPathComponent) sends its statements from its store only: \(sending)")
        }
    }

    /// #28, item 1: the seam is a module boundary. Plugin targets depend on
    /// RoomKit, never on the engine (ops/test builds with the import check,
    /// so an import of RoomCore fails the build); this reads Package.swift
    /// as the backstop that nobody declared the engine as a dependency.
    @Test func pluginTargetsDependOnRoomKitNotTheEngine() throws {
        let manifest = try String(contentsOf: Self.pluginsDirectory.deletingLastPathComponent().appendingPathComponent("Package.swift"), encoding: .utf8)
        let target = try Regex(#"\.target\(\s*name: "(\w+)",\s*dependencies: \[([^\]]*)\],\s*path: "Plugins/"#)
        let plugins = manifest.matches(of: target).map { ($0.output[1].substring.map(String.init) ?? "", $0.output[2].substring.map(String.init) ?? "") }
        #expect(plugins.count == Build.plugins.plugins.count, "every plugin target was found (\(plugins.map(\.0)))")
        for (name, dependencies) in plugins {
            #expect(dependencies.contains("\"RoomKit\""), "\(name) depends on RoomKit")
            #expect(!dependencies.contains("RoomCore") && !dependencies.contains("postgres-nio"), "\(name) depends on the engine: \(dependencies)")
        }
        let imports = try Self.pluginSources().filter { $0.text.contains("import RoomCore") }.map(\.file)
        #expect(imports.isEmpty, "plugins import RoomKit: \(imports)")
    }

    /// What a plugin declares as its tables is what its schema folder
    /// creates: the scope `PluginTables` enforces is the plugin's real one.
    @Test func everyPluginDeclaresTheTablesItsSchemaCreates() throws {
        let schema = Self.pluginsDirectory.deletingLastPathComponent().appendingPathComponent("schema")
        let create = try Regex(#"CREATE TABLE (?:IF NOT EXISTS )?([a-z_0-9]+)"#)
        for plugin in Build.plugins.plugins {
            let folder = schema.appendingPathComponent(plugin.id)
            let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).filter { $0.pathExtension == "sql" }
            let created = try files.flatMap { file in
                try String(contentsOf: file, encoding: .utf8).matches(of: create).compactMap { $0.output[1].substring.map(String.init) }
            }
            #expect(!created.isEmpty, "\(plugin.id) creates tables")
            #expect(Set(plugin.tables) == Set(created), "\(plugin.id) declares \(plugin.tables), its schema creates \(created)")
        }
    }

    /// #16, finding 8: a client creates rooms and accounts only within its
    /// address's limits, so no route may go around `ClientCall`'s helpers.
    @Test func clientsCreateRoomsAndGuestsOnlyThroughTheLimitedHelpers() throws {
        let bypass = try Regex(#"engine\.create\(|accounts\.createGuest\(|AccountStore\([^)]*\)\s*\.createGuest\("#)
        let offenders = try Self.pluginSources().filter { $0.text.contains(bypass) }.map(\.file)
        #expect(offenders.isEmpty, "use call.createRoom / call.createGuest, which count per address: \(offenders)")
    }

    /// Every statement of ours is sent through `PostgresConnection.run`, which
    /// refuses a closed connection on its event loop: PostgresNIO's own
    /// `query` waits for ever on a connection that closed before the write.
    @Test func everyStatementGoesThroughTheClosedConnectionCheck() throws {
        let root = Self.pluginsDirectory.deletingLastPathComponent()
        let folders = ["Sources", "Plugins"].map { root.appendingPathComponent($0) }
        let files = folders.flatMap { folder in
            (FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? [])
                .filter { $0.pathExtension == "swift" && $0.lastPathComponent != "CheckedQuery.swift" }
        }
        #expect(files.count >= 100, "every source was read (\(files.count))")
        let direct = try Regex(#"(connection|\$0|tx)\.query\("#)
        let offenders = try files.filter { try String(contentsOf: $0, encoding: .utf8).contains(direct) }.map(\.lastPathComponent)
        #expect(offenders.isEmpty, "use connection.run(_:logger:): \(offenders)")
    }
}
