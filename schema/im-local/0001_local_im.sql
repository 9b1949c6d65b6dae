-- The embedded IM provider ("local"): IM state for tenants that use no vendor.

CREATE TABLE im_accounts (
    tenant_id  text        NOT NULL,
    accid      text        NOT NULL,
    name       text        NOT NULL DEFAULT '',
    avatar     text        NOT NULL DEFAULT '',
    token_hash text        NOT NULL,
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

-- What clients in a chatroom see: messages, queue changes, mute changes,
-- closing. Every instance LISTENs and fans out to its own connections, so
-- delivery does not depend on which instance a client is connected to.
CREATE TABLE im_events (
    tenant_id   text        NOT NULL,
    event_id    bigint      GENERATED ALWAYS AS IDENTITY,
    chatroom_id text        NOT NULL,
    kind        text        NOT NULL CHECK (kind IN ('message', 'queue', 'muted', 'closed')),
    payload     jsonb       NOT NULL,
    at          timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, event_id)
);
CREATE INDEX im_events_by_chatroom ON im_events (tenant_id, chatroom_id, event_id);

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

-- NOTIFY carries the event itself when it fits (NOTIFY payloads stop at
-- 8000 bytes); otherwise only its key, and listeners read the row.
CREATE FUNCTION im_notify_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    full_text text := json_build_object('t', NEW.tenant_id, 'c', NEW.chatroom_id, 'e', NEW.event_id,
                                        'k', NEW.kind, 'p', NEW.payload,
                                        'at', (extract(epoch FROM NEW.at) * 1000)::bigint)::text;
BEGIN
    IF octet_length(full_text) < 7900 THEN
        PERFORM pg_notify('roomkeeper_im', full_text);
    ELSE
        PERFORM pg_notify('roomkeeper_im', json_build_object('t', NEW.tenant_id, 'c', NEW.chatroom_id, 'e', NEW.event_id)::text);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER im_events_notify AFTER INSERT ON im_events FOR EACH ROW EXECUTE FUNCTION im_notify_event();

CREATE FUNCTION im_notify_notification() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('roomkeeper_im', json_build_object('t', NEW.tenant_id, 'n', NEW.notification_id, 'to', NEW.to_accid)::text);
    RETURN NULL;
END $$;
CREATE TRIGGER im_notifications_notify AFTER INSERT ON im_notifications FOR EACH ROW EXECUTE FUNCTION im_notify_notification();
