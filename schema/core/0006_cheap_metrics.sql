-- /metrics counts only what is live (#16, finding 9): open rooms and
-- undelivered outbox entries, each from a small partial index, however many
-- closed rooms and delivered entries the tables still hold.
CREATE INDEX rooms_open_by_plugin ON rooms (plugin_id) WHERE state = 'open';
CREATE INDEX outbox_undelivered ON outbox (status) WHERE status <> 'delivered';
