"""`memory mcp --user U` driven by the official MCP SDK's own client over stdio."""
from __future__ import annotations

import json
import os
import sys

import pytest
from click.testing import CliRunner

from memory.cli import main
from memory.paths import PROJECT_ROOT
from memory.records import record_id_for

from helpers import NOW, add_env, make_store, scope, snapshot

pytest.importorskip("mcp.server.mcpserver", reason="the mcp extra (mcp 2.x) is not installed: "
                                                   "pip install -e '.[mcp]'")

import anyio  # noqa: E402  (the SDK brings it)
from mcp import Client, StdioServerParameters  # noqa: E402

TOOLS = {"query", "mutate", "get", "history", "review_list"}


def cli_json(*args, input=None):
    result = CliRunner().invoke(main, [*args, "--json"], input=input, catch_exceptions=False)
    return json.loads(result.stdout)


def server_params(user: str = "alice") -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "memory.cli", "mcp", "--user", user],
                                 env={"MEMORY_STORE": os.environ["MEMORY_STORE"], "MEMORY_NOW": NOW},
                                 cwd=str(PROJECT_ROOT))


def session(calls, user: str = "alice"):
    """Start the server as a subprocess, run ``calls(client)``, return what it returns."""
    async def run():
        async with Client(server_params(user), read_timeout_seconds=60) as client:
            return await calls(client)
    return anyio.run(run)


def text(result) -> object:
    assert len(result.content) == 1 and result.content[0].type == "text"
    return json.loads(result.content[0].text)


@pytest.fixture
def seeded(tmp_path):
    store = make_store(tmp_path / "store")
    store.mutate(add_env("The user lives in Paris.", "user.home_city", "tx-paris"))
    store.mutate(add_env("Bob lives in Rome.", "user.home_city", "tx-rome", user="bob"))
    return store


def test_the_server_lists_exactly_the_five_tools(seeded):
    async def calls(client):
        return await client.list_tools()
    listed = session(calls)
    assert {tool.name for tool in listed.tools} == TOOLS
    for tool in listed.tools:
        assert "user" not in tool.input_schema.get("properties", {})   # the scope is fixed at start


def test_tools_answer_exactly_the_cli_json(seeded):
    paris = record_id_for(scope("alice"), "tx-paris")
    berlin_env = add_env("The user lives in Berlin.", "user.home_city", "tx-berlin")
    berlin_env["operation"] = "update"
    berlin_env["payload"] = {"statement": "The user lives in Berlin."}
    berlin_env["valid_time"] = {"from": "2024-03-01T12:00:01Z", "to": None}

    async def calls(client):
        mutated = await client.call_tool("mutate", {"envelope": berlin_env})
        answer = await client.call_tool("query", {"text": "where does the user live?", "as_of": "2024-06-01"})
        record = await client.call_tool("get", {"record_id": paris})
        revisions = await client.call_tool("history", {"record_id": paris})
        review = await client.call_tool("review_list", {})
        return mutated, answer, record, revisions, review
    mutated, answer, record, revisions, review = session(calls)
    assert not any(r.is_error for r in (mutated, answer, record, revisions, review))
    assert text(mutated)["status"] == "applied"
    assert text(answer) == cli_json("query", "where does the user live?", "--user", "alice", "--as-of", "2024-06-01")
    assert text(answer)["evidence"][0]["statement"] == "The user lives in Berlin."
    assert text(record) == cli_json("get", paris, "--user", "alice")
    assert text(revisions) == cli_json("history", paris, "--user", "alice")
    assert [r["status"] for r in text(revisions)] == ["active", "retired"]
    assert text(review) == [] == cli_json("review", "list", "--user", "alice")


def test_an_envelope_for_another_scope_is_refused_and_nothing_is_written(seeded, tmp_path):
    before = snapshot(tmp_path / "store")
    intruder = add_env("Bob lives in Oslo.", "user.second_home", "tx-oslo", user="bob")

    async def calls(client):
        as_object = await client.call_tool("mutate", {"envelope": intruder})
        as_string = await client.call_tool("mutate", {"envelope": json.dumps(intruder)})
        return as_object, as_string
    for result in session(calls):
        assert not result.is_error
        assert text(result) == {"status": "refused", "transaction_id": "tx-oslo", "operation": "add",
                                "record_id": None, "revision": None,
                                "error": {"code": "scope_not_permitted",
                                          "message": "this caller is bound to one scope; the envelope targets another"}}
    assert snapshot(tmp_path / "store") == before


def test_reads_are_bound_to_the_scope_too(seeded):
    rome = record_id_for(scope("bob"), "tx-rome")

    async def calls(client):
        return (await client.call_tool("get", {"record_id": rome}),
                await client.call_tool("query", {"text": "where does Bob live?"}))
    record, answer = session(calls)
    assert record.is_error and text(record) == {"error": {"code": "record_not_found",
                                                          "message": "no such record in this scope"}}
    assert rome not in [e["id"] for e in text(answer)["evidence"]]
    assert "Rome" not in json.dumps(text(answer))


def test_a_library_error_is_a_tool_error_with_the_cli_error_json(seeded):
    async def calls(client):
        return await client.call_tool("query", {"text": "where?", "as_of": "not a date"})
    result = session(calls)
    assert result.is_error and text(result)["error"]["code"] == "invalid_date"


def test_mcp_without_the_extra_is_a_usage_error(monkeypatch):
    monkeypatch.delitem(sys.modules, "memory.mcp_server", raising=False)
    monkeypatch.setitem(sys.modules, "mcp.server.mcpserver", None)
    CliRunner().invoke(main, ["init"])
    result = CliRunner().invoke(main, ["mcp", "--user", "alice"])
    assert result.exit_code == 2
    assert "pip install 'memory-ledger[mcp]'" in result.stderr
