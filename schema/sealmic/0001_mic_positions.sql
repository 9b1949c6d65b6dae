-- SealMic's mic positions: who holds each, and the host's lock and mute.
-- The state number clients see (locked 1, muted 2, occupied 4) is derived.
CREATE TABLE sealmic_mic_positions (
    tenant_id  text        NOT NULL,
    room_id    bigint      NOT NULL,
    position   integer     NOT NULL CHECK (position >= 0),
    user_id    text,
    locked     boolean     NOT NULL DEFAULT false,
    muted      boolean     NOT NULL DEFAULT false,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, room_id, position),
    FOREIGN KEY (tenant_id, room_id) REFERENCES rooms (tenant_id, room_id) ON DELETE CASCADE
);
-- One position per user per room, whatever the code above does.
CREATE UNIQUE INDEX sealmic_one_position_per_user ON sealmic_mic_positions (tenant_id, room_id, user_id);
