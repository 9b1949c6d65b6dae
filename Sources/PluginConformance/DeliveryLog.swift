import Foundation
import RoomCore
import Synchronization

/// Delivers through the tenants' providers and remembers what it delivered,
/// in order: how the suite sees that a room's side effects leave in the
/// order they were written.
final class DeliveryLog: OutboxDeliverer {
    private let next: any OutboxDeliverer
    private let delivered = Mutex<[OutboxEntry]>([])

    init(next: any OutboxDeliverer) {
        self.next = next
    }

    func deliver(_ entry: OutboxEntry) async throws -> Int? {
        let status = try await next.deliver(entry)
        delivered.withLock { $0.append(entry) }
        return status
    }

    /// The delivered entries of one room of one tenant, in delivery order.
    func entries(_ tenantID: TenantID, room: RoomID) -> [OutboxEntry] {
        delivered.withLock { $0.filter { $0.tenantID == tenantID && $0.roomID == room } }
    }
}
