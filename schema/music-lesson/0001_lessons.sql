-- A booked lesson: one room reserved for one teacher and one student.
CREATE TABLE music_lessons (
    tenant_id  text        NOT NULL,
    room_id    bigint      NOT NULL,
    student    text        NOT NULL,
    teacher    text        NOT NULL,
    active     boolean     NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, room_id),
    FOREIGN KEY (tenant_id, room_id) REFERENCES rooms (tenant_id, room_id) ON DELETE CASCADE
);
-- One active lesson per student, whatever races the code above loses (807).
CREATE UNIQUE INDEX music_lessons_one_active_per_student ON music_lessons (tenant_id, student) WHERE active;
CREATE INDEX music_lessons_by_teacher ON music_lessons (tenant_id, teacher) WHERE active;

-- The lesson's whiteboard, as appended: one row per packet, in arrival order;
-- a packet's (author, seq) is stored once.
CREATE TABLE music_lesson_whiteboard (
    tenant_id  text        NOT NULL,
    room_id    bigint      NOT NULL,
    packet_id  bigint      GENERATED ALWAYS AS IDENTITY,
    author     text        NOT NULL,
    seq        bigint      NOT NULL,
    data       text        NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, room_id, packet_id),
    UNIQUE (tenant_id, room_id, author, seq),
    FOREIGN KEY (tenant_id, room_id) REFERENCES rooms (tenant_id, room_id) ON DELETE CASCADE
);
