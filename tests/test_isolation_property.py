"""Isolation as a property: nothing a caller sees depends on, or reveals, another scope.

For random multi-user stores (random user keys, random histories: adds, candidates,
updates, retires, disputes, forgets, episodes), every viewer's query result is
byte-for-byte the result the same query gives on a store holding the viewer's scope
alone — evidence, context, audit_only, trace and scores included — so no other scope
can leak into it or shift it. ``get``, ``history`` and by-id mutations aimed at another
scope's record answer exactly as for an id that exists nowhere; reusing another
scope's transaction id is not a conflict; nothing of another scope appears in any
message. ``MEMORY_HEAVY=1`` runs 300 stores (default 12).
"""
from __future__ import annotations

import os
import secrets
import shutil
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory.cli import main
from memory.clock import FixedClock
from memory.errors import NotFoundError
from memory.jsonio import dumps
from memory.query import QueryRequest, run_query
from memory.store import Store
from helpers import pinned_config, record_figures  # noqa: F401 (pinned_config is a fixture)

HEAVY = os.environ.get("MEMORY_HEAVY") == "1"
EXAMPLES = 300 if HEAVY else 12
NOW = "2024-06-01T00:00:00Z"
WORDS = ["city", "food", "ramen", "lives", "Lisbon", "Berlin", "meeting", "project", "dog", "blue", "editor",
         "user", "Friday", "budget"]
KEYS = ["user.city", "user.food", "user.pet", "project.editor"]


pytestmark = pytest.mark.usefixtures("pinned_config")




def envelope(tx: str, operation: str, user: str, *, key=None, record_id=None, statement=None, kind="fact",
             source="explicit_user", actor="user_via_agent", valid=None, conflict_with=None, session=None) -> dict:
    env = {"schema_version": "memory.envelope.v1", "transaction_id": tx, "operation": operation,
           "actor": {"type": actor, "id": "iso"}, "source": {"type": source, "ref": tx, "session": session},
           "target": {"record_id": record_id, "memory_key": key, "scope": {"type": "user", "key": user}},
           "reason": "isolation"}
    payload = {}
    if statement is not None:
        payload.update(kind=kind, statement=statement)
    if conflict_with is not None:
        payload["conflict_with"] = conflict_with
    if payload:
        env["payload"] = payload
    if valid is not None:
        env["valid_time"] = valid
    return env


@st.composite
def history(draw, user: str, marker: str) -> list[dict]:
    """A random but mostly admissible history for one user; every statement carries the marker."""
    envelopes, ids = [], []

    def text() -> str:
        return " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=4))) + f" {marker}"

    for step in range(draw(st.integers(1, 7))):
        tx = f"t{step}"          # the same transaction ids in every scope, on purpose
        action = draw(st.sampled_from(["add", "add", "candidate", "episode", "update", "retire", "dispute", "forget"]))
        if action == "add" or (not ids and action != "candidate" and action != "episode"):
            env = envelope(tx, "add", user, key=draw(st.sampled_from(KEYS)), statement=text(),
                           valid={"from": "2024-01-01T00:00:00Z", "to": None})
        elif action == "candidate":
            env = envelope(tx, "add", user, key=draw(st.sampled_from(KEYS)), statement=text(),
                           source="model_inference", actor="agent")
        elif action == "episode":
            env = envelope(tx, "add", user, kind="episode", statement=text(), source="conversation", actor="agent",
                           session=f"s{draw(st.integers(0, 1))}")
        elif action == "update":
            env = envelope(tx, "update", user, key=draw(st.sampled_from(KEYS)), statement=text(),
                           valid={"from": "2024-03-01T00:00:00Z", "to": None})
        elif action == "retire":
            env = envelope(tx, "retire", user, record_id=draw(st.sampled_from(ids)),
                           valid={"from": None, "to": "2024-05-01T00:00:00Z"})
        elif action == "dispute":
            env = envelope(tx, "dispute", user, record_id=draw(st.sampled_from(ids)),
                           conflict_with=[draw(st.sampled_from(ids))])
        else:
            env = envelope(tx, "forget", user, record_id=draw(st.sampled_from(ids)))
        envelopes.append(env)
        from memory.records import record_id_for
        ids.append(record_id_for({"type": "user", "key": user}, tx))
    return envelopes


user_keys = st.one_of(st.text(min_size=1, max_size=10).filter(lambda s: s.strip()),
                      st.sampled_from(["alice", "bob", "../bob", "bob ", "BOB", "user:bob", "0"]))


@st.composite
def worlds(draw):
    users = draw(st.lists(user_keys, min_size=2, max_size=3, unique=True))
    markers = {user: f"zq{i}{secrets.token_hex(4)}" for i, user in enumerate(users)}
    histories = {user: draw(history(user, markers[user])) for user in users}
    order = draw(st.permutations([(u, i) for u in users for i in range(len(histories[u]))]))
    order = sorted(order, key=lambda ui: ui[1])         # each user's own order kept, users interleaved
    queries = draw(st.lists(st.one_of(
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join),
        st.sampled_from(list(markers.values())).map(lambda m: f"what about {m}"),
        st.sampled_from(list(markers.values()))), min_size=1, max_size=3))
    return users, markers, histories, order, queries


