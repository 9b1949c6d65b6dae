-- One open room a creator where a plugin's app expects it (audio-chatroom:
-- a create dissolves the creator's earlier rooms first), decided by
-- PostgreSQL: two creates by one session racing each read the same open
-- rooms, dissolved them and created, and left two rooms open (8 racing
-- creates left up to 8). A room created under that rule is marked
-- `sole_open`, and this index lets only one such room of a creator and
-- plugin be open; the loser's statement fails on it and the create reads
-- and dissolves again. Rows written before keep false: the index starts
-- empty and cannot fail on rooms an earlier race left open.
ALTER TABLE rooms ADD COLUMN sole_open boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX rooms_one_open_per_owner ON rooms (tenant_id, plugin_id, owner) WHERE state = 'open' AND sole_open;
