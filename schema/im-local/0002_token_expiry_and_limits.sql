-- IM tokens expire and can be revoked (#16, finding 4): a token is good for
-- WebSocket logins until token_expires_at, and never after revoked_at. A
-- revocation also deletes the account's connections; every instance closes
-- the sockets behind them.
ALTER TABLE im_accounts ADD COLUMN token_expires_at timestamptz;
ALTER TABLE im_accounts ADD COLUMN revoked_at timestamptz;
UPDATE im_accounts SET token_expires_at = updated_at + interval '7 days';
ALTER TABLE im_accounts ALTER COLUMN token_expires_at SET NOT NULL;

-- Connections are counted per account and per tenant when a socket logs in.
CREATE INDEX im_connections_by_account ON im_connections (tenant_id, accid);
