"""Crashes: ``kill -9`` of ``memory apply`` mid-run, and a crash at every byte of a write.

What must hold after any crash:
- every transaction acknowledged (its result line printed) before the kill is present;
- nothing half-applied is visible: a transaction's revisions (an update's two) are all
  there or none is — also after the next writer appends behind the cut-short group;
- ``doctor`` reports only repairable problems, ``doctor --repair`` leaves a clean,
  verifiable store, and re-running the same file finishes the work exactly once.

``MEMORY_HEAVY=1``: 50 kill trials and 400 truncation offsets (default 5 and 60).
"""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from memory.clock import FixedClock
from memory.doctor import REPAIRABLE, check_store
from memory.jsonio import dumps
from memory.query import QueryRequest, run_query
from memory.records import hash_ok, record_id_for
from memory.store import Store
from helpers import pinned_config, record_figures, cli_env as helper_cli_env  # noqa: F401 (pinned_config is a fixture)

REPO = Path(__file__).resolve().parent.parent
HEAVY = os.environ.get("MEMORY_HEAVY") == "1"
KILL_TRIALS = 50 if HEAVY else 5
TRUNCATIONS = 400 if HEAVY else 60
USERS = ("c0", "c1", "c2")
NOW = "2024-06-01T00:00:00Z"


pytestmark = pytest.mark.usefixtures("pinned_config")




def cli_env(**extra) -> dict:
    return helper_cli_env(NOW, **extra)


def cli(store: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "memory.cli", "--store", str(store), *args]


def envelope(tx: str, operation: str, user: str, *, key=None, statement=None, record_id=None,
             valid=None) -> dict:
    env = {"schema_version": "memory.envelope.v1", "transaction_id": tx, "operation": operation,
           "actor": {"type": "agent", "id": "crash-test"}, "source": {"type": "explicit_user", "ref": tx},
           "target": {"record_id": record_id, "memory_key": key, "scope": {"type": "user", "key": user}},
           "reason": "crash test"}
    if statement is not None:
        env["payload"] = {"kind": "fact", "statement": statement}
    if valid is not None:
        env["valid_time"] = valid
    return env


def workload(prefix: str, rounds: int) -> tuple[list[bytes], dict[str, int]]:
    """Adds, two rounds of updates (2 revisions each) and retires, spread over three scopes.

    Returns the JSONL lines and the number of revisions each transaction writes.
    """
    lines, expect = [], {}

    def put(env: dict, revisions: int) -> None:
        lines.append(dumps(env))
        expect[env["transaction_id"]] = revisions

    for r in range(rounds):
        for user in USERS:
            key = f"{prefix}.r{r}"
            put(envelope(f"{prefix}-{user}-{r}-add", "add", user, key=key, statement=f"{user} value {r} start",
                         valid={"from": "2024-01-01T00:00:00Z", "to": None}), 1)
            for step in (1, 2):
                put(envelope(f"{prefix}-{user}-{r}-upd{step}", "update", user, key=key,
                             statement=f"{user} value {r} step {step}",
                             valid={"from": f"2024-0{1 + step}-01T00:00:00Z", "to": None}), 2)
            if r % 3 == 2:
                last = record_id_for({"type": "user", "key": user}, f"{prefix}-{user}-{r}-upd2")
                put(envelope(f"{prefix}-{user}-{r}-ret", "retire", user, record_id=last,
                             valid={"from": None, "to": "2024-05-01T00:00:00Z"}), 1)
    return lines, expect


def visible(root: Path) -> list[dict]:
    store = Store.open(root, clock=FixedClock(NOW))
    return [r for user in USERS for r in store.scope_revisions({"type": "user", "key": user})]


