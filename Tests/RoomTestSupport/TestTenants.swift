import Foundation
import RoomCore
import RoomProviders

/// Tenants for a test, written as real tenant files into a temporary
/// directory and loaded by the real loader. Admin key of tenant X: "X-key".
public struct TestTenants: Sendable {
    public let ids: [TenantID]
    public let directory: TenantDirectory
    public let path: String

    public static let registry = PluginRegistry([AnyRoomPlugin(TestRoomsPlugin())])

    public init(count: Int = 1, pluginTable: String = "[plugins.test-rooms]\n", database: Database, clock: any RoomClock, registry: PluginRegistry = Self.registry) throws {
        try self.init(pluginTables: Array(repeating: pluginTable, count: count), database: database, clock: clock, registry: registry)
    }

    /// One tenant per table given.
    public init(pluginTables: [String], database: Database, clock: any RoomClock, registry: PluginRegistry = Self.registry) throws {
        let ids = pluginTables.map { _ in uniqueID() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(uniqueID("tenants-")).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (id, pluginTable) in zip(ids, pluginTables) {
            try Self.file(id: id, pluginTable: pluginTable).write(toFile: "\(path)/\(id).toml", atomically: true, encoding: .utf8)
        }
        self.ids = ids
        self.path = path
        let loader = TenantLoader(registry: registry, providers: StandardProviderCatalog(database: database, clock: clock), environment: Self.environment)
        self.directory = try TenantDirectory(path: path, loader: loader)
    }

    /// The process's environment, with loopback allowed for webhooks: test
    /// receivers listen on 127.0.0.1, as an operator's own might.
    public static var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging([WebhookAddressPolicy.environmentName: "127.0.0.1"]) { _, test in test }
    }

    public static let loopbackWebhooks = (try? WebhookAddressPolicy.parse("127.0.0.1").get()) ?? .strict

    /// `pluginTable` may bring its own `[providers.im]`; the local IM otherwise.
    public static func file(id: TenantID, pluginTable: String) -> String {
        let im = pluginTable.contains("[providers.im]") ? "" : "[providers.im]\nkind = \"local\"\n"
        return """
        name = "Test tenant \(id)"
        adminKeys = ["sha256:\(Secrets.sha256Hex("\(id)-key"))"]

        \(im)
        \(pluginTable)
        """
    }

    public subscript(index: Int) -> Tenant {
        directory[ids[index]]!
    }
}
