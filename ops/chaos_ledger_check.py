"""#41, item 4: ops/chaos's ledger checks name every acknowledged id in one
statement; a full run acknowledges tens of thousands, which on psql's command
line failed with "Argument list too long". This asks one statement naming
300,000 ids through chaos.sql (about 4 MB, twice Linux's 2 MB argument
limit) on the test database and fails unless PostgreSQL answers it.
    DATABASE_URL=... ops/python ops/chaos_ledger_check.py"""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
os.environ.setdefault("ROOMKEEPER_URL", "http://127.0.0.1:9")  # chaos reads it at import; nothing is sent
import chaos  # noqa: E402

ids = ",".join(str(10**12 + i) for i in range(300_000))
found = chaos.sql(f"SELECT count(*) FROM (VALUES (1::bigint)) v(x) WHERE x IN ({ids}, 1)")
if found != "1":
    sys.exit(f"chaos_ledger_check: expected 1, PostgreSQL answered {found!r}")
print(f"chaos_ledger_check: a {len(ids):,}-character statement answered through chaos.sql")
