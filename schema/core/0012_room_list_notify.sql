-- Room lists are served from each instance's memory (#19). Every statement
-- that changes rooms tells every instance which (tenant, plugin) lists it
-- touched, whichever path wrote it (engine, sweeper, admin API, a plugin):
-- one notification per list per transaction (PostgreSQL folds duplicates),
-- sent only if the transaction commits. Statement-level, so a sweep of a
-- thousand rooms costs one scan of its transition table, not a thousand calls.
CREATE FUNCTION roomkeeper_rooms_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('roomkeeper_rooms', lists.tenant_id || '/' || lists.plugin_id)
    FROM (SELECT DISTINCT tenant_id, plugin_id FROM changed_rooms) AS lists;
    RETURN NULL;
END
$$;

CREATE TRIGGER rooms_inserted_notify AFTER INSERT ON rooms
    REFERENCING NEW TABLE AS changed_rooms FOR EACH STATEMENT EXECUTE FUNCTION roomkeeper_rooms_changed();
CREATE TRIGGER rooms_updated_notify AFTER UPDATE ON rooms
    REFERENCING NEW TABLE AS changed_rooms FOR EACH STATEMENT EXECUTE FUNCTION roomkeeper_rooms_changed();
CREATE TRIGGER rooms_deleted_notify AFTER DELETE ON rooms
    REFERENCING OLD TABLE AS changed_rooms FOR EACH STATEMENT EXECUTE FUNCTION roomkeeper_rooms_changed();
