-- Tenant moves between cells (#43), in the first cell beside the directory.
-- A move in progress is one row: its phase tells an interrupted mover
-- whether to roll back (copying, fenced: the directory still names the
-- source) or to finish (flipped: the target serves the tenant). While its
-- phase is `fenced`, instances hold the tenant's new database leases and
-- acknowledge, once their leases of it already running are done, in
-- tenant_move_acks; the mover waits for every instance alive.
CREATE TABLE tenant_moves (
    tenant_id  text        PRIMARY KEY,
    from_cell  text        NOT NULL,
    to_cell    text        NOT NULL,
    phase      text        NOT NULL CHECK (phase IN ('copying', 'fenced', 'flipped')),
    started_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
);

CREATE TABLE tenant_move_acks (
    tenant_id   text        NOT NULL REFERENCES tenant_moves ON DELETE CASCADE,
    instance_id text        NOT NULL,
    acked_at    timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, instance_id)
);

-- A move's marker (#43): written in the old cell once every instance has
-- acknowledged the fence, and published with the tenant's rows; when it
-- reaches the new cell, so has every write of the tenant before it (a
-- subscription applies commits in order).
CREATE TABLE tenant_move_markers (
    tenant_id text   PRIMARY KEY,
    marker    bigint NOT NULL
);

-- The audit log stays append-only, but a moved tenant's rows leave the cell
-- it left (once checked equal in the new one), and a rolled-back move's
-- copy leaves the cell it was going to: the mover names the tenant for its
-- own transaction (`TenantMove.delete`), and only that tenant's rows go.
CREATE OR REPLACE FUNCTION roomkeeper_audit_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' AND (OLD.keep_until < now() OR OLD.tenant_id = current_setting('roomkeeper.moved_tenant', true)) THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
