-- Room ids are random now (#16, finding 11), so "newest first" needs its own
-- order: created_seq, drawn from the old id sequence and never shown. Rooms
-- made before keep their sequential id as their place.
ALTER TABLE rooms ADD COLUMN created_seq bigint;
UPDATE rooms SET created_seq = room_id;
SELECT setval('room_ids', greatest((SELECT max(created_seq) FROM rooms), (SELECT last_value FROM room_ids)));
ALTER TABLE rooms ALTER COLUMN created_seq SET DEFAULT nextval('room_ids');
ALTER TABLE rooms ALTER COLUMN created_seq SET NOT NULL;
CREATE UNIQUE INDEX rooms_by_age ON rooms (tenant_id, created_seq DESC);
DROP INDEX rooms_listing;
CREATE INDEX rooms_listing ON rooms (tenant_id, plugin_id, state, created_seq DESC);
