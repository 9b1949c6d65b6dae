-- Mutes the member cannot lift (#29, item 3): a mute is a row of `bans` of
-- kind 'mute', always of one room: the account stays in the room but its
-- chatroom texts are refused until the mute ends or is lifted. A ban keeps
-- its kind 'ban'; what keeps an account out asks only bans.
ALTER TABLE bans ADD COLUMN kind text NOT NULL DEFAULT 'ban' CHECK (kind IN ('ban', 'mute'));
ALTER TABLE bans ADD CONSTRAINT bans_mute_has_room CHECK (kind = 'ban' OR room_id IS NOT NULL);

CREATE OR REPLACE FUNCTION roomkeeper_banned(tenant text, account text, room bigint, at timestamptz) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT EXISTS (
        SELECT 1 FROM bans b
        WHERE b.tenant_id = tenant AND b.accid = account AND b.lifted_at IS NULL AND b.kind = 'ban'
          AND (b.room_id IS NULL OR b.room_id = room)
          AND (b.expires_at IS NULL OR b.expires_at > at))
$$;

-- The engine's one definition of "muted", asked by the local IM's texts
-- and by a plugin's seat state.
CREATE FUNCTION roomkeeper_muted(tenant text, account text, room bigint, at timestamptz) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT EXISTS (
        SELECT 1 FROM bans b
        WHERE b.tenant_id = tenant AND b.accid = account AND b.lifted_at IS NULL AND b.kind = 'mute'
          AND b.room_id = room
          AND (b.expires_at IS NULL OR b.expires_at > at))
$$;
