-- Verified provider callbacks already applied, by a digest of what was signed:
-- a captured callback sent again, to any instance, is refused.
CREATE TABLE provider_callback_receipts (
    tenant_id   text        NOT NULL,
    provider    text        NOT NULL,
    digest      text        NOT NULL,
    received_at timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, provider, digest)
);
CREATE INDEX provider_callback_receipts_age ON provider_callback_receipts (received_at);
