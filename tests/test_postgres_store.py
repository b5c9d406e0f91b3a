"""PostgresStore beyond the contract: its per-process caches against other threads and processes."""
from __future__ import annotations

import threading

from memory.clock import FixedClock
from memory.store import PostgresStore

from helpers import add_env, pinned_config, scope  # noqa: F401 (pinned_config is a fixture)
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


def test_a_retention_sweep_on_postgres_erases_what_expired_from_the_tables(tmp_path, pinned_config):
    """memory retention sweep through the PostgreSQL writer: the expired episodes' rows are
    deleted, one content-free audit row names the rule, and a query no longer finds them."""
    import json
    import shutil

    from memory.clock import add_days
    from memory.postgres_ledger import PostgresLedger
    from memory.query import QueryRequest, run_query
    from memory.retention import sweep
    from test_retention import RULES, USER, envelope
    config = tmp_path / "config"
    shutil.copytree(pinned_config, config)
    policy = json.loads((config / "forgetting-policy.json").read_text())
    policy["retention"] = RULES
    (config / "forgetting-policy.json").write_text(json.dumps(policy, indent=2))
    url = fresh_schema_url()
    start = "2024-01-01T00:00:00Z"
    store = PostgresStore.create(url, clock=FixedClock(start), config=config)
    for env in [envelope("ep", "We talked about the Quillmarsh hiking trail.", kind="episode", source="conversation"),
                envelope("pref", "The user prefers Vexlander tea.", key="user.tea", kind="preference")]:
        assert store.mutate(env)["status"] == "applied"
    def found(handle) -> list[str]:
        answer = run_query(handle, QueryRequest(text="Quillmarsh hiking trail", user="ret", include_inactive=True))
        return [e["statement"] for e in answer["evidence"] + answer["audit_only"]]
    # this handle (its clock before the window ends) holds the scope's state, view and index
    assert found(store) == ["We talked about the Quillmarsh hiking trail."]
    later = PostgresStore.open(url, clock=FixedClock(add_days(start, 31)), config=config)
    summary = sweep(later)
    assert summary["records_erased"] == 1 and summary["by_rule"][0]["rule"] == 1
    ledger = PostgresLedger(url)
    digest = later._digest(USER)
    assert all(b"Quillmarsh" not in line for _, line in ledger.read(digest))
    assert [json.loads(line)["event"] for line in ledger.audit(digest)] == ["erase_retention"]
    ledger.close()
    # the erasure (audit rows changed) makes every handle read the scope again: its index
    # and its current view (what a query reads) no longer hold the record
    assert found(later) == [] and found(store) == []
    from memory.indexing import current_view
    erased = summary["erased"][0]["record_id"]
    assert erased not in current_view(store, USER).ids and len(current_view(store, USER).ids) == 1
