import RoomCore

/// The provider adapters this build has, by the `kind` a tenant file names.
public struct StandardProviderCatalog: ProviderCatalog {
    public let database: Database
    public let clock: any RoomClock

    public init(database: Database, clock: any RoomClock) {
        self.database = database
        self.clock = clock
    }

    public var imKinds: [String] { ["local"] }

    /// Schema folders the adapters need.
    public static let schemaFolders = ["im-local"]

    public func makeIM(kind: String, tenant: TenantID, settings: SettingsReader) -> (any IMProvider)? {
        switch kind {
        case "local": LocalIMProvider(tenantID: tenant, database: database, clock: clock)
        default: nil
        }
    }
}
