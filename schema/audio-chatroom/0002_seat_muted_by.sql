-- #29: a seat whose member a moderator muted shows who, and stays muted
-- whatever the member's own switch (self_muted) says.
ALTER TABLE audio_chatroom_seats ADD COLUMN muted_by text;
