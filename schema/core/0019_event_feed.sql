-- The event feed (#30, item 4): a tenant's room events in one order that a
-- poller following a cursor never sees skip or repeat, even when several
-- instances write at once and a transaction that drew a smaller event_id
-- commits after one that drew a larger.
--
-- The cursor is not the event id (drawn when the event is written) but
-- `feed_seq`, given when the event is read: whichever request polls stamps
-- the events committed by then, in event_id order, one stamper at a time
-- per tenant (an advisory lock), and commits that before it reads. An event
-- committed later therefore gets a later place, never a place behind a
-- cursor already handed out. A room's events are written under its row
-- lock, so a room's later event is never committed (nor stamped) before an
-- earlier one: each room keeps its order.
ALTER TABLE room_events ADD COLUMN feed_seq bigint;
CREATE UNIQUE INDEX room_events_feed ON room_events (tenant_id, feed_seq) WHERE feed_seq IS NOT NULL;
CREATE INDEX room_events_unfed ON room_events (tenant_id, event_id) WHERE feed_seq IS NULL;

CREATE FUNCTION roomkeeper_feed_stamp(tenant text, batch integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    base bigint;
    stamped integer;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('roomkeeper_feed:' || tenant, 0));
    -- Statements after the lock see every stamp committed before it.
    SELECT coalesce(max(feed_seq), 0) INTO base FROM room_events WHERE tenant_id = tenant AND feed_seq IS NOT NULL;
    WITH ready AS (
        SELECT room_id, event_id FROM room_events WHERE tenant_id = tenant AND feed_seq IS NULL
        ORDER BY event_id LIMIT batch
    ), numbered AS (
        SELECT room_id, event_id, base + row_number() OVER (ORDER BY event_id) AS seq FROM ready
    )
    UPDATE room_events e SET feed_seq = n.seq FROM numbered n
    WHERE e.tenant_id = tenant AND e.room_id = n.room_id AND e.event_id = n.event_id;
    GET DIAGNOSTICS stamped = ROW_COUNT;
    RETURN stamped;
END
$$;
