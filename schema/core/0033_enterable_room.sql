-- #42: the engine's one definition of a room a viewer may enter now, for a
-- plugin's list in one statement (headset-live's /live/list was 1 + 2N
-- statements, and its total counted rooms the viewer was not shown): the
-- room is live (open, before its TTL, not past an unclaimed
-- reservation that closes on lapse: RoomLifecycle.isLive) and the viewer is
-- not banned from it (roomkeeper_banned); then its owner and times. The
-- plugin names rooms by its own rows (a headset room's row), so they are its.
-- PL/pgSQL so that it is never inlined: a plugin's statement calls the
-- engine's published read, it does not read `rooms` (PlanScope checks the
-- relations a plugin statement's plan names).
CREATE FUNCTION roomkeeper_enterable_room(tenant text, room bigint, viewer text, at timestamptz)
RETURNS TABLE (owner text, created_at timestamptz, expires_at timestamptz)
LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN QUERY
    SELECT r.owner, r.created_at, r.expires_at FROM rooms r
    WHERE r.tenant_id = tenant AND r.room_id = room
      AND r.state = 'open' AND r.expires_at > at
      AND NOT (r.reserved_until IS NOT NULL AND r.reservation_claimed_at IS NULL
               AND r.lapse_action = 'close' AND r.reserved_until <= at)
      AND NOT roomkeeper_banned(tenant, viewer, room, at);
END
$$;
