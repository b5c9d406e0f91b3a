"""``memory stats``: what a store holds, counted, without printing any memory content.

``store_stats(store) -> dict``: records (current revisions) by status and by
kind, revisions, scopes, erasure rows, the last write (the latest recorded_at
or erasure time in the log), and per scope the freshness of its derived files:
the BM25 index (``fresh``: its sidecar matches the shards byte for byte and the
current settings; ``stale``: the next query rebuilds or extends it;
``missing``) and the boot view (``fresh | stale | tampered | missing``, as
``memory doctor`` judges it).
"""
from __future__ import annotations

from .bootview import stored_scopes, view_path, view_problem
from .indexing import index_settings
from .jsonio import dumps, loads_trusted
from .retrieval.index import FORMAT, META_FILE
from .retrieval.tokenize import TOKENIZER_VERSION
from .store import Store
from .vocabulary import KINDS, STATUSES


def index_freshness(store: Store, digest: str, settings: dict) -> str:
    """fresh | stale | missing for one scope's BM25 index."""
    meta_path = store.index_dir(digest) / META_FILE
    if not meta_path.exists():
        return "missing"
    try:
        meta = loads_trusted(meta_path.read_bytes())
    except ValueError:
        return "stale"
    caught_up = isinstance(meta, dict) and store.cursor_status(digest, meta.get("cursor") or {}) == "caught_up"
    matches = (caught_up and meta.get("format") == FORMAT and meta.get("tokenizer") == TOKENIZER_VERSION
               and meta.get("settings") == settings)
    return "fresh" if matches else "stale"


def view_freshness(store: Store, digest: str) -> str:
    """fresh | stale | tampered | missing for one scope's boot view."""
    if not view_path(store, digest).exists():
        return "missing"
    problem = view_problem(store, digest)
    if problem is None:
        return "fresh"
    return "tampered" if problem[0] == "boot_view_tampered" else "stale"


def _latest(*instants) -> str | None:
    present = [i for i in instants if i]
    return max(present) if present else None


def _scope_stats(store: Store, digest: str, scope: dict | None, settings: dict) -> dict:
    audit = store.audit_rows(digest)
    currents, revisions, last = [], 0, _latest(*(row.get("at") for row in audit))
    if scope is not None:
        state = store.state(scope)
        currents = list(state.currents())
        revisions = sum(len(rs) for rs in state.revisions.values())
        last = _latest(last, *(r["transition"]["recorded_at"] for rs in state.revisions.values() for r in rs))
    return {"scope_digest": digest, "scope": scope, "records": len(currents), "revisions": revisions,
            "by_status": {s: sum(r["status"] == s for r in currents) for s in STATUSES},
            "by_kind": {k: sum(r["kind"] == k for r in currents) for k in KINDS},
            "erasures": len(audit), "last_write": last,
            "index": index_freshness(store, digest, settings), "boot_view": view_freshness(store, digest)}


def store_stats(store: Store) -> dict:
    settings = loads_trusted(dumps(index_settings(store)))  # the sidecar stores them JSON round-tripped
    scopes = [_scope_stats(store, digest, scope, settings) for digest, scope in stored_scopes(store)]
    return {
        "store": str(store.root.resolve()), "scopes": len(scopes),
        "records": sum(s["records"] for s in scopes), "revisions": sum(s["revisions"] for s in scopes),
        "by_status": {s: sum(x["by_status"][s] for x in scopes) for s in STATUSES},
        "by_kind": {k: sum(x["by_kind"][k] for x in scopes) for k in KINDS},
        "erasures": sum(s["erasures"] for s in scopes),
        "last_write": _latest(*(s["last_write"] for s in scopes)),
        "index": {state: sum(s["index"] == state for s in scopes) for state in ("fresh", "stale", "missing")},
        "per_scope": scopes,
    }


def _nonzero(counts: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in counts.items() if v) or "none"


def stats_text(stats: dict) -> str:
    """The plain-text rendering ``memory stats`` prints."""
    lines = [f"store: {stats['store']}",
             f"{stats['scopes']} scope(s), {stats['records']} record(s), {stats['revisions']} revision(s), "
             f"{stats['erasures']} erasure(s); last write {stats['last_write'] or 'never'}",
             f"by status: {_nonzero(stats['by_status'])}",
             f"by kind: {_nonzero(stats['by_kind'])}",
             "index: " + ", ".join(f"{k} {v}" for k, v in stats["index"].items())]
    for s in stats["per_scope"]:
        label = f"{s['scope']['type']}:{s['scope']['key']}" if s["scope"] else "(erased)"
        lines.append(f"  {s['scope_digest'][:12]}  {label:<20} {s['records']:>6} record(s)  "
                     f"index {s['index']:<7}  boot view {s['boot_view']:<8}  last write {s['last_write'] or '-'}")
    return "\n".join(lines)
