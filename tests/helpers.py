"""Builders shared by the ledger tests: envelopes, stores, file snapshots.

Import from test modules as ``from helpers import ...`` (pytest puts ``tests/``
on ``sys.path`` because the folder has no ``__init__.py``).
"""
from __future__ import annotations

import copy
import importlib.util
import json
import os
import shutil
from pathlib import Path

import pytest

from memory.clock import FixedClock
from memory.jsonio import dumps
from memory.paths import DEFAULT_CONFIG_DIR, PROJECT_ROOT
from memory.store import Store

NOW = "2024-03-01T12:00:00Z"
SCHEMA = "memory.envelope.v1"


def scope(user: str = "alice", scope_type: str = "user") -> dict:
    return {"type": scope_type, "key": user}


def envelope(operation: str, tx: str, *, user: str = "alice", scope_type: str = "user", record_id=None,
             key=None, payload: dict | None = None, valid: dict | None = None, source: str = "explicit_user",
             actor: str = "user_via_agent", actor_id: str = "tester", reason: str | None = "test reason",
             evidence_hash=None, sensitivity: str | None = None, whole_scope: bool = False) -> dict:
    """One mutation envelope (DESIGN §5); fields a case does not name are left out or null."""
    env = {
        "schema_version": SCHEMA,
        "transaction_id": tx,
        "operation": operation,
        "actor": {"type": actor, "id": actor_id},
        "source": {"type": source, "ref": "test", "observed_at": None, "evidence_hash": evidence_hash,
                   "session": None, "speaker": None},
        "target": {"record_id": record_id, "memory_key": key, "scope": scope(user, scope_type)},
        "reason": reason,
    }
    if whole_scope:
        env["target"]["whole_scope"] = True
    if payload is not None:
        env["payload"] = payload
    if valid is not None:
        env["valid_time"] = valid
    if sensitivity is not None:
        env["sensitivity"] = {"classification": sensitivity}
    return env


def add_env(statement: str, key: str | None, tx: str, *, kind: str = "fact", valid_from: str | None = None,
            valid_to: str | None = None, **kw) -> dict:
    payload = {"kind": kind, "statement": statement, "confidence": "high", "importance": "medium",
               "aliases": [], "tags": [], "negative_triggers": []}
    payload.update(kw.pop("payload_extra", {}))
    return envelope("add", tx, key=key, payload=payload, valid={"from": valid_from, "to": valid_to}, **kw)


def update_env(statement: str, tx: str, *, key=None, record_id=None, valid_from=None, **kw) -> dict:
    return envelope("update", tx, key=key, record_id=record_id, payload={"statement": statement},
                    valid={"from": valid_from, "to": None}, **kw)


def by_id(operation: str, record_id: str, tx: str, **kw) -> dict:
    return envelope(operation, tx, record_id=record_id, **kw)


def raw(env: dict) -> bytes:
    return dumps(env)


def changed(env: dict, **paths) -> dict:
    """A deep copy of ``env`` with dotted paths replaced: changed(e, **{"payload.kind": "x"})."""
    out = copy.deepcopy(env)
    for dotted, value in paths.items():
        *parents, leaf = dotted.split(".")
        node = out
        for name in parents:
            node = node[name]
        node[leaf] = value
    return out


def make_store(root: Path, now: str = NOW, config: Path | None = None) -> Store:
    return Store.create(Path(root), clock=FixedClock(now), config=config)


def reopen(store: Store) -> Store:
    """A fresh Store on the same root and clock: nothing cached, everything read from disk."""
    return Store.open(store.root, clock=store.clock, config=store.policies.mutation.loaded.path.parent)


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (the empty lock file aside) by relative path."""
    root = Path(root)
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != ".lock"}


def all_bytes(root: Path) -> bytes:
    """Every byte of every file under ``root`` (names included), for content searches."""
    root = Path(root)
    return b"\n".join(str(p.relative_to(root)).encode() + b"\n" + p.read_bytes()
                      for p in sorted(root.rglob("*")) if p.is_file())


def config_copy(target: Path) -> Path:
    """A private copy of config/ that a test may edit (point $MEMORY_CONFIG at it)."""
    shutil.copytree(DEFAULT_CONFIG_DIR, target)
    return Path(target)


def load_tool(name: str):
    """Import tools/<name>.py as a module."""
    path = PROJECT_ROOT / "tools" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_tool_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fresh_python(code: str) -> list[str]:
    """What ``code`` prints, as words, in a fresh interpreter importing this checkout (the start-up
    tests: what importing the read path compiles or stems)."""
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", code], cwd=str(PROJECT_ROOT), capture_output=True, text=True,
                          timeout=120, env={"PYTHONPATH": str(PROJECT_ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def shard_of(store: Store, user: str = "alice") -> Path:
    """The last shard file of a user's scope."""
    return store.shard_paths(scope(user))[-1]



@pytest.fixture
def pinned_config(tmp_path, monkeypatch):
    """A private copy of config/: a policy edited elsewhere mid-run must not read as policy_drift here."""
    snapshot = tmp_path / "config-snapshot"
    shutil.copytree(DEFAULT_CONFIG_DIR, snapshot)
    monkeypatch.setenv("MEMORY_CONFIG", str(snapshot))
    return snapshot


def record_figures(test: str, **figures) -> None:
    """Append a heavy run's figures for benchmarks/reliability.py (a no-op in ordinary runs)."""
    target = os.environ.get("MEMORY_RELIABILITY_FIGURES")
    if target:
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"test": test, **figures}) + "\n")


def cli_env(now: str, **extra) -> dict:
    """The environment for a CLI subprocess: this checkout, a pinned clock, no stray MEMORY_* but the config."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_") or k == "MEMORY_CONFIG"}
    env.update({"MEMORY_NOW": now, "PYTHONPATH": str(PROJECT_ROOT), "PYTHONUNBUFFERED": "1"}, **extra)
    return env


def write_locomo(path: Path, sessions: dict, questions: list, sample_id: str) -> Path:
    """A LoCoMo file of one conversation between Caroline and Melanie: ``sessions`` maps a session
    name to (its date, [(speaker, text), ...]), ``questions`` lists (question, evidence ids, category)."""
    conversation = {"speaker_a": "Caroline", "speaker_b": "Melanie"}
    for number, (name, (date, turns)) in enumerate(sessions.items(), start=1):
        conversation[f"{name}_date_time"] = date
        conversation[name] = [{"speaker": who, "dia_id": f"D{number}:{i}", "text": text}
                              for i, (who, text) in enumerate(turns, start=1)]
    qa = [{"question": q, "answer": "x", "evidence": evidence, "category": category}
          for q, evidence, category in questions]
    path.write_text(json.dumps([{"sample_id": sample_id, "conversation": conversation, "qa": qa}]))
    return path


def gold_case_with(case: dict, off: str = ""):
    """The gold outcome of ``case`` on a store whose shipped policy has the comma-separated
    ``features`` in ``off`` switched off (the trust tests' "fails without the fix")."""
    from memory.benchmark import gold
    from memory.policy import load_policies
    policies = load_policies()
    for key in filter(None, off.split(",")):
        policies.retrieval.data["features"][key] = False
    return gold.run_case(case, query_fn=gold._default_query_fn(),
                         store_factory=lambda root, clock: Store.create(root, clock=clock, policies=policies))
