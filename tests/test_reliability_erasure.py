"""Reliability trials for issue 16 points 1 and 2 (figures for benchmarks/reliability.py).

crash_erase: `memory erase` is killed with SIGKILL at every rewrite step (stopped there by a
hook before the step's rename) and at random moments; afterwards the next ordinary write leaves
no temporary anywhere under the store, and the erased content is gone whenever the erase had
reached its audit row (else a retry of the erase completes it); doctor ends clean.

tamper_then_write: each kind of hand edit a crash cannot produce; the next `memory add` and
`memory query` refuse with exit 7 (`scope_tampered`), the manifest is not rewritten over the
evidence, and doctor (and doctor --repair) keep reporting it.
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

from helpers import add_env, all_bytes, cli_env, make_store, pinned_config, record_figures, scope, update_env  # noqa: F401
from memory.records import seal

NOW = "2024-06-01T00:00:00Z"
REPO = Path(__file__).resolve().parent.parent
HEAVY = os.environ.get("MEMORY_HEAVY") == "1"
TIMED_KILLS = 20 if HEAVY else 3
pytestmark = pytest.mark.usefixtures("pinned_config")

SECRET = "The user's locker code is in the blue notebook"

# stops the erase before the rename of its STEP-th atomic_write (erasing.json, each shard, the manifest)
_STOPPED_ERASE = """
import sys, time, os
from pathlib import Path
import memory.jsonio as jsonio
flag, step = Path(sys.argv[1]), int(sys.argv[2])
seen = [0]
def pause(tmp, path):
    seen[0] += 1
    if seen[0] == step:
        Path(str(flag) + ".part").write_text(str(path))
        os.replace(str(flag) + ".part", flag)
        time.sleep(120)
if step:
    jsonio._before_replace = pause
