-- The feed's places never go back (#41). The stamp gave new events places
-- after max(feed_seq) of the rows that exist, so once retention deleted a
-- tenant's newest events, new events got places at or below cursors
-- already handed out, and pollers and the usage rollup skipped them for
-- good. The highest place given is now kept in a row of its own, which
-- retention never touches; its row lock is also what lets one stamper a
-- tenant in (it was an advisory lock).
--
-- Places already handed out above what remains cannot be known for a
-- tenant whose newest events retention has already deleted: its mark
-- starts at what remains, as the stamp did.
CREATE TABLE feed_marks (
    tenant_id text   PRIMARY KEY,
    last_seq  bigint NOT NULL
);
INSERT INTO feed_marks (tenant_id, last_seq)
SELECT tenant_id, max(feed_seq) FROM room_events WHERE feed_seq IS NOT NULL GROUP BY tenant_id;

CREATE OR REPLACE FUNCTION roomkeeper_feed_stamp(tenant text, batch integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    base bigint;
    stamped integer;
BEGIN
    INSERT INTO feed_marks (tenant_id, last_seq) VALUES (tenant, 0) ON CONFLICT (tenant_id) DO NOTHING;
    -- Statements after the lock see every stamp committed before it.
    SELECT last_seq INTO base FROM feed_marks WHERE tenant_id = tenant FOR UPDATE;
    WITH ready AS (
        SELECT room_id, event_id FROM room_events WHERE tenant_id = tenant AND feed_seq IS NULL
        ORDER BY event_id LIMIT batch
    ), numbered AS (
        SELECT room_id, event_id, base + row_number() OVER (ORDER BY event_id) AS seq FROM ready
    )
    UPDATE room_events e SET feed_seq = n.seq FROM numbered n
    WHERE e.tenant_id = tenant AND e.room_id = n.room_id AND e.event_id = n.event_id;
    GET DIAGNOSTICS stamped = ROW_COUNT;
    IF stamped > 0 THEN
        UPDATE feed_marks SET last_seq = base + stamped WHERE tenant_id = tenant;
    END IF;
    RETURN stamped;
END
$$;
