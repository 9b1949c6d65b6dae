-- Admin keys as objects (#44): made, listed and revoked through the admin
-- API instead of a tenant file's `adminKeys`. Only the key's SHA-256 is kept
-- (a key is 256 random bits, so no salt or slow hash is needed); the key
-- itself is answered once, when it is made. Every instance reads the row on
-- each request, so a revoked or expired key is refused everywhere at once.
CREATE TABLE admin_keys (
    tenant_id    text        NOT NULL,
    key_id       text        NOT NULL,
    label        text        NOT NULL,
    scopes       text[]      NOT NULL,
    key_hash     text        NOT NULL UNIQUE,
    created_at   timestamptz NOT NULL,
    created_by   text        NOT NULL,
    expires_at   timestamptz,
    revoked_at   timestamptz,
    last_used_at timestamptz,
    PRIMARY KEY (tenant_id, key_id)
);
