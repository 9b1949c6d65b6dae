-- The tenant directory (#43): which cell (a PostgreSQL formation of its own)
-- holds each tenant's rows. Read from the first cell only; every cell has
-- the table (migrations are the same everywhere), the others leave it empty.
-- A tenant without a row lives in the first cell.
CREATE TABLE tenant_cells (
    tenant_id  text        PRIMARY KEY,
    cell       text        NOT NULL CHECK (cell ~ '^[a-z][a-z0-9-]{0,31}$'),
    placed_at  timestamptz NOT NULL DEFAULT now()
);
