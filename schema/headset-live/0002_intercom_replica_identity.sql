-- A tenant's rows move between cells by logical replication (#43), whose
-- row filter (tenant_id) must be covered by each table's replica identity
-- for its updates and deletes to be published. Every other table's primary
-- key starts with tenant_id; this one has no key, so its whole row is the
-- identity (it holds one row per intercom session: a few per room).
ALTER TABLE headset_intercom REPLICA IDENTITY FULL;
