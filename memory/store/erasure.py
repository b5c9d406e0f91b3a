"""Erasure: remove every revision of some records from a scope's shards, leaving a
content-free audit row (record ids, content hashes, transaction ids, tombstones).

The caller (``Store``) holds the scope's lock and rewrites the manifest afterwards.
"""
from __future__ import annotations

from pathlib import Path

from ..jsonio import canonical_bytes
from ..lifecycle import ScopeState
from .layout import AUDIT_FILE, shard_paths
from .log import append_durable, heal_tail, rewrite_without

AUDIT_VERSION = "memory.audit.v1"


def audit_row(state: ScopeState, doomed: set, why: dict, now: str) -> dict:
    row = {"schema_version": AUDIT_VERSION, "at": now, "transaction_id": None, **why,
           "record_ids": sorted(doomed),
           "content_sha256": {i: state.current(i)["hash"]["value"] for i in sorted(doomed)},
           "transactions": dict(why.get("transactions") or {}), "tombstones": []}
    for record_id in doomed:
        for revision in state.revisions[record_id]:
            transition = revision["transition"]
            row["transactions"].setdefault(transition["transaction_id"], transition.get("envelope_sha256", ""))
            if transition.get("tombstone"):
                row["tombstones"].append(transition["tombstone"]["value_sha256"])
    return row


def erase(scope_dir: Path, state: ScopeState, doomed: set, why: dict, now: str) -> dict:
    """Write the audit row (durably), then rewrite each shard without ``doomed``; returns the row."""
    scope_dir = Path(scope_dir)
    row = audit_row(state, doomed, why, now)
    scope_dir.mkdir(parents=True, exist_ok=True)
    # a never-acknowledged tail goes first, so the rewrite below cannot bury it mid-log
    heal_tail(scope_dir)
    # the audit row first: if we crash before the rewrite, the content is still there and
    # a retry (idempotent by transaction id) cannot complete it, so doctor flags it
    append_durable(scope_dir / AUDIT_FILE, canonical_bytes(row) + b"\n")
    remove(scope_dir, doomed)
    return row


def remove(scope_dir: Path, doomed: set) -> None:
    """Rewrite every shard without the revisions of ``doomed`` (an erasure's second step)."""
    for path in shard_paths(scope_dir):
        rewrite_without(path, doomed)
