-- Idempotency-Key, sealed (#41): `scope` is now the tenant and a digest of
-- who sends the key (its credential, else its client address), `key` a
-- digest of the key in that scope, and `body` sealed under the key itself
-- (AES-GCM), so the table holds no key and no answer in clear. Rows written
-- before hold raw keys and clear answers (a guest login's sid and IM token):
-- they are dropped rather than kept for their last hours. A retry of one of
-- them runs as a new request, as after the key's 24 hours.
DELETE FROM idempotency_keys;
