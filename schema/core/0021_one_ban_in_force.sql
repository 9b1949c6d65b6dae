-- One ban (and one mute) in force per account and scope (#29): two bans of
-- the same account in the same room (or tenant) made at once both landed,
-- and lifting the one an operator saw left the other keeping the account
-- out. A new ban of a scope that has one in force now takes its place
-- (BanStore.insert: ON CONFLICT on this index), whoever raced it.
--
-- Duplicates already stored: the newest stays in force; each older one is
-- marked lifted, 'superseded', at the time it would have ended or now.
UPDATE bans b
SET lifted_at = CASE WHEN b.expires_at IS NOT NULL AND b.expires_at < now() THEN b.expires_at ELSE now() END,
    lifted_by = 'superseded'
WHERE b.lifted_at IS NULL
  AND EXISTS (SELECT 1 FROM bans n
              WHERE n.tenant_id = b.tenant_id AND n.accid = b.accid AND n.kind = b.kind
                AND n.room_id IS NOT DISTINCT FROM b.room_id AND n.lifted_at IS NULL AND n.ban_id > b.ban_id);

CREATE UNIQUE INDEX bans_one_in_force ON bans (tenant_id, accid, kind, (coalesce(room_id, 0))) WHERE lifted_at IS NULL;
