-- A room ban (or a kick with a duration) that ends on its own readmits the
-- account to the room's vendor chatroom when it ends (#29: NetEase's
-- chatroom blacklist has no end of its own): the expiry sweeper claims each
-- ended ban once, stamps readmitted_at and queues the provider's readmit in
-- the same transaction. Bans that ended before this column existed count
-- as readmitted (nothing to catch up on: they were only kicks there).
ALTER TABLE bans ADD COLUMN readmitted_at timestamptz;
UPDATE bans SET readmitted_at = expires_at WHERE expires_at IS NOT NULL AND expires_at <= now();
CREATE INDEX bans_readmit_due ON bans (expires_at)
    WHERE kind = 'ban' AND room_id IS NOT NULL AND lifted_at IS NULL AND readmitted_at IS NULL AND expires_at IS NOT NULL;