def assert_consistent(root: Path, acknowledged: set[str], expect: dict[str, int]) -> Counter:
    """Acknowledged transactions present; no transaction visible with lines missing or doubled."""
    revisions = visible(root)
    per_tx = Counter(r["transition"]["transaction_id"] for r in revisions)
    missing = sorted(tx for tx in acknowledged if per_tx[tx] != expect[tx])
    assert not missing, f"acknowledged but not (fully) present: {missing[:5]}"
    torn = sorted(tx for tx, n in per_tx.items() if n != expect[tx])
    assert not torn, f"half-applied or doubled transactions visible: {torn[:5]}"
    assert all(hash_ok(r) for r in revisions)
    for r in revisions:   # an update's old record points at its successor only if both are visible
        successor = r["supersession"]["superseded_by"]
        if successor:
            assert any(s["id"] == successor for s in revisions), "a retired record points at nothing"
    return per_tx


def query_all(root: Path) -> None:
    store = Store.open(root, clock=FixedClock(NOW))
    for user in USERS:
        result = run_query(store, QueryRequest(text=f"{user} value step", user=user))
        assert result["knowledge_state"]


def acknowledged_lines(out: bytes) -> set[str]:
    acked = set()
    for line in out.split(b"\n")[:-1]:          # the last piece may be cut by the kill
        result = json.loads(line)
        assert result["status"] in ("applied", "idempotent"), result
        acked.add(result["transaction_id"])
    return acked


def run_apply(root: Path, file: Path, batch: int) -> subprocess.CompletedProcess:
    return subprocess.run(cli(root, "apply", str(file), "--batch-size", str(batch)),
                          capture_output=True, env=cli_env(), cwd=REPO, timeout=300)


def kill_after(root: Path, file: Path, batch: int, acks: int, jitter: float) -> tuple[bytes, bool]:
    """Start ``memory apply``, read ``acks`` result lines, wait ``jitter`` seconds, kill -9.

    Counting acknowledgements (not wall time) puts the kill inside the run however
    busy the machine is; the jitter moves it around inside the next batch.
    """
    proc = subprocess.Popen(cli(root, "apply", str(file), "--batch-size", str(batch)),
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=cli_env(), cwd=REPO)
    seen = b""
    for _ in range(acks):
        line = proc.stdout.readline()
        if not line:
            break
        seen += line
    time.sleep(jitter)
    killed = proc.poll() is None
    if killed:
        os.kill(proc.pid, signal.SIGKILL)
    out, _ = proc.communicate(timeout=60)
    return seen + out, killed


def test_kill_nine_mid_apply(tmp_path):
    rng = random.Random(20240601)
    lines, expect = workload("k", 12 if HEAVY else 6)
    file = tmp_path / "envelopes.jsonl"
    file.write_bytes(b"\n".join(lines) + b"\n")

    figures = Counter()
    for trial in range(KILL_TRIALS):
        root = tmp_path / f"trial{trial}"
        Store.create(root)
        batch = rng.choice((1, 2, 5, 25))
        out, killed = kill_after(root, file, batch, rng.randrange(len(lines) - batch), rng.uniform(0, 0.02))
        acked = acknowledged_lines(out)
        figures["killed"] += killed
        figures["acknowledged"] += len(acked)
        assert_consistent(root, acked, expect)
        found = {p["code"] for p in check_store(Store.open(root)).problems}
        assert found <= REPAIRABLE, found
        figures.update(f"found_{code}" for code in found)

        if trial % 2 == 0:      # recover by writing again (after a reader built an index)
            query_all(root)
            again = run_apply(root, file, batch)
            assert again.returncode == 0, again.stderr.decode()
            assert b"Traceback" not in again.stderr
        else:                   # recover by repair first
            repaired = subprocess.run(cli(root, "doctor", "--repair", "--json"), capture_output=True,
                                      env=cli_env(), cwd=REPO)
            assert repaired.returncode == 0, repaired.stdout.decode()
            assert_consistent(root, acked, expect)
            assert run_apply(root, file, batch).returncode == 0
        per_tx = assert_consistent(root, set(expect), expect)
        assert sum(per_tx.values()) == sum(expect.values())
        query_all(root)
        # a scope whose envelopes were all in before the kill gets no new write, so a manifest the
        # kill left behind stays stale until doctor --repair (reported, repairable, never data)
        left = {p["code"] for p in check_store(Store.open(root)).problems}
        assert left <= {"manifest_mismatch"}, left
        figures["stale_manifest_after_rerun"] += bool(left)
        subprocess.run(cli(root, "doctor", "--repair"), capture_output=True, env=cli_env(), cwd=REPO)
        final = subprocess.run(cli(root, "doctor", "--json"), capture_output=True, env=cli_env(), cwd=REPO)
        assert final.returncode == 0 and json.loads(final.stdout)["clean"], final.stdout.decode()
        assert_consistent(root, set(expect), expect)
        shutil.rmtree(root)
    # a kill that lands after apply finished tests nothing, but on a fast, idle machine some will:
    # the heavy run (the report's figures) holds 80 %; the light run needs one real mid-run kill
    needed = KILL_TRIALS * 0.8 if HEAVY else 1
    assert figures["killed"] >= needed, "the kills should land while apply still runs"
    record_figures("crash_kill9", trials=KILL_TRIALS, killed_mid_run=figures["killed"],
                   envelopes_per_trial=len(lines), acknowledged_before_kill=figures["acknowledged"],
                   doctor_found={k[6:]: v for k, v in figures.items() if k.startswith("found_")},
                   stale_manifest_after_rerun=figures["stale_manifest_after_rerun"], problems=0)


