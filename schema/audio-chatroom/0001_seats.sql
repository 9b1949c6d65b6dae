-- Server-kept mic seats of audio-chatroom rooms: the facts a seat's status
-- number is derived from. Rows are born with their room.
CREATE TABLE audio_chatroom_seats (
    tenant_id      text        NOT NULL,
    room_id        bigint      NOT NULL,
    seat_index     integer     NOT NULL CHECK (seat_index >= 0),
    phase          text        NOT NULL DEFAULT 'empty' CHECK (phase IN ('empty', 'applying', 'onMic')),
    member_account text,
    member_nick    text,
    member_avatar  text,
    closed         boolean     NOT NULL DEFAULT false,
    masked         boolean     NOT NULL DEFAULT false,
    self_muted     boolean     NOT NULL DEFAULT false,
    reason         integer     NOT NULL DEFAULT 0,
    updated_at     timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, room_id, seat_index),
    FOREIGN KEY (tenant_id, room_id) REFERENCES rooms (tenant_id, room_id) ON DELETE CASCADE,
    CHECK ((phase = 'empty') = (member_account IS NULL))
);
