"""A long-lived store extends its read side from its own appends (issue 14, ``memory serve``): the
write path hands what it appended (the lines, their shard and offset, the files before and after)
to the read side (``Store.hand_appends_to``), and the next search extends the current view and
the index from it (``log.appended_tail``) without listing or reading a shard. Everything must stay
what reading the shards gives: the same cursor, the same view and index, the same answers as a
fresh ``Store``; a write by another process, a retire, an update, an erasure, a turn calling
something off must all take effect in the next search.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from memory import api, indexing
from memory.query import QueryRequest, run_query
from memory.store import current as current_mod, log as log_mod

from helpers import NOW, add_env, by_id, envelope, make_store, reopen, scope, update_env

REPO = Path(__file__).resolve().parent.parent
ASKED = "2024-02-06T09:00:00Z"
QUESTIONS = ("Am I going to Lisbon?", "Where do I work?", "What is my cat called?", "What did I eat in Rome?",
             "When is my dentist appointment?")


def _served(root: Path):
    """A store opened as ``memory serve`` opens it: one ``Store``, saves off the request path."""
    store = make_store(root)
    indexing.defer_saves(store)
    return store


def _turn(store, text: str, at: str, tx: str, session: str = "chat"):
    store.clock.set(at)
    result = api.add(store, "paul", text, speaker="paul", session=session, valid_from=at, tx=tx)
    assert result.status == "applied"
    return result


def _answers(store) -> list[dict]:
    store.clock.set(ASKED)
    return [run_query(store, QueryRequest(text=q, user="paul", include_inactive=True)) for q in QUESTIONS] \
        + [api.search(store, q, "paul", top_k=10) for q in QUESTIONS]


def _statements(answer: dict) -> list[str]:
    return [item["statement"] for item in answer["evidence"]]


@contextmanager
def _shard_reads():
    """Counts the tails read from the shards (``log.read_tail``, as the view and the store call it)."""
    calls = []
    real = log_mod.read_tail

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)
    log_mod.read_tail, current_mod.read_tail = counted, counted
    try:
        yield calls
    finally:
        log_mod.read_tail, current_mod.read_tail = real, real


def _same_as_the_shards(store) -> None:
    """The held view and index are what a fresh ``Store`` reads from the shards: the same cursor
    (the pins ``read_tail`` gives from scratch), records, columns and documents; every answer
    the same."""
    held_view = indexing.current_view(store, scope("paul"))
    held_index = indexing.open_index(store, scope("paul"))
    fresh = reopen(store)
    for derived in ("index", "current"):      # nothing saved is reused: everything read from the log
        for path in (Path(store.root) / derived).rglob("*"):
            if path.is_file():
                path.unlink()
    fresh_view = indexing.current_view(fresh, scope("paul"))
    fresh_index = indexing.open_index(fresh, scope("paul"))
    assert held_view.cursor == fresh.read_tail(scope("paul"), {}).cursor == fresh_view.cursor
    assert held_index.cursor == held_view.cursor
    assert held_view.ids == fresh_view.ids
    assert {name: list(values) for name, values in held_view.columns.items()} == \
        {name: list(values) for name, values in fresh_view.columns.items()}
    assert held_view.tables == fresh_view.tables and held_view.calls_off == fresh_view.calls_off
    assert held_index.doc_ids() == fresh_index.doc_ids()
    assert [held_index.terms(i) for i in held_index.doc_ids()] == [fresh_index.terms(i) for i in fresh_index.doc_ids()]
    assert _answers(store) == _answers(fresh)


def _story(store) -> list:
    turns = [_turn(store, "We're planning a trip to Lisbon in March.", "2024-01-10T09:00:00Z", "t1"),
             _turn(store, "My cat is called Miso.", "2024-01-11T09:00:00Z", "t2"),
             _turn(store, "In Rome I ate the best carbonara.", "2024-01-12T09:00:00Z", "t3", session="trip")]
    store.clock.set("2024-01-13T09:00:00Z")
    turns.append(api.add(store, "paul", "I work at Globex.", key="job", valid_from="2024-01-13T09:00:00Z", tx="t4"))
    return turns


def test_a_search_after_an_own_write_reads_no_shard_and_holds_what_the_shards_hold(tmp_path):
    store = _served(tmp_path / "s")
    _story(store)
    _answers(store)                                    # the view and the index are held from here on
    for n in range(3):
        with _shard_reads() as reads:
            _turn(store, f"I booked a dentist appointment for 3 February, note {n}.", f"2024-01-2{n}T09:00:00Z", f"d{n}")
            store.clock.set(ASKED)
            answers = _answers(store)
        assert reads == []                             # extended from what the write handed over
        assert any("dentist" in s for s in _statements(answers[4]))
        # both readers caught up: the lines are not held any longer
        assert indexing.scope_digest("user", "paul") not in indexing.read_cache(store).appends
    _same_as_the_shards(store)


def test_appends_that_start_new_shards_are_handed_over_with_their_pins(tmp_path):
    store = _served(tmp_path / "s")
    store.shard_max_bytes = 1500                       # about two lines a shard: most writes start one
    _story(store)
    _answers(store)
    shards = len(store.shard_paths(scope("paul")))
    with _shard_reads() as reads:
        for n in range(4):
            _turn(store, f"I booked a dentist appointment for 3 February, note {n}.", f"2024-01-2{n}T09:00:00Z", f"d{n}")
            _answers(store)
    assert reads == [] and len(store.shard_paths(scope("paul"))) > shards
    _same_as_the_shards(store)


def test_a_write_by_another_process_between_two_searches_is_seen(tmp_path):
    store = _served(tmp_path / "s")
    _story(store)
    _answers(store)
    other = reopen(store)                              # another process's store on the same files
    other.clock.set("2024-01-20T09:00:00Z")
    api.add(other, "paul", "I booked a dentist appointment for the 3rd of March.", speaker="paul",
            session="chat", valid_from="2024-01-20T09:00:00Z", tx="o1")
    with _shard_reads() as reads:
        store.clock.set(ASKED)
        run_query(store, QueryRequest(text=QUESTIONS[4], user="paul"))
    assert len(reads) == 1                             # one tail read for the view and the index
    assert any("dentist" in s for s in _statements(_answers(store)[4]))
    _same_as_the_shards(store)
    # own, other, own: the second own append found the files as the other process left them, so
    # the appends do not chain from what the reader holds: the shards are read
    _turn(store, "The dentist moved it to the 5th of March.", "2024-01-21T09:00:00Z", "t5")
    _turn(other, "Actually the cat's full name is Miso Soup.", "2024-01-22T09:00:00Z", "o2")
    _turn(store, "We're flying to Lisbon on the 10th.", "2024-01-23T09:00:00Z", "t6")
    answers = _answers(store)
    assert any("Miso Soup" in s for s in _statements(answers[2]))
    _same_as_the_shards(store)
    # and a write of the other process after the own one, before the search
    _turn(store, "My cat Miso likes tuna.", "2024-01-24T09:00:00Z", "t7")
    _turn(other, "I ate gelato in Rome too.", "2024-01-25T09:00:00Z", "o3")
    assert any("gelato" in s for s in _statements(_answers(store)[3]))
    _same_as_the_shards(store)


def test_a_retire_an_update_an_erasure_and_a_turn_calling_off_take_effect_in_the_next_search(tmp_path):
    store = _served(tmp_path / "s")
    lisbon, cat, rome, job = _story(store)
    assert _statements(_answers(store)[0]) == ["We're planning a trip to Lisbon in March."]
    cancel = _turn(store, "I'll cancel the Lisbon trip, we're going to Porto instead.", "2024-02-05T09:00:00Z", "t5")
    assert _statements(_answers(store)[0]) == ["I'll cancel the Lisbon trip, we're going to Porto instead."]
    _same_as_the_shards(store)
    store.clock.set("2024-02-05T10:00:00Z")
    api.retire(store, "paul", cancel.record_id, at="2024-02-05T10:00:00Z", tx="t6")
    assert "I'll cancel the Lisbon trip, we're going to Porto instead." not in _statements(_answers(store)[0])
    _same_as_the_shards(store)
    store.clock.set("2024-02-05T11:00:00Z")
    api.update(store, "paul", "I work at Initech.", record_id=job.record_id, valid_from="2024-02-05T11:00:00Z",
               tx="t7")
    assert _statements(_answers(store)[1]) == ["I work at Initech."]
    _same_as_the_shards(store)
    api.erase(store, "paul", record_id=cat.record_id, tx="t8")
    assert not any("Miso" in s for s in _statements(_answers(store)[2]))
    _same_as_the_shards(store)
    _turn(store, "My new cat is called Tofu.", "2024-02-05T12:00:00Z", "t9")   # own appends after the erasure
    assert any("Tofu" in s for s in _statements(_answers(store)[2]))
    _same_as_the_shards(store)


def test_appends_do_not_tell_from_a_cursor_that_stands_elsewhere(tmp_path):
    """``log.appended_tail`` itself: a cursor behind the first append's files, a broken chain, a last
    append that is not the files now, or a cursor whose last pin names other bytes: None."""
    store = _served(tmp_path / "s")
    _story(store)
    _answers(store)
    digest = indexing.scope_digest("user", "paul")
    cache = indexing.read_cache(store)
    start = indexing.current_view(store, scope("paul")).cursor
    _turn(store, "First own note.", "2024-01-20T09:00:00Z", "n1")
    _turn(store, "Second own note.", "2024-01-21T09:00:00Z", "n2")
    appends = cache.appends[digest]
    now = store.fingerprint(scope("paul"))
    tail = store.appended_tail(scope("paul"), start, appends, now)
    assert tail is not None and tail.cursor == store.read_tail(scope("paul"), start).cursor
    assert tail.lines == store.read_tail(scope("paul"), start).lines
    assert tail.positions == store.read_tail(scope("paul"), start).positions
    assert store.appended_tail(scope("paul"), start, appends[-1:], now) is None      # the first is missing
    assert store.appended_tail(scope("paul"), start, appends[:-1], now) is None      # not the files now
    assert store.appended_tail(scope("paul"), start, appends[::-1], now) is None     # no chain
    wrong = {pin if not pin.startswith(sorted(start)[-1].split("|")[0]) else pin[:-1] + "x": offset
             for pin, offset in start.items()}
    assert store.appended_tail(scope("paul"), wrong, appends, now) is None
    assert store.appended_tail(scope("paul"), {}, appends, now) is None


pytest.importorskip("uvicorn", reason="the server extra is not installed (pip install -e '.[server]')")

import httpx  # noqa: E402

from memory.server import search_hit  # noqa: E402


def _env() -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_")}
    env["MEMORY_NOW"] = NOW
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


class _Served:
    def __init__(self, root: Path, log: Path) -> None:
        self.log = log
        with open(log, "wb") as out:
            self.process = subprocess.Popen([sys.executable, "-m", "memory.cli", "--store", str(root), "serve",
                                             "--port", "0"], stdout=out, stderr=out, env=_env(), cwd=REPO)
        deadline, url = time.monotonic() + 60, None
        while url is None and time.monotonic() < deadline and self.process.poll() is None:
            found = re.search(r"listening on (http://127\.0\.0\.1:(\d+))", log.read_text())
            url = found.group(1) if found and found.group(2) != "0" else None
            time.sleep(0.05)
        assert url, log.read_text()
        self.client = httpx.Client(base_url=url, timeout=60)

    def mutate(self, envelope: dict) -> dict:
        response = self.client.post("/v1/mutate", json=envelope)
        assert response.status_code == 200, response.text
        return response.json()

    def add(self, request_id: str, texts: list[str]) -> None:
        body = {"request_id": request_id, "user_id": "alice", "session_id": f"s-{request_id}",
                "messages": [{"role": "user", "content": t, "timestamp": "2024-02-01T10:00:00Z"} for t in texts]}
        self.client.post("/v1/memories/add", json=body).raise_for_status()

    def search(self, query: str) -> list[dict]:
        response = self.client.post("/v1/memories/search", json={"query": query, "user_id": "alice", "top_k": 10})
        response.raise_for_status()
        return response.json()["data"]

    def stop(self) -> None:
        self.client.close()
        self.process.terminate()
        self.process.wait(timeout=60)


def test_through_memory_serve_each_write_takes_effect_in_the_next_search(tmp_path):
    """A real ``memory serve``: its own adds, a retire, an update, an erasure, a turn calling
    something off, and a write by another process (``memory add``) between two searches; after
    each, what it finds is what a fresh ``Store`` finds."""
    root = tmp_path / "s"
    make_store(root)
    server = _Served(root, tmp_path / "serve.log")

    def found(query: str) -> list[str]:
        served = server.search(query)
        fresh = make_store(root)
        assert served == [search_hit(item) for item in api.search(fresh, query, "alice", top_k=10)]
        return [hit["content"].split("] ", 1)[1] for hit in served]     # the text, without its instant

    try:
        server.search("warm up")
        server.add("r1", ["We're planning a trip to Lisbon in March.", "My cat is called Miso."])
        assert any("Lisbon" in text for text in found("Am I going to Lisbon?"))
        server.mutate(add_env("I work at Globex.", "job", "j1", valid_from="2024-01-01T00:00:00Z"))
        assert found("Where do I work?")[:1] == ["I work at Globex."]
        server.mutate(update_env("I work at Initech.", "j2", key="job", valid_from="2024-02-01T00:00:00Z"))
        assert found("Where do I work?")[:1] == ["I work at Initech."]
        server.add("r2", ["I'll cancel the Lisbon trip, we're going to Porto instead."])
        found("Am I going to Lisbon?")
        gone = server.mutate(add_env("My locker code is in the blue notebook.", "locker", "l1",
                                     valid_from="2024-01-01T00:00:00Z"))
        assert any("locker" in text for text in found("Where is my locker code?"))
        server.mutate(by_id("retire", gone["record_id"], "l2"))
        assert not any("locker" in text for text in found("Where is my locker code?"))
        subprocess.run([sys.executable, "-m", "memory.cli", "--store", str(root), "add", "--user", "alice",
                        "--key", "dentist", "My dentist appointment is on the 3rd of March.", "--json"],
                       env=_env(), cwd=REPO, check=True, capture_output=True)
        assert any("dentist" in text for text in found("When is my dentist appointment?"))
        server.mutate(envelope("erase", "j3", key="job", user="alice"))       # every value of the key
        assert not any("Globex" in text or "Initech" in text for text in found("Where do I work?"))
        server.add("r3", ["I work at Umbrella now."])
        assert any("Umbrella" in text for text in found("Where do I work?"))
    finally:
        server.stop()
