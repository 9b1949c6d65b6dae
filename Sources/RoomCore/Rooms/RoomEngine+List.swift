import Foundation

extension RoomEngine {
    /// `limit` of a plugin's open rooms from `offset`, newest first, with
    /// each room's joined members and how many open rooms the plugin has:
    /// from this instance's memory while it is kept current (`RoomListCache`).
    public func openRooms(_ tenantID: TenantID, pluginID: String, limit: Int, offset: Int = 0) async throws -> (rooms: [RoomListCache.Listed], total: Int) {
        let now = clock.now()
        return try await listCache.page(tenantID, pluginID, limit: limit, offset: offset, now: now) { [store] limit, offset in
            try await store.openList(tenantID, pluginID: pluginID, now: now, limit: limit, offset: offset)
        }
    }
}
