import Foundation

/// The handles a route reaches the engine by, each bound to the call's
/// tenant and plugin (#28, item 1): a plugin names neither.
extension ClientCall {
    /// This call's tenant's rooms of this plugin.
    public var rooms: PluginRooms { PluginRooms(engine: services.engine, tenant: tenant, pluginID: pluginID, tables: ownTables) }

    /// This call's tenant's rows of this plugin's own tables.
    public var tables: PluginTables { PostgresTableRunner.pool(services.database, tenantID: tenant.id, tables: ownTables) }

    /// This call's tenant's accounts, with sessions of this plugin.
    public var accounts: PluginAccounts {
        PluginAccounts(store: AccountStore(database: services.database, clock: services.clock), tenantID: tenant.id, pluginID: pluginID,
                       keyring: services.tokenKeys, outboxSignal: services.engine.outboxSignal)
    }

    /// The server's clock (tests move it).
    public func now() -> Date { services.clock.now() }

    /// Seals secrets kept for showing again (never stored in clear).
    public var secrets: PluginSecrets { PluginSecrets(box: services.secrets, database: services.database) }
}

/// Seals and opens secrets with the server's key (kept in the database).
public struct PluginSecrets: Sendable {
    let box: SecretBox
    let database: Database

    public func seal(_ secret: String) async throws -> String {
        try await box.seal(secret, database: database)
    }

    /// nil when `sealed` was not sealed with this server's key.
    public func open(_ sealed: String) async throws -> String? {
        try await box.open(sealed, database: database)
    }
}
