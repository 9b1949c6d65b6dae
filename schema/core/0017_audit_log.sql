-- The audit trail (#29): one row per privileged act (an admin API write, a
-- host's moderation, a session revoke, a webhook replay or retry, a tenant
-- reload), written in the act's own transaction, so an act that fails leaves
-- none. Rows name the key by its fingerprint, never the key.
CREATE TABLE audit_log (
    audit_id       bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- NULL: an act of the operator on no one tenant (a tenant reload).
    tenant_id      text,
    at             timestamptz NOT NULL,
    -- Fixed when written (the tenant's `[retention] audit`): until then the
    -- row cannot be deleted, by anyone holding the server's role.
    keep_until     timestamptz NOT NULL,
    -- "operator", "tenant-admin", "account:<id>" (a host), "system".
    actor          text        NOT NULL,
    -- The first 16 hex digits of the key's SHA-256; NULL for a host.
    key_fingerprint text,
    action         text        NOT NULL,
    target         text        NOT NULL,
    outcome        text        NOT NULL,
    request_id     text,
    client_address text,
    detail         jsonb       NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_by_tenant ON audit_log (tenant_id, audit_id);
CREATE INDEX audit_log_due ON audit_log (keep_until);

-- Append-only: no row is ever changed, and none goes before its keep_until
-- (the retention purge deletes only rows past it). A trigger rather than
-- grants because the server's role owns its tables (it runs the migrations).
CREATE FUNCTION roomkeeper_audit_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' AND OLD.keep_until < now() THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION roomkeeper_audit_append_only();
CREATE FUNCTION roomkeeper_audit_no_truncate() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit_log is append-only: TRUNCATE refused' USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION roomkeeper_audit_no_truncate();
