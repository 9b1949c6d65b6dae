-- #41: retention found a tenant's ended sessions by one expression,
-- least(coalesce(revoked_at, expires_at), expires_at), which no index
-- holds: every pass (each instance, every minute) walked all of the
-- tenant's sessions (a guest login makes one) to find what had ended.
-- The purge now asks expires_at or revoked_at, each through an index
-- (sessions_by_expiry, and this one: revocations are rare, so it is small
-- and costs nothing on a login).
CREATE INDEX sessions_revoked ON sessions (tenant_id, revoked_at) WHERE revoked_at IS NOT NULL;
