import Foundation

extension RoomEngine {
    /// `limit` of a plugin's open rooms from `offset`, newest first, with
    /// each room's joined members and how many open rooms the plugin has:
    /// from this instance's memory while it is kept current (`RoomListCache`).
    /// With `attributes`, each listed room carries a memo of its decoded
    /// attributes, kept with the list.
    public func openRooms(_ tenantID: TenantID, pluginID: String, limit: Int, offset: Int = 0,
                          attributes: AttributesDecoder? = nil) async throws -> (rooms: [RoomListCache.Listed], total: Int) {
        let now = clock.now()
        return try await listCache.page(tenantID, pluginID, limit: limit, offset: offset, now: now) { [store] limit, offset in
            let head = try await store.openList(tenantID, pluginID: pluginID, now: now, limit: limit, offset: offset)
            guard let attributes else { return head }
            return RoomListCache.Head(rooms: head.rooms.map { ListedRoom(room: $0.room, joinedCount: $0.joinedCount, attributes: AttributesMemo(text: $0.room.attributes, decoder: attributes)) },
                                      total: head.total)
        }
    }
}
