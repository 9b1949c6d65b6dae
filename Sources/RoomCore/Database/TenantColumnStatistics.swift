import Logging
import PostgresNIO

/// PostgreSQL keeps no statistics of any table's `tenant_id` (#41).
///
/// Why: ANALYZE's picture of `tenant_id` is the tenants as they were at the
/// last ANALYZE. A tenant it never saw (new since, or grown from nothing in
/// a minute: a hot room, a burst of guest logins) is estimated at one row
/// in every table, and on one row every index that starts with `tenant_id`
/// costs the same, so the planner read that tenant whole for every probe.
/// ops/bench figure 7, 2026-12-07: the feed stamp of a hot room's 4,010
/// events read 2,004,000 rows to stamp 500 (1.4-2.2 s a slice, four slices
/// while the room filled); the join batches' session check read 955 of the
/// tenant's sessions and accounts for each one asked (60-330 ms a batch).
/// Without statistics the planner takes any tenant as 0.5 % of a table:
/// never one row, so the index with every key of the lookup wins.
/// (`TenantStatisticsTests`; the same statements took 10 ms and 0.4 ms.)
///
/// Applied by the migrator after the schema files, to every table of the
/// schema with a `tenant_id` column (a plugin's new table included), once:
/// `SET STATISTICS 0` stops ANALYZE collecting, and `TYPE` of the column's
/// own type (no rewrite) drops what an ANALYZE collected before. A table a
/// view depends on cannot change its column's type; it keeps the target 0
/// and its old statistics, and the migration goes on.
enum TenantColumnStatistics {
    static let sql = """
        DO $$
        DECLARE
            t record;
        BEGIN
            FOR t IN
                SELECT c.oid::regclass AS tbl, format_type(a.atttypid, a.atttypmod) AS typ
                FROM pg_attribute a
                JOIN pg_class c ON c.oid = a.attrelid
                JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE a.attname = 'tenant_id' AND NOT a.attisdropped AND c.relkind IN ('r', 'p')
                  AND n.nspname = current_schema() AND a.attstattarget IS DISTINCT FROM 0
            LOOP
                BEGIN
                    EXECUTE format('ALTER TABLE %s ALTER COLUMN tenant_id SET STATISTICS 0, ALTER COLUMN tenant_id TYPE %s', t.tbl, t.typ);
                EXCEPTION WHEN feature_not_supported OR dependent_objects_still_exist THEN
                    EXECUTE format('ALTER TABLE %s ALTER COLUMN tenant_id SET STATISTICS 0', t.tbl);
                END;
            END LOOP;
        END
        $$
        """

    static func turnOff(on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(PostgresQuery(unsafeSQL: sql), logger: logger)
    }
}
