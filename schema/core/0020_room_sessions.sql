-- A room's session facts (#30, item 3), kept by the statements that change
-- them: every join counts (total_joins) and raises the high-water mark of
-- members in the room at once (peak_members). Opened, closed, duration and
-- close reason are the room's own columns; messages are the local IM's.
ALTER TABLE rooms ADD COLUMN total_joins integer NOT NULL DEFAULT 0;
ALTER TABLE rooms ADD COLUMN peak_members integer NOT NULL DEFAULT 0;
UPDATE rooms SET total_joins = joined_count, peak_members = joined_count;
CREATE INDEX rooms_by_creation ON rooms (tenant_id, created_at, room_id);
