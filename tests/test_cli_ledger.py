"""The write side of the CLI through click's CliRunner: exit codes and the exact JSON.

Every test runs on both backends (``backend``: a JSONL folder, and a PostgreSQL schema when a
server is available, tests/pg.py); the few that read a JSONL store's files are ``jsonl_only``,
and say where their PostgreSQL equivalent is. "Nothing written" compares the store's files on
JSONL and every row of the ledger's tables on PostgreSQL (``written``)."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from memory.api import open_store
from memory.cli import main
from memory.clock import FixedClock
from memory.jsonio import dumps_text
from memory.policy import load_policies
from memory.records import record_id_for
from memory.store import Store
from memory.where import describe

from helpers import NOW, add_env, by_id, scope, snapshot
from pg import BACKENDS, backend_location, has_tables, is_url, jsonl_only, replace_in_rows, table_rows

LATER = "2024-03-10T00:00:00Z"


@pytest.fixture(autouse=True, params=BACKENDS)
def backend(request, tmp_path, monkeypatch):
    monkeypatch.setenv("MEMORY_STORE", backend_location(request, tmp_path / "store"))
    return request.param


def root() -> Path | str:
    """The store under test: its folder, or its PostgreSQL URL."""
    location = os.environ["MEMORY_STORE"]
    return location if is_url(location) else Path(location)


def written() -> dict[str, bytes]:
    """What the store holds: every file (JSONL) or every row of the ledger's tables (PostgreSQL)."""
    return table_rows(root()) if is_url(root()) else snapshot(root())


def exists() -> bool:
    return has_tables(root()) if is_url(root()) else root().exists()


def run(*args, input=None, env=None):
    result = CliRunner().invoke(main, list(args), input=input, env=env, catch_exceptions=False)
    return result.exit_code, result.stdout


def run_json(*args, **kw):
    code, out = run(*args, "--json", **kw)
    assert out.endswith("\n") and out.count("\n") == 1, out
    return code, json.loads(out)


def applied(tx, operation, record_id, revision=1) -> str:
    return dumps_text({"status": "applied", "transaction_id": tx, "operation": operation,
                       "record_id": record_id, "revision": revision, "error": None}) + "\n"


def rid(tx, user="alice") -> str:
    return record_id_for(scope(user), tx)


@pytest.fixture
def initialized():
    code, _ = run("init")
    assert code == 0
    return root()


@pytest.fixture
def paris(initialized):
    code, out = run("add", "The user lives in Paris.", "--user", "alice", "--key", "user.home_city",
                    "--from", "2021-09-01", "--alias", "home city", "--tx", "tx-paris", "--json")
    assert (code, out) == (0, applied("tx-paris", "add", rid("tx-paris")))
    return rid("tx-paris")


def store() -> Store:
    return open_store(root(), clock=FixedClock(NOW))


# -- init and the store ---------------------------------------------------------------

def test_init_prints_the_store_and_the_pinned_policy_hashes():
    code, out = run("init", "--json")
    expected = {"store": str(root()), "policy_sha256": load_policies().hashes()}
    assert code == 0 and out == dumps_text(expected) + "\n"
    assert run("init", "--json") == (0, out)                      # again: nothing changes
    assert run("init") == (0, f"store ready at {root()}\n")


def test_commands_before_init_say_there_is_no_store():
    code, out = run_json("add", "x", "--user", "alice", "--key", "user.x")
    assert code == 7 and out["error"]["code"] == "store_not_found"
    assert not exists()


def test_the_store_option_beats_the_environment(tmp_path):
    other = tmp_path / "elsewhere"
    assert run("--store", str(other), "init")[0] == 0
    assert (other / "store.json").exists() and not exists()


def test_an_invalid_memory_now_is_a_usage_error(initialized):
    code, out = run_json("add", "x", "--user", "alice", "--key", "user.x", env={"MEMORY_NOW": "soon"})
    assert code == 2 and out["error"]["code"] == "invalid_date"


# -- add / update / retire / forget / erase -------------------------------------------

