"""What an outside agent builder hit in `memory apply`, `memory mutate`, the MCP server and
docs/AGENTS.md: results that cannot be matched to their input, refusals labelled with another
envelope's transaction id, an MCP argument dropped silently, conversation turns undocumented."""
from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from helpers import add_env
from memory import api
from memory.cli import main
from memory.importers import Turn, turn_envelope
from memory.paths import PROJECT_ROOT


def invoke(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


# -- A1: every apply result names its input line; a summary on stderr -------------------------------

@pytest.fixture
def batch(store, tmp_path):
    lines = [json.dumps(add_env("The user likes tea.", "user.drink", "tx-1")),
             "",
             "{broken",
             json.dumps(add_env("The user likes coffee.", "user.drink", "tx-2")),   # key already active
             json.dumps(add_env("The user plays go.", "user.game", "tx-3"))]
    path = tmp_path / "batch.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_apply_names_the_input_lines_of_its_refusals_and_keeps_the_result_objects_exact(batch):
    """Each result is DESIGN §5's object, no field added (programs compare it); the summary on
    stderr names the input line of each refusal (blank lines make positions differ)."""
    result = invoke("apply", str(batch), "--json")
    assert result.exit_code == 5
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["status"], r["transaction_id"]) for r in rows] == [
        ("applied", "tx-1"), ("refused", None), ("refused", "tx-2"), ("applied", "tx-3")]
    assert all(set(r) == {"status", "transaction_id", "operation", "record_id", "revision", "error"} for r in rows)
    assert rows[1]["error"]["message"].startswith("line 3: ")
    assert rows[2]["error"]["code"] == "key_already_active"
    assert "2 refused (input lines 3, 4)" in result.stderr


def test_a_parse_error_in_apply_names_the_file_line_not_a_position_inside_the_envelope(batch):
    rows = [json.loads(line) for line in invoke("apply", str(batch)).stdout.splitlines()]
    message = rows[1]["error"]["message"]
    assert rows[1]["error"]["code"] == "invalid_json"
    assert message.startswith("line 3: ") and "line 1" not in message


def test_apply_prints_its_counts_on_stderr_and_only_results_on_stdout(batch):
    result = invoke("apply", str(batch), "--json")
    assert result.stderr.strip() == "2 applied, 2 refused (input lines 3, 4), 1 blank line skipped"
    assert all(json.loads(line)["status"] for line in result.stdout.splitlines())
    again = invoke("apply", str(batch))
    assert again.stderr.strip() == "0 applied, 2 idempotent, 2 refused (input lines 3, 4), 1 blank line skipped"


# -- A2: a refusal carries only the transaction id of the envelope it is about -----------------------

def test_an_array_of_envelopes_is_refused_without_the_first_ones_transaction_id(store):
    t1, t2 = add_env("The user likes tea.", "user.drink", "t1"), add_env("The user plays go.", "user.game", "t2")
    assert api.mutate(store, t1).status == "applied"
    result = api.mutate(store, json.dumps([t1, t2]))
    assert (result.status, result.code) == ("refused", "schema_violation")
    assert (result.transaction_id, result.operation) == (None, None)


def test_two_envelopes_sent_to_mutate_are_invalid_json_naming_no_transaction(store):
    lines = json.dumps(add_env("The user likes tea.", "user.drink", "t1")) + "\n" + \
        json.dumps(add_env("The user plays go.", "user.game", "t2")) + "\n"
    result = invoke("mutate", "--json", input=lines)
    out = json.loads(result.stdout)
    assert result.exit_code == 5 and out["error"]["code"] == "invalid_json"
    assert (out["transaction_id"], out["operation"]) == (None, None)


def test_an_envelope_too_large_to_read_whole_still_names_its_transaction(store):
    env = add_env("x" * (store.policies.mutation.caps["envelope_bytes"] * 2), "user.note", "tx-huge")
    out = json.loads(invoke("mutate", "--json", input=json.dumps(env)).stdout)
    assert (out["error"]["code"], out["transaction_id"]) == ("envelope_too_large", "tx-huge")


# -- A3: MCP refuses an argument a tool does not take -------------------------------------------------

def test_mcp_refuses_an_unknown_argument_instead_of_answering_for_its_own_user(store):
    pytest.importorskip("mcp.server.mcpserver", reason="the mcp extra (mcp 2.x) is not installed")
    import anyio
    from mcp import Client
    from memory.mcp_server import build_server
    store.mutate(add_env("The user drinks coffee.", "user.drink", "tx-coffee"))

    async def calls():
        async with Client(build_server(store, "alice")) as client:
            return (await client.call_tool("query", {"text": "coffee", "user": "bob"}),
                    await client.call_tool("query", {"text": "coffee"}))
    refused, answered = anyio.run(calls)
    assert refused.is_error
    error = json.loads(refused.content[0].text)["error"]
    assert error["code"] == "usage_error" and "'user'" in error["message"]
    assert not answered.is_error and json.loads(answered.content[0].text)["scope"] == [{"type": "user", "key": "alice"}]


# -- A4: conversation turns, documented and through api.add ------------------------------------------

def test_api_add_with_speaker_and_session_writes_the_importers_turn_envelope(store, monkeypatch):
    sent = []
    real = api.mutate
    monkeypatch.setattr(api, "mutate", lambda store, envelope, **kw: sent.append(envelope) or real(store, envelope, **kw))
    at = "2024-02-01T10:00:00Z"
    result = api.add(store, "alice", "I adopted a cat.", speaker="Caroline", session="s1", valid_from=at,
                     tx="turn-1", ref="s1:0", actor={"type": "importer", "id": "memory-import"})
    assert result.status == "applied"
    turn = Turn(ref="s1:0", session="s1", speaker="Caroline", text="I adopted a cat.", date=at)

    class Item:
        dataset, scope_key = "locomo", "alice"

        @staticmethod
        def transaction_id(turn):
            return "turn-1"
    expected = turn_envelope(Item, turn)
    assert {k: v for k, v in sent[0].items() if k != "reason"} == {k: v for k, v in expected.items() if k != "reason"}
    source = api.get(store, result.record_id, "alice")["source"]
    assert (source["type"], source["speaker"], source["session"], source["observed_at"]) == \
        ("conversation", "Caroline", "s1", at)


def test_agents_md_shows_how_to_store_a_turn_and_its_example_runs(tmp_path, monkeypatch):
    text = (PROJECT_ROOT / "docs" / "AGENTS.md").read_text()
    section = text.split("## Storing conversation turns", 1)[1].split("\n## ", 1)[0]
    for field in ("speaker", "session", "observed_at", '"type": "conversation"', '"kind": "episode"'):
        assert field in section
    envelope = json.loads(re.search(r"```json\n(.*?)```", section, re.S).group(1))
    envelope["target"]["scope"]["key"] = "alice"
    monkeypatch.chdir(tmp_path)
    assert api.mutate(api.open_store("json-store", create=True), envelope).status == "applied"
    namespace: dict = {}
    exec(re.search(r"```python\n(.*?)```", section, re.S).group(1), namespace)
    record = api.get(api.open_store("agent-store"), namespace["result"].record_id, "me")
    assert (record["kind"], record["source"]["type"], record["source"]["speaker"], record["source"]["session"]) == \
        ("episode", "conversation", "Melanie", "chat-42")
