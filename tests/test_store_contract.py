"""The store's contract, written once and run against every backend (memory/store/interface.py).

A second backend (PostgreSQL, DESIGN.md §9) adds itself to ``BACKENDS``: a factory that
creates or reopens a store at a root with a clock. Every test here must then pass for it
unchanged: append, idempotency, locking, pins, erasure, recorded-time reads.
"""
from __future__ import annotations

import threading
from pathlib import Path

import pytest

from memory.clock import FixedClock
from memory.errors import NotFoundError
from memory.store import Store, StoreBackend

from helpers import add_env, by_id, config_copy, scope, update_env


def _jsonl(root: Path, clock, config: Path | None = None) -> Store:
    return Store.create(root, clock=clock, config=config)


_URLS: dict[Path, str] = {}


def _postgres(root: Path, clock, config: Path | None = None):
    """A PostgreSQL store in a schema of its own per test (tests/pg.py; skips without a server)."""
    from pg import fresh_schema_url

    from memory.store.postgres import PostgresStore
    if root not in _URLS:
        _URLS[root] = fresh_schema_url()
    return PostgresStore.create(_URLS[root], clock=clock, config=config)


BACKENDS = {"jsonl": _jsonl, "postgres": _postgres}


@pytest.fixture(params=sorted(BACKENDS))
def backend(request, tmp_path):
    """(open(), clock): ``open()`` gives a new handle on the same store (a fresh process's view)."""
    clock = FixedClock("2024-03-01T12:00:00Z")
    config = config_copy(tmp_path / "config")
    factory = BACKENDS[request.param]
    return (lambda: factory(tmp_path / "store", clock, config)), clock


def applied(store, env) -> dict:
    result = store.mutate(env)
    assert result["status"] == "applied", result
    return result


def test_a_backend_implements_the_interface(backend):
    open_, _ = backend
    assert isinstance(open_(), StoreBackend)


# -- append ------------------------------------------------------------------------------------

def test_an_acknowledged_write_is_read_back_by_a_new_handle(backend):
    open_, _ = backend
    result = applied(open_(), add_env("The user lives in Rome.", "user.home_city", "tx-1"))
    fresh = open_()
    assert fresh.get(result["record_id"], scope())["statement"] == "The user lives in Rome."
    assert [r["id"] for r in fresh.scope_revisions(scope())] == [result["record_id"]]


def test_a_batch_keeps_input_order_and_sees_its_own_writes(backend):
    open_, _ = backend
    store = open_()
    results = list(store.apply([add_env("The user lives in Rome.", "user.home_city", "tx-1"),
                                add_env("The user lives in Oslo.", "user.home_city", "tx-2"),
                                add_env("Bob likes tea.", "user.drink", "tx-3", user="bob")]))
    assert [r["transaction_id"] for r in results] == ["tx-1", "tx-2", "tx-3"]
    assert [r["status"] for r in results] == ["applied", "refused", "applied"]
    assert results[1]["error"]["code"] == "key_already_active"


def test_scopes_never_see_each_other(backend):
    open_, _ = backend
    store = open_()
    alice = applied(store, add_env("The user lives in Rome.", "user.home_city", "tx-1"))["record_id"]
    with pytest.raises(NotFoundError):
        open_().get(alice, scope("bob"))
    assert open_().scope_revisions(scope("bob")) == []


# -- idempotency -------------------------------------------------------------------------------

def test_a_replay_is_idempotent_and_a_reused_id_conflicts(backend):
    open_, _ = backend
    env = add_env("The user lives in Rome.", "user.home_city", "tx-1")
    first = applied(open_(), env)
    again = open_().mutate(env)
    assert again["status"] == "idempotent" and again["record_id"] == first["record_id"]
    other = open_().mutate(add_env("The user lives in Oslo.", "user.home_city", "tx-1"))
    assert other["status"] == "refused" and other["error"]["code"] == "transaction_conflict"
    assert len(open_().scope_revisions(scope())) == 1


# -- locking -----------------------------------------------------------------------------------