def build(root: Path, histories: dict, order: list) -> Store:
    store = Store.create(root, clock=FixedClock(NOW))
    for user, index in order:
        store.mutate(histories[user][index])
    return store


def not_found(call) -> tuple[str, str]:
    try:
        call()
    except NotFoundError as exc:
        return exc.code, exc.message
    raise AssertionError("a foreign record was found")


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    """A folder in memory when the machine has one: hundreds of small stores, durability not at issue
    (test_reliability_crash covers it), so neither fsync nor the disk should set the pace."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    if not Path("/dev/shm").is_dir() or not os.access("/dev/shm", os.W_OK):
        yield tmp_path
        return
    folder = Path(tempfile.mkdtemp(prefix="memory-isolation-", dir="/dev/shm"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_no_scope_sees_another(scratch):
    tmp_path = scratch
    counts = Counter()
    runner = CliRunner()

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=not HEAVY,
              suppress_health_check=list(HealthCheck))
    @given(worlds(), st.booleans(), st.sampled_from([None, "2024-02-01T00:00:00Z", "2024-05-15T00:00:00Z"]))
    def check(world, include_inactive, as_of):
        users, markers, histories, order, queries = world
        counts["worlds"] += 1
        base = tmp_path / f"w{counts['worlds']}"
        everyone = build(base / "all", histories, order)
        all_ids = {u: [r["id"] for r in everyone.state({"type": "user", "key": u}).currents()] for u in users}
        random_id = "mem_" + secrets.token_hex(12)
        for viewer in users:
            scope = {"type": "user", "key": viewer}
            alone = build(base / f"solo{users.index(viewer)}", {viewer: histories[viewer]},
                          [(u, i) for u, i in order if u == viewer])
            foreign_markers = [m for u, m in markers.items() if u != viewer]
            foreign_ids = [i for u, ids in all_ids.items() if u != viewer for i in ids]
            for text in queries:
                for trace in (False, True):
                    request = QueryRequest(text=text, user=viewer, include_inactive=include_inactive, trace=trace,
                                           as_of=as_of)
                    shared, solo = run_query(everyone, request), run_query(alone, request)
                    counts["queries"] += 1
                    blob = dumps(shared).decode()
                    # the caller's own question is echoed (query, terms): a marker it names is no leak
                    leaked = [m for m in foreign_markers + foreign_ids if m in blob and m not in text]
                    counts["leaks"] += bool(leaked) + (shared != solo)
                    assert not leaked, f"another scope's {leaked} in a result"
                    assert shared == solo, "another scope changed a result"
            expected = not_found(lambda: everyone.get(random_id, scope))
            for foreign in foreign_ids:
                counts["probes"] += 1
                assert not_found(lambda: everyone.get(foreign, scope)) == expected
                assert not_found(lambda: everyone.history(foreign, scope)) == not_found(
                    lambda: everyone.history(random_id, scope))
                for operation in ("retire", "forget", "erase", "approve"):
                    probe = everyone.mutate(envelope(f"probe-{operation}-{foreign}", operation, viewer,
                                                     record_id=foreign))
                    control = everyone.mutate(envelope(f"probe-{operation}-{foreign}", operation, viewer,
                                                       record_id=random_id))
                    assert probe["error"] == control["error"] and probe["status"] == "refused", (probe, control)
                own = all_ids[viewer][0] if all_ids[viewer] else None
                if own:
                    probe = everyone.mutate(envelope(f"probe-dispute-{foreign}", "dispute", viewer, record_id=own,
                                                     conflict_with=[foreign]))
                    assert probe["status"] == "refused" and probe["error"]["code"] == "record_not_found"
            if foreign_ids:
                cli = [runner.invoke(main, ["--store", str(base / "all"), command, rid, "--user", viewer, "--json"],
                                     env={"MEMORY_NOW": NOW})
                       for command in ("get", "history") for rid in (foreign_ids[0], random_id)]
                assert cli[0].exit_code == cli[1].exit_code == 6 and cli[0].output == cli[1].output
                assert cli[2].exit_code == cli[3].exit_code == 6 and cli[2].output == cli[3].output
            # a transaction id another scope used is free here: same answer as on the solo store
            own_txs = {h["transaction_id"] for h in histories[viewer]}
            for env in (h for u, hs in histories.items() if u != viewer for h in hs
                        if h["transaction_id"] not in own_txs):
                mine = dict(env, target=dict(env["target"], scope=scope, record_id=None))
                left, right = everyone.mutate(mine), alone.mutate(mine)
                assert (left["status"], left["error"]) == (right["status"], right["error"]), (left, right)
                assert left["error"] is None or left["error"]["code"] != "transaction_conflict"
                own_txs.add(mine["transaction_id"])
                counts["tx_reuse"] += 1

    check()
    record_figures("isolation", worlds=counts["worlds"], queries=counts["queries"],
                   foreign_id_probes=counts["probes"], tx_reuse=counts["tx_reuse"], leaks_found=counts["leaks"])
