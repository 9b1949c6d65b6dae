-- A quiz game: one engine room, hosted by a device, its questions stored
-- with their answers so results are computed here, never taken from a host.
CREATE TABLE quiz_games (
    tenant_id     text          NOT NULL,
    room_id       bigint        NOT NULL,
    device_id     text          NOT NULL,
    password_hash text          NOT NULL,
    bonus         numeric(14,2) NOT NULL CHECK (bonus > 0),
    status        integer       NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),
    stream        text          NOT NULL,
    created_at    timestamptz   NOT NULL,
    PRIMARY KEY (tenant_id, room_id),
    FOREIGN KEY (tenant_id, room_id) REFERENCES rooms (tenant_id, room_id) ON DELETE CASCADE
);
-- One game not over per device.
CREATE UNIQUE INDEX quiz_games_one_open_per_device ON quiz_games (tenant_id, device_id) WHERE status < 2;

CREATE TABLE quiz_questions (
    tenant_id           text        NOT NULL,
    room_id             bigint      NOT NULL,
    question_id         integer     NOT NULL,
    question            text        NOT NULL,
    options             text[]      NOT NULL,
    right_answer        integer     NOT NULL,
    published_at        timestamptz,
    window_ends_at      timestamptz,
    result_published_at timestamptz,
    PRIMARY KEY (tenant_id, room_id, question_id),
    FOREIGN KEY (tenant_id, room_id) REFERENCES quiz_games (tenant_id, room_id) ON DELETE CASCADE
);

-- A player is whoever queried the room; `answered` is how many questions in
-- a row they answered; status playing, out or spectator.
CREATE TABLE quiz_players (
    tenant_id   text        NOT NULL,
    room_id     bigint      NOT NULL,
    accid       text        NOT NULL,
    status      text        NOT NULL CHECK (status IN ('playing', 'out', 'spectator')),
    revives     integer     NOT NULL,
    answered    integer     NOT NULL DEFAULT 0,
    entered_at  timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, room_id, accid),
    FOREIGN KEY (tenant_id, room_id) REFERENCES quiz_games (tenant_id, room_id) ON DELETE CASCADE
);

-- Accepted answers only: one per player per question.
CREATE TABLE quiz_answers (
    tenant_id   text        NOT NULL,
    room_id     bigint      NOT NULL,
    question_id integer     NOT NULL,
    accid       text        NOT NULL,
    option      integer     NOT NULL,
    at          timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, room_id, question_id, accid),
    FOREIGN KEY (tenant_id, room_id) REFERENCES quiz_games (tenant_id, room_id) ON DELETE CASCADE
);
