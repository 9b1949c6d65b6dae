-- The console's chart of transitions over time reads a tenant's recent
-- events by time; the primary key orders them by room.
CREATE INDEX room_events_by_time ON room_events (tenant_id, at);