def test_add_writes_what_the_envelope_says(paris):
    record = store().get(paris, scope())
    assert (record["statement"], record["aliases"], record["valid_time"]) == (
        "The user lives in Paris.", ["home city"], {"from": "2021-09-01T00:00:00Z", "to": None})
    assert record["transition"]["actor"] == {"type": "user_via_agent", "id": "tester"}
    assert record["transition"]["reason"] == "add from the command line"
    assert record["recorded_time"] == {"recorded_at": NOW, "recorded_by": "tester"}


def test_add_text_output_and_idempotent_replay(paris):
    args = ("add", "The user lives in Paris.", "--user", "alice", "--key", "user.home_city", "--from",
            "2021-09-01", "--alias", "home city", "--tx", "tx-paris")
    assert run(*args) == (0, f"idempotent: add {paris} r1\n")


def test_a_refused_add_exits_5_with_the_result_object(paris):
    before = written()
    code, out = run("add", "The user lives in Lyon.", "--user", "alice", "--key", "user.home_city",
                    "--tx", "tx-lyon", "--json")
    assert code == 5
    result = json.loads(out)
    assert result == {"status": "refused", "transaction_id": "tx-lyon", "operation": "add", "record_id": None,
                      "revision": None, "error": {"code": "key_already_active",
                                                  "message": result["error"]["message"]}}
    assert "Lyon" not in result["error"]["message"]
    assert written() == before
    code, out = run("add", "The user lives in Lyon.", "--user", "alice", "--key", "user.home_city")
    assert code == 5 and out.startswith("refused [key_already_active]: ")


def test_update_then_get_and_history(paris):
    code, out = run("update", "The user lives in Berlin.", "--user", "alice", "--key", "user.home_city",
                    "--from", "2024-03-05T00:00:00Z", "--tx", "tx-berlin", "--json", env={"MEMORY_NOW": LATER})
    assert (code, out) == (0, applied("tx-berlin", "update", rid("tx-berlin")))
    code, old = run_json("get", paris, "--user", "alice")
    assert code == 0 and old == store().get(paris, scope())
    assert old["status"] == "retired" and old["valid_time"]["to"] == "2024-03-05T00:00:00Z"
    assert old["supersession"]["superseded_by"] == rid("tx-berlin")
    code, revisions = run_json("history", paris, "--user", "alice")
    assert code == 0 and revisions == store().history(paris, scope())
    assert [(r["revision"], r["transition"]["operation"]) for r in revisions] == [(1, "add"), (2, "update")]
    code, out = run("history", paris, "--user", "alice")
    assert code == 0 and out.splitlines()[1].startswith(f"r2 {LATER} update: active -> retired by user_via_agent:tester")


def test_update_needs_a_key_or_an_id(paris):
    code, out = run_json("update", "x", "--user", "alice")
    assert code == 2 and out["error"]["code"] == "usage_error"


def test_an_invalid_date_option_is_a_usage_error(paris):
    code, out = run_json("update", "x", "--user", "alice", "--key", "user.home_city", "--from", "2024-02-30")
    assert code == 2 and out["error"]["code"] == "invalid_date"


def test_retire_forget_and_erase(paris, initialized):
    code, out = run("retire", paris, "--user", "alice", "--at", "2024-01-01", "--tx", "tx-r", "--json")
    assert (code, out) == (0, applied("tx-r", "retire", paris, 2))
    assert store().get(paris, scope())["valid_time"]["to"] == "2024-01-01T00:00:00Z"

    run("add", "The user likes durian.", "--user", "alice", "--key", "user.food", "--tx", "tx-food")
    code, out = run("forget", "--user", "alice", "--key", "user.food", "--tx", "tx-f", "--json")
    assert (code, out) == (0, applied("tx-f", "forget", rid("tx-food"), 2))
    code, out = run_json("add", "the user likes DURIAN", "--user", "alice", "--key", "user.food")
    assert code == 5 and out["error"]["code"] == "value_tombstoned"

    code, out = run("erase", paris, "--user", "alice", "--tx", "tx-e", "--reason", "asked", "--json")
    assert (code, out) == (0, applied("tx-e", "erase", paris, None))
    code, out = run_json("get", paris, "--user", "alice")
    assert code == 6 and out["error"]["code"] == "record_not_found"

    code, out = run("erase", "--user", "alice", "--whole-scope", "--tx", "tx-all", "--json")
    assert (code, out) == (0, applied("tx-all", "erase", None, None))
    assert b"durian" not in b"".join(written().values())


