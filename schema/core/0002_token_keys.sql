-- Keys that sign client tokens (SealMic's Authorization). A signing key is
-- not a credential a client presents, so it cannot be stored hashed; it
-- never leaves the database and the server process.
CREATE TABLE token_keys (
    key_id     text        PRIMARY KEY,
    secret     text        NOT NULL,
    created_at timestamptz NOT NULL
);
