import RoomCore
import ServiceLifecycle

/// Services that do one cell's share of the instance's own work (#43): each
/// runs with its leases in cell `name` (`LeaseOwner.cell`), so its
/// statements across tenants (a sweep's claim, the outbox's) read and
/// write that cell's rows. They run together and end together.
struct InCell: Service {
    let name: String
    let services: [any Service]

    func run() async throws {
        try await LeaseOwner.$cell.withValue(name) {
            try await withThrowingDiscardingTaskGroup { group in
                for service in services {
                    group.addTask { try await service.run() }
                }
            }
        }
    }
}
