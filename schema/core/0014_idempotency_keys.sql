-- Idempotency-Key (#27, item 5): the first answer to a state-changing
-- request, replayed to its retries. `scope` is the tenant and a digest of the
-- caller's Authorization header, so keys never meet across tenants or keys;
-- `fingerprint` is a digest of method, path and body, so a key reused for
-- another request is refused. A row without `status` is in progress. Kept
-- 24 hours (retention).
CREATE TABLE idempotency_keys (
    scope        text        NOT NULL,
    key          text        NOT NULL,
    fingerprint  text        NOT NULL,
    status       integer,
    content_type text,
    body         bytea,
    created_at   timestamptz NOT NULL,
    PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
