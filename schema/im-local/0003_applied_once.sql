-- The outbox delivers at least once: an instance killed after the local IM
-- applied an entry but before marking it delivered leaves it to another
-- instance (#17). The rows an entry writes carry its idempotency key, so a
-- second delivery finds them and applies nothing.
ALTER TABLE im_events ADD COLUMN idempotency_key text;
CREATE UNIQUE INDEX im_events_applied_once ON im_events (tenant_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
ALTER TABLE im_notifications ADD COLUMN idempotency_key text;
CREATE UNIQUE INDEX im_notifications_applied_once ON im_notifications (tenant_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
