import Foundation

/// Where a create's typed creation data comes from (#42 item 3): a client
/// route hands its plugin's `Creation` as it built it (`typed`); without
/// one, the tenant's bound plugin decodes the admin API's `options`
/// (`BoundPlugin.prepare`). Either way the plugin's `prepareRoom` checks it.
public struct RoomPreparation: Sendable {
    /// The plugin whose `Creation` this is: the engine refuses it for another's room.
    let pluginID: String
    let prepare: @Sendable (inout NewRoom, Date) throws -> PreparedCreation

    /// `creation` as the route built it, read by `plugin` with `settings`
    /// (the call's): the value reaches `firstRows` or `roomCreated` with its
    /// type, never through JSON.
    public static func typed<Plugin: RoomPlugin>(_ creation: Plugin.Creation, of plugin: Plugin, settings: Plugin.Settings) -> RoomPreparation {
        RoomPreparation(pluginID: plugin.id) { spec, now in
            try PreparedCreation(plugin, settings: settings, creation: creation, spec: &spec, now: now)
        }
    }
}

/// A room's creation after the plugin prepared it: its typed `Creation` is
/// captured here, so the engine carries it to the create's statement or hook
/// without knowing its type and the plugin never decodes it again.
struct PreparedCreation: Sendable {
    /// `RoomPlugin.firstRows`: non-nil, the engine writes the create in one
    /// statement without `created`.
    let firstRows: @Sendable (NewRoom) throws -> FirstRows?
    /// `RoomPlugin.roomCreated`, in the create's transaction.
    let created: @Sendable (Room, HookParts) async throws -> [OutboxMessage]

    /// `plugin.prepareRoom` on `creation`, shaping `spec`.
    init<Plugin: RoomPlugin>(_ plugin: Plugin, settings: Plugin.Settings, creation: Plugin.Creation, spec: inout NewRoom, now: Date) throws {
        var creation = creation
        try plugin.prepareRoom(&spec, creation: &creation, settings: settings, now: now)
        // Read typed later (the list cache, `room.attributes(as:)`): a
        // plugin that wrote something else finds out at its first create.
        guard AttributesDecoder(Plugin.Attributes.self)(spec.attributes) != nil else {
            throw PluginAttributesInvalid(plugin: plugin.id, type: "\(Plugin.Attributes.self)")
        }
        let prepared = creation
        let tables = Set(plugin.tables)
        firstRows = { spec in
            guard let rows = plugin.firstRows(of: spec, creation: prepared, settings: settings) else { return nil }
            // As for a change's rows (EngineRooms.change): the plugin's own tables only.
            if let table = rows.table, !tables.contains(table) { throw TableStatementRefused(reason: "\(table) is not one of the plugin's tables") }
            if let failure = rows.encodingFailure { throw TableStatementRefused(reason: failure) }
            return rows
        }
        created = { room, parts in try await plugin.roomCreated(room, creation: prepared, hook: parts.context(of: plugin, settings: settings)) }
    }
}

/// A plugin's `prepareRoom` set attributes its own `Attributes` cannot
/// read: a defect of the plugin, answered as an internal error.
struct PluginAttributesInvalid: Error, CustomStringConvertible {
    let plugin: String
    let type: String
    var description: String { "plugin \(plugin) set room attributes that do not decode as its \(type)" }
}

extension HookParts {
    /// What `plugin`'s hook gets: its own tables on the commit's
    /// transaction, its settings, and the engine's deadline write.
    func context<Plugin: RoomPlugin>(of plugin: Plugin, settings: Plugin.Settings) -> HookContext<Plugin.Settings> {
        let writes = self.writes
        let tenantID = self.tenantID, now = self.now, actor = self.actor
        return HookContext(tables: PostgresTableRunner.transaction(connection, tenantID: tenantID, tables: Set(plugin.tables), logger: logger),
                           tenantID: tenantID, settings: settings, now: now, actor: actor, logger: logger,
                           setDeadline: { roomID, expiry, reason in
                               try await writes.setDeadline(roomID, to: expiry, reason: reason, tenantID: tenantID, now: now, actor: actor)
                           })
    }
}
