"""The boot view: what an agent loads at start, one derived file per scope.

``views/<scope_digest>/agent-memory.json`` lists the scope's records that boot:
active, not an episode, valid at the instant the view was built and inside the
forgetting policy's retention window — the rule ``decision.blocker`` applies to
an active record at as-of = now (``tests/test_bootview.py`` checks that the two
agree). Each entry is pinned by its record hash; the file is pinned to the
sha256 of the scope's ``manifest.json`` and of the forgetting policy it was
built from, says when it goes stale by itself (``stale_after``: the next
instant a listed record ends, a pending record starts or a retention window
closes), and carries its own sha256 (``view_sha256``, over the memory-c14n-v1
form of the file without that field).

``check_boot_views`` is what ``memory doctor`` runs: a view whose pins no
longer match is ``derived_stale`` (``--repair`` deletes it; ``memory build``
rebuilds it); a view whose own hash, pins or entries do not match what the
store would build is ``boot_view_tampered``. This module imports only the write
core (doctor calls it), which is why it does not import the decision module.
"""
from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import Callable, Iterable

from .clock import add_days
from .errors import InputError
from .jsonio import atomic_write, canonical_bytes, dumps, loads_strict
from .paths import scope_digest
from .store import Store

VIEW_VERSION = "memory.boot-view.v1"
VIEW_FILE = "agent-memory.json"
IMPORTANCE_ORDER = {"high": 0, "medium": 1, "low": 2}


# -- which scopes a store holds -------------------------------------------------------

def scope_from_folder(store: Store, digest: str) -> dict | None:
    """The scope a shard folder holds, read from its first record (None: no record left)."""
    return store.scope_in_folder(digest)


def stored_scopes(store: Store) -> list[tuple[str, dict | None]]:
    """(scope digest, scope) for every scope folder; scope None when every record was erased."""
    return [(digest, scope_from_folder(store, digest)) for digest in store.scope_digests()]


# -- building -------------------------------------------------------------------------

def _created_at(state, record_id: str) -> str:
    return state.revisions[record_id][0]["recorded_time"]["recorded_at"]


def _retention_end(store: Store, state, record: dict) -> str | None:
    days = store.policies.forgetting.retention_days(record["kind"], record["sensitivity"]["classification"])
    return None if days is None else add_days(_created_at(state, record["id"]), days)


def boots(store: Store, state, record: dict, now: str) -> bool:
    """Whether a current revision belongs in the boot view at ``now``."""
    if record["status"] != "active" or record["kind"] == "episode":
        return False
    if "active" not in store.policies.forgetting.answering_statuses:
        return False
    valid = record["valid_time"]
    if now < valid["from"] or (valid["to"] is not None and now >= valid["to"]):
        return False
    retention_end = _retention_end(store, state, record)
    return retention_end is None or now < retention_end


def _entry(record: dict) -> dict:
    return {"id": record["id"], "revision": record["revision"], "hash": record["hash"]["value"],
            "kind": record["kind"], "memory_key": record["memory_key"], "statement": record["statement"],
            "importance": record["importance"], "confidence": record["confidence"],
            "valid_time": record["valid_time"], "tags": record["tags"],
            "source": {"type": record["source"]["type"], "ref": record["source"].get("ref")}}


def _order(entry: dict) -> tuple:
    return (IMPORTANCE_ORDER.get(entry["importance"], 3), entry["kind"], entry["memory_key"] or "", entry["id"])


def _stale_after(store: Store, state, booted: list[dict], now: str) -> str | None:
    """The next instant at which the same store would build a different view."""
    moments = [r["valid_time"]["to"] for r in booted if r["valid_time"]["to"]]
    moments += [_retention_end(store, state, r) for r in booted]
    moments += [r["valid_time"]["from"] for r in state.currents()
                if r["status"] == "active" and r["kind"] != "episode" and r["valid_time"]["from"] > now]
    future = [m for m in moments if m is not None and m > now]
    return min(future) if future else None


def manifest_sha256(store: Store, digest: str) -> str | None:
    data = store.manifest_bytes(digest)
    return hashlib.sha256(data).hexdigest() if data is not None else None


def view_sha256(view: dict) -> str:
    return hashlib.sha256(canonical_bytes({k: v for k, v in view.items() if k != "view_sha256"})).hexdigest()


def build_view(store: Store, scope: dict) -> dict:
    """The boot view of one scope as of the store's clock (not written)."""
    digest = scope_digest(scope["type"], scope["key"])
    now = store.clock.now()
    state = store.state(scope)
    booted = [r for r in state.currents() if boots(store, state, r, now)]
    view = {"schema_version": VIEW_VERSION, "scope": dict(scope), "scope_digest": digest,
            "built_at": now, "stale_after": _stale_after(store, state, booted, now),
            "manifest_sha256": manifest_sha256(store, digest),
            "forgetting_policy_sha256": store.policies.forgetting.sha256,
            "records": sorted((_entry(r) for r in booted), key=_order)}
    view["view_sha256"] = view_sha256(view)
    return view


