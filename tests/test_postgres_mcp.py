"""`memory mcp` on a PostgreSQL store ($MEMORY_STORE=postgresql://…): the tools answer exactly
what the CLI prints on that store, as tests/test_mcp.py holds them to on JSONL."""
from __future__ import annotations

import pytest

pytest.importorskip("mcp.server.mcpserver", reason="the mcp extra (mcp 2.x) is not installed: "
                                                   "pip install -e '.[mcp]'")

from memory.clock import FixedClock  # noqa: E402
from memory.store import PostgresStore  # noqa: E402

from helpers import NOW, add_env  # noqa: E402
from pg import fresh_schema_url  # noqa: E402
from test_mcp import test_reads_are_bound_to_the_scope_too as reads_are_bound_to_the_scope  # noqa: E402
from test_mcp import test_tools_answer_exactly_the_cli_json as tools_answer_exactly_the_cli_json  # noqa: E402


@pytest.fixture
def seeded_postgres(monkeypatch):
    url = fresh_schema_url()
    monkeypatch.setenv("MEMORY_STORE", url)
    store = PostgresStore.create(url, clock=FixedClock(NOW))
    store.mutate(add_env("The user lives in Paris.", "user.home_city", "tx-paris"))
    store.mutate(add_env("Bob lives in Rome.", "user.home_city", "tx-rome", user="bob"))
    return store


def test_the_mcp_tools_on_postgres_answer_exactly_the_cli_json(seeded_postgres):
    tools_answer_exactly_the_cli_json(seeded_postgres)


def test_the_mcp_reads_on_postgres_are_bound_to_the_scope(seeded_postgres):
    reads_are_bound_to_the_scope(seeded_postgres)
