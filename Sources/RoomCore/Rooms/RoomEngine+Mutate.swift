import Foundation
import Logging
import PostgresNIO

/// Plugin work on a live room: the one way a plugin changes its own state of
/// a room (seats, positions, whiteboard, background) so that a close racing
/// it either waits for it or wins as a whole.
extension RoomEngine {
    /// Finds the plugin's room, checks it is live by `RoomLifecycle`'s one
    /// definition, locks it and bumps its version (in a statement of its own,
    /// so what `body` reads afterwards is read under the lock, and a `change`
    /// decided before sees the room moved), runs `body`, writes the side
    /// effects `body` emitted to the outbox and commits (the outbox's insert
    /// trigger wakes every instance's dispatcher).
    public func mutate<Result: Sendable>(
        _ roomID: RoomID, in tenant: Tenant, pluginID: String, tables: Set<String>,
        _ body: (RoomTransaction) async throws -> Result
    ) async throws -> Result {
        let now = clock.now()
        return try await commit(.queued(.init(tenant: tenant.id, room: roomID))) { writes in
            let connection = writes.connection
            guard let room = try await writes.lockRoomBumpingVersion(tenant.id, roomID), room.pluginID == pluginID else { throw RoomError.notFound }
            guard RoomLifecycle.isLive(room, now) else { throw RoomError.closed }
            let bound = try plugin(room.tenantID, room.pluginID)
            let transaction = RoomTransaction(
                room: room, tables: PostgresTableRunner.transaction(connection, tenantID: room.tenantID, tables: tables, logger: database.logger),
                now: now, logger: database.logger, writes: LockedRoomWrites(writes: writes, plugin: bound))
            let result = try await body(transaction)
            try await writes.enqueue(transaction.effects, tenantID: tenant.id, now: now)
            return result
        }
    }

    /// The plugin's room if it is live now (no lock: for reads). A room of
    /// another tenant or plugin is not found; a closed or lapsed one is closed.
    public func liveRoom(_ roomID: RoomID, in tenant: Tenant, pluginID: String) async throws -> Room {
        guard let room = try await store.room(tenant.id, roomID), room.pluginID == pluginID else { throw RoomError.notFound }
        guard RoomLifecycle.isLive(room, clock.now()) else { throw RoomError.closed }
        return room
    }

    /// Is the room live now, by the engine's one definition?
    public func isLive(_ room: Room) -> Bool {
        RoomLifecycle.isLive(room, clock.now())
    }
}

/// A `RoomTransaction`'s reads and writes of the locked room, on its connection.
struct LockedRoomWrites: RoomTransactionWrites {
    let writes: RoomWrites
    /// The room's plugin: its `Attributes` must read what is written.
    let plugin: BoundPlugin

    func joined(_ room: Room, among accounts: [AccountID]) async throws -> Set<AccountID> {
        try await writes.joined(room, among: accounts)
    }

    func setAttributes(_ room: Room, text: String) async throws {
        guard plugin.decodeAttributes(text) != nil else { throw PluginAttributesInvalid(plugin: plugin.id, type: "its Attributes") }
        try await writes.setAttributes(room, text: text)
    }
}
