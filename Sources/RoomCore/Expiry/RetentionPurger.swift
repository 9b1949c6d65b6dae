import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// Deletes what each tenant's retention no longer keeps, in batches of
/// `batch` rows per statement so a purge never holds long locks, on every
/// instance (two instances deleting the same batch just find less to do).
/// Also drops per-address rate windows that ended long ago.
public struct RetentionPurger: Service {
    public let database: Database
    public let clock: any RoomClock
    public let tenants: @Sendable () -> [Tenant]
    public let interval: Duration
    public let batch: Int
    public let logger: Logger

    public init(database: Database, clock: any RoomClock, tenants: @escaping @Sendable () -> [Tenant],
                interval: Duration = .seconds(60), batch: Int = 2_000, logger: Logger) {
        self.database = database
        self.clock = clock
        self.tenants = tenants
        self.interval = interval
        self.batch = batch
        self.logger = logger
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            if Task.isShuttingDownGracefully || Task.isCancelled { return }
            do {
                let deleted = try await purgeOnce()
                if deleted > 0 { logger.info("retention purged rows", metadata: ["rows": "\(deleted)"]) }
            } catch {
                logger.warning("retention purge failed", metadata: ["error": "\(LoggableError.describe(error))"])
            }
        }
    }

    /// One pass over every tenant, at most `batch` rows per statement.
    /// Returns how many rows went.
    @discardableResult
    public func purgeOnce() async throws -> Int {
        let now = clock.now()
        var deleted = 0
        for tenant in tenants() {
            let keep = tenant.retention
            let id = tenant.id
            // Closed rooms take their members and plugin rows (ON DELETE
            // CASCADE) and, in the same statement, their audit events.
            deleted += try await delete("""
                WITH gone AS (
                    DELETE FROM rooms WHERE ctid IN (
                        SELECT ctid FROM rooms WHERE tenant_id = \(id) AND state = 'closed' AND closed_at < \(now.addingTimeInterval(-keep.closedRooms))
                        LIMIT \(batch))
                    RETURNING tenant_id, room_id
                ), events AS (
                    DELETE FROM room_events e USING gone WHERE e.tenant_id = gone.tenant_id AND e.room_id = gone.room_id
                )
                SELECT 1 FROM gone
                """)
            deleted += try await delete("""
                DELETE FROM outbox WHERE ctid IN (
                    SELECT ctid FROM outbox WHERE tenant_id = \(id)
                      AND ((status = 'delivered' AND delivered_at < \(now.addingTimeInterval(-keep.deliveredOutbox)))
                        OR (status = 'dead' AND created_at < \(now.addingTimeInterval(-keep.deadOutbox))))
                    LIMIT \(batch))
                RETURNING 1
                """)
            deleted += try await delete("""
                DELETE FROM sessions WHERE ctid IN (
                    SELECT ctid FROM sessions WHERE tenant_id = \(id)
                      AND least(coalesce(revoked_at, expires_at), expires_at) < \(now.addingTimeInterval(-keep.endedSessions))
                    LIMIT \(batch))
                RETURNING 1
                """)
            let idleSince = now.addingTimeInterval(-keep.idleGuests)
            deleted += try await delete("""
                DELETE FROM accounts WHERE ctid IN (
                    SELECT a.ctid FROM accounts a
                    WHERE a.tenant_id = \(id) AND a.password_hash IS NULL AND a.created_at < \(idleSince)
                      AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.tenant_id = a.tenant_id AND s.accid = a.accid
                                      AND least(coalesce(s.revoked_at, s.expires_at), s.expires_at) >= \(idleSince))
                      AND NOT EXISTS (SELECT 1 FROM rooms r WHERE r.tenant_id = a.tenant_id AND r.owner = a.accid AND r.state = 'open')
                    LIMIT \(batch))
                RETURNING 1
                """)
        }
        // The longest window a tenant may set is 31 days.
        deleted += try await delete("""
            -- cross-tenant: retention purges every tenant, in batches
            DELETE FROM rate_windows WHERE ctid IN (
                SELECT ctid FROM rate_windows WHERE window_start < \(now.addingTimeInterval(-32 * 86_400)) LIMIT \(batch))
            RETURNING 1
            """)
        return deleted
    }

    private func delete(_ query: PostgresQuery) async throws -> Int {
        try await database.query(query).count
    }
}
