import Foundation
import PostgresNIO

/// A dissolve decided on one read and written once (#28, item 3), as
/// `RoomEngine.change` does a plugin's move: the room and its version are
/// read without a lock, `RoomLifecycle` decides, and one statement closes it
/// with its events and side effects only if it is still open at that
/// version. A dissolve was 5 round trips (BEGIN, the lock, the close, its
/// plugin's timeline, COMMIT); it is now the read, the close and its commit
/// probe.
extension RoomEngine {
    /// nil when the room's plugin closes with a hook (its rows change with
    /// the close): the caller then closes it in a transaction.
    func dissolveUnlocked(_ roomID: RoomID, by actor: Actor, in tenant: Tenant, pluginID: String?) async throws -> Room? {
        for _ in 1...Self.changeAttempts {
            let now = clock.now()
            let rows = try await database.query("""
                SELECT \(unescaped: RoomRows.columns), version, joined_count FROM rooms WHERE tenant_id = \(tenant.id) AND room_id = \(roomID)
                """)
            guard let row = rows.first else { throw RoomError.notFound }
            let room = try RoomRows.decode(row)
            guard pluginID == nil || room.pluginID == pluginID else { throw RoomError.notFound }
            let cells = row.makeRandomAccess()
            let (version, joinedCount) = (try cells[17].decode(Int64.self), try cells[18].decode(Int.self))
            let decision = try RoomLifecycle.decide(.dissolve(by: actor), on: .init(room: room, joinedCount: joinedCount, memberStatus: nil), now: now).get()
            guard case .close(let reason) = decision else { return nil }
            let plugin = try plugin(room.tenantID, room.pluginID)
            guard plugin.closingMessages([room], reason) != nil else { return nil }
            let effects = try await closeEffects([room], reason: reason, actor: actor, now: now) { _, _ in [] }
            let close = RoomClose(rooms: [room], reason: reason, actor: actor, now: now, effects: effects,
                                  webhooks: { [tenants] in tenants($0)?.webhooks ?? [] })
            if try await database.query(close.guardedQuery(version: version)).decode(Int.self).first == 1 {
                listCache.forget(room.tenantID, room.pluginID)
                Self.transitions.increment(kind: Self.name(of: decision), plugin: room.pluginID)
                return Self.room(room, after: decision, now: now)
            }
            database.logger.debug("a room changed between its read and its dissolve; deciding again", metadata: ["room": "\(roomID)"])
        }
        throw DatabaseUnavailable("the room is changing too often at once; try again")
    }
}
