-- Every instance's outbox dispatcher hears of new work at once (#28, item 5):
-- a statement that queues outbox entries notifies `roomkeeper_outbox` once,
-- only if its transaction commits. Before, only the instance that committed
-- woke its dispatcher; the others found the work by polling (every 250 ms).
-- Statement-level and without a transition table: one call per statement,
-- however many entries (a sweep queues a thousand in one).
CREATE FUNCTION roomkeeper_outbox_queued() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('roomkeeper_outbox', '');
    RETURN NULL;
END
$$;

CREATE TRIGGER outbox_inserted_notify AFTER INSERT ON outbox
    FOR EACH STATEMENT EXECUTE FUNCTION roomkeeper_outbox_queued();
