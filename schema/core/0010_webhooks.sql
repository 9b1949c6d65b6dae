-- Webhooks ride the outbox. A lane keeps per-room order within one
-- destination only: '' for the tenant's providers (IM and media, as before),
-- 'webhook:<endpoint>' for each webhook endpoint. A receiver that is down for
-- a day then holds back only its own deliveries, never a room's IM effects or
-- another endpoint's.
ALTER TABLE outbox ADD COLUMN lane text NOT NULL DEFAULT '';
DROP INDEX outbox_room_pending;
CREATE INDEX outbox_room_pending ON outbox (tenant_id, room_id, lane, outbox_id) WHERE status = 'pending';
-- Replaying a tenant's dead letters since a time.
CREATE INDEX outbox_dead_by_time ON outbox (tenant_id, created_at) WHERE status = 'dead';

-- One row per delivery attempt of any outbox entry (what the admin API lists
-- and the console shows): outcome, latency and, for webhooks, the receiver's
-- HTTP status. Written in the statement that records the outcome.
CREATE TABLE outbox_attempts (
    tenant_id   text        NOT NULL,
    outbox_id   bigint      NOT NULL,
    -- A retry from the admin API starts the entry's count again: the
    -- identity, not the count, tells attempts apart.
    attempt_id  bigint      GENERATED ALWAYS AS IDENTITY,
    attempt     integer     NOT NULL,
    at          timestamptz NOT NULL,
    outcome     text        NOT NULL CHECK (outcome IN ('delivered', 'retry', 'dead')),
    status_code integer,
    latency_ms  integer     NOT NULL,
    error       text,
    PRIMARY KEY (tenant_id, outbox_id, attempt_id),
    FOREIGN KEY (tenant_id, outbox_id) REFERENCES outbox (tenant_id, outbox_id) ON DELETE CASCADE
);
