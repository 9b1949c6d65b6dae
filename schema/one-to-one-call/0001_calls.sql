-- A call: one room, owned by its caller and reserved for its callee until
-- the ring's deadline (the engine closes it as `lapsed` if nobody answers).
CREATE TABLE one_to_one_calls (
    tenant_id   text        NOT NULL,
    room_id     bigint      NOT NULL,
    caller      text        NOT NULL,
    callee      text        NOT NULL,
    rung_at     timestamptz NOT NULL,
    answered_at timestamptz,
    ended_at    timestamptz,
    PRIMARY KEY (tenant_id, room_id),
    FOREIGN KEY (tenant_id, room_id) REFERENCES rooms (tenant_id, room_id) ON DELETE CASCADE
);

-- The accounts in a live call, either side: at most one live call per
-- account, decided by this key whatever races (a callee already in a call
-- answers busy). A call's two rows go when it ends.
CREATE TABLE one_to_one_call_parties (
    tenant_id text   NOT NULL,
    accid     text   NOT NULL,
    room_id   bigint NOT NULL,
    PRIMARY KEY (tenant_id, accid),
    FOREIGN KEY (tenant_id, room_id) REFERENCES rooms (tenant_id, room_id) ON DELETE CASCADE
);
CREATE INDEX one_to_one_call_parties_by_room ON one_to_one_call_parties (tenant_id, room_id);