def view_path(store: Store, digest: str) -> Path:
    return store.view_dir(digest) / VIEW_FILE


def write_view(store: Store, scope: dict) -> dict:
    """Build and write one scope's view under the writer lock (so the pins and the records agree)."""
    with store.writer(scope):
        view = build_view(store, scope)
        path = view_path(store, view["scope_digest"])
        atomic_write(path, dumps(view, pretty=True) + b"\n")
    return {"scope": view["scope"], "scope_digest": view["scope_digest"], "records": len(view["records"]),
            "stale_after": view["stale_after"], "path": str(path)}


def build_views(store: Store, scopes: Iterable[dict] | None = None) -> list[dict]:
    """Write the views of ``scopes`` (default: every scope that holds a record)."""
    if scopes is None:
        scopes = [scope for _, scope in stored_scopes(store) if scope is not None]
    return [write_view(store, scope) for scope in scopes]


# -- verifying (memory doctor) --------------------------------------------------------

def view_problem(store: Store, digest: str,
                 verified: Callable[[str, bytes], bool] | None = None) -> tuple[str, str] | None:
    """(code, message) when the view of ``digest`` is stale or tampered; None when fresh or absent."""
    path = view_path(store, digest)
    if not path.exists():
        return None
    data = path.read_bytes()
    try:
        view = loads_strict(data, what="boot view")
    except InputError:
        return "boot_view_tampered", "the boot view is not valid JSON"
    if not isinstance(view, dict) or view.get("schema_version") != VIEW_VERSION \
            or not isinstance(view.get("scope"), dict) or not isinstance(view.get("records"), list):
        return "boot_view_tampered", "the boot view does not have the boot view's shape"
    if view.get("view_sha256") != view_sha256(view):
        return "boot_view_tampered", "the boot view's content does not match its view_sha256 (edited by hand?)"
    scope = view["scope"]
    if view.get("scope_digest") != digest or scope_digest(str(scope.get("type")), str(scope.get("key"))) != digest:
        return "boot_view_tampered", "the boot view names another scope than its folder"
    stale = _staleness(store, digest, view)
    if stale is None and verified is not None and verified(digest, data):
        return None
    return stale or _mismatch(store, digest, view)


def _staleness(store: Store, digest: str, view: dict) -> tuple[str, str] | None:
    if view.get("manifest_sha256") != manifest_sha256(store, digest):
        return "derived_stale", "the scope changed since its boot view was built (run: memory build)"
    if view.get("forgetting_policy_sha256") != store.policies.forgetting.sha256:
        return "derived_stale", "the forgetting policy changed since the boot view was built (run: memory build)"
    stale_after = view.get("stale_after")
    if isinstance(stale_after, str) and store.clock.now() >= stale_after:
        return "derived_stale", "a listed record's validity or retention changed since (run: memory build)"
    return None


def _mismatch(store: Store, digest: str, view: dict) -> tuple[str, str] | None:
    pinned = view.get("manifest_sha256")
    expected = build_view(store, view["scope"])
    if expected["manifest_sha256"] != pinned:  # a write landed while we looked: not tampering
        return "derived_stale", "the scope changed since its boot view was built (run: memory build)"
    expected = {k: v for k, v in expected.items() if k not in ("built_at", "view_sha256", "stale_after")}
    actual = {k: view.get(k) for k in expected}
    if actual != expected:
        return "boot_view_tampered", ("the boot view's records differ from what the store holds "
                                      "(edited by hand?); rebuild it: memory build")
    return None


def check_boot_views(store: Store, add: Callable[[str, str, str], None], *, drop_stale: bool = False,
                     verified: Callable[[str, bytes], bool] | None = None) -> None:
    """Report every stale or tampered boot view through ``add(code, where, message)``.

    ``drop_stale`` deletes stale views (doctor --repair); tampered ones are only reported.
    ``verified(digest, view bytes)``: True when that exact view was found sound by an earlier
    run over an unchanged scope; its records are then not rebuilt (only its staleness is checked).
    """
    root = store.views_root()  # <store>/views
    if not root.is_dir():
        return
    for directory in sorted(p for p in root.iterdir() if p.is_dir()):
        problem = view_problem(store, directory.name, verified)
        if problem is None:
            continue
        code, message = problem
        add(code, f"views/{directory.name}/{VIEW_FILE}", message)
        if code == "derived_stale" and drop_stale:
            shutil.rmtree(directory, ignore_errors=True)
