"""The Python API: typed results whose to_json() is exactly the CLI's --json output."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from memory import api
from memory.cli import main
from memory.clock import FixedClock
from memory.errors import NotFoundError, StoreError, UsageError

from helpers import NOW, add_env, by_id, envelope, raw, scope, update_env


def cli_json(*args, input=None):
    result = CliRunner().invoke(main, [*args, "--json"], input=input, catch_exceptions=False)
    return result.exit_code, json.loads(result.stdout)


@pytest.fixture
def store():
    return api.open_store(create=True)


@pytest.fixture
def moved(store):
    """Paris (2021) superseded by Berlin (2024-02-01) in scope user:alice."""
    paris = api.mutate(store, add_env("The user lives in Paris.", "user.home_city", "tx-paris",
                                      valid_from="2021-09-01T00:00:00Z"))
    berlin = api.mutate(store, update_env("The user lives in Berlin.", "tx-berlin", key="user.home_city",
                                          valid_from="2024-02-01T00:00:00Z"))
    return paris.record_id, berlin.record_id


def test_open_store_follows_memory_store_and_memory_now():
    store = api.open_store(create=True)
    assert store.root == Path(os.environ["MEMORY_STORE"])
    assert store.clock.now() == NOW


def test_open_store_without_a_store_raises_store_not_found(tmp_path):
    with pytest.raises(StoreError) as caught:
        api.open_store(tmp_path / "nowhere")
    assert caught.value.code == "store_not_found"


def test_open_store_refuses_an_invalid_memory_now(monkeypatch):
    monkeypatch.setenv("MEMORY_NOW", "not-a-date")
    with pytest.raises(UsageError) as caught:
        api.open_store(create=True)
    assert caught.value.code == "invalid_date"


def test_open_store_takes_an_injected_clock(tmp_path):
    store = api.open_store(tmp_path / "s", clock=FixedClock("2030-01-01T00:00:00Z"), create=True)
    result = api.mutate(store, add_env("The user lives in Oslo.", "user.home_city", "tx-oslo"))
    assert api.get(store, result.record_id, "alice")["recorded_time"]["recorded_at"] == "2030-01-01T00:00:00Z"


def test_mutate_result_is_the_cli_json(store):
    env = add_env("The user lives in Paris.", "user.home_city", "tx-paris")
    result = api.mutate(store, env)
    assert result.status == "applied" and result.revision == 1 and not result.refused
    # the same envelope through the CLI is idempotent and prints the same object but for the status
    code, printed = cli_json("mutate", input=raw(env).decode())
    assert code == 0 and printed == {**result.to_json(), "status": "idempotent"}


def test_a_refusal_is_a_result_with_its_code(store, moved):
    result = api.mutate(store, add_env("The user lives in Rome.", "user.home_city", "tx-rome"))
    assert result.refused and result.code == "key_already_active" and result.record_id is None
    code, printed = cli_json("mutate", input=raw(add_env("The user lives in Rome.", "user.home_city",
                                                         "tx-rome")).decode())
    assert code == 5 and printed == result.to_json()


def test_only_user_refuses_an_envelope_for_another_scope_and_writes_nothing(store):
    env = add_env("The user lives in Paris.", "user.home_city", "tx-paris", user="bob")
    result = api.mutate(store, env, only_user="alice")
    assert result.refused and result.code == "scope_not_permitted"
    assert result.transaction_id == "tx-paris" and result.operation == "add"
    assert store.scope_digests() == []
    # bytes are bound the same way, and the right scope goes through
    assert api.mutate(store, raw(env), only_user="alice").code == "scope_not_permitted"
    assert api.mutate(store, env, only_user="bob").status == "applied"


def test_only_user_leaves_unparseable_envelopes_to_the_store(store):
    assert api.mutate(store, b"{not json", only_user="alice").code == "invalid_json"


def test_query_result_is_the_cli_json(store, moved):
    paris, berlin = moved
    answer = api.query(store, "where does the user live?", "alice")
    assert answer.knowledge_state == "VERIFIED" and answer.answered
    assert answer.evidence[0].id == berlin and answer.evidence[0].statement == "The user lives in Berlin."
    code, printed = cli_json("query", "where does the user live?", "--user", "alice")
    assert code == 0 and answer.to_json() == printed


def test_query_options_reach_the_planner_and_the_decision(store, moved):
    paris, _ = moved
    answer = api.query(store, "where did the user live?", "alice", as_of="2023-01-01", limit=1,
                       include_inactive=True, trace=True, kinds=["fact"])
    assert answer.knowledge_state == "VERIFIED_HISTORICAL"
    assert [e.id for e in answer.evidence] == [paris]
    assert answer.planner["steps"] and answer.as_of["valid_time"] == "2023-01-01T00:00:00Z"
    code, printed = cli_json("query", "where did the user live?", "--user", "alice", "--as-of", "2023-01-01",
                             "--limit", "1", "--include-inactive", "--trace", "--kind", "fact")
    assert answer.to_json() == printed


def test_audit_only_items_keep_blocked_by(store, moved):
    answer = api.query(store, "where does the user live?", "alice", include_inactive=True)
    assert answer.audit_only and all(item.blocked_by for item in answer.audit_only)
    assert all("blocked_by" in item for item in answer.to_json()["audit_only"])
    assert all("blocked_by" not in item for item in answer.to_json()["evidence"])


def test_an_unknown_answer_is_a_result(store):
    answer = api.query(store, "where does the user live?", "alice")
    assert not answer.answered and answer.reason_code == "insufficient_evidence"
    assert answer.missing_conditions


def test_unknown_query_options_are_a_usage_error(store):
    with pytest.raises(UsageError) as caught:
        api.query(store, "x", "alice", as_off="2020-01-01")
    assert "as_off" in caught.value.message


def test_json_keys_the_result_types_do_not_name_survive_the_round_trip():
    data = {"knowledge_state": "UNKNOWN", "reason_code": "insufficient_evidence", "missing_conditions": ["m"],
            "query": "q", "scope": [scope()], "as_of": {"valid_time": NOW, "recorded_time": None},
            "evidence": [{"id": "mem_1", "revision": 1, "kind": "fact", "status": "active", "statement": "s",
                          "score": 1.5, "memory_key": None, "valid_time": {}, "recorded_time": {}, "source": {},
                          "context": [], "new_field": 1}],
            "audit_only": [], "planner": {"name": "deterministic", "steps": []}, "future_key": {"x": 1}}
    result = api.QueryResult.from_json(data)
    assert result.extra == {"future_key": {"x": 1}} and result.evidence[0].extra == {"new_field": 1}
    assert result.to_json() == data


def test_history_and_get_are_the_cli_json(store, moved):
    paris, _ = moved
    revisions = api.history(store, paris, "alice")
    assert [r["status"] for r in revisions] == ["active", "retired"]
    assert cli_json("history", paris, "--user", "alice") == (0, revisions)
    assert cli_json("get", paris, "--user", "alice") == (0, api.get(store, paris, "alice"))


def test_history_is_scoped(store, moved):
    paris, _ = moved
    with pytest.raises(NotFoundError):
        api.history(store, paris, "bob")
    with pytest.raises(NotFoundError):
        api.get(store, paris, "bob")


def test_review_list_shows_candidates_of_the_scope_only(store):
    guess = envelope("add", "tx-guess", key="user.pet", source="model_inference", actor="agent",
                     payload={"kind": "fact", "statement": "The user has a cat."})
    candidate = api.mutate(store, guess)
    api.mutate(store, by_id("retire", candidate.record_id, "tx-noop"))  # refused: a candidate cannot retire
    assert [r["id"] for r in api.review_list(store, "alice")] == [candidate.record_id]
    assert api.review_list(store, "bob") == []
    assert cli_json("review", "list", "--user", "alice") == (0, api.review_list(store, "alice"))