def test_crash_at_any_byte_of_a_write(tmp_path):
    """Cut the last write at many offsets (a torn line, a group missing lines) and recover."""
    lines, expect = workload("t", 2)
    base = tmp_path / "base"
    store = Store.create(base, clock=FixedClock(NOW))
    split = len(lines) - 7
    acked = {r["transaction_id"] for r in store.apply(lines[:split], batch_size=4)}
    sizes = {p: p.stat().st_size for p in base.glob("shards/*/[0-9]*.jsonl")}
    listed = {p: (p.parent / "manifest.json").read_bytes() for p in sizes}
    list(store.apply(lines[split:], batch_size=50))     # one write per scope, several groups each
    shard = max(sizes, key=lambda p: p.stat().st_mtime_ns)   # the scope written last
    before, after = sizes[shard], shard.read_bytes()
    assert after.count(b"\n") - after[:before].count(b"\n") >= 5
    user = json.loads(after.splitlines()[0])["scope"]["key"]
    rng = random.Random(7)
    boundaries = [i + 1 for i in range(before, len(after) - 1) if after[i] == 0x0A]  # whole lines, group cut
    offsets = sorted(set(boundaries) | set(rng.sample(range(before, len(after)), min(TRUNCATIONS, len(after) - before))))
    outcomes = Counter()
    extra = dumps(envelope("after-crash", "add", user, key="t.after", statement="written after the crash " + "padding " * 600))   # longer than any cut: regrows past an index cursor
    for offset in offsets:
        root = tmp_path / "cut"
        shutil.copytree(base, root)
        (root / shard.relative_to(base)).write_bytes(after[:offset])
        # the crash came before the manifest was rewritten (it is rewritten after the append)
        (root / shard.relative_to(base)).with_name("manifest.json").write_bytes(listed[shard])
        assert_consistent(root, acked, {**expect})
        problems = {p["code"] for p in check_store(Store.open(root)).problems}
        assert problems <= REPAIRABLE, problems
        outcomes.update(problems)
        query_all(root)                                  # a reader indexes the cut-short state
        writer = Store.open(root, clock=FixedClock(NOW))
        assert [r["status"] for r in writer.apply([extra])] == ["applied"]
        assert_consistent(root, acked | {"after-crash"}, {**expect, "after-crash": 1})
        query_all(root)                                  # the index must notice the cut
        assert all(r["status"] != "refused" for r in writer.apply(lines))   # finish the work, once
        assert_consistent(root, set(expect) | {"after-crash"}, {**expect, "after-crash": 1})
        assert check_store(Store.open(root)).clean
        shutil.rmtree(root)
    assert outcomes["torn_tail"] and outcomes["incomplete_transaction"], outcomes
    record_figures("crash_truncation", offsets=len(offsets), write_bytes=len(after) - before,
                   doctor_found=dict(outcomes), problems=0)


# -- tampering: what no crash can produce, doctor names -----------------------------

