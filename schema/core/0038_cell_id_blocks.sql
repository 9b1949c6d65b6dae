-- Id blocks a cell claimed (#43): a tenant moved into a cell whose ids are
-- behind its source's takes that cell's id sequences past them, into a
-- block above every cell's range and every block claimed before
-- (`IDBlocks`). Read from the first cell only, as the directory is; every
-- cell has the table, the others leave it empty.
-- Block n holds the ids from 2^52 + n × 2^44: 256 blocks up to 2^53, so
-- every id stays exact in a JSON number.
CREATE TABLE cell_id_blocks (
    block      int         PRIMARY KEY CHECK (block BETWEEN 0 AND 255),
    cell       text        NOT NULL CHECK (cell ~ '^[a-z][a-z0-9-]{0,31}$'),
    claimed_at timestamptz NOT NULL DEFAULT now()
);
