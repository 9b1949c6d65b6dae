-- Account ids the retention purge removed: never drawn again for a new
-- guest, who would otherwise inherit whatever still named the old one.
CREATE TABLE retired_accounts (
    tenant_id  text        NOT NULL,
    accid      text        NOT NULL,
    retired_at timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, accid)
);
