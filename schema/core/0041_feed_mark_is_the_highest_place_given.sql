-- The feed's mark is the highest place the stamp gave, not the mark plus
-- how many rows it updated (#41). An event deleted while the stamp waited
-- for it (retention, a tenant's deletion: the stamp's UPDATE waits for the
-- deleting transaction, then skips the row) had its place numbered but
-- not given, so the mark ended one below the highest place given; the
-- next stamp gave that place again, the unique index room_events_feed
-- refused it, and every later stamp of the tenant failed the same way:
-- its feed and its usage stopped for good (FeedMarkTests). A place
-- numbered and not given is a gap, as retention leaves.
CREATE OR REPLACE FUNCTION roomkeeper_feed_stamp(tenant text, batch integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    base bigint;
    stamped integer;
    highest bigint;
BEGIN
    INSERT INTO feed_marks (tenant_id, last_seq) VALUES (tenant, 0) ON CONFLICT (tenant_id) DO NOTHING;
    -- Statements after the lock see every stamp committed before it.
    SELECT last_seq INTO base FROM feed_marks WHERE tenant_id = tenant FOR UPDATE;
    WITH ready AS (
        SELECT room_id, event_id FROM room_events WHERE tenant_id = tenant AND feed_seq IS NULL
        ORDER BY event_id LIMIT batch
    ), numbered AS (
        SELECT room_id, event_id, base + row_number() OVER (ORDER BY event_id) AS seq FROM ready
    ), given AS (
        UPDATE room_events e SET feed_seq = n.seq FROM numbered n
        WHERE e.tenant_id = tenant AND e.room_id = n.room_id AND e.event_id = n.event_id
        RETURNING n.seq
    )
    SELECT count(*), max(seq) INTO stamped, highest FROM given;
    IF stamped > 0 THEN
        UPDATE feed_marks SET last_seq = highest WHERE tenant_id = tenant;
    END IF;
    RETURN stamped;
END
$$;
