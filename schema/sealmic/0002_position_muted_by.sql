-- Who muted a position's holder in the room (#29, item 3: "the
-- seat/position state shows who muted them"): `admin` or `account:<host>`
-- while a moderator's mute of the holder is in force, whatever the host's
-- own switch of the position (`muted`) says. Cleared when the holder leaves.
ALTER TABLE sealmic_mic_positions ADD COLUMN muted_by text;