@pytest.mark.parametrize("args", [("erase", "--user", "alice"), ("erase", "mem_x", "--user", "alice",
                                                                 "--whole-scope"),
                                  ("forget", "--user", "alice")])
def test_erase_and_forget_need_exactly_one_target(initialized, args):
    code, out = run_json(*args)
    assert code == 2 and out["error"]["code"] == "usage_error"


def test_get_of_another_users_record_is_not_found(paris):
    run("add", "The user lives in Oslo.", "--user", "bob", "--key", "user.home_city", "--tx", "tx-paris")
    bob = rid("tx-paris", "bob")
    crossed = run_json("get", bob, "--user", "alice")
    absent = run_json("get", "mem_" + "0" * 24, "--user", "alice")
    assert crossed == absent
    assert crossed[0] == 6 and crossed[1] == {"error": {"code": "record_not_found",
                                                        "message": "no such record in this scope"}}
    assert run_json("history", bob, "--user", "alice") == absent
    assert run_json("get", bob, "--user", "bob")[1]["statement"] == "The user lives in Oslo."


# -- review ----------------------------------------------------------------------------

def _candidate(tx, statement, key):
    env = add_env(statement, key, tx, source="model_inference", actor="agent")
    return run("mutate", "--json", input=json.dumps(env))


def test_review_list_approve_reject(initialized):
    assert _candidate("tx-cat", "The user has a cat.", "user.pet") == (0, applied("tx-cat", "add", rid("tx-cat")))
    _candidate("tx-tea", "The user likes tea.", "user.drink")
    code, listed = run_json("review", "list", "--user", "alice")
    assert code == 0 and [c["id"] for c in listed] == [rid("tx-cat"), rid("tx-tea")]
    assert all(c["status"] == "candidate" for c in listed)
    assert run("review", "list", "--user", "bob") == (0, "no candidates\n")

    code, out = run("review", "approve", rid("tx-cat"), "--user", "alice", "--tx", "tx-ok", "--json")
    assert (code, out) == (0, applied("tx-ok", "approve", rid("tx-cat"), 2))
    approved = store().get(rid("tx-cat"), scope())
    assert approved["status"] == "active" and approved["transition"]["actor"] == {"type": "reviewer", "id": "tester"}
    code, out = run("review", "reject", rid("tx-tea"), "--user", "alice", "--tx", "tx-no", "--json")
    assert (code, out) == (0, applied("tx-no", "reject", rid("tx-tea"), 2))
    assert run_json("review", "list", "--user", "alice") == (0, [])
    code, out = run_json("review", "approve", rid("tx-tea"), "--user", "alice")
    assert code == 5 and out["error"]["code"] == "invalid_transition"


# -- mutate and apply -------------------------------------------------------------------

def test_mutate_reads_stdin_or_a_file(initialized, tmp_path):
    env = add_env("The user likes tea.", "user.drink", "tx-1")
    assert run("mutate", "--json", input=json.dumps(env)) == (0, applied("tx-1", "add", rid("tx-1")))
    path = tmp_path / "envelope.json"
    path.write_text(json.dumps(add_env("The user likes go.", "user.game", "tx-2")))
    assert run("mutate", "--envelope", str(path), "--json") == (0, applied("tx-2", "add", rid("tx-2")))
    assert run("mutate", "-e", str(path)) == (0, f"idempotent: add {rid('tx-2')} r1\n")


def test_mutate_refusals_exit_5_with_the_result_object(initialized):
    code, out = run_json("mutate", input=b'{"statement": "secret words"')
    assert code == 5
    assert out == {"status": "refused", "transaction_id": None, "operation": None, "record_id": None,
                   "revision": None, "error": {"code": "invalid_json", "message": out["error"]["message"]}}
    assert "secret words" not in out["error"]["message"]
    code, out = run_json("mutate", input=b"\xff\xfe")
    assert code == 5 and out["error"]["code"] == "invalid_utf8"


