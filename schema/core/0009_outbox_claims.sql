-- When a claimed entry's lease ends. next_attempt_at alone cannot tell an
-- entry in flight (leased) from one backing off after a failure, and only
-- the second may be made due early when its provider recovers: waking an
-- entry in flight would let a second dispatcher deliver it again.
ALTER TABLE outbox ADD COLUMN claimed_until timestamptz;
