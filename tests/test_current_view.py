"""The derived current view (memory/store/current.py): what a query reads instead of folding the log.

It must always say what the fold of the log says (ids in log order, status, revision, kind,
speaker, session, first recorded time, the record itself), extend itself from the appended
tail, and be rebuilt when the bytes it was pinned to move.
"""
from __future__ import annotations

import random
import signal
import subprocess
import sys
import time

import pytest

from memory import indexing
from memory.query import QueryRequest, run_query
from memory.store import CurrentRecords, Store
from memory.store import current as current_module

from memory.retrieval.bm25 import BM25Index
from memory.retrieval.tokenize import tokenize

from helpers import NOW, add_env, by_id, cli_env, envelope, make_store, reopen, scope, shard_of, update_env


def episode(text: str, tx: str, session: str = "s1", speaker: str = "Maria", user: str = "alice") -> dict:
    env = envelope("add", tx, user=user, source="conversation",
                   payload={"kind": "episode", "statement": text, "confidence": "high", "importance": "low",
                            "aliases": [], "tags": [], "negative_triggers": []},
                   valid={"from": "2024-01-01T10:00:00Z", "to": None})
    env["source"].update({"session": session, "speaker": speaker})
    return env


@pytest.fixture
def store(tmp_path):
    return make_store(tmp_path / "store")


def fill(store, n: int = 300) -> dict:
    """Enough records that the view is saved (more than current.SAVE_AFTER_LINES lines)."""
    results = store.apply([episode(f"Turn {i} about the garden.", f"ep-{i}", session=f"s{i // 10}")
                           for i in range(n)])
    assert {r["status"] for r in results} == {"applied"}
    home = applied(store, add_env("The user lives in Rome.", "user.home_city", "tx-rome",
                                  valid_from="2024-01-01T00:00:00Z"))["record_id"]
    applied(store, update_env("The user lives in Oslo.", "tx-oslo", key="user.home_city",
                              valid_from="2024-02-01T00:00:00Z"))
    tea = applied(store, add_env("The user likes tea.", "user.drink", "tx-tea"))["record_id"]
    return {"home": home, "tea": tea}


def applied(store, env) -> dict:
    result = store.mutate(env)
    assert result["status"] == "applied", result
    return result


def agrees_with_the_fold(store: Store) -> None:
    fresh = reopen(store)
    state = fresh.fold(scope())
    view = fresh.current_view(scope())
    currents = list(state.currents())
    assert view.ids == [r["id"] for r in currents]
    records = CurrentRecords(view)
    for record in currents:
        assert records[record["id"]] == record
        for column, value in (("kind", record["kind"]), ("status", record["status"]),
                              ("speaker", record["source"].get("speaker")),
                              ("session", record["source"].get("session")),
                              ("created", state.revisions[record["id"]][0]["recorded_time"]["recorded_at"])):
            assert records.column(column, record["id"]) == value, column


def test_the_view_says_what_the_fold_says(store):
    fill(store)
    agrees_with_the_fold(store)


def test_the_view_is_saved_and_extended_from_the_tail_only(store, monkeypatch):
    fill(store)
    reopen(store).current_view(scope())                        # built and saved
    store.mutate(add_env("The user has a cat.", "user.pet", "tx-cat"))
    parsed = []
    real = current_module.loads_trusted
    monkeypatch.setattr(current_module, "loads_trusted", lambda data: parsed.append(1) or real(data))
    view = reopen(store).current_view(scope())
    # the saved header and its ids, then the one appended line: not the 300-odd lines before it
    assert len(parsed) == 3
    assert CurrentRecords(view)[view.ids[-1]]["statement"] == "The user has a cat."
    agrees_with_the_fold(store)


def test_an_erasure_moves_the_pins_and_the_view_is_rebuilt_without_the_record(store):
    written = fill(store)
    held = reopen(store)
    before = held.current_view(scope())
    assert written["tea"] in before.slot
    store.mutate(by_id("erase", written["tea"], "tx-erase"))
    after = held.current_view(scope(), before)
    assert after is not before and written["tea"] not in after.slot
    agrees_with_the_fold(store)


