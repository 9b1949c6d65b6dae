-- #41: a room's create holds its owner's account lock shared, as a join
-- does (`AccountLock`). A tenant ban holds that lock exclusively until it
-- commits and then dissolves the account's open rooms: a create that had
-- read a live session just before the ban could commit its room after the
-- ban had looked for them, and the banned account kept an open, listed
-- room. Now the ban waits for a create that holds the lock (and then finds
-- its room), or the create waits for the ban and sees it: PL/pgSQL,
-- VOLATILE, so the check below runs with a snapshot taken after the lock
-- was granted, not the calling statement's.
CREATE FUNCTION roomkeeper_creator_admitted(tenant text, account text, lock_key bigint, at timestamptz) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock_shared(lock_key);
    RETURN NOT EXISTS (
        SELECT 1 FROM bans b
        WHERE b.tenant_id = tenant AND b.accid = account AND b.lifted_at IS NULL AND b.kind = 'ban' AND b.room_id IS NULL
          AND (b.expires_at IS NULL OR b.expires_at > at));
END $$;
