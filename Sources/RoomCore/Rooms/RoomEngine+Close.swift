import Foundation
import PostgresNIO

/// The one close path: dissolve (one room), expiry and lapse (a batch) all
/// end here, as every way a LiveKit room ends reaches `Room.Close`.
extension RoomEngine {
    /// Closes `rooms` (open, locked by this transaction): each plugin's
    /// closing hook (per tenant and plugin) first, then one statement writes
    /// their rows, audit events and side effects: the plugin's messages, then
    /// the engine's own close of their IM chatrooms. Returns whether any side
    /// effect was queued.
    @discardableResult
    func closeRooms(_ rooms: [Room], reason: CloseReason, actor: Actor, writes: RoomWrites, now: Date) async throws -> Bool {
        guard !rooms.isEmpty else { return false }
        let effects = try await closeEffects(rooms, reason: reason, actor: actor, now: now) { plugin, group in
            let parts = HookParts(writes: writes, tenantID: group[0].tenantID, now: now, actor: actor, logger: database.logger)
            return try await plugin.closing(group, reason, parts)
        }
        return try await writes.close(rooms, reason: reason, actor: actor, now: now, effects: effects)
    }

    /// Each tenant's side effects of closing `rooms`: per plugin, its closing
    /// messages (decided without I/O, or by `hook`, its transaction's), then
    /// the engine's close of each room's IM chatroom.
    func closeEffects(
        _ rooms: [Room], reason: CloseReason, actor: Actor, now: Date,
        hook: (BoundPlugin, [Room]) async throws -> [OutboxMessage]
    ) async throws -> [(tenantID: TenantID, messages: [OutboxMessage])] {
        var effects: [(tenantID: TenantID, messages: [OutboxMessage])] = []
        let groups = Dictionary(grouping: rooms) { GroupKey(tenantID: $0.tenantID, pluginID: $0.pluginID) }
        for (key, group) in groups.sorted(by: { ($0.key.tenantID, $0.key.pluginID) < ($1.key.tenantID, $1.key.pluginID) }) {
            var notice: String?
            var messages: [OutboxMessage] = []
            do {
                let plugin = try plugin(key.tenantID, key.pluginID)
                if case .perRoom(let closeNotice) = plugin.chatroom { notice = closeNotice }
                if let pure = plugin.closingMessages(group, reason) {
                    messages += pure
                } else {
                    messages += try await hook(plugin, group)
                }
            } catch RoomError.pluginNotEnabled {
                // A plugin this build no longer has: the rooms still close.
                database.logger.warning("closing rooms of an unknown plugin without its hook", metadata: ["plugin": "\(key.pluginID)"])
            }
            messages += group.compactMap { room in
                room.imChatroomID.map { .im(.closeChatroom(chatroom: $0, operator: room.owner, notifyExt: notice), roomID: room.id) }
            }
            effects.append((key.tenantID, messages))
        }
        return effects
    }

    private struct GroupKey: Hashable {
        let tenantID: TenantID
        let pluginID: String
    }
}
