-- Retention (#16, finding 10) finds what it may delete by index, in batches.
CREATE INDEX rooms_closed ON rooms (tenant_id, closed_at) WHERE state = 'closed';
CREATE INDEX outbox_delivered ON outbox (tenant_id, delivered_at) WHERE status = 'delivered';
CREATE INDEX sessions_by_expiry ON sessions (tenant_id, expires_at);
CREATE INDEX accounts_guests ON accounts (tenant_id, created_at) WHERE password_hash IS NULL;
