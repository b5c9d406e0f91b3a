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
from memory.query import QueryRequest, _current_view, run_query
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


# -- the budget ---------------------------------------------------------------------------

from memory.store import budget as budget_module                     # noqa: E402

TURNS = 12


def _fill(store, users) -> None:
    for user in users:
        applied(store, [episode(f"{user} turn {i}: we talked about the {('garden', 'car', 'bike')[i % 3]}.",
                                f"{user}-ep-{i}", f"{user}-s{i % 2}", ("Tom", "Maria")[i % 2], user=user)
                        for i in range(TURNS)])


@pytest.fixture
def budget_of(monkeypatch):
    """Set the process's budget to what ``scopes`` scopes of ``TURNS`` records are estimated at,
    every cache a write and a query fill in use (restored after the test)."""
    saved = budget_module.BUDGET._limit

    def set_to(scopes: int) -> int:
        per_scope = TURNS * sum(budget_module.BYTES_PER_RECORD.values()) + 4 * budget_module.BYTES_PER_ENTRY
        budget_module.BUDGET.set_limit(scopes * per_scope)
        return per_scope
    yield set_to
    budget_module.BUDGET.set_limit(saved if saved is not None else budget_module._env_limit())


def _held(store) -> dict[str, set]:
    cache = indexing.read_cache(store)
    return {"states": set(store._states), "views": set(cache.currents), "indexes": set(cache.indexes),
            "built": {key[0] for key in [*cache.built, *cache.built_current]}}


USERS = [f"user{i}" for i in range(8)]


def test_scopes_touched_one_after_another_keep_at_most_the_budget(backend_store, budget_of):
    store = backend_store
    _fill(store, USERS)
    for digest in list(store._states):         # the states the writes left: every scope starts equal
        store._states.pop(digest)
        budget_module.BUDGET.forget(store, digest)
    budget_of(3)
    for user in USERS:
        store.state(scope(user))                 # as a write does (``memory serve`` adds, then searches)
        _answer(store, "What did we say about the garden?", user)
        held = _held(store)
        assert all(len(digests) <= 3 for digests in held.values()), held
    assert len(budget_module.BUDGET.scopes(store)) <= 3
    last = indexing.scope_digest("user", USERS[-1])
    assert all(last in digests for digests in held.values())     # the one used last: every cache


def test_without_a_budget_every_scope_stays(backend_store, budget_of):
    """(what the test above would see before: one entry per scope ever touched, in every cache)"""
    store = backend_store
    _fill(store, USERS)
    budget_of(len(USERS) + 1)
    for user in USERS:
        _answer(store, "What did we say about the garden?", user)
    assert all(len(digests) == len(USERS) for digests in _held(store).values())


def test_an_evicted_scope_answers_the_same_bytes(backend_store, budget_of):
    store = backend_store
    _fill(store, USERS)
    budget_of(100)
    questions = ["What did we say about the garden?", "Who talked about the car?", "What about the bike?"]
    before = {(user, q): _answer(store, q, user) for user in USERS for q in questions}
    budget_of(1)
    digest = indexing.scope_digest("user", USERS[0])
    for user in USERS[1:]:
        _answer(store, questions[0], user)
    assert digest not in _held(store)["views"] and digest not in store._states   # user0: dropped
    for (user, q), answer in before.items():
        assert _answer(store, q, user) == answer, (user, q)


def test_one_hot_scope_is_kept_whatever_the_budget(backend_store, budget_of):
    store = backend_store
    _fill(store, USERS[:1])
    budget_module.BUDGET.set_limit(0)
    _answer(store, "What did we say about the garden?", USERS[0])
    alice = scope(USERS[0])
    view, index = indexing.current_view(store, alice), indexing.open_index(store, alice)
    _answer(store, "What did we say about the garden?", USERS[0])
    assert indexing.current_view(store, alice) is view and indexing.open_index(store, alice) is index


def test_a_request_holding_an_evicted_view_finishes_with_it(backend_store, budget_of):
    store = backend_store
    _fill(store, USERS)
    budget_of(1)
    first = scope(USERS[0])
    records = indexing.built_from_current(store, first, "query_view",
                                          lambda current: _current_view(first, current)).records
    expected = {rid: records[rid]["statement"] for rid in list(records)}
    for user in USERS[1:]:                                # the scope is dropped meanwhile
        _answer(store, "What did we say about the car?", user)
    assert indexing.scope_digest("user", USERS[0]) not in _held(store)["views"]
    records._parsed.clear()                               # the held snapshot still reads its records
    assert {rid: records[rid]["statement"] for rid in list(records)} == expected


def test_the_budget_is_an_operators_setting(monkeypatch):
    monkeypatch.setenv("MEMORY_CACHE_MB", "64")
    assert budget_module._env_limit() == 64 << 20
    monkeypatch.setenv("MEMORY_CACHE_MB", "lots")
    with pytest.raises(Exception) as raised:
        budget_module._env_limit()
    assert getattr(raised.value, "code", None) == "usage_error"
    monkeypatch.delenv("MEMORY_CACHE_MB")
    assert budget_module._env_limit() == budget_module.DEFAULT_MB << 20


def test_a_closed_stores_scopes_leave_the_budget(tmp_path, budget_of):
    """(a process that opens many stores, as the benchmarks do: the scopes of a store no longer
    referenced do not count against the live ones)"""
    import gc
    budget_of(100)
    store = Store.create(tmp_path / "gone", clock=FixedClock(NOW))
    _fill(store, USERS[:2])
    assert budget_module.BUDGET.scopes(store)
    total = budget_module.BUDGET.total
    del store
    gc.collect()
    other = Store.create(tmp_path / "other", clock=FixedClock(NOW))
    _fill(other, USERS[:1])
    assert budget_module.BUDGET.total < total
    assert all(entry[0]() is not None for entry in budget_module.BUDGET._scopes.values())
