"""The CLI on a PostgreSQL store (``--store postgresql://…`` / ``$MEMORY_STORE``), and writers
racing on one scope from two processes and two handles.

Skips with the reason when no PostgreSQL or no psycopg is available (tests/pg.py).
"""
from __future__ import annotations

import json
import subprocess
import sys
import threading

import pytest
from click.testing import CliRunner

from memory.cli import main
from memory.clock import FixedClock
from memory.jsonio import dumps_text
from memory.store import PostgresStore

from helpers import add_env, cli_env, scope
from pg import fresh_schema_url

T1, T2, T3 = "2024-03-01T12:00:00Z", "2024-04-01T12:00:00Z", "2024-05-01T12:00:00Z"


def run(store: str, now: str, *args) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--store", store, *args], env={"MEMORY_NOW": now}, catch_exceptions=False)
    return result.exit_code, result.stdout


def run_json(store: str, now: str, *args):
    code, out = run(store, now, *args, "--json")
    return code, json.loads(out)


def history_of_a_user(store: str) -> dict:
    """One user's life through the CLI; returns what each step answered."""
    seen = {}
    assert run_json(store, T1, "init")[0] == 0
    code, added = run_json(store, T1, "add", "The user lives in Berlin.", "--user", "u1", "--key", "user.home_city",
                           "--from", "2024-01-01", "--tx", "tx-berlin")
    assert (code, added["status"]) == (0, "applied"), added
    berlin = added["record_id"]
    assert run_json(store, T1, "add", "The user drinks oolong tea.", "--user", "u1", "--key", "user.drink",
                    "--tx", "tx-tea")[1]["status"] == "applied"
    assert run_json(store, T1, "add", "The user's locker code is 4411.", "--user", "u1", "--key", "user.locker",
                    "--tx", "tx-locker")[1]["status"] == "applied"
    code, updated = run_json(store, T2, "update", "The user lives in Lisbon.", "--user", "u1",
                             "--key", "user.home_city", "--from", "2024-03-15", "--tx", "tx-lisbon")
    assert (code, updated["status"]) == (0, "applied"), updated
    seen["now"] = run_json(store, T2, "query", "what is the home city of the user?", "--user", "u1")[1]
    seen["then"] = run_json(store, T2, "query", "what is the home city of the user?", "--user", "u1",
                            "--recorded-as-of", "2024-03-20T00:00:00Z", "--as-of", "2024-02-01")[1]
    seen["history"] = run_json(store, T2, "history", berlin, "--user", "u1")[1]
    assert run_json(store, T3, "forget", "--user", "u1", "--key", "user.drink", "--tx", "tx-forget")[1]["status"] \
        == "applied"
    seen["again"] = run_json(store, T3, "add", "The user drinks oolong tea.", "--user", "u1", "--key",
                             "user.drink", "--tx", "tx-tea-again")[1]
    found = run_json(store, T3, "query", "what is the locker code?", "--user", "u1")[1]
    assert "evidence" in found, found
    seen["locker_id"] = found["evidence"][0]["id"]
    assert run_json(store, T3, "erase", seen["locker_id"], "--user", "u1", "--tx", "tx-erase",
                    "--reason", "asked")[1]["status"] == "applied"
    seen["erased_get"] = run(store, T3, "get", seen["locker_id"], "--user", "u1", "--json")[0]
    seen["after_erase"] = run_json(store, T3, "query", "what is the locker code?", "--user", "u1")[1]
    seen["export"] = run(store, T3, "export", "--user", "u1")[1]
    return seen


