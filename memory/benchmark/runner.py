"""Glue between the dataset evaluators and the engine: import, then search.

``import_items`` turns conversations into episode envelopes and applies them
through the mutation policy in batches (one group commit each).
``engine_search`` wraps ``run_query`` as the evaluators' search function.
``run_dataset`` does both in a fresh temporary store (or a given one).
"""
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Callable

from ..clock import FixedClock
from ..importers import turn_envelopes
from ..query import QueryRequest, retrieve
from ..store import Store
from .datasets import SearchOutcome, evaluate_locomo, evaluate_longmemeval

LOADERS = {
    "locomo": ("memory.importers.locomo", "load_locomo"),
    "longmemeval": ("memory.importers.longmemeval", "load_longmemeval"),
}


def load_dataset(kind: str, path: Path) -> list:
    import importlib
    module, name = LOADERS[kind]
    return getattr(importlib.import_module(module), name)(path)


def import_items(store: Store, items: list, *, batch_size: int = 2000,
                 progress: Callable[[int], None] | None = None) -> dict:
    counts = {"applied": 0, "idempotent": 0, "refused": 0, "refusal_codes": {}}
    envelopes = (envelope for item in items for envelope in turn_envelopes(item))
    for result in store.apply(envelopes, batch_size=batch_size, progress=progress):
        counts[result["status"]] += 1
        if result["error"]:
            code = result["error"]["code"]
            counts["refusal_codes"][code] = counts["refusal_codes"].get(code, 0) + 1
    return counts


def engine_search(store: Store, limit: int):
    def search(scope_user: str, question: str, as_of: str | None) -> SearchOutcome:
        if as_of is not None:
            store.clock.set(as_of)
        # retrieval is scored on the ranking a retrieval caller gets (``search_eligible``), as the
        # baselines' are; abstention on the answer (``run_query``), and over its threshold
        evidence, answer, confidence = retrieve(store, QueryRequest(text=question, user=scope_user, as_of=as_of,
                                                                    limit=limit))
        return SearchOutcome(ranked_refs=[e["source"]["ref"] for e in evidence],
                             context_refs=[[c["source"]["ref"] for c in e["context"]] for e in evidence],
                             abstained=answer["knowledge_state"] == "UNKNOWN", confidence=confidence,
                             sureness=answer.get("sureness"))
    return search


def run_dataset(kind: str, path: Path, *, limit: int | None = None, store_dir: Path | None = None,
                import_progress=None, query_progress=None, half: str = "all", store_url: str | None = None) -> dict:
    """``half``: "dev", "test" or "all" (``datasets.half_of``): only that half is imported and asked.
    ``store_url``: import into this PostgreSQL database (``postgresql://…``, holding no scope yet)
    instead of a scratch JSONL folder; the same import and questions, the other backend."""
    items = load_dataset(kind, path)
    if half != "all":
        from .datasets import locomo_halves, longmemeval_halves
        halves = locomo_halves(items) if kind == "locomo" else longmemeval_halves(items)
        imported_items = [item for item in items if halves[item.scope_key] == half]
    else:
        imported_items = items
    limit = limit or (20 if kind == "locomo" else 50)
    with tempfile.TemporaryDirectory(prefix=f"memory-{kind}-") as scratch:
        # the import happens "after" every session: recorded time must not precede valid time
        clock = FixedClock("2100-01-01T00:00:00Z")
        store = (_empty_postgres_store(store_url, clock) if store_url is not None
                 else Store.create(Path(store_dir or scratch) / "store", clock=clock))
        imported = import_items(store, imported_items, progress=import_progress)
        evaluate = evaluate_locomo if kind == "locomo" else evaluate_longmemeval
        report = evaluate(items, engine_search(store, limit), limit=limit, progress=query_progress, half=half)
        # ``decision.sureness_margin``: the decision abstains at this point of the sureness curve
        # (its own score); None: the sureness only ranks abstentions
        report["abstention_shipped_margin"] = store.policies.retrieval.decision.get("sureness_margin")
    report["import"] = imported
    report["dataset_file"] = Path(path).name
    return report


def _empty_postgres_store(url: str, clock):
    """A PostgreSQL store for one benchmark run: it must hold no scope (a benchmark's figures are
    those of the dataset alone)."""
    from ..errors import StoreError
    from ..store import PostgresStore, is_url
    if not is_url(url):
        raise StoreError("--store-url takes a postgresql:// URL", code="usage_error")
    store = PostgresStore.create(url, clock=clock)
    if store.scope_digests():
        raise StoreError("--store-url names a database that already holds scopes: give the benchmark an "
                         "empty one", code="store_not_empty")
    return store
