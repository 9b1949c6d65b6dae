-- A tenant ban and a login of the same account, at once. Both meet at the
-- account's lock (AccountLock: the ban holds it exclusively to its commit,
-- a login shared to its own), but each is one statement, and a statement
-- reads as of when it started, not as of when its lock was granted: a
-- login that committed while the ban waited kept a session the ban's
-- revoke did not see, and a login that waited for the ban did not see the
-- ban it waited for. These read (and write) after the lock: PL/pgSQL, so
-- never inlined into the caller, and VOLATILE, so each of their queries
-- takes a snapshot of its own, as of the call (PostgreSQL's documented
-- rule for VOLATILE functions in READ COMMITTED). `lock_taken` is the
-- caller's lock result: passing it makes the call wait for the lock, as a
-- call that named no column of it could be evaluated first.

-- `roomkeeper_banned` as of now, for a statement that took the account's lock.
CREATE FUNCTION roomkeeper_banned_after_lock(tenant text, account text, room bigint, at timestamptz, lock_taken boolean)
RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    RETURN roomkeeper_banned(tenant, account, room, at);
END
$$;

-- Revokes the account's sessions as of now, for a tenant ban's statement
-- that holds the account's lock: sessions that logins committed while it
-- waited for the lock are revoked too. Returns how many.
CREATE FUNCTION roomkeeper_revoke_sessions_after_lock(tenant text, account text, at timestamptz, lock_taken boolean)
RETURNS integer LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    revoked integer;
BEGIN
    UPDATE sessions SET revoked_at = at WHERE tenant_id = tenant AND accid = account AND revoked_at IS NULL;
    GET DIAGNOSTICS revoked = ROW_COUNT;
    RETURN revoked;
END
$$;
