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
    ///
    /// The probe names the key and nothing else; whether the session is
    /// live is checked on the row it found, outside the LIMIT (where no
    /// condition is pushed into it). With `expires_at > now` inside, an
    /// estimate of "no row expires that late" (a clock past the last
    /// ANALYZE's newest session) made `(tenant_id, expires_at)` look as
    /// good as the key, and the probe read 2,693 of the tenant's sessions
    /// for each one asked (`LiveSessionsPlanTests`, #41).
    public static func query(_ tenantID: TenantID, tokenHashes: [String], pluginIDs: [String], now: Date) -> PostgresQuery {
        """
        SELECT asked.h, asked.p, live.accid FROM unnest(\(tokenHashes)::text[], \(pluginIDs)::text[]) AS asked(h, p)
        CROSS JOIN LATERAL (
            SELECT s.accid, s.plugin_id, s.revoked_at, s.expires_at
            FROM sessions s JOIN accounts a ON a.tenant_id = s.tenant_id AND a.accid = s.accid
            WHERE s.tenant_id = \(tenantID) AND s.token_hash = asked.h
            LIMIT 1
        ) live
        WHERE live.plugin_id = asked.p AND live.revoked_at IS NULL AND live.expires_at > \(now)
        """
    }
}
