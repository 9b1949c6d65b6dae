/// A plugin's own tables in one tenant (#28, item 1): the one way a plugin
/// reads and writes its rows. Made by the engine for a route call
/// (`call.tables`), a hook (`hook.tables`, on the engine's open transaction)
/// or a room change (`tx.tables`, under the room's lock); each binds its
/// statements' `\(.tenant)` to that tenant and refuses tables the plugin did
/// not declare (`RoomPlugin.tables`). No connection, pool or other tenant is
/// reachable through it.
public struct PluginTables: Sendable {
    let runner: any PluginTableRunner

    public init(runner: any PluginTableRunner) {
        self.runner = runner
    }

    /// Runs one statement and returns its rows, read to the end. A write
    /// outside a transaction is done once PostgreSQL reported its commit.
    @discardableResult
    public func query(_ query: TableQuery) async throws -> [TableRow] {
        try await runner.run(query)
    }
}

/// What carries out a `PluginTables` statement: the engine's, on its pool or
/// on an open transaction. Plugins never implement it.
public protocol PluginTableRunner: Sendable {
    func run(_ query: TableQuery) async throws -> [TableRow]
}

/// A plugin statement the engine will not send: it does not name the call's
/// tenant, or it touches a table the plugin did not declare. A programming
/// error of the plugin's, answered as an internal error and logged.
public struct TableStatementRefused: Error, CustomStringConvertible {
    public let reason: String

    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { "plugin statement refused: \(reason)" }
}
