import Foundation

/// A vendor's verified callback (a chatroom's members, a stream started or
/// cut) is a room write like any other: its plugins' hooks may move a
/// room's deadline, so it commits through `RoomEngine.commit`.
extension RoomEngine {
    /// Records the events and runs the tenant's plugins' hooks on them in one
    /// transaction; true when outbox work was queued. The same callback again
    /// (`receipt`) throws `ProviderStateStore.Replayed` and changes nothing.
    @discardableResult
    public func applyProviderEvents(_ events: [ProviderEvent], tenant: Tenant, provider: String, receipt: String) async throws -> Bool {
        let now = clock.now()
        return try await commit(.transaction) { writes in
            try await ProviderStateStore(database: database).apply(events, tenant: tenant, provider: provider, receipt: receipt, now: now, writes: writes)
        }
    }
}
