-- #41: the local IM's retention (every instance, every 30 s) found what it
-- deletes by scanning whole tables: im_events holds a day of every
-- tenant's messages, im_accounts every IM login of 30 days. In ops/bench
-- figure 6 the im_accounts scan alone took 24 ms, its 10,000 rows then,
-- while another tenant's requests waited for the cores. Each purge now
-- walks an index from its oldest row, so it costs what it deletes.
-- (im_connections is left as it is: its rows are live sockets, bounded
-- per tenant, and its heartbeat rewrites every row's seen_at.)
CREATE INDEX im_events_by_time ON im_events (at);
CREATE INDEX im_notifications_by_delivery ON im_notifications (delivered_at) WHERE delivered_at IS NOT NULL;
CREATE INDEX im_notifications_undelivered_by_age ON im_notifications (created_at) WHERE delivered_at IS NULL;
CREATE INDEX im_accounts_by_lapse ON im_accounts ((coalesce(revoked_at, token_expires_at)));
