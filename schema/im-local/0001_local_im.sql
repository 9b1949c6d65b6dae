-- The embedded IM provider ("local"): IM state for tenants that use no vendor.

CREATE TABLE im_accounts (
    tenant_id  text        NOT NULL,
    accid      text        NOT NULL,
    name       text        NOT NULL DEFAULT '',
    avatar     text        NOT NULL DEFAULT '',
    token_hash bytea       NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, accid)
);

CREATE SEQUENCE im_chatroom_ids START WITH 5000001;

CREATE TABLE im_chatrooms (
    tenant_id   text        NOT NULL,
    chatroom_id text        NOT NULL,
    name        text        NOT NULL,
    creator     text        NOT NULL,
    open        boolean     NOT NULL DEFAULT true,
    muted       boolean     NOT NULL DEFAULT false,
    created_at  timestamptz NOT NULL,
    closed_at   timestamptz,
    PRIMARY KEY (tenant_id, chatroom_id)
);

-- A client connection, owned by one server instance and kept fresh by its
-- heartbeat: membership counts only connections seen recently.
CREATE TABLE im_connections (
    tenant_id     text        NOT NULL,
    connection_id uuid        NOT NULL,
    accid         text        NOT NULL,
    instance_id   text        NOT NULL,
    connected_at  timestamptz NOT NULL,
    seen_at       timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, connection_id)
);

-- Which connection entered which chatroom.
CREATE TABLE im_presence (
    tenant_id     text        NOT NULL,
    chatroom_id   text        NOT NULL,
    connection_id uuid        NOT NULL,
    accid         text        NOT NULL,
    entered_at    timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, chatroom_id, connection_id),
    FOREIGN KEY (tenant_id, connection_id) REFERENCES im_connections (tenant_id, connection_id) ON DELETE CASCADE
);
CREATE INDEX im_presence_by_account ON im_presence (tenant_id, chatroom_id, accid);

CREATE TABLE im_queue (
    tenant_id   text        NOT NULL,
    chatroom_id text        NOT NULL,
    key         text        NOT NULL,
    value       text        NOT NULL,
    updated_at  timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, chatroom_id, key)
);

CREATE TABLE im_chatroom_messages (
    tenant_id   text        NOT NULL,
    message_id  bigint      GENERATED ALWAYS AS IDENTITY,
    chatroom_id text        NOT NULL,
    from_accid  text        NOT NULL,
    type        text        NOT NULL,
    body        text        NOT NULL,
    persisted   boolean     NOT NULL,
    at          timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, message_id)
);
CREATE INDEX im_messages_by_chatroom ON im_chatroom_messages (tenant_id, chatroom_id, message_id);

CREATE TABLE im_notifications (
    tenant_id       text        NOT NULL,
    notification_id bigint      GENERATED ALWAYS AS IDENTITY,
    from_accid      text        NOT NULL,
    to_accid        text        NOT NULL,
    attach          text        NOT NULL,
    store_offline   boolean     NOT NULL,
    created_at      timestamptz NOT NULL,
    delivered_at    timestamptz,
    PRIMARY KEY (tenant_id, notification_id)
);
CREATE INDEX im_notifications_undelivered ON im_notifications (tenant_id, to_accid, notification_id)
    WHERE delivered_at IS NULL;
