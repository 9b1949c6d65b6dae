import Logging
import PostgresNIO

/// What ANALYZE keeps of our tables (#41): nothing of `tenant_id` or of a
/// time, and ten values or buckets of every other column.
///
/// No statistics of `tenant_id`: ANALYZE's picture of it is the tenants as
/// they were at the last ANALYZE. A tenant it never saw (new since, or
/// grown from nothing in a minute: a hot room, a burst of guest logins) is
/// estimated at one row in every table, and on one row every index that
/// starts with `tenant_id` costs the same, so the planner read that tenant
/// whole for every probe. ops/bench figure 7, 2026-12-07: the feed stamp of
/// a hot room's 4,010 events read 2,004,000 rows to stamp 500 (1.4-2.2 s a
/// slice, four slices while the room filled); the join batches' session
/// check read 955 of the tenant's sessions and accounts for each one asked
/// (60-330 ms a batch). Without statistics the planner takes any tenant as
/// 0.5 % of a table: never one row, so the index with every key of the
/// lookup wins (`PlannerStatisticsTests`; the same statements took 10 ms
/// and 0.4 ms).
///
/// No statistics of a time (`timestamp`, `timestamptz`, `date`): its
/// histogram is the clock as it stood at the last ANALYZE, and our
/// statements compare times with the clock as it stands now (a session,
/// a ban, a key that expires; a due retry). Once the clock passes the
/// newest time ANALYZE saw, "expires after now" is estimated at no row,
/// and `sessions_by_expiry (tenant_id, expires_at)` costs the same as the
/// session's own key: a request's session read then read every live
/// session of its tenant (6,000 for one, `PlannerStatisticsTests`). A
/// sessions table analyzed less often than a session lives is enough: a
/// large quiet one is, since autovacuum analyzes after a tenth of its rows
/// change. Without statistics a comparison with the clock is taken as a
/// third of the rows, so the key wins.
///
/// Ten for the rest (PostgreSQL's default is 100): ANALYZE samples 300 rows
/// per unit of the largest target, so 3,000 rows instead of 30,000, and
/// autovacuum analyzes a table whose rows changed by a tenth, every minute
/// in a flood. Figure 6, 2026-12-07: the round that analyzed accounts,
/// sessions and im_accounts took 0.6 s of a core in the flood (0.1 s at
/// ten), and every guest login of the other tenant in those 0.6 s waited
/// 20-71 ms (its p99 ×5.6-6.1 of alone; ×1.59 in the run at ten). Our
/// statements look rows up by their keys; ten buckets place a state or a
/// count well enough for the few that read ranges.
///
/// An index on an expression keeps statistics of the expression, and
/// ANALYZE samples for the largest target of the table's columns and its
/// indexes' expressions: `im_accounts_by_lapse` at the default made every
/// ANALYZE of `im_accounts` sample 30,000 rows (86 ms for 40,000 rows,
/// 0.22 s in figure 6's autovacuum round, the other tenant's flows 30-113
/// ms in it) where ten made it 3,000 (7 ms). So expressions keep ten too
/// (a time's included: the statement that reads `im_accounts_by_lapse`
/// asks for what lapsed a month ago, which old statistics place as well).
///
/// Applied by the migrator after the schema files, to every table of the
/// schema (a plugin's new one included): ten for columns still at the
/// default (an operator's own target stays), none for `tenant_id` and the
/// times whatever they had. `TYPE` of the column's own type (no rewrite)
/// drops what an ANALYZE collected of it before; a table a view depends on
/// cannot change a column's type, and keeps those until the operator
/// clears them.
enum PlannerStatistics {
    static let otherColumns = 10

    static let sql = """
        DO $$
        DECLARE
            t record;
        BEGIN
            FOR t IN
                SELECT * FROM (
                    SELECT c.oid::regclass AS tbl, a.attname AS col, format_type(a.atttypid, a.atttypmod) AS typ, a.attstattarget AS target,
                           a.attname = 'tenant_id' OR a.atttypid IN ('timestamptz'::regtype, 'timestamp'::regtype, 'date'::regtype) AS kept_none
                    FROM pg_attribute a
                    JOIN pg_class c ON c.oid = a.attrelid
                    JOIN pg_namespace n ON n.oid = c.relnamespace
                    WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p') AND n.nspname = current_schema()
                ) col
                WHERE CASE WHEN kept_none THEN target IS DISTINCT FROM 0 ELSE target IS NULL OR target < 0 END
            LOOP
                IF t.kept_none THEN
                    BEGIN
                        EXECUTE format('ALTER TABLE %s ALTER COLUMN %I SET STATISTICS 0, ALTER COLUMN %I TYPE %s', t.tbl, t.col, t.col, t.typ);
                    EXCEPTION WHEN feature_not_supported OR dependent_objects_still_exist THEN
                        EXECUTE format('ALTER TABLE %s ALTER COLUMN %I SET STATISTICS 0', t.tbl, t.col);
                    END;
                ELSE
                    EXECUTE format('ALTER TABLE %s ALTER COLUMN %I SET STATISTICS \(otherColumns)', t.tbl, t.col);
                END IF;
            END LOOP;
            FOR t IN
                SELECT i.indexrelid::regclass AS idx, a.attnum AS col
                FROM pg_index i
                JOIN pg_class c ON c.oid = i.indexrelid
                JOIN pg_namespace n ON n.oid = c.relnamespace
                JOIN pg_attribute a ON a.attrelid = i.indexrelid
                WHERE n.nspname = current_schema() AND i.indexprs IS NOT NULL AND i.indkey[a.attnum - 1] = 0
                  AND (a.attstattarget IS NULL OR a.attstattarget < 0)
            LOOP
                EXECUTE format('ALTER INDEX %s ALTER COLUMN %s SET STATISTICS \(otherColumns)', t.idx, t.col);
            END LOOP;
        END
        $$
        """

    static func apply(on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(PostgresQuery(unsafeSQL: sql), logger: logger)
    }
}
