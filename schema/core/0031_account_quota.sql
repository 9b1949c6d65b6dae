-- #41: a tenant's accounts quota (`[limits] maxAccounts`), exact under
-- concurrency. A count(*) of a tenant's accounts per sign-up would cost
-- tens of milliseconds at a million rows, and two sign-ups could both pass
-- it; so a tenant with a quota has a counter row, kept by the triggers
-- below, and every account insert of that tenant takes the row's lock in
-- its own statement (PL/pgSQL, VOLATILE: the check reads the row as it is
-- once the lock is granted) and is refused at the quota.
--
-- A tenant without a quota has no row and takes no lock: the counter row
-- serialises a tenant's sign-ups on one lock (about one commit at a time),
-- a cost only a tenant that asks for a quota pays. The row is made, with
-- the tenant's count, by the first insert that names a quota.
CREATE TABLE account_counts (
    tenant_id text PRIMARY KEY,
    used bigint NOT NULL CHECK (used >= 0)
);

-- Raises SQLSTATE RKA01 when the tenant already has `quota` accounts;
-- true otherwise. A null quota checks nothing.
CREATE FUNCTION roomkeeper_account_admitted(tenant text, quota bigint) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    current bigint;
BEGIN
    IF quota IS NULL THEN
        RETURN true;
    END IF;
    SELECT used INTO current FROM account_counts WHERE tenant_id = tenant FOR UPDATE;
    IF NOT FOUND THEN
        -- The first insert under a quota counts the tenant once; the lock
        -- makes two first inserts count one after the other.
        PERFORM pg_advisory_xact_lock(hashtextextended('account-count:' || tenant, 0));
        INSERT INTO account_counts (tenant_id, used)
        SELECT tenant, count(*) FROM accounts WHERE tenant_id = tenant
        ON CONFLICT (tenant_id) DO NOTHING;
        SELECT used INTO current FROM account_counts WHERE tenant_id = tenant FOR UPDATE;
    END IF;
    IF current >= quota THEN
        RAISE EXCEPTION 'the tenant already has % accounts', quota USING ERRCODE = 'RKA01';
    END IF;
    RETURN true;
END $$;

-- Counts what was really inserted or deleted (an insert that met a
-- conflict adds nothing), one tenant at a time in tenant order, so two
-- statements that touch several tenants (retention's purge) lock their
-- rows in the same order.
CREATE FUNCTION roomkeeper_account_counts_added() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT tenant_id, count(*) AS n FROM added GROUP BY tenant_id ORDER BY tenant_id LOOP
        UPDATE account_counts SET used = used + r.n WHERE tenant_id = r.tenant_id;
    END LOOP;
    RETURN NULL;
END $$;

CREATE FUNCTION roomkeeper_account_counts_removed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT tenant_id, count(*) AS n FROM removed GROUP BY tenant_id ORDER BY tenant_id LOOP
        UPDATE account_counts SET used = greatest(used - r.n, 0) WHERE tenant_id = r.tenant_id;
    END LOOP;
    RETURN NULL;
END $$;

CREATE TRIGGER account_counts_added AFTER INSERT ON accounts
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION roomkeeper_account_counts_added();
CREATE TRIGGER account_counts_removed AFTER DELETE ON accounts
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION roomkeeper_account_counts_removed();
