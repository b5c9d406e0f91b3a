"""`memory query` through click's CliRunner: exit codes, exact JSON, text rendering."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from helpers import add_env, make_store, update_env

from memory.cli import main
from memory.store import Store

NOW = "2024-06-01T00:00:00Z"
FILLER = ["The weekly team standup moved to Tuesday at ten.", "Quarterly tax documents are in the blue folder.",
          "The dentist appointment is on the fourth of July.", "The car needs new winter tyres.",
          "Piano lessons happen on Thursday evenings.", "The garden hose leaks near the tap."]


@pytest.fixture(autouse=True)
def _pinned(monkeypatch):
    # conftest isolates the store; this pins the instant these cases are written for and
    # makes sure no developer's LLM key leaks in
    for name in ("MEMORY_LLM_API_KEY", "MEMORY_LLM_MODEL", "MEMORY_LLM_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MEMORY_NOW", NOW)


def add(statement: str, key: str, tx: str, user: str = "u1") -> dict:
    return add_env(statement, key, tx, user=user, valid_from="2023-01-01T00:00:00Z")


@pytest.fixture
def store(tmp_path) -> Store:
    """Paris until 2024-02-01, then Berlin; unrelated notes; another user in Madrid."""
    built = make_store(tmp_path / "store", "2023-01-01T00:00:00Z")
    envelopes = [add(statement, f"notes.item_{number}", f"note-{number}") for number, statement in enumerate(FILLER)]
    envelopes += [add("The user lives in Paris.", "user.home_city", "paris"),
                  add("The user lives in Madrid.", "user.home_city", "madrid", user="u2")]
    assert all(built.mutate(env)["status"] == "applied" for env in envelopes)
    built.clock.set("2024-02-01T00:00:00Z")
    berlin = update_env("The user lives in Berlin.", "berlin", key="user.home_city", user="u1",
                        valid_from="2024-02-01T00:00:00Z")
    assert built.mutate(berlin)["status"] == "applied"
    return built


def invoke(store: Store, *args: str):
    return CliRunner().invoke(main, ["--store", str(store.root), "query", *args])


def record_id(store: Store, tx: str, user: str = "u1") -> str:
    return store.state({"type": "user", "key": user}).transactions[tx][1]


def test_json_has_the_exact_design_shape(store):
    result = invoke(store, "where does the user live?", "--user", "u1", "--json")
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith("}\n") and result.stdout.count("\n") == 1  # one object, one line
    answer = json.loads(result.stdout)
    berlin = store.get(record_id(store, "berlin"), {"type": "user", "key": "u1"})
    score = answer["evidence"][0]["score"]
    assert isinstance(score, float) and score > 0 and round(score, 4) == score
    assert answer == {
        "knowledge_state": "VERIFIED", "reason_code": None, "missing_conditions": [],
        "query": "where does the user live?", "scope": [{"type": "user", "key": "u1"}],
        "as_of": {"valid_time": NOW, "recorded_time": None},
        "evidence": [{
            "id": berlin["id"], "revision": 1, "kind": "fact", "status": "active",
            "statement": "The user lives in Berlin.", "score": score, "memory_key": "user.home_city",
            "valid_time": {"from": "2024-02-01T00:00:00Z", "to": None},
            "recorded_time": {"recorded_at": "2024-02-01T00:00:00Z", "recorded_by": "tester"},
            "source": {"type": "explicit_user", "ref": "test", "session": None, "speaker": None},
            "context": []}],
        "audit_only": [],
        "planner": {"name": "deterministic", "steps": []},
    }


def test_text_rendering(store):
    answer = json.loads(invoke(store, "where does the user live?", "--user", "u1", "--json").stdout)
    result = invoke(store, "where does the user live?", "--user", "u1")
    assert result.exit_code == 0
    berlin = answer["evidence"][0]
    assert result.stdout == (
        "VERIFIED\n"
        " 1. The user lives in Berlin.\n"
        f"    {berlin['id']} r1 [active] score {berlin['score']:.4f}; valid 2024-02-01..now; explicit_user test\n")


def test_include_inactive_shows_the_audit_lines_and_keeps_the_state(store):
    paris = record_id(store, "paris")
    result = invoke(store, "where does the user live?", "--user", "u1", "--include-inactive")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "VERIFIED"
    assert lines[-1] == f"  (audit only, retired) {paris} [retired] The user lives in Paris."
    answer = json.loads(invoke(store, "where does the user live?", "--user", "u1", "--include-inactive",
                               "--json").stdout)
    assert [item["id"] for item in answer["audit_only"]] == [paris]
    assert answer["audit_only"][0]["blocked_by"] == "retired"


def test_as_of_in_the_past_is_historical(store):
    result = invoke(store, "where does the user live?", "--user", "u1", "--as-of", "2023-06-01", "--json")
    answer = json.loads(result.stdout)
    assert answer["knowledge_state"] == "VERIFIED_HISTORICAL"
    assert answer["evidence"][0]["statement"] == "The user lives in Paris."
    assert answer["as_of"]["valid_time"] == "2023-06-01T00:00:00Z"


def test_unknown_exits_zero_with_its_reason(store):
    result = invoke(store, "where does Maria Santos live?", "--user", "u1")
    assert result.exit_code == 0
    assert result.stdout == ("UNKNOWN (insufficient_evidence)\n"
                             "  missing: an active record in scope user:u1 that covers: Maria, Santos\n")


def test_trace_lists_the_planner_steps(store):
    answer = json.loads(invoke(store, "where does the user live?", "--user", "u1", "--trace", "--json").stdout)
    actions = [step["action"] for step in answer["planner"]["steps"]]
    assert actions[0] == "search" and actions[-1] == "finish"
    text = invoke(store, "where does the user live?", "--user", "u1", "--trace").stdout
    assert '  step: {"action":"search","hits":' in text and '"kind":"question","terms":["user","live"]}' in text


def test_another_users_records_stay_out(store):
    answer = json.loads(invoke(store, "where does the user live?", "--user", "u1", "--include-inactive",
                               "--trace", "--json").stdout)
    assert "Madrid" not in json.dumps(answer) and record_id(store, "madrid", "u2") not in json.dumps(answer)
    theirs = json.loads(invoke(store, "where does the user live?", "--user", "u2", "--json").stdout)
    assert [item["statement"] for item in theirs["evidence"]] == ["The user lives in Madrid."]


@pytest.mark.parametrize("args, code, message", [
    (["", "--user", "u1"], "empty_query", "the query is empty"),
    (["where?", "--user", "  "], "scope_required", "a query needs a user"),
    (["where?", "--user", "u1", "--as-of", "2024-13-40"], "invalid_date",
     "--as-of is not a valid ISO 8601 instant or date"),
    (["where?", "--user", "u1", "--recorded-as-of", "soon"], "invalid_date",
     "--recorded-as-of is not a valid ISO 8601 instant or date"),
])
def test_bad_input_exits_2_with_a_clear_message(store, args, code, message):
    result = invoke(store, *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(f"error [{code}]: {message}")
    as_json = invoke(store, *args, "--json")
    assert as_json.exit_code == 2
    assert json.loads(as_json.stdout)["error"]["code"] == code


def test_a_missing_user_is_a_usage_error(store):
    result = invoke(store, "where?")
    assert result.exit_code == 2 and "Missing option '--user'" in result.stderr


def test_the_llm_planner_without_a_key_exits_nonzero_with_that_message(store):
    result = invoke(store, "where does the user live?", "--user", "u1", "--planner", "llm")
    assert result.exit_code == 9
    assert result.stdout == ""
    assert result.stderr.startswith("error [llm_not_configured]: the llm planner needs an API key in "
                                    "$MEMORY_LLM_API_KEY")
    as_json = invoke(store, "where does the user live?", "--user", "u1", "--planner", "llm", "--json")
    assert as_json.exit_code == 9
    assert json.loads(as_json.stdout)["error"]["code"] == "llm_not_configured"


def test_a_missing_store_is_a_store_error(tmp_path):
    result = CliRunner().invoke(main, ["--store", str(tmp_path / "nowhere"), "query", "where?", "--user", "u1"])
    assert result.exit_code == 7 and "store_not_found" in result.stderr


def test_text_output_shows_control_characters_instead_of_sending_them_to_the_terminal(tmp_path, monkeypatch):
    """A stored statement carrying an escape sequence must not repaint the user's terminal."""
    from click.testing import CliRunner
    from memory.cli import main
    monkeypatch.setenv("MEMORY_STORE", str(tmp_path / "s"))
    runner = CliRunner()
    assert runner.invoke(main, ["init"]).exit_code == 0
    added = runner.invoke(main, ["add", "The user likes \x1b[2Jjazz.", "--user", "u1", "--key", "user.music",
                                 "--alias", "music"])
    assert added.exit_code == 0, added.output
    shown = runner.invoke(main, ["query", "what music does the user like?", "--user", "u1"])
    assert shown.exit_code == 0
    assert "\x1b" not in shown.output and "\\x1b[2Jjazz" in shown.output
