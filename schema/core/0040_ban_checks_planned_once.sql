-- #41, ops/bench figure 7: "banned" and "muted" as PL/pgSQL, same rules.
-- As SQL functions (an EXISTS is never inlined) their query was parsed and
-- planned again in every statement that called them, once per call site:
-- about 150 µs each, so a room's read for a seat move (two call sites)
-- spent 300 of its 400 µs there, and a guest login's ban check 150 µs.
-- PL/pgSQL keeps the plan for the connection's life. STABLE as before:
-- their query reads as of the calling statement's snapshot, unchanged.
CREATE OR REPLACE FUNCTION roomkeeper_banned(tenant text, account text, room bigint, at timestamptz) RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN EXISTS (
        SELECT 1 FROM bans b
        WHERE b.tenant_id = tenant AND b.accid = account AND b.lifted_at IS NULL AND b.kind = 'ban'
          AND (b.room_id IS NULL OR b.room_id = room)
          AND (b.expires_at IS NULL OR b.expires_at > at));
END
$$;

CREATE OR REPLACE FUNCTION roomkeeper_muted(tenant text, account text, room bigint, at timestamptz) RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN EXISTS (
        SELECT 1 FROM bans b
        WHERE b.tenant_id = tenant AND b.accid = account AND b.lifted_at IS NULL AND b.kind = 'mute'
          AND b.room_id = room
          AND (b.expires_at IS NULL OR b.expires_at > at));
END
$$;
