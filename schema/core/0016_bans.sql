-- Moderation that sticks (#29): a ban keeps an account out of one room, or
-- out of every room of its tenant, until it expires or is lifted. Rows are
-- never deleted by the API: lifting stamps lifted_at, so the history stays.
CREATE TABLE bans (
    tenant_id  text        NOT NULL,
    ban_id     bigint      GENERATED ALWAYS AS IDENTITY,
    accid      text        NOT NULL,
    -- NULL: the whole tenant.
    room_id    bigint,
    reason     text        NOT NULL DEFAULT '',
    -- NULL: until lifted. A kick with a duration is a room ban that ends.
    expires_at timestamptz,
    created_at timestamptz NOT NULL,
    created_by text        NOT NULL,
    lifted_at  timestamptz,
    lifted_by  text,
    PRIMARY KEY (tenant_id, ban_id)
);
CREATE INDEX bans_in_force ON bans (tenant_id, accid) WHERE lifted_at IS NULL;
CREATE INDEX bans_by_room ON bans (tenant_id, room_id, ban_id) WHERE room_id IS NOT NULL;

-- The engine's one definition of "banned", called by every door: a join, a
-- change's caller (a seat apply), a new session, the local IM's login and
-- chatroom enter. `room` NULL asks about the tenant alone.
CREATE FUNCTION roomkeeper_banned(tenant text, account text, room bigint, at timestamptz) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT EXISTS (
        SELECT 1 FROM bans b
        WHERE b.tenant_id = tenant AND b.accid = account AND b.lifted_at IS NULL
          AND (b.room_id IS NULL OR b.room_id = room)
          AND (b.expires_at IS NULL OR b.expires_at > at))
$$;
