"""Erasure: remove every revision of some records from a scope's shards, leaving a
content-free audit row (record ids, content hashes, transaction ids, tombstones).

The caller (``Store``) holds the scope's lock and rewrites the manifest afterwards.

Crash safety: before anything changes, ``erasing.json`` records the entries (bytes, lines,
sha256) each rewritten shard will have, so a reader checking the scope against its manifest
accepts a shard that is either as listed or as the erasure leaves it. The marker outlives the
erasure only if it crashed; the scope's next writer (or ``doctor --repair``) then completes
it: removes the ``atomic_write`` temporaries (full copies of a shard, erased records
included), removes every erased record again, rewrites the manifest, drops the marker.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from ..jsonio import canonical_bytes
from ..lifecycle import ScopeState
from ..jsonio import atomic_write, dumps, loads_trusted
from .layout import AUDIT_FILE, ERASING_FILE
from .log import TX_DIGEST, append_durable, heal_tail, rewrite, rewritten, tx_digest
from .manifest import shard_entry

AUDIT_VERSION = "memory.audit.v1"


def _row_key(state: ScopeState, doomed: set, now: str) -> str:
    """The row's digest key, derived from what the row states anyway (when, which records, their
    content hashes): the same history gives the same row on every backend and in every restore,
    so exports agree byte for byte. The key is no secret either way (a random one would sit in
    the row too); it keeps ids out of the row, and one row's digests from matching another's."""
    stated = {"at": now, "content_sha256": {i: state.current(i)["hash"]["value"] for i in sorted(doomed)}}
    return hashlib.sha256(b"memory-audit-key\0" + canonical_bytes(stated)).hexdigest()[:32]


def audit_row(state: ScopeState, doomed: set, why: dict, now: str) -> dict:
    """The content-free row. Transaction ids (the caller's, and the server's request ids inside
    them) may carry content: the row keeps only their keyed digests (``log.tx_digest``), under a
    key of its own, so a replayed erase or add still finds its transaction by digest."""
    key = _row_key(state, doomed, now)
    tx = why.get("transaction_id")
    transactions = {tx_digest(key, t): sha for t, sha in (why.get("transactions") or {}).items()}
    row = {"schema_version": AUDIT_VERSION, "at": now, **why,
           "transaction_id": tx_digest(key, tx) if isinstance(tx, str) else None,
           "tx_digest": {"algorithm": TX_DIGEST, "key": key},
           "record_ids": sorted(doomed),
           "content_sha256": {i: state.current(i)["hash"]["value"] for i in sorted(doomed)},
           "transactions": transactions, "tombstones": []}
    for record_id in doomed:
        for revision in state.revisions[record_id]:
            transition = revision["transition"]
            row["transactions"].setdefault(tx_digest(key, transition["transaction_id"]),
                                           transition.get("envelope_sha256", ""))
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
    plan = rewritten(scope_dir, doomed)
    atomic_write(scope_dir / ERASING_FILE,
                 dumps({"shards": {path.name: shard_entry(data) for path, data in plan.items()}}) + b"\n")
    # the audit row first: if we crash before the rewrite, the content is still there and
    # a retry (idempotent by transaction id) cannot complete it, so doctor flags it
    append_durable(scope_dir / AUDIT_FILE, canonical_bytes(row) + b"\n")
    remove(scope_dir, doomed)     # the plan again, under the same lock: the same bytes
    return row


def remove(scope_dir: Path, doomed: set) -> None:
    """Rewrite every shard without the revisions of ``doomed`` and what successors inherited
    from them (completing a crashed erasure, ``doctor --repair``)."""
    rewrite(rewritten(scope_dir, doomed))


def pending(scope_dir: Path) -> dict | None:
    """{shard name: entry} an erasure in progress (or crashed) leaves; None when none is."""
    try:
        marker = loads_trusted((Path(scope_dir) / ERASING_FILE).read_bytes())
    except FileNotFoundError:
        return None
    except ValueError:
        return {}    # a marker torn by a crash names nothing; the erasure is completed all the same
    shards = marker.get("shards") if isinstance(marker, dict) else None
    return shards if isinstance(shards, dict) else {}


def finish(scope_dir: Path) -> None:
    """The erasure is on disk and the manifest says so: the marker goes."""
    (Path(scope_dir) / ERASING_FILE).unlink(missing_ok=True)
