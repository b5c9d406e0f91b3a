"""PostgresStore beyond the contract: its per-process caches against other threads and processes."""
from __future__ import annotations

import threading

from memory.clock import FixedClock
from memory.store import PostgresStore

from helpers import add_env, scope
from pg import fresh_schema_url

NOW = "2024-03-01T12:00:00Z"


def test_a_reader_between_a_writers_adoption_and_its_commit_never_absorbs_a_revision_twice(monkeypatch):
    """A writer thread adopts its revisions into the shared state before COMMIT; a reader thread
    that reads the scope in between must not move the state's position back, or it would read
    those revisions again after the COMMIT and hold them twice."""
    store = PostgresStore.create(fresh_schema_url(), clock=FixedClock(NOW))
    store.mutate(add_env("The user lives in Rome.", "user.home_city", "tx-0", user="u1"))
    adopt = store._adopt

    def adopt_then_let_a_reader_in(where, state):
        adopt(where, state)
        reader = threading.Thread(target=lambda: store.state(scope("u1"), store.fingerprint(scope("u1"))))
        reader.start()
        reader.join()
    monkeypatch.setattr(store, "_adopt", adopt_then_let_a_reader_in)
    record = store.mutate(add_env("The user likes tea.", "user.drink", "tx-1", user="u1"))["record_id"]
    monkeypatch.undo()
    state = store.state(scope("u1"), store.fingerprint(scope("u1")))
    assert [r["revision"] for r in state.revisions[record]] == [1]
    assert len(list(state.currents())) == 2


def test_the_url_a_store_prints_hides_its_password():
    from memory.store.postgres import redacted
    assert redacted("postgresql://ann:s%40cr%3At@db.example:5432/memory?sslmode=require") == \
        "postgresql://ann:***@db.example:5432/memory?sslmode=require"
    assert redacted("postgresql://postgres@/memory?host=/tmp/x&port=5") == "postgresql://postgres@/memory?host=/tmp/x&port=5"
