"""A throwaway PostgreSQL for the tests that need one.

``$MEMORY_TEST_POSTGRES_URL`` (set by .ci/run) names a running server; without it,
a cluster is started once per test session with tools/pg_throwaway.sh when the
PostgreSQL binaries are installed. Without binaries or the psycopg driver the
tests that ask for it skip, saying why. Each test gets a schema of its own.

``$MEMORY_TEST_POSTGRES_SHARDS`` (``name=URL,name=URL``; set by
benchmarks/postgres_fdw_demo.py) lays each test's schema out across other servers:
the coordinator at ``$MEMORY_TEST_POSTGRES_URL`` holds the parents and reaches every
partition through the postgres_fdw server of that name.
"""
from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "tools" / "pg_throwaway.sh"
_started: dict[str, str] = {}


def server_url() -> str:
    """The URL of a running server, starting a throwaway one if need be (or skip)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("psycopg is not installed (pip install 'memory-ledger[postgres]')")
    url = os.environ.get("MEMORY_TEST_POSTGRES_URL")
    if url:
        return url
    if "url" in _started:
        return _started["url"]
    if "skip" in _started:
        pytest.skip(_started["skip"])
    folder = tempfile.mkdtemp(prefix="memory-pg-")
    done = subprocess.run(["bash", str(SCRIPT), "start", f"{folder}/pg", str(40000 + os.getpid() % 20000)],
                          capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        _started["skip"] = f"no PostgreSQL to test against: {done.stderr.strip().splitlines()[-1:]}"
        pytest.skip(_started["skip"])
    _started["url"] = done.stdout.strip()
    atexit.register(subprocess.run, ["bash", str(SCRIPT), "stop", f"{folder}/pg"], capture_output=True)
    atexit.register(shutil.rmtree, folder, True)
    return _started["url"]


def fresh_schema_url(*, laid_out: bool = True) -> str:
    """A URL whose connections see only a new schema of their own (tests do not share tables).

    Under ``$MEMORY_TEST_POSTGRES_SHARDS`` the schema is laid out across the shards unless
    ``laid_out`` is false (a test of an empty database)."""
    import psycopg
    base = server_url()
    schema = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
        shards = os.environ.get("MEMORY_TEST_POSTGRES_SHARDS")
        if shards and laid_out:
            _distribute(conn, schema, [item.split("=", 1) for item in shards.split(",")])
    joiner = "&" if "?" in base else "?"
    return f"{base}{joiner}options={quote(f'-c search_path={schema}')}"


def _distribute(coordinator, schema: str, shards: list[list[str]], partitions: int = 4) -> None:
    """Partition r of every table on shard r % len(shards), in a schema of the same name."""
    import psycopg

    from memory.postgres_ledger import TABLES, distributed_ddl, mark_migrated, shard_table_ddl
    placement = [(shards[r % len(shards)][0], schema) for r in range(partitions)]
    for index, (_, url) in enumerate(shards):
        with psycopg.connect(url, autocommit=True) as remote:
            remote.execute(f"CREATE SCHEMA {schema}")
            for table in TABLES:
                for remainder in range(index, partitions, len(shards)):
                    for statement in shard_table_ddl(table, f"{schema}.{table}_p{remainder}"):
                        remote.execute(statement)
    coordinator.execute(f"SET search_path = {schema}")
    for statement in distributed_ddl(partitions, placement):
        coordinator.execute(statement)
    mark_migrated(coordinator, partitions=partitions, now="2024-01-01T00:00:00Z")
    coordinator.execute("RESET search_path")


# -- one suite, both backends (tests/test_cli_ledger.py, tests/test_server.py) ----------------------

BACKENDS = ["jsonl", "postgres"]
LEDGER_TABLES = ("scopes", "revisions", "transactions", "audit", "policies")


def jsonl_only(why: str):
    """Mark a test that reads a JSONL store's files: it runs on the ``jsonl`` backend only, and the
    ``postgres`` run skips saying ``why`` (where the PostgreSQL equivalent is, when there is one)."""
    def mark(test):
        test.jsonl_only = why
        return test
    return mark


def backend_location(request, folder) -> str:
    """The store a test of backend ``request.param`` uses: ``folder`` (JSONL) or a fresh schema's URL
    (PostgreSQL; skips with the reason when there is no server, or when the test is ``jsonl_only``)."""
    if request.param == "jsonl":
        return str(folder)
    why = getattr(getattr(request, "function", None), "jsonl_only", None)
    if why:
        pytest.skip(f"reads a JSONL store's files: {why}")
    return fresh_schema_url()


def is_url(location) -> bool:
    return isinstance(location, str) and location.startswith(("postgresql://", "postgres://"))


def table_rows(url: str) -> dict[str, bytes]:
    """Every row of the ledger's tables under ``url``'s schema, by table (ordered): what "nothing
    was written" compares on PostgreSQL, as a snapshot of the files does on JSONL."""
    import psycopg
    rows = {}
    with psycopg.connect(url, autocommit=True) as conn:
        for table in LEDGER_TABLES:
            if conn.execute("SELECT to_regclass(%s)", (table,)).fetchone()[0] is None:
                continue
            found = conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
            rows[table] = b"\n".join(b"\t".join(bytes(v) if isinstance(v, (bytes, memoryview)) else str(v).encode()
                                               for v in row) for row in found)
    return rows


def has_tables(url: str) -> bool:
    """Whether anything (a table) was created under ``url``'s schema."""
    import psycopg
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()").fetchone()[0] > 0


def replace_in_rows(url: str, old: bytes, new: bytes) -> int:
    """Edit the stored bytes of every revision holding ``old`` (tampering, from outside the store)."""
    import psycopg
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute("UPDATE revisions SET line = overlay(line PLACING %s FROM position(%s IN line) "
                            "FOR length(%s)) WHERE position(%s IN line) > 0", (new, old, old, old)).rowcount


def new_store(backend: str, folder: Path) -> str:
    """An initialised store of ``backend`` (``memory init``): the folder, or a fresh schema's URL."""
    if backend == "jsonl":
        from helpers import make_store
        make_store(folder)
        return str(folder)
    from memory.store import PostgresStore
    url = fresh_schema_url()
    PostgresStore.create(url).close()
    return url


def written(location) -> dict[str, bytes]:
    """What a store holds: every file under its ``shards/`` (JSONL) or every ledger row (PostgreSQL)."""
    if is_url(location):
        return table_rows(location)
    from helpers import snapshot
    return snapshot(Path(location) / "shards")