def test_the_ledger_through_the_cli_on_postgres_answers_as_on_jsonl(tmp_path):
    url = fresh_schema_url()
    pg = history_of_a_user(url)
    jsonl = history_of_a_user(str(tmp_path / "jsonl"))

    assert pg["now"]["knowledge_state"] == "VERIFIED"
    now = [e["statement"] for e in pg["now"]["evidence"]]
    assert "The user lives in Lisbon." in now and "The user lives in Berlin." not in now
    # as recorded before the update, valid in February: Berlin
    assert [e["statement"] for e in pg["then"]["evidence"]] == ["The user lives in Berlin."]
    assert [r["revision"] for r in pg["history"]] == [1, 2]
    assert pg["again"]["status"] == "refused" and pg["again"]["error"]["code"] == "value_tombstoned"
    assert pg["erased_get"] == 6
    assert all("4411" not in e["statement"] for e in pg["after_erase"]["evidence"])
    # the rows are gone from the tables, and only the content-free audit row names the record
    from memory.postgres_ledger import PostgresLedger
    ledger = PostgresLedger(url)
    digest = PostgresStore(url)._digest(scope("u1"))
    assert all(b"4411" not in line for _, line in ledger.read(digest))
    assert [json.loads(line)["record_ids"] for line in ledger.audit(digest)] == [[pg["locker_id"]]]
    ledger.close()
    # the same history gives the same answers and the same export, byte for byte
    for step in ("now", "then", "history", "again", "erased_get", "after_erase", "locker_id"):
        assert pg[step] == jsonl[step], step
    assert pg["export"] and pg["export"] == jsonl["export"]


def test_memory_store_selects_postgres_and_a_new_handle_reads_it(tmp_path, monkeypatch):
    url = fresh_schema_url()
    monkeypatch.setenv("MEMORY_STORE", url)
    runner = CliRunner()
    assert runner.invoke(main, ["init"], catch_exceptions=False).exit_code == 0
    out = runner.invoke(main, ["add", "The user lives in Rome.", "--user", "u1", "--key", "user.home_city",
                               "--tx", "tx-1", "--json"], catch_exceptions=False)
    assert json.loads(out.stdout)["status"] == "applied"
    assert not (tmp_path / "store").exists() and not any(tmp_path.iterdir())
    assert [r["statement"] for r in PostgresStore.open(url).scope_revisions(scope("u1"))] == \
        ["The user lives in Rome."]


def test_a_database_without_the_schema_is_refused_with_a_clear_error():
    url = fresh_schema_url(laid_out=False)
    code, out = run(url, T1, "query", "anything?", "--user", "u1", "--json")
    assert code == 7 and json.loads(out)["error"]["code"] == "store_not_found"


def test_a_search_sees_another_handles_acknowledged_add(tmp_path):
    """Read-your-writes across processes: B's cached view and index catch up from the seq."""
    from memory import api
    url = fresh_schema_url()
    writer = PostgresStore.create(url, clock=FixedClock(T1))
    reader = PostgresStore.open(url, clock=FixedClock(T1))
    assert api.query(reader, "where does the user live?", "u1").knowledge_state == "UNKNOWN"
    writer.mutate(add_env("The user lives in Rome.", "user.home_city", "tx-1", user="u1"))
    answer = api.query(reader, "where does the user live?", "u1")
    assert answer.knowledge_state == "VERIFIED" and answer.evidence[0].statement == "The user lives in Rome."


def _episodes(prefix: str, count: int) -> list[dict]:
    return [add_env(f"Turn {prefix} {n}: we talked about topic {prefix}{n}.", None, f"tx-{prefix}-{n}",
                    kind="episode", user="u1") for n in range(count)]


