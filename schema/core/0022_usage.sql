-- Usage per tenant and hour (#30, item 3): what a tenant's rooms cost, for
-- the operator and as the billing export. Kept by a bounded rollup
-- (UsageRollup), never by scanning on request: room- and member-seconds
-- and the peak are the tenant's room events integrated in feed order (the
-- feed's cursor, so each event counts once, whichever instance folds it);
-- API requests, local IM texts and webhook deliveries are each instance's
-- counts, added when it folds.
CREATE TABLE usage_hourly (
    tenant_id          text             NOT NULL,
    hour               timestamptz      NOT NULL,
    room_seconds       double precision NOT NULL DEFAULT 0,
    member_seconds     double precision NOT NULL DEFAULT 0,
    peak_members       integer          NOT NULL DEFAULT 0,
    rooms_opened       integer          NOT NULL DEFAULT 0,
    joins              integer          NOT NULL DEFAULT 0,
    api_requests       bigint           NOT NULL DEFAULT 0,
    im_messages        bigint           NOT NULL DEFAULT 0,
    webhook_deliveries bigint           NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, hour)
);

-- Where each tenant's integration stands: the last feed place folded and
-- the counts in force since `at`. Its row lock makes one fold at a time.
CREATE TABLE usage_state (
    tenant_id   text        PRIMARY KEY,
    feed_cursor bigint      NOT NULL DEFAULT 0,
    open_rooms  integer     NOT NULL DEFAULT 0,
    members     integer     NOT NULL DEFAULT 0,
    at          timestamptz
);
