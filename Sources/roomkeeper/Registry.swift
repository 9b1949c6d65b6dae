import RoomCore
import RoomProviders

/// The one place concrete plugins and providers meet: what this build serves.
enum Build {
    /// Scenario plugins land here as they are implemented (issues #4, #5, #8–#10).
    static let plugins = PluginRegistry([])

    static let extraSchemaFolders = StandardProviderCatalog.schemaFolders
}