def test_two_handles_racing_on_one_scope_lose_and_duplicate_nothing():
    url = fresh_schema_url()
    stores = [PostgresStore.create(url, clock=FixedClock(T1)), PostgresStore.open(url, clock=FixedClock(T1))]
    results: dict[str, list] = {}

    def write(name: str, store) -> None:
        results[name] = [store.mutate(env) for env in _episodes(name, 25)]
    threads = [threading.Thread(target=write, args=(name, store)) for name, store in zip("ab", stores)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(r["status"] == "applied" for rs in results.values() for r in rs)
    revisions = PostgresStore.open(url).scope_revisions(scope("u1"))
    assert len(revisions) == 50 and len({r["id"] for r in revisions}) == 50
    # each handle's cached state caught up with the other's writes
    assert all(len(list(store.state(scope("u1")).currents())) == 50 for store in stores)


def test_two_processes_applying_to_one_scope_lose_and_duplicate_nothing(tmp_path):
    url = fresh_schema_url()
    assert run(url, T1, "init")[0] == 0
    procs = []
    for name in "ab":
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(dumps_text(env) + "\n" for env in _episodes(name, 40)))
        procs.append(subprocess.Popen([sys.executable, "-m", "memory.cli", "--store", url, "apply", str(path),
                                       "--batch-size", "5", "--json"], stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, env=cli_env(T1), text=True))
    outputs = [proc.communicate(timeout=240) for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0], [err for _, err in outputs]
    statuses = [json.loads(line)["status"] for out, _ in outputs for line in out.splitlines()]
    assert statuses == ["applied"] * 80
    revisions = PostgresStore.open(url).scope_revisions(scope("u1"))
    assert sorted(r["transition"]["transaction_id"] for r in revisions) == \
        sorted(f"tx-{name}-{n}" for name in "ab" for n in range(40))


@pytest.mark.parametrize("bad", ["postgresql://postgres@/nowhere?host=/nonexistent-memory-socket&port=1"])
def test_an_unreachable_database_is_a_store_error_without_a_trace(bad):
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install 'memory-ledger[postgres]')")
    code, out = run(bad, T1, "query", "anything?", "--user", "u1", "--json")
    assert code == 7 and json.loads(out)["error"]["code"] == "store_unavailable"


def test_an_export_moves_between_backends_and_comes_back_byte_identical(tmp_path):
    """memory export on JSONL -> memory import jsonl into PostgreSQL -> memory export: the same
    file (erasure audit rows included), and the scope answers there; a second import is idempotent."""
    source = str(tmp_path / "jsonl")
    locker = history_of_a_user(source)["locker_id"]
    exported = tmp_path / "u1.jsonl"
    exported.write_text(run(source, T3, "export", "--user", "u1")[1])
    url = fresh_schema_url()
    code, restored = run_json(url, T3, "import", "jsonl", str(exported))
    assert (code, restored["status"], restored["audit_rows"]) == (0, "restored", 1), restored
    assert run(url, T3, "export", "--user", "u1")[1] == exported.read_text()
    assert run_json(url, T3, "import", "jsonl", str(exported))[1]["status"] == "idempotent"
    answer = run_json(url, T3, "query", "what is the home city of the user?", "--user", "u1")[1]
    assert answer["knowledge_state"] == "VERIFIED"
    # the erased record's transaction is still known after the move: a replay is idempotent
    again = run_json(url, T3, "erase", locker, "--user", "u1", "--tx", "tx-erase", "--reason", "asked")[1]
    assert again["status"] == "idempotent"


def test_a_lost_connection_is_a_store_error_and_the_next_call_reconnects():
    import uuid as _uuid

    from memory.errors import StoreError
    from memory.postgres_ledger import PostgresLedger
    name = "victim_" + _uuid.uuid4().hex[:8]
    url = fresh_schema_url() + f"&application_name={name}"
    store = PostgresStore.create(url, clock=FixedClock(T1))
    record = store.mutate(add_env("The user lives in Rome.", "user.home_city", "tx-1", user="u1"))["record_id"]
    killer = PostgresLedger(url.replace(name, "killer"))
    assert killer.conn.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                               "WHERE application_name = %s", (name,)).fetchone()[0] >= 1
    killer.close()
    with pytest.raises(StoreError) as lost:
        store.get(record, scope("u1"))
    assert lost.value.code == "store_unavailable" and "Rome" not in lost.value.message
    assert store.get(record, scope("u1"))["statement"] == "The user lives in Rome."
