import RoomCore

/// How one server process runs. The executable fills it from the environment.
public struct ServerOptions: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    public var tenantsPath = "ops/tenants"
    /// nil: the admin API accepts tenant keys only.
    public var operatorKey: String?
    public var schemaRoot = "schema"
    /// Schema folders beyond `core` and the plugins' own (providers').
    public var extraSchemaFolders: [String] = []
    public var sweeper = ExpirySweeper.Configuration()
    public var dispatcher = OutboxDispatcher.Configuration()

    public init() {}
}
