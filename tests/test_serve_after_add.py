"""A search right after a write, in a long-lived store (issue 14): what the write costs the next
search is proportional to the write, not to the scope, and stays exact.

- ``BM25Index.fork`` shares its id and term tables with the index it forks: the older index must
  keep answering exactly as before while the newer one appends to them;
- ``indexing.defer_saves`` (``memory serve``) saves a refreshed index later, off the request path:
  a process killed before that save leaves the saved index behind the shards, and the next
  process answers the same bytes; a server stopped normally saves what is due.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from itertools import islice
from pathlib import Path

import pytest

from memory import indexing
from memory.jsonio import loads_trusted
from memory.paths import scope_digest
from memory.retrieval.bm25 import BM25Index
from memory.retrieval.index import META_FILE, ScopeIndex

from helpers import NOW, add_env, make_store, reopen, scope

REPO = Path(__file__).resolve().parent.parent


def answers(index: BM25Index, queries: list[list[str]]) -> list:
    """Everything a reader of ``index`` can see, in a comparable form."""
    out = [len(index), index.doc_ids(), [index.terms(d) for d in index.doc_ids()]]
    for tokens in queries:
        out += [index.top(tokens, 50), sorted(index.scores(tokens).items()),
                [(t, index.df(t), index.idf(t)) for t in tokens],
                [index.holders(t) for t in tokens]]
    return out


DOCS = [("a", "alice lives in berlin".split()), ("b", "bob lives in paris".split()),
        ("c", "alice likes tea and berlin".split()), ("d", "the cat sleeps".split())]
QUERIES = [["alice", "berlin"], ["tea", "cat", "zebra"], ["paris", "zebra"], ["lives"]]


def built(docs=DOCS, state=True) -> BM25Index:
    index = BM25Index()
    for doc_id, tokens in docs:
        index.add(doc_id, tokens)
    # from a saved state, as a loaded index is: base arrays, then the documents added since
    return BM25Index.from_state(index.to_state()) if state else index


def test_an_older_index_answers_the_same_after_its_fork_appends_to_the_shared_tables():
    older = built()
    older.scores(["alice"])                            # caches (norms, idf) taken before the fork
    before = answers(older, QUERIES)
    newer = older.fork()
    newer.add("e", "zebra alice runs".split())          # a new term and a new slot, in the shared tables
    newer.add("f", "alice alice alice".split())
    assert answers(older, QUERIES) == before
    assert "e" not in older and "e" in newer
    with pytest.raises(KeyError):
        older.terms("e")
    # the fork answers as the same index given the two documents without a fork does (the same
    # floats: the idf floor sums the df histogram in its order, which a fresh build does not share)
    unforked = built()
    unforked.add("e", "zebra alice runs".split())
    unforked.add("f", "alice alice alice".split())
    assert answers(newer, QUERIES) == answers(unforked, QUERIES)


def test_a_fork_appends_to_the_posting_lists_it_shares_and_every_older_index_reads_its_own_slots():
    """A chain of forks, as a server's writes make: each appends its slots to the posting lists
    its parent changed (no copy), and each older index answers as it did before its forks, also
    while a fork appends to a list it is reading (its count is taken before it reads)."""
    indexes = [built()]
    seen = [answers(indexes[0], QUERIES)]
    for n in range(4):
        newer = indexes[-1].fork()
        newer.add(f"n{n}", f"alice berlin zebra note {n}".split())
        if n:
            assert newer._post[newer._term_id["alice"]][0] is indexes[-1]._post[newer._term_id["alice"]][0]
        indexes.append(newer)
        seen.append(answers(newer, QUERIES))
        assert [answers(index, QUERIES) for index in indexes] == seen
    # an older index holding a list when a fork appends to it reads only its own entries
    older, alice = indexes[-1], indexes[-1]._term_id["alice"]
    slots, tfs, df = older._posting_df(alice)
    newest = older.fork()
    newest.add("late", "alice".split())
    assert slots is newest._post[alice][0] and len(slots) == df + 1
    assert list(zip(slots, islice(tfs, df))) == list(zip(*older._posting(alice)))
    assert answers(older, QUERIES) == seen[-1]
    # the same documents without forks: the same answers
    unforked = built()
    for n in range(4):
        unforked.add(f"n{n}", f"alice berlin zebra note {n}".split())
    unforked.add("late", "alice".split())
    assert answers(newest, QUERIES) == answers(unforked, QUERIES)
    # a second fork of an older index, and a removal, copy before they change a shared list
    second = indexes[2].fork()
    second.add("other", "alice zebra".split())
    second.remove("n0")
    assert [answers(index, QUERIES) for index in indexes] == seen
    assert "other" not in newest and second.holders("alice")[-1] == "other"


def test_a_second_fork_of_an_older_index_takes_its_own_tables():
    older = built()
    first, second = older.fork(), older.fork()
    first.add("e", "zebra one".split())
    second.add("g", "zebra two".split())               # not the newest: copies before it appends
    assert "g" not in first and "e" not in second and "e" not in older and "g" not in older
    assert first.top(["zebra"], 5) == [("e", first.top(["zebra"], 5)[0][1])]
    assert [d for d, _ in second.top(["zebra"], 5)] == ["g"]
    assert second.doc_ids() == ["a", "b", "c", "d", "g"]
    assert older.fork().doc_ids() == ["a", "b", "c", "d"]


def test_a_removal_in_a_fork_leaves_the_older_index_whole():
    older = built()
    before = answers(older, QUERIES)
    newer = older.fork()
    newer.remove("a")
    newer.add("c", "replaced text".split())             # a replaced document: removed, then added
    assert answers(older, QUERIES) == before
    assert newer.doc_ids() == ["b", "d", "c"] and "a" in older


def test_a_fork_of_an_index_over_borrowed_ids_leaves_the_lenders_dict_alone():
    saved = built(state=False).to_state()
    lent = dict(zip(saved["ids"], range(len(saved["ids"]))))
    index = BM25Index.from_state(saved, slot_of=lent)
    index.fork().add("e", "zebra".split())
    assert lent == {"a": 0, "b": 1, "c": 2, "d": 3}


# -- deferred saves ----------------------------------------------------------------------------


def saved_cursor(store, user="alice") -> dict | None:
    meta = store.index_dir(scope_digest("user", user)) / META_FILE
    return loads_trusted(meta.read_bytes())["cursor"] if meta.exists() else None


def behind(store, user="alice") -> bool:
    """Whether the saved index lacks records the shards hold."""
    cursor = saved_cursor(store, user)
    return cursor is None or bool(store.read_tail(scope(user), cursor).lines)


def test_a_deferred_save_waits_for_flush_and_the_index_is_extended_meanwhile(tmp_path, monkeypatch):
    store = make_store(tmp_path / "s")
    store.mutate(add_env("Alice lives in Berlin", "user.city", "t1"))
    first = indexing.open_index(store, scope())        # saved now: no saver yet
    assert not behind(store)
    saver = indexing.defer_saves(store, delay=3600)
    loads = []
    real = ScopeIndex.open.__func__
    monkeypatch.setattr(ScopeIndex, "open", classmethod(lambda cls, *a: loads.append(1) or real(cls, *a)))
    store.mutate(add_env("Alice likes tea", "user.drink", "t2"))
    second = indexing.open_index(store, scope())
    store.mutate(add_env("Alice has a cat", "user.pet", "t3"))
    third = indexing.open_index(store, scope())
    assert loads == [] and len(first) == 1 and len(second) == 2 and len(third) == 3
    assert behind(store) and saver.due() == 1           # nothing saved on the request path
    indexing.flush_saves(store)
    assert not behind(store) and saver.due() == 0
    assert sorted(third.doc_ids()) == sorted(real(ScopeIndex, third.directory, third.settings).doc_ids())
    store.mutate(add_env("Alice owns a bike", "user.bike", "t4"))
    assert len(indexing.open_index(store, scope())) == 4 and loads == []   # the saved one was not reloaded


def test_an_index_never_saved_is_extended_not_rebuilt(tmp_path, monkeypatch):
    store = make_store(tmp_path / "s")
    indexing.defer_saves(store, delay=3600)
    store.mutate(add_env("Alice lives in Berlin", "user.city", "t1"))
    indexing.open_index(store, scope())                 # built from the log, due, not saved
    opened = []
    real = ScopeIndex.open.__func__
    monkeypatch.setattr(ScopeIndex, "open", classmethod(lambda cls, *a: opened.append(1) or real(cls, *a)))
    store.mutate(add_env("Alice likes tea", "user.drink", "t2"))
    assert len(indexing.open_index(store, scope())) == 2 and opened == []


def test_the_saver_thread_saves_what_is_due_after_its_delay(tmp_path):
    store = make_store(tmp_path / "s")
    indexing.defer_saves(store, delay=0.05)
    store.mutate(add_env("Alice lives in Berlin", "user.city", "t1"))
    indexing.open_index(store, scope())
    deadline = time.monotonic() + 30
    while behind(store) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not behind(store)


def test_an_index_saved_by_another_process_meanwhile_is_not_appended_to(tmp_path):
    store = make_store(tmp_path / "s")
    store.mutate(add_env("Alice lives in Berlin", "user.city", "t1"))
    indexing.open_index(store, scope())
    indexing.defer_saves(store, delay=3600)
    store.mutate(add_env("Alice likes tea", "user.drink", "t2"))
    indexing.open_index(store, scope())                 # due, not saved
    other = reopen(store)
    other.mutate(add_env("Alice has a cat", "user.pet", "t3"))
    indexing.open_index(other, scope())                 # "another process" saves its delta
    store.mutate(add_env("Alice owns a bike", "user.bike", "t4"))
    mine = indexing.open_index(store, scope())
    indexing.flush_saves(store)
    assert len(mine) == 4
    assert sorted(ScopeIndex.open(mine.directory, mine.settings).doc_ids()) == sorted(mine.doc_ids())


# -- memory serve, killed or stopped -------------------------------------------------------------

pytest.importorskip("fastapi", reason="the server extra is not installed (pip install -e '.[server]')")
pytest.importorskip("uvicorn", reason="the server extra is not installed (pip install -e '.[server]')")

import httpx  # noqa: E402

# the server with a saver that never fires on its own: only a flush (a normal stop) saves
SERVE_WITHOUT_TIMED_SAVES = ("import sys, memory.indexing as indexing; indexing.SAVE_DELAY_SECONDS = 3600; "
                             "from memory.cli import main; sys.argv[0] = 'memory'; main()")


def _env() -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_")}
    env["MEMORY_NOW"] = NOW
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


class Served:
    def __init__(self, root: Path, log: Path) -> None:
        self.log = log
        with open(log, "wb") as out:
            self.process = subprocess.Popen([sys.executable, "-c", SERVE_WITHOUT_TIMED_SAVES, "--store", str(root),
                                             "serve", "--port", "0"], stdout=out, stderr=out, env=_env(), cwd=REPO)
        deadline, self.url = time.monotonic() + 60, None
        while self.url is None and time.monotonic() < deadline and self.process.poll() is None:
            found = re.search(r"listening on (http://127\.0\.0\.1:(\d+))", log.read_text())
            self.url = found.group(1) if found and found.group(2) != "0" else None
            time.sleep(0.05)
        assert self.url, log.read_text()
        self.client = httpx.Client(base_url=self.url, timeout=60)

    def add(self, request_id: str, texts: list[str]) -> None:
        body = {"request_id": request_id, "user_id": "alice", "session_id": f"s-{request_id}",
                "messages": [{"role": "user", "content": t, "timestamp": "2024-02-01T10:00:00Z"} for t in texts]}
        self.client.post("/v1/memories/add", json=body).raise_for_status()

    def search(self, query: str) -> bytes:
        response = self.client.post("/v1/memories/search", json={"query": query, "user_id": "alice", "top_k": 10})
        response.raise_for_status()
        return response.content

    def stop(self, sig: int) -> None:
        self.client.close()
        self.process.send_signal(sig)
        self.process.wait(timeout=60)


QUESTIONS = ["Where is the flat I moved to in Berlin?", "What do I drink every morning, tea?",
             "What is my cat called, and where does Miso sleep?"]
TURNS = [["I moved to Berlin last year", "The flat is near the river"],
         ["I drink green tea every morning", "Coffee makes me nervous"],
         ["My cat is called Miso", "Miso sleeps on the sofa all day"]]


def _served_answers(root: Path, log: Path, sig: int) -> list[bytes]:
    server = Served(root, log)
    try:
        server.search("warm up")
        found = []
        for i, texts in enumerate(TURNS):
            server.add(f"r{i}", texts)
            found += [server.search(q) for q in QUESTIONS]
    except BaseException:
        server.stop(signal.SIGKILL)
        raise
    server.stop(sig)
    return found


def _answers_after(root: Path, log: Path) -> list[bytes]:
    server = Served(root, log)
    try:
        return [server.search(q) for q in QUESTIONS]
    finally:
        server.stop(signal.SIGKILL)


def test_a_server_killed_before_saving_its_index_loses_nothing(tmp_path):
    make_store(tmp_path / "s")
    served = _served_answers(tmp_path / "s", tmp_path / "one.log", signal.SIGKILL)
    store = make_store(tmp_path / "s")
    assert behind(store)                                # the kill came before any save of the index
    assert all(json.loads(answer)["data"] for answer in served[-len(QUESTIONS):])   # each found something
    assert _answers_after(tmp_path / "s", tmp_path / "two.log") == served[-len(QUESTIONS):]
    # and the same bytes as a store whose derived files are rebuilt from the shards alone
    for derived in (tmp_path / "s").rglob(META_FILE):
        derived.unlink()
    assert _answers_after(tmp_path / "s", tmp_path / "three.log") == served[-len(QUESTIONS):]


def test_a_server_stopped_normally_saves_what_was_due(tmp_path):
    make_store(tmp_path / "s")
    served = _served_answers(tmp_path / "s", tmp_path / "one.log", signal.SIGTERM)
    assert not behind(make_store(tmp_path / "s"))
    assert _answers_after(tmp_path / "s", tmp_path / "two.log") == served[-len(QUESTIONS):]
