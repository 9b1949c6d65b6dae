import Foundation
import PostgresNIO

/// The accounts behind a batch of session tokens, read in one statement: a
/// batch of joins resolves every session it carries at once (#41).
public enum LiveSessions {
    /// Rows of (token hash, plugin, account) for each asked session that is
    /// live and whose account exists. Each asked session is its own probe of
    /// the primary key (a LATERAL with LIMIT 1 is not flattened into a join
    /// the planner may reorder). Joined to the asked list, a tenant's
    /// sessions made since the last ANALYZE were estimated at a few rows and
    /// read whole for every batch: 6 ms for a batch of 25 in ops/bench
    /// figure 7 (10,000 fresh sessions), a quarter of PostgreSQL's time.
    public static func query(_ tenantID: TenantID, tokenHashes: [String], pluginIDs: [String], now: Date) -> PostgresQuery {
        """
        SELECT asked.h, asked.p, live.accid FROM unnest(\(tokenHashes)::text[], \(pluginIDs)::text[]) AS asked(h, p)
        CROSS JOIN LATERAL (
            SELECT s.accid FROM sessions s JOIN accounts a ON a.tenant_id = s.tenant_id AND a.accid = s.accid
            WHERE s.tenant_id = \(tenantID) AND s.token_hash = asked.h AND s.plugin_id = asked.p
              AND s.revoked_at IS NULL AND s.expires_at > \(now)
            LIMIT 1
        ) live
        """
    }
}
