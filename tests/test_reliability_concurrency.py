"""Concurrent writers and readers on one store, through the real CLI processes.

Several ``memory apply`` processes write at once (small batches, so they contend
for the writer lock many times) while a reader process folds the shards and runs
queries in a loop and the test itself calls ``memory query``. Afterwards every
acknowledged envelope is present exactly once, every line is whole canonical JSON
with a good hash, and ``doctor`` is clean. Readers never crash and never see a
record whose hash fails or a transaction group with lines missing.

``MEMORY_HEAVY=1`` runs 8 writers x 250 envelopes; the default is 4 x 40.
``MEMORY_RELIABILITY_FIGURES=FILE`` appends the figures as a JSON line
(``benchmarks/reliability.py`` collects them).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from memory.jsonio import canonical_bytes, dumps, loads_strict
from memory.records import hash_ok
from memory.store import Store
from helpers import pinned_config, record_figures, cli_env as helper_cli_env  # noqa: F401 (pinned_config is a fixture)

REPO = Path(__file__).resolve().parent.parent
HEAVY = os.environ.get("MEMORY_HEAVY") == "1"
WRITERS, PER_WRITER = (8, 250) if HEAVY else (4, 40)
BATCH_SIZES = (1, 3, 10, 50)
NOW = "2024-06-01T00:00:00Z"
SHARED = "shared"


pytestmark = pytest.mark.usefixtures("pinned_config")




def cli_env(**extra) -> dict:
    return helper_cli_env(NOW, **extra)


def cli(store: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "memory.cli", "--store", str(store), *args]


def envelope(tx: str, operation: str, user: str, *, key=None, statement=None, kind="fact",
             valid_from=None, source="explicit_user", session=None) -> dict:
    env = {"schema_version": "memory.envelope.v1", "transaction_id": tx, "operation": operation,
           "actor": {"type": "agent", "id": "writer"},
           "source": {"type": source, "ref": tx, "session": session},
           "target": {"record_id": None, "memory_key": key, "scope": {"type": "user", "key": user}},
           "reason": "concurrency test"}
    if statement is not None:
        env["payload"] = {"kind": kind, "statement": statement}
    if valid_from is not None:
        env["valid_time"] = {"from": valid_from, "to": None}
    return env


def writer_script(p: int, n: int) -> tuple[list[bytes], dict[str, int]]:
    """Envelope lines for writer ``p`` and the revisions each transaction should leave.

    Mix: adds in a scope every writer shares and in the writer's own scope, episodes,
    updates (2 revisions each), exact repeats (idempotent) and refusals (key_already_active).
    """
    lines: list[bytes] = []
    expect: dict[str, int] = {}
    for i in range(n):
        slot, tx = i % 10, f"w{p}-t{i}"
        if slot <= 4 or i + 10 - slot > n:
            env = envelope(tx, "add", SHARED, key=f"w{p}.k{i}", valid_from="2024-01-01T00:00:00Z",
                           statement=f"writer {p} fact {i} about topic{i % 7} and lantern{p}")
            expect[tx] = 1
        elif slot in (5, 6):
            env = envelope(tx, "add", f"w{p}", key=f"own.k{i}", statement=f"own note {i} of writer {p}")
            expect[tx] = 1
        elif slot == 7:
            env = envelope(tx, "add", SHARED, kind="episode", source="conversation", session=f"s{p}",
                           statement=f"turn {i}: writer {p} talks about lantern{p} and topic{i % 7}")
            expect[tx] = 1
        elif slot == 8:
            env = envelope(tx, "update", SHARED, key=f"w{p}.k{i - 8}", valid_from="2024-02-01T00:00:00Z",
                           statement=f"writer {p} fact {i - 8} was revised")
            expect[tx] = 2
        elif (i // 10) % 2 == 0:
            lines.append(lines[i - 9])          # the same envelope again: idempotent
            continue
        else:
            env = envelope(tx, "add", SHARED, key=f"w{p}.k{i - 9}", statement=f"a rival value {i}")
            expect[tx] = 0                      # refused: key_already_active
        lines.append(dumps(env))
    return lines, expect


READER = r"""
import json, os, sys, time, traceback
from pathlib import Path
from memory.clock import FixedClock
from memory.query import QueryRequest, run_query
from memory.records import hash_ok
from memory.store import Store

root, stop, users = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3].split(",")
summary = {"passes": 0, "revisions_seen": 0, "queries": 0, "problems": []}
seen_max = {}
store = Store.open(root, clock=FixedClock("2024-06-01T00:00:00Z"))
def one_pass(store):
    for user in users:
        scope = {"type": "user", "key": user}
        revisions = store.scope_revisions(scope)
        summary["revisions_seen"] += len(revisions)
        if len(revisions) < seen_max.get(user, 0):
            summary["problems"].append(f"{user}: revisions went from {seen_max[user]} to {len(revisions)}")
        seen_max[user] = max(seen_max.get(user, 0), len(revisions))
        pairs, groups = set(), {}
        for r in revisions:
            if not hash_ok(r):
                summary["problems"].append(f"hash mismatch {r['id']} r{r['revision']}")
            if (r["id"], r["revision"]) in pairs:
                summary["problems"].append(f"duplicate {r['id']} r{r['revision']}")
            pairs.add((r["id"], r["revision"]))
            groups.setdefault(r["transition"]["transaction_id"], []).append(r)
        for tx, group in groups.items():
            if len(group) != group[0]["transition"].get("group_size", 1):
                summary["problems"].append(f"half-applied transaction {tx}")
        state = store.state(scope)
        for record in state.currents():
            got = store.get(record["id"], scope)   # may be newer, never older, never torn
            if got["revision"] < record["revision"] or not hash_ok(got):
                summary["problems"].append(f"get disagrees for {record['id']}")
        result = run_query(store, QueryRequest(text="what about topic3 and lantern1", user=user))
        summary["queries"] += 1
        later = store.state(scope)   # the query may have seen newer lines than `state`
        for item in result["evidence"]:
            held = [r for r in later.revisions.get(item["id"], []) if r["revision"] == item["revision"]]
            if not held or held[0]["statement"] != item["statement"]:
                summary["problems"].append(f"query served a record the log does not hold: {item['id']}")
