"""``memory serve`` for many users: the read caches of a process are bounded, and a query's
view and index are never read at different points of the scope's log.

- a search racing a write on the same scope: a query took its fingerprint, a writer appended
  a turn, another query caught the shared view up (in place) before the first one read it.
  The first query's view then held the new turn while its index (cached under that older
  fingerprint) did not; the turn reached the planner as a neighbour of a hit, and
  ``term_set`` raised KeyError (a 500 under 20 concurrent clients, PostgreSQL ~1 in 20 runs);
- the per-scope caches (opened indexes, current views, values built from them, folded states)
  keep at most the budget of scopes; a scope evicted answers the same bytes when asked again.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory import indexing
from memory.query import QueryRequest, run_query
from memory.store import Store

from helpers import FixedClock, NOW, envelope, scope
from pg import BACKENDS, backend_location


def episode(text: str, tx: str, session: str, speaker: str, user: str = "alice") -> dict:
    env = envelope("add", tx, source="conversation", user=user,
                   payload={"kind": "episode", "statement": text, "confidence": "high", "importance": "low",
                            "aliases": [], "tags": [], "negative_triggers": []},
                   valid={"from": "2024-01-01T10:00:00Z", "to": None})
    env["source"]["session"], env["source"]["speaker"] = session, speaker
    return env


def applied(store, envelopes) -> None:
    results = store.apply(envelopes)
    assert {r["status"] for r in results} == {"applied"}, results


@pytest.fixture(params=BACKENDS)
def backend_store(request, tmp_path):
    location = backend_location(request, tmp_path / "store")
    if location.startswith("postgres"):
        from memory.store.postgres import PostgresStore
        store = PostgresStore.create(location, clock=FixedClock(NOW))
        yield store
        store.close()
    else:
        yield Store.create(Path(location), clock=FixedClock(NOW))


def _answer(store, text: str, user: str = "alice") -> str:
    """The query's JSON as served (timings aside: a query's answer has none)."""
    return json.dumps(run_query(store, QueryRequest(text=text, user=user)), sort_keys=True)


def test_a_query_whose_view_a_newer_query_caught_up_reads_an_index_as_new(backend_store):
    store = backend_store
    alice = scope("alice")
    applied(store, [episode(f"Turn {i}: we talked about the weather.", f"ep-{i}", "s1", "Tom")
                    for i in range(5)]
            + [episode("I bought a red bicycle in Lisbon.", "ep-bike", "s1", "Tom")])
    _answer(store, "What did I buy in Lisbon?")           # the view and the index cached
    stale = store.fingerprint(alice)                      # query A takes its fingerprint ...
    # ... a writer appends the turn after the hit, in its session (a neighbour of the hit) ...
    applied(store, [episode("It was a gift for my sister.", "ep-gift", "s1", "Maria")])
    indexing.current_view(store, alice)                   # ... query B catches the shared view up
    # ... and query A reads, with the fingerprint it took before the write
    real = store.fingerprint
    store.fingerprint = lambda where: stale if where == alice else real(where)
    try:
        answer = run_query(store, QueryRequest(text="What did I buy in Lisbon?", user="alice"))
    finally:
        del store.fingerprint
    assert answer["evidence"], answer
    assert answer["evidence"][0]["statement"] == "I bought a red bicycle in Lisbon."
