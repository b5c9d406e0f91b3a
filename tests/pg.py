"""A throwaway PostgreSQL for the tests that need one.

``$MEMORY_TEST_POSTGRES_URL`` (set by .ci/run) names a running server; without it,
a cluster is started once per test session with tools/pg_throwaway.sh when the
PostgreSQL binaries are installed. Without binaries or the psycopg driver the
tests that ask for it skip, saying why. Each test gets a schema of its own.
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


def fresh_schema_url() -> str:
    """A URL whose connections see only a new, empty schema (tests do not share tables)."""
    import psycopg
    base = server_url()
    schema = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    joiner = "&" if "?" in base else "?"
    return f"{base}{joiner}options={quote(f'-c search_path={schema}')}"