try:
    while True:
        last = stop.exists()
        one_pass(store)
        one_pass(Store.open(root, clock=FixedClock("2024-06-01T00:00:00Z")))
        summary["passes"] += 1
        if last:
            break
except Exception:
    summary["problems"].append(traceback.format_exc())
print(json.dumps(summary))
"""


def scope_lines(root: Path) -> list[bytes]:
    lines = []
    for shard in sorted(root.glob("shards/*/[0-9]*.jsonl")):
        data = shard.read_bytes()
        assert data.endswith(b"\n"), f"{shard} does not end with a newline"
        lines += data.splitlines()
    return lines


def check_lines_whole(lines: list[bytes]) -> list[dict]:
    revisions = []
    for line in lines:
        revision = loads_strict(line, what="shard line")     # strict: a torn or spliced line fails here
        assert canonical_bytes(revision) == line, "a line is not one canonical record (interleaved write?)"
        assert hash_ok(revision)
        revisions.append(revision)
    return revisions


def test_concurrent_writers_and_readers(tmp_path):
    root = tmp_path / "store"
    Store.create(root)
    scripts = [writer_script(p, PER_WRITER) for p in range(WRITERS)]
    files = []
    for p, (lines, _) in enumerate(scripts):
        files.append(tmp_path / f"w{p}.jsonl")
        files[-1].write_bytes(b"\n".join(lines) + b"\n")
    stop = tmp_path / "stop"
    users = ",".join([SHARED] + [f"w{p}" for p in range(WRITERS)])
    reader = subprocess.Popen([sys.executable, "-c", READER, str(root), str(stop), users],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=cli_env(), cwd=REPO)
    writers = [subprocess.Popen(cli(root, "apply", str(f), "--batch-size", str(BATCH_SIZES[p % len(BATCH_SIZES)])),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=cli_env(), cwd=REPO)
               for p, f in enumerate(files)]
    cli_queries = 0
    while any(w.poll() is None for w in writers):
        run = subprocess.run(cli(root, "query", "what did writer 2 say about lantern2", "--user", SHARED,
                                 "--include-inactive", "--json"),
                             capture_output=True, env=cli_env(), cwd=REPO, timeout=120)
        assert run.returncode == 0 and b"Traceback" not in run.stderr, run.stderr.decode()
        assert "knowledge_state" in json.loads(run.stdout)
        cli_queries += 1
    outputs = [w.communicate(timeout=300) for w in writers]
    stop.touch()
    reader_out, reader_err = reader.communicate(timeout=300)

    acknowledged: dict[str, str] = {}
    for (out, err), w in zip(outputs, writers):
        assert w.returncode == 5, err.decode()      # 5: some envelopes (the rivals) were refused
        assert b"Traceback" not in err
        for line in out.splitlines():
            result = json.loads(line)
            if result["status"] == "refused":
                assert result["error"]["code"] == "key_already_active"
            else:
                acknowledged.setdefault(result["transaction_id"], result["status"])
    expected = {tx: n for _, expect in scripts for tx, n in expect.items()}
    assert set(acknowledged) == {tx for tx, n in expected.items() if n}

    revisions = check_lines_whole(scope_lines(root))
    per_tx = Counter(r["transition"]["transaction_id"] for r in revisions)
    assert per_tx == Counter({tx: n for tx, n in expected.items() if n}), "an envelope is missing or doubled"
    assert len({(r["id"], r["revision"]) for r in revisions}) == len(revisions)

    doctor = subprocess.run(cli(root, "doctor", "--json"), capture_output=True, env=cli_env(), cwd=REPO)
    assert doctor.returncode == 0, doctor.stdout.decode()
    assert json.loads(doctor.stdout)["clean"]

    summary = json.loads(reader_out)
    assert summary["problems"] == [], summary["problems"][:3]
    assert summary["passes"] >= 1 and b"Traceback" not in reader_err
    record_figures("concurrency", writers=WRITERS, envelopes_per_writer=PER_WRITER,
                   envelopes=WRITERS * PER_WRITER, acknowledged=len(acknowledged),
                   revisions=len(revisions), reader_passes=summary["passes"],
                   reader_queries=summary["queries"], cli_queries=cli_queries, problems=0)


def test_writer_lock_serializes_in_process_batches(tmp_path):
    """Two Store objects on one root (as two agents in one process would be) never interleave."""
    root = tmp_path / "store"
    first, second = Store.create(root), Store.open(root)
    lines_a, _ = writer_script(0, 20)
    lines_b, _ = writer_script(1, 20)
    results = [*first.apply(lines_a, batch_size=4), *second.apply(lines_b, batch_size=3)]
    assert all(r["status"] in ("applied", "idempotent", "refused") for r in results)
    revisions = check_lines_whole(scope_lines(root))
    assert len(revisions) == sum(1 for r in results if r["status"] == "applied") + sum(
        1 for r in results if r["status"] == "applied" and r["operation"] == "update")