def tampered_store(tmp_path) -> tuple[Path, Path, dict]:
    config = tmp_path / "config"
    shutil.copytree(os.environ["MEMORY_CONFIG"], config)
    root = tmp_path / "store"
    env = dict(cli_env(), MEMORY_CONFIG=str(config))
    assert subprocess.run(cli(root, "init"), env=env, cwd=REPO, capture_output=True).returncode == 0
    lines, _ = workload("tm", 1)
    file = tmp_path / "tm.jsonl"
    file.write_bytes(b"\n".join(lines) + b"\n")
    assert subprocess.run(cli(root, "apply", str(file)), env=env, cwd=REPO, capture_output=True).returncode == 0
    return root, config, env


def doctor_codes(root: Path, env: dict, *extra: str) -> tuple[int, set[str], list[dict]]:
    run = subprocess.run(cli(root, "doctor", "--json", *extra), env=env, cwd=REPO, capture_output=True)
    report = json.loads(run.stdout)
    return run.returncode, {p["code"] for p in report["problems"]}, report["problems"]


def test_doctor_names_each_kind_of_tampering(tmp_path):
    root, config, env = tampered_store(tmp_path)
    assert doctor_codes(root, env) == (0, set(), [])
    shard = sorted(root.glob("shards/*/000001.jsonl"))[0]
    original = shard.read_bytes()
    listed = (shard.parent / "manifest.json").read_bytes()

    # a policy changed after records were admitted under it
    policy = config / "forgetting-policy.json"
    policy.write_text(policy.read_text().replace('"days": 365', '"days": 3650'))
    exit_code, codes, problems = doctor_codes(root, env)
    assert (exit_code, codes) == (7, {"policy_drift"})
    assert problems[0]["where"] == "config/forgetting-policy.json"
    assert subprocess.run(cli(root, "init", "--accept-policies"), env=env, cwd=REPO).returncode == 0
    assert doctor_codes(root, env)[:2] == (0, set())

    # a statement edited by hand: the line's hash and the manifest both disagree; repair will not "fix" it
    shard.write_bytes(original.replace(b"value 0 start", b"value 9 start", 1))
    assert doctor_codes(root, env)[:2] == (7, {"record_hash_mismatch", "shard_altered"})
    assert doctor_codes(root, env, "--repair")[:2] == (7, {"record_hash_mismatch", "shard_altered"})
    shard.write_bytes(original)
    subprocess.run(cli(root, "doctor", "--repair"), env=env, cwd=REPO, capture_output=True)
    assert doctor_codes(root, env)[:2] == (0, set())

    # a revision removed from the middle of a record's chain (manifest rewritten to match: only the chain tells)
    lines = original.splitlines(keepends=True)
    middle = next(i for i, line in enumerate(lines) if json.loads(line)["revision"] == 2)
    shard.write_bytes(b"".join(lines[:middle] + lines[middle + 1:]))
    assert doctor_codes(root, env, "--repair")[:2] == (7, {"transition_chain_broken", "shard_truncated"})
    subprocess.run(cli(root, "doctor", "--repair", "--accept-tampered"), env=env, cwd=REPO, capture_output=True)
    exit_code, codes, _ = doctor_codes(root, env)
    assert (exit_code, codes) == (7, {"transition_chain_broken"})

    # a forged revision, correctly hashed, that skips a number and does not join its neighbour
    from memory.records import next_revision, seal
    shard.write_bytes(original)
    last = json.loads(original.splitlines()[-1])
    forged = next_revision(last, status="active")
    forged["revision"] += 1
    forged["transition"] = dict(last["transition"], transaction_id="forged", from_status="candidate",
                                to_status="active", group_size=1)
    shard.write_bytes(original + dumps(seal(forged)) + b"\n")
    (shard.parent / "manifest.json").write_bytes(listed)
    subprocess.run(cli(root, "doctor", "--repair"), env=env, cwd=REPO, capture_output=True)
    exit_code, codes, problems = doctor_codes(root, env)
    assert (exit_code, codes) == (7, {"transition_chain_broken"})
    assert all(p["where"].startswith("shards/") for p in problems)
