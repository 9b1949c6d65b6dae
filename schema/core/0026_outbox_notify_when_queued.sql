-- The outbox's NOTIFY only when a statement queued entries. A statement-
-- level trigger runs even when its INSERT wrote no row, and every create
-- and dissolve carries an outbox INSERT for its webhooks (most write none):
-- each woke every instance's dispatcher for an empty claim, 0.29 claims a
-- create→dissolve flow in ops/bench's figure 1 once the local chatroom's
-- close left the outbox. The transition table says whether rows came.
CREATE OR REPLACE FUNCTION roomkeeper_outbox_queued() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM queued) THEN
        PERFORM pg_notify('roomkeeper_outbox', '');
    END IF;
    RETURN NULL;
END
$$;

DROP TRIGGER outbox_inserted_notify ON outbox;
CREATE TRIGGER outbox_inserted_notify AFTER INSERT ON outbox
    REFERENCING NEW TABLE AS queued FOR EACH STATEMENT EXECUTE FUNCTION roomkeeper_outbox_queued();
