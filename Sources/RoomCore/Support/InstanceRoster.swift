import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// How many server instances are alive (`schema/core/0029_instances.sql`),
/// so that each enforces its share of a tenant's request budget in memory
/// (#41). Why a share and not a count in PostgreSQL: a counted budget is a
/// write per request, on one row per tenant, which a flood would contend on
/// while holding pooled connections: the very thing a budget is to prevent.
/// A share needs one statement every 5 s. With a load balancer spreading
/// requests evenly (nginx round-robin), the shares add up to the budget; an
/// instance that stops is out of the count within 15 s.
public final class InstanceRoster: Service, Sendable {
    public let id: String
    let database: Database
    let logger: Logger
    let interval: Duration
    private let live = Atomic<Int>(1)

    public init(database: Database, logger: Logger, interval: Duration = .seconds(5)) {
        self.id = Secrets.randomToken(bytes: 8)
        self.database = database
        self.logger = logger
        self.interval = interval
    }

    /// Instances alive, this one included (1 until the first count).
    public var instances: Int { live.load(ordering: .relaxed) }

    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            await refresh()
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: self.interval) }
        }
        // Gone at once from the others' count, not 15 s later.
        _ = try? await database.query("DELETE FROM instances WHERE instance_id = \(id)")
    }

    /// Marks this instance alive and counts the instances alive.
    public func refresh() async {
        do {
            let rows = try await database.query("""
                WITH me AS (
                    INSERT INTO instances (instance_id, seen_at) VALUES (\(id), now())
                    ON CONFLICT (instance_id) DO UPDATE SET seen_at = now() RETURNING 1
                ), gone AS (
                    DELETE FROM instances WHERE seen_at < now() - interval '1 hour' RETURNING 1
                )
                SELECT 1 + (SELECT count(*)::int FROM instances WHERE instance_id <> \(id) AND seen_at > now() - interval '15 seconds')
                       + 0 * (SELECT count(*)::int FROM me) + 0 * (SELECT count(*)::int FROM gone)
                """)
            if let count = try rows.decode(Int.self).first { live.store(max(1, count), ordering: .relaxed) }
        } catch {
            // The last count stands: a database away for a moment changes no share.
            logger.warning("could not count the instances", metadata: ["error": "\(LoggableError.describe(error))"])
        }
    }
}
