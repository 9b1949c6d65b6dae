-- Per-client-address rate limits (#16, finding 8), shared by every instance:
-- one counter per tenant, action, subject (the client's address) and fixed
-- window, incremented in one statement, so parallel requests cannot pass the
-- same count. Old windows are purged by retention.
CREATE TABLE rate_windows (
    tenant_id    text        NOT NULL,
    action       text        NOT NULL,
    subject      text        NOT NULL,
    window_start timestamptz NOT NULL,
    hits         integer     NOT NULL,
    PRIMARY KEY (tenant_id, action, subject, window_start)
);
CREATE INDEX rate_windows_by_start ON rate_windows (window_start);
