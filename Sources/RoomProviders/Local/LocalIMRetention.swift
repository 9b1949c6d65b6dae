import Foundation
import RoomCore

/// What the local IM keeps, and for how long. Clients read current state
/// (queue, mute) from its own tables; `im_events` only feeds live delivery
/// and `roomkeeper im tail`, so old events can go.
public struct LocalIMRetention: Sendable {
    public var events: TimeInterval = 24 * 3_600
    public var deliveredNotifications: TimeInterval = 7 * 86_400
    /// Stored for offline delivery and never fetched.
    public var storedNotifications: TimeInterval = 30 * 86_400
    /// Not stored: only for whoever was online then.
    public var liveNotifications: TimeInterval = 3_600
    /// Connections of an instance that stopped without saying so.
    public var staleConnections: TimeInterval = 3_600
    /// IM accounts whose token expired (or was revoked) this long ago; a
    /// login makes them again.
    public var lapsedAccounts: TimeInterval = 30 * 86_400
    /// Rows per statement, so a purge never holds long locks.
    public var batch = 5_000

    public init() {}
}

extension LocalIMProvider {
    /// Deletes what retention no longer keeps, for every tenant, in bounded
    /// batches. Safe to run from several instances at once. Returns rows deleted.
    @discardableResult
    public static func purge(_ database: Database, now: Date, retention: LocalIMRetention = .init(), tenants: [TenantID]? = nil) async throws -> Int {
        var deleted = 0
        for (sql, cutoff) in purgeStatements(now: now, retention: retention) {
            var bindings = PostgresBindings()
            bindings.append(cutoff)
            bindings.append(retention.batch)
            bindings.append(tenants)
            let rows = try await database.query(PostgresQuery(unsafeSQL: sql + " RETURNING 1", binds: bindings))
            deleted += rows.count
        }
        return deleted
    }

    /// Each purge's statement (its binds: the cutoff, the batch, the
    /// tenants or NULL for all) and its cutoff. Each walks an index from
    /// its oldest row (schema/im-local/0006_retention_indexes.sql), except
    /// im_connections' (live sockets only, bounded per tenant).
    public static func purgeStatements(now: Date, retention: LocalIMRetention) -> [(sql: String, cutoff: Date)] {
        [
            ("DELETE FROM im_events WHERE ctid IN (SELECT ctid FROM im_events WHERE at < $1 AND ($3::text[] IS NULL OR tenant_id = ANY($3)) LIMIT $2) /* cross-tenant: retention purges every tenant, in batches */", now.addingTimeInterval(-retention.events)),
            ("DELETE FROM im_notifications WHERE ctid IN (SELECT ctid FROM im_notifications WHERE delivered_at < $1 AND ($3::text[] IS NULL OR tenant_id = ANY($3)) LIMIT $2) /* cross-tenant: retention purges every tenant, in batches */",
             now.addingTimeInterval(-retention.deliveredNotifications)),
            ("DELETE FROM im_notifications WHERE ctid IN (SELECT ctid FROM im_notifications WHERE delivered_at IS NULL AND store_offline AND created_at < $1 AND ($3::text[] IS NULL OR tenant_id = ANY($3)) LIMIT $2) /* cross-tenant: retention purges every tenant, in batches */",
             now.addingTimeInterval(-retention.storedNotifications)),
            ("DELETE FROM im_notifications WHERE ctid IN (SELECT ctid FROM im_notifications WHERE delivered_at IS NULL AND NOT store_offline AND created_at < $1 AND ($3::text[] IS NULL OR tenant_id = ANY($3)) LIMIT $2) /* cross-tenant: retention purges every tenant, in batches */",
             now.addingTimeInterval(-retention.liveNotifications)),
            ("DELETE FROM im_connections WHERE ctid IN (SELECT ctid FROM im_connections WHERE seen_at < $1 AND ($3::text[] IS NULL OR tenant_id = ANY($3)) LIMIT $2) /* cross-tenant: retention purges every tenant, in batches */",
             now.addingTimeInterval(-retention.staleConnections)),
            ("DELETE FROM im_accounts WHERE ctid IN (SELECT ctid FROM im_accounts WHERE coalesce(revoked_at, token_expires_at) < $1 AND ($3::text[] IS NULL OR tenant_id = ANY($3)) LIMIT $2) /* cross-tenant: retention purges every tenant, in batches */",
             now.addingTimeInterval(-retention.lapsedAccounts)),
        ]
    }
}

import PostgresNIO
