-- The server instances alive now (#41): each upserts its row every 5 s and
-- counts the rows seen in the last 15 s. A tenant's request budget is
-- shared out per instance (budget / instances), in memory, with no
-- statement per request; the count keeps the shares right as instances
-- come and go. Rows of instances gone for an hour are removed.
CREATE TABLE instances (
    instance_id text        PRIMARY KEY,
    seen_at     timestamptz NOT NULL
);
