-- #41: a SealMic room's detail (and so each /room/join's answer) lists the
-- newest 200 joined members. Without this index every detail read every
-- member row of the room and sorted them: O(members) a join, so 2,000 joins
-- into one room read about 2 million rows (ops/bench figure 7: PostgreSQL
-- spent half of both cores in _bt_checkkeys). With it the newest 200 are
-- the first 200 entries of one index range.
CREATE INDEX room_members_newest ON room_members (tenant_id, room_id, joined_at DESC, accid)
    WHERE status = 'joined';
