-- #30: how many texts each local chatroom carried (a room's session facts),
-- counted by the statement that writes the text.
ALTER TABLE im_chatrooms ADD COLUMN messages bigint NOT NULL DEFAULT 0;
