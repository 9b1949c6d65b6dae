-- Core tables. Every primary key starts with tenant_id: a tenant's rows never
-- mix with another's, and the schema can later be distributed by tenant.

CREATE TABLE accounts (
    tenant_id     text        NOT NULL,
    accid         text        NOT NULL,
    nickname      text        NOT NULL DEFAULT '',
    avatar        text        NOT NULL DEFAULT '',
    role          text        NOT NULL DEFAULT 'user',
    password_hash text,
    attributes    jsonb       NOT NULL DEFAULT '{}',
    created_at    timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, accid)
);

-- Session tokens are random and high-entropy: stored as SHA-256, never as is.
CREATE TABLE sessions (
    tenant_id  text        NOT NULL,
    token_hash text        NOT NULL,
    accid      text        NOT NULL,
    plugin_id  text        NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    revoked_at timestamptz,
    PRIMARY KEY (tenant_id, token_hash),
    FOREIGN KEY (tenant_id, accid) REFERENCES accounts (tenant_id, accid) ON DELETE CASCADE
);
CREATE INDEX sessions_by_account ON sessions (tenant_id, accid);

CREATE SEQUENCE room_ids START WITH 10000001;

CREATE TABLE rooms (
    tenant_id              text        NOT NULL,
    room_id                bigint      NOT NULL,
    plugin_id              text        NOT NULL,
    name                   text        NOT NULL,
    owner                  text        NOT NULL,
    state                  text        NOT NULL CHECK (state IN ('open', 'closed')),
    close_reason           text        CHECK (close_reason IN ('dissolved', 'expired', 'lapsed')),
    capacity               integer     NOT NULL CHECK (capacity > 0),
    joined_count           integer     NOT NULL DEFAULT 0 CHECK (joined_count >= 0),
    created_at             timestamptz NOT NULL,
    expires_at             timestamptz NOT NULL,
    closed_at              timestamptz,
    reserved_for           text[],
    reserved_until         timestamptz,
    reservation_claimed_at timestamptz,
    lapse_action           text        NOT NULL DEFAULT 'release' CHECK (lapse_action IN ('release', 'close')),
    im_chatroom_id         text,
    attributes             jsonb       NOT NULL DEFAULT '{}',
    version                bigint      NOT NULL DEFAULT 1,
    PRIMARY KEY (tenant_id, room_id),
    CHECK ((state = 'closed') = (closed_at IS NOT NULL AND close_reason IS NOT NULL))
);
CREATE INDEX rooms_listing ON rooms (tenant_id, plugin_id, state, room_id DESC);
CREATE INDEX rooms_by_owner ON rooms (tenant_id, owner) WHERE state = 'open';
-- The sweeper's two queues: rooms past their TTL, reservations past their deadline.
CREATE INDEX rooms_due ON rooms (expires_at) WHERE state = 'open';
CREATE INDEX rooms_lapsing ON rooms (reserved_until)
    WHERE state = 'open' AND reserved_until IS NOT NULL AND reservation_claimed_at IS NULL;

CREATE TABLE room_members (
    tenant_id text        NOT NULL,
    room_id   bigint      NOT NULL,
    accid     text        NOT NULL,
    role      text        NOT NULL DEFAULT 'member',
    status    text        NOT NULL CHECK (status IN ('joined', 'left', 'banned')),
    joined_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, room_id, accid),
    FOREIGN KEY (tenant_id, room_id) REFERENCES rooms (tenant_id, room_id) ON DELETE CASCADE
);

-- Audit trail: one row per transition, written in the transition's transaction.
CREATE TABLE room_events (
    tenant_id text        NOT NULL,
    room_id   bigint      NOT NULL,
    event_id  bigint      GENERATED ALWAYS AS IDENTITY,
    at        timestamptz NOT NULL,
    kind      text        NOT NULL,
    actor     text        NOT NULL,
    detail    jsonb       NOT NULL DEFAULT '{}',
    PRIMARY KEY (tenant_id, room_id, event_id)
);

-- Provider side effects, delivered at least once by the outbox dispatcher.
CREATE TABLE outbox (
    tenant_id       text        NOT NULL,
    outbox_id       bigint      GENERATED ALWAYS AS IDENTITY,
    room_id         bigint,
    kind            text        NOT NULL,
    payload         jsonb       NOT NULL,
    status          text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'dead')),
    attempts        integer     NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    last_error      text,
    created_at      timestamptz NOT NULL,
    delivered_at    timestamptz,
    PRIMARY KEY (tenant_id, outbox_id)
);
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE status = 'pending';
CREATE INDEX outbox_by_status ON outbox (tenant_id, status, outbox_id);
-- Per-room order: the dispatcher delivers a room's entry only when no earlier
-- entry of that room is still pending.
CREATE INDEX outbox_room_pending ON outbox (tenant_id, room_id, outbox_id) WHERE status = 'pending';