def test_a_transaction_cut_short_at_the_tail_is_not_in_the_view(store):
    fill(store)
    reopen(store).current_view(scope())
    path = shard_of(store)
    listed = (path.parent / "manifest.json").read_bytes()
    applied(store, update_env("The user lives in Lima.", "tx-lima", key="user.home_city",
                              valid_from="2024-02-15T00:00:00Z"))
    data = path.read_bytes()
    lines = data.splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:-1]))        # the update wrote two revisions: keep only the first
    (path.parent / "manifest.json").write_bytes(listed)     # and the crash came before the manifest
    agrees_with_the_fold(store)
    applied(store, add_env("The user has a cat.", "user.pet", "tx-cat"))   # heals the cut, appends
    agrees_with_the_fold(store)


def test_a_torn_line_is_not_read(store):
    fill(store)
    with open(shard_of(store), "ab") as handle:
        handle.write(b'{"id": "half a line')
    agrees_with_the_fold(store)


def test_a_query_process_reads_the_view_not_the_folded_log(store, monkeypatch):
    fill(store)
    fresh = reopen(store)
    monkeypatch.setattr(Store, "fold", lambda self, s: pytest.fail("a current query folded the whole log"))
    answer = run_query(fresh, QueryRequest(text="where does the user live", user="alice"))
    assert "The user lives in Oslo." in [e["statement"] for e in answer["evidence"]]


def test_a_long_lived_reader_extends_its_view_in_place(store):
    fill(store)
    first = indexing.current_view(store, scope())
    store.mutate(add_env("The user has a cat.", "user.pet", "tx-cat"))
    second = indexing.current_view(store, scope())
    assert second is first and "The user has a cat." in [CurrentRecords(second)[i]["statement"]
                                                         for i in second.ids[-1:]]


def test_an_index_over_the_same_ids_borrows_the_views_table_and_neither_sees_the_others_changes(store):
    fill(store)
    run_query(reopen(store), QueryRequest(text="garden", user="alice"))     # view and index saved
    held = reopen(store)
    view = indexing.current_view(held, scope())
    index = indexing.open_index(held, scope())
    assert index._bm25._slot_of is view.slot          # one id -> slot table in the process, not two
    count = len(index)
    applied(held, add_env("The user has a cat.", "user.pet", "tx-cat"))
    grown = indexing.current_view(held, scope())    # the view absorbs the new record ...
    assert grown is view and len(view.ids) == count + 1 and view.ids[-1] in view.slot
    assert len(index) == count and view.ids[-1] not in index   # ... the index it lent to does not
    fresh = indexing.open_index(held, scope())
    assert len(fresh) == count + 1 and fresh.search("cat", 1)[0][0] == view.ids[-1]
    rebuilt = BM25Index()                           # extended from the tail = built from scratch
    for doc_id in fresh.doc_ids():
        rebuilt.add(doc_id, fresh.terms(doc_id))
    assert fresh.scores("garden cat turn") == rebuilt.scores(tokenize("garden cat turn"))
    fresh._bm25.add("mem_000000000000000000000000", ["extra"])     # an index's own change stays its own
    assert "mem_000000000000000000000000" not in view.slot and len(view.slot) == count + 1


# rebuilds and saves the derived files (current view, index) again and again until killed
REBUILDER = r"""
import shutil, sys
from memory.clock import FixedClock
from memory.query import QueryRequest, run_query
from memory.store import Store
root, now = sys.argv[1], sys.argv[2]
print("ready", flush=True)
while True:
    shutil.rmtree(root + "/current", ignore_errors=True)
    shutil.rmtree(root + "/index", ignore_errors=True)
    run_query(Store.open(root, clock=FixedClock(now)), QueryRequest(text="garden", user="alice"))
"""


def test_a_kill_while_the_derived_files_are_written_never_serves_a_wrong_answer(store):
    fill(store)
    questions = ("Turn 7 about the garden", "where does the user live", "what does the user like")

    def answers():
        fresh = reopen(store)
        return [run_query(fresh, QueryRequest(text=q, user="alice", include_inactive=True)) for q in questions]
    expected = answers()
    rng = random.Random(14)
    for _ in range(5):
        proc = subprocess.Popen([sys.executable, "-c", REBUILDER, str(store.root), NOW], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, env=cli_env(NOW))
        assert proc.stdout.readline() == b"ready\n"
        time.sleep(rng.uniform(0.05, 0.8))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        assert answers() == expected                 # whatever the kill left: loaded whole or rebuilt
        agrees_with_the_fold(store)

