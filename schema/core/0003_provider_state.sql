-- What verified provider callbacks told us: who is in which vendor IM
-- chatroom, and which live streams are being published.
CREATE TABLE provider_chatroom_members (
    tenant_id   text        NOT NULL,
    provider    text        NOT NULL,
    chatroom_id text        NOT NULL,
    accid       text        NOT NULL,
    present     boolean     NOT NULL,
    updated_at  timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, provider, chatroom_id, accid)
);

CREATE TABLE live_streams (
    tenant_id  text        NOT NULL,
    stream     text        NOT NULL,
    live       boolean     NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, stream)
);
