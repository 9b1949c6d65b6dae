-- #29: a kick takes an account's sockets out of a chatroom on every
-- instance; the `kicked` event (payload: accid, operator) tells each hub and
-- the members. The inline CHECK's name is PostgreSQL's default for it.
ALTER TABLE im_events DROP CONSTRAINT im_events_kind_check;
ALTER TABLE im_events ADD CONSTRAINT im_events_kind_check CHECK (kind IN ('message', 'queue', 'muted', 'closed', 'kicked'));