def test_mutate_from_a_missing_file_is_an_input_error(initialized, tmp_path):
    code, out = run_json("mutate", "--envelope", str(tmp_path / "absent.json"))
    assert code == 3 and out["error"]["code"] == "file_not_found"


def test_apply_prints_one_result_per_envelope_and_exits_5_on_any_refusal(initialized, tmp_path):
    lines = [json.dumps(add_env("The user likes tea.", "user.drink", "tx-1")), "",
             "{broken",
             json.dumps(add_env("The user likes coffee.", "user.drink", "tx-2")),
             json.dumps(add_env("The user likes go.", "user.game", "tx-3"))]
    path = tmp_path / "batch.jsonl"
    path.write_text("\n".join(lines) + "\n")
    code, out = run("apply", str(path), "--batch-size", "2")
    assert code == 5
    results = [json.loads(line) for line in out.splitlines()]
    assert [(r["status"], r["transaction_id"]) for r in results] == [
        ("applied", "tx-1"), ("refused", None), ("refused", "tx-2"), ("applied", "tx-3")]
    assert results[1]["error"]["code"] == "invalid_json"
    assert results[2]["error"]["code"] == "key_already_active"
    assert out.splitlines()[0] == applied("tx-1", "add", rid("tx-1")).rstrip("\n")
    code, out = run("apply", "-", input="\n".join(lines[:1] + lines[4:]) + "\n")
    assert code == 0 and [json.loads(line)["status"] for line in out.splitlines()] == ["idempotent", "idempotent"]


# -- doctor and where ---------------------------------------------------------------------

@jsonl_only("a torn tail is a file's; doctor on PostgreSQL: test_doctor_reports_tampering_and_exits_7 here, "
            "tests/test_postgres_admin.py")
def test_doctor_json_exit_codes_and_repair(paris):
    assert run("doctor", "--json") == (0, dumps_text({"clean": True, "scopes": 1, "revisions": 1,
                                                      "problems": [], "repaired": []}) + "\n")
    assert run("validate", "--json")[0] == 0
    shard = store().shard_paths(scope())[0]
    with open(shard, "ab") as handle:
        handle.write(b'{"torn')
    code, report = run_json("doctor")
    assert code == 7 and report["clean"] is False
    assert {p["code"] for p in report["problems"]} == {"torn_tail", "manifest_mismatch"}
    code, report = run_json("doctor", "--repair")
    assert code == 0 and report["clean"] is True
    assert {p["code"] for p in report["repaired"]} == {"torn_tail", "manifest_mismatch"}
    assert run("doctor") == (0, "1 scope(s), 1 revision(s)\nclean\n")


def test_doctor_reports_tampering_and_exits_7(paris, backend):
    assert run_json("doctor")[1]["clean"] is True
    if backend == "jsonl":
        shard = store().shard_paths(scope())[0]
        shard.write_bytes(shard.read_bytes().replace(b"Paris", b"Pariz"))
    else:
        assert replace_in_rows(root(), b"Paris", b"Pariz") == 1
    code, report = run_json("doctor", "--repair")
    assert code == 7 and "record_hash_mismatch" in {p["code"] for p in report["problems"]}


@jsonl_only("it names a folder's files; on a URL: test_where_names_the_tables_on_a_url, tests/test_postgres_admin.py")
def test_where_json_is_the_machine_readable_twin(initialized):
    code, out = run("where", "--json")
    assert code == 0 and out == dumps_text(describe(root())) + "\n"
    info = json.loads(out)
    roles = {entry["path"]: entry["role"] for entry in info["files"]}
    assert roles["shards/<scope_digest>/NNNNNN.jsonl"] == "source_of_truth"
    assert roles["index/<scope_digest>/"] == "derived"


def test_mutation_results_match_the_library(initialized):
    env = by_id("retire", "mem_" + "0" * 24, "tx-9")
    code, out = run_json("mutate", input=json.dumps(env))
    assert code == 6 and out == store().mutate(env)  # refused: record_not_found, exit 6 as `get` says