def test_a_write_excludes_other_writers_of_its_scope_only(backend):
    open_, _ = backend
    store, other = open_(), open_()
    outcome: dict = {}

    def work(scope_write):
        same = threading.Thread(target=lambda: outcome.setdefault(
            "same", other.mutate(add_env("The user lives in Oslo.", "user.home_city", "tx-2"))))
        elsewhere = threading.Thread(target=lambda: outcome.setdefault(
            "elsewhere", other.mutate(add_env("Bob lives in Lima.", "user.home_city", "tx-3", user="bob"))))
        same.start()
        elsewhere.start()
        elsewhere.join(timeout=60)
        same.join(timeout=1)
        outcome["same_waited"] = same.is_alive()
        outcome["elsewhere_done"] = not elsewhere.is_alive()
        from memory.envelope import admit
        outcome["mine"] = scope_write.apply(admit(add_env("The user lives in Rome.", "user.home_city", "tx-1"),
                                                  store.policies.mutation))
        outcome["thread"] = same
    store.write(scope(), work)
    outcome["thread"].join()
    assert outcome["elsewhere_done"] and outcome["same_waited"]
    # the writer that held the lock won the key; the one that waited saw its write
    assert outcome["mine"]["status"] == "applied"
    assert outcome["same"]["status"] == "refused" and outcome["same"]["error"]["code"] == "key_already_active"


def test_work_that_raises_writes_nothing(backend):
    open_, _ = backend
    store = open_()
    from memory.envelope import admit

    def work(scope_write):
        scope_write.apply(admit(add_env("The user lives in Rome.", "user.home_city", "tx-1"), store.policies.mutation))
        raise RuntimeError("changed my mind")
    with pytest.raises(RuntimeError):
        store.write(scope(), work)
    assert open_().scope_revisions(scope()) == [] and list(store.state(scope()).currents()) == []


# -- pins --------------------------------------------------------------------------------------

def test_a_cursor_is_behind_after_a_write_and_moved_after_an_erasure(backend):
    open_, _ = backend
    store = open_()
    first = applied(store, add_env("The user lives in Rome.", "user.home_city", "tx-1"))["record_id"]
    tail = store.read_tail(scope(), {})
    assert not tail.moved and len(tail.lines) == 1
    assert store.cursor_status(scope(), tail.cursor) == "caught_up"
    applied(store, add_env("The user likes tea.", "user.drink", "tx-2"))
    assert store.cursor_status(scope(), tail.cursor) == "behind"
    assert len(store.read_tail(scope(), tail.cursor).lines) == 1
    applied(store, by_id("erase", first, "tx-3"))
    assert store.cursor_status(scope(), tail.cursor) == "moved"
    assert store.read_tail(scope(), tail.cursor).moved


def test_the_fingerprint_changes_with_every_write(backend):
    open_, _ = backend
    store = open_()
    before = store.fingerprint(scope())
    applied(open_(), add_env("The user lives in Rome.", "user.home_city", "tx-1"))
    assert store.fingerprint(scope()) != before


# -- erasure -----------------------------------------------------------------------------------

def test_an_erasure_removes_the_content_and_leaves_a_content_free_row(backend):
    open_, _ = backend
    store = open_()
    doomed = applied(store, add_env("The user likes PLUMTREE tea.", "user.drink", "tx-1"))["record_id"]
    kept = applied(store, add_env("The user lives in Rome.", "user.home_city", "tx-2"))["record_id"]
    applied(store, by_id("erase", doomed, "tx-3"))
    fresh = open_()
    with pytest.raises(NotFoundError):
        fresh.get(doomed, scope())
    assert fresh.get(kept, scope())["statement"] == "The user lives in Rome."
    assert all("PLUMTREE" not in str(r) for r in fresh.scope_revisions(scope()))
    rows = fresh.audit_rows(scope())
    assert len(rows) == 1 and rows[0]["record_ids"] == [doomed] and "PLUMTREE" not in str(rows[0])
    assert [r.get("statement") for r in fresh.state(scope()).currents()] == ["The user lives in Rome."]
    view = fresh.current_view(scope())
    assert view.ids == [kept]
    # the erased transaction is still known: a replay is idempotent, not a new write
    assert fresh.mutate(by_id("erase", doomed, "tx-3"))["status"] == "idempotent"


# -- recorded-time reads -------------------------------------------------------------------------

def test_the_log_answers_as_it_was_recorded_at_an_instant(backend):
    open_, clock = backend
    store = open_()
    clock.set("2024-03-01T12:00:00Z")
    rome = applied(store, add_env("The user lives in Rome.", "user.home_city", "tx-1",
                                  valid_from="2024-01-01T00:00:00Z"))["record_id"]
    clock.set("2024-04-01T12:00:00Z")
    applied(store, update_env("The user lives in Oslo.", "tx-2", key="user.home_city",
                              valid_from="2024-03-15T00:00:00Z"))
    state = open_().state(scope())
    then = {r["id"]: r["status"] for r in state.as_recorded_at("2024-03-15T00:00:00Z")}
    now = {r["id"]: r["status"] for r in state.as_recorded_at("2024-04-02T00:00:00Z")}
    assert then == {rome: "active"}
    assert now[rome] != "active" and sorted(now.values()).count("active") == 1
    assert [r["revision"] for r in open_().history(rome, scope())] == [1, 2]