from memory.cli import main
main(sys.argv[3:], prog_name="memory")
"""


def cli(root: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "memory.cli", "--store", str(root), *args]


def run(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(cli(root, *args), capture_output=True, text=True, env=cli_env(NOW), cwd=REPO)


def build(base: Path) -> tuple[str, str]:
    """A store whose erased record spans several shards and has a successor; (record id, key)."""
    store = make_store(base)
    store.shard_max_bytes = 4000
    first = store.mutate(add_env(SECRET + ".", "user.locker", "tx-locker",
                                 payload_extra={"aliases": [SECRET + " (alias)"]}))
    for number in range(12):
        store.mutate(add_env(f"The user owns book number {number}.", f"user.book{number}", f"tx-book-{number}"))
    store.clock.set("2024-07-01T00:00:00Z")
    store.mutate(update_env("The user's locker code moved to the red notebook.", "tx-locker-2", key="user.locker"))
    assert len(store.shard_paths(scope())) >= 3
    return first["record_id"], "user.locker"


def temporaries(root: Path) -> list[Path]:
    return [p for p in root.rglob(".*.tmp")]


def test_kill_nine_during_erase(tmp_path):
    base = tmp_path / "base"
    record_id, _ = build(base)
    figures = Counter()
    stages = Counter()
    rng = random.Random(16)
    plans = [("step", step) for step in range(1, 12)] + [("timed", None)] * TIMED_KILLS
    steps_done = False
    # how long an unhindered erase process lives: the timed kills land in its second half
    probe = tmp_path / "probe"
    shutil.copytree(base, probe)
    started = time.monotonic()
    assert run(probe, "erase", record_id, "--user", "alice", "--tx", "tx-erase").returncode == 0
    lifetime = time.monotonic() - started
    shutil.rmtree(probe)
    for kind, step in plans:
        if kind == "step" and steps_done:
            continue
        root = tmp_path / "trial"
        shutil.copytree(base, root)
        flag = tmp_path / "flag"
        flag.unlink(missing_ok=True)
        child = subprocess.Popen([sys.executable, "-c", _STOPPED_ERASE, str(flag), str(step or 0), "--store", str(root),
                                  "erase", record_id, "--user", "alice", "--tx", "tx-erase", "--reason", "trial"],
                                 env=cli_env(NOW), cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if kind == "step":
            while not flag.exists() and child.poll() is None:
                time.sleep(0.02)
            if child.poll() is not None:          # the erase made fewer renames than this step: done
                child.communicate()
                shutil.rmtree(root)
                steps_done = True
                continue
            stages[Path(flag.read_text()).name.split(".")[0] if "jsonl" in flag.read_text()
                   else Path(flag.read_text()).name] += 1
        else:
            time.sleep(rng.uniform(0.5, 1.0) * lifetime)
        killed = child.poll() is None
        if killed:
            os.kill(child.pid, signal.SIGKILL)
        child.communicate()
        figures["trials"] += 1
        figures["killed_mid_erase"] += killed
        figures["temporaries_after_kill"] += bool(temporaries(root))
        audited = b"tx_digest" in (root / "shards").joinpath(
            next(p.name for p in (root / "shards").iterdir()), "audit.jsonl").read_bytes() \
            if any((root / "shards").glob("*/audit.jsonl")) else False
        figures["audit_row_written"] += audited
        # the next ordinary write of that scope
        added = run(root, "add", "--user", "alice", "--key", "user.pet", "The user has a cat.")
        assert added.returncode == 0, added.stderr
        assert temporaries(root) == [], temporaries(root)
        if audited:
            assert SECRET.encode() not in all_bytes(root)
        else:   # the erase never reached its audit row: nothing was promised; a retry completes it
            assert run(root, "erase", record_id, "--user", "alice", "--tx", "tx-erase").returncode == 0
        figures["content_left_after_next_write"] += SECRET.encode() in all_bytes(root)
        doctor = run(root, "doctor", "--json")
        assert doctor.returncode == 0, doctor.stdout
        figures["doctor_clean_after"] += 1
        shutil.rmtree(root)
    assert figures["killed_mid_erase"] and figures["content_left_after_next_write"] == 0
    record_figures("crash_erase", **figures, erase_process_s=round(lifetime, 2), stopped_before_rename_of=dict(stages), problems=0)


# -- tamper, then write ---------------------------------------------------------------------------

def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def _reseal(line: bytes, **changes) -> bytes:
    record = json.loads(line)
    record.update(changes)
    record.pop("hash")
    return json.dumps(seal(record), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


TAMPERS = {
    "line_deleted_mid_shard": lambda p, other: p.write_bytes(b"".join(_lines(p)[:1] + _lines(p)[2:])),
    "lines_swapped": lambda p, other: p.write_bytes(b"".join([_lines(p)[1], _lines(p)[0]] + _lines(p)[2:])),
    "statement_edited": lambda p, other: p.write_bytes(p.read_bytes().replace(b"book number 1.", b"book number 7.", 1)),
    "statement_edited_hash_recomputed": lambda p, other: p.write_bytes(
        b"".join(_lines(p)[:1] + [_reseal(_lines(p)[1], statement="The user owns no books.")] + _lines(p)[2:])),
    "shard_deleted": lambda p, other: p.unlink(),
    "last_line_deleted": lambda p, other: p.write_bytes(b"".join(_lines(p)[:-1])),
    "manifest_deleted": lambda p, other: (p.parent / "manifest.json").unlink(),
    "foreign_line_appended": lambda p, other: p.write_bytes(p.read_bytes() + _lines(other)[0]),
    "foreign_line_inserted": lambda p, other: p.write_bytes(b"".join(_lines(p)[:1] + _lines(other)[:1] + _lines(p)[1:])),
}


def test_tamper_then_write(tmp_path):
    base = tmp_path / "base"
    store = make_store(base)
    for number in range(6):
        store.mutate(add_env(f"The user owns book number {number}.", f"user.book{number}", f"tx-book-{number}"))
    store.mutate(add_env("Bob keeps bees.", "user.bees", "tx-bees", user="bob"))
    figures = Counter()
    found = {}
    for name, tamper in TAMPERS.items():
        root = tmp_path / name
        shutil.copytree(base, root)
        trial = make_store(root)
        shard = trial.shard_paths(scope())[-1]
        tamper(shard, trial.shard_paths(scope("bob"))[-1])
        manifest = shard.parent / "manifest.json"
        evidence = manifest.read_bytes() if manifest.exists() else None
        figures["kinds"] += 1
        added = run(root, "add", "--user", "alice", "--key", "user.pet", "The user has a cat.", "--json")
        code = json.loads(added.stdout)["error"]["code"] if added.returncode else None
        figures["write_refused_exit_7"] += added.returncode == 7 and code == "scope_tampered"
        queried = run(root, "query", "--user", "alice", "what books does the user own", "--json")
        figures["query_refused_exit_7"] += queried.returncode == 7
        repaired = run(root, "doctor", "--repair", "--json")
        after = run(root, "doctor", "--json")
        figures["doctor_still_reports_after_write_and_repair"] += repaired.returncode == 7 and after.returncode == 7
        figures["evidence_kept"] += (manifest.read_bytes() if manifest.exists() else None) == evidence
        found[name] = sorted({p["code"] for p in json.loads(after.stdout)["problems"]})
        assert added.returncode == 7 and code == "scope_tampered", (name, added.stdout)
        assert queried.returncode == 7, (name, queried.stdout)
        assert after.returncode == 7 and (manifest.read_bytes() if manifest.exists() else None) == evidence, name
        shutil.rmtree(root)
    record_figures("tamper_then_write", **figures, doctor_codes={k: "+".join(v) for k, v in found.items()}, problems=0)
