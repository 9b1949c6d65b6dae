import Foundation
import Logging
import Synchronization

/// Follows the tenant directory (#43) on the first cell's LISTEN: a move's
/// fence and its flip (`TenantMove`) are announced on `roomkeeper_cells`,
/// and every instance reads the directory again at once. For each tenant
/// fenced now, once this instance's leases of it that were already running
/// are done, it acknowledges the fence (`tenant_move_acks`): from then on
/// it writes nothing of that tenant to its old cell, so the mover may take
/// the old cell's position as the last of the tenant's writes there.
/// Each time the LISTEN is in place it reads the directory too (an
/// announcement between connections is never missed).
public struct CellDirectoryFollower: NotificationFollower {
    public static let channel = "roomkeeper_cells"
    let database: Database
    /// The id this instance is counted under (`InstanceRoster`), which the
    /// mover waits for.
    let instanceID: String
    let logger: Logger

    public init(database: Database, instanceID: String, logger: Logger) {
        self.database = database
        self.instanceID = instanceID
        self.logger = logger
    }

    public var channel: String { Self.channel }
    public func listening() { follow() }
    public func notified(_ payload: String) { follow() }
    public func lost() {}

    private func follow() {
        let database = database, instanceID = instanceID, logger = logger
        Task {
            do {
                try await database.reloadCells()
                try await database.acknowledgeFences(as: instanceID)
            } catch {
                logger.error("could not follow the tenant directory", metadata: ["error": "\(LoggableError.describe(error))"])
            }
        }
    }
}

extension Database {
    /// How long an instance waits for a fenced tenant's running leases
    /// before it acknowledges anyway: a lease is bounded by its statements'
    /// timeouts (10 s) and a transaction's idle timeout, so this is a
    /// lease that will fail, not one that will write.
    static let fenceDrain: Duration = .seconds(15)

    /// Acknowledges every fence in force once this instance's leases of its
    /// tenant are done (see `CellDirectoryFollower`).
    public func acknowledgeFences(as instanceID: String) async throws {
        guard let cells else { return }
        for tenant in cells.fenced {
            let until = ContinuousClock.now + Self.fenceDrain
            while cells.runningOf(tenant) > 0, ContinuousClock.now < until {
                try await Task.sleep(for: .milliseconds(5))
            }
            _ = try await inFirstCell {
                try await query("""
                    INSERT INTO tenant_move_acks (tenant_id, instance_id, acked_at)
                    SELECT tenant_id, \(instanceID), now() FROM tenant_moves WHERE tenant_id = \(tenant) AND phase = 'fenced'
                    ON CONFLICT (tenant_id, instance_id) DO NOTHING
                    """)
            }
        }
    }
}
