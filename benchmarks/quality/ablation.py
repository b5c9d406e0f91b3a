"""Retrieval ablation: import a dataset once, then score our engine with each feature flipped.

Usage (from the repo root):

    python benchmarks/quality/ablation.py locomo ../shared/data/locomo/locomo5_dev.json \
        [--features a,b,c] [--set planner.key=value] [--json OUT] [--store DIR]

For every named feature (default: every feature of the retrieval policy) it runs
the dataset with the policy as shipped ("on" = as configured) and with that one
flag flipped, and prints the headline metrics of each run. The baselines are not
re-run (they do not change between runs); ``memory benchmark`` reports them.
The store is imported once and reused (pass ``--store`` to keep it between calls).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from memory.benchmark import datasets as ds  # noqa: E402
from memory.benchmark.runner import engine_search, import_items, load_dataset  # noqa: E402
from memory.clock import FixedClock  # noqa: E402
from memory.store import Store  # noqa: E402

HEADLINE = {
    "locomo": ("recall@5", "recall@10", "recall@20", "mrr", "abstention_precision", "abstention_recall",
               "false_abstention_rate"),
    "longmemeval": ("recall_any@5", "recall_all@5", "mrr", "turn_recall@10", "abstention_precision",
                    "abstention_recall", "false_abstention_rate"),
}


def _open_store(kind: str, path: Path, store_dir: Path | None):
    items = load_dataset(kind, path)
    clock = FixedClock("2100-01-01T00:00:00Z")
    directory = store_dir or Path(tempfile.mkdtemp(prefix=f"ablation-{kind}-"))
    if (directory / "store" / "store.json").exists():
        store = Store.open(directory / "store", clock=clock)
    else:
        store = Store.create(directory / "store", clock=clock)
        import_items(store, items)
    return items, store


def evaluate(kind: str, items, store, limit: int) -> dict:
    original = ds.prepare_baselines
    ds.prepare_baselines = lambda turns: {}
    try:
        evaluate_fn = ds.evaluate_locomo if kind == "locomo" else ds.evaluate_longmemeval
        start = time.perf_counter()
        report = evaluate_fn(items, engine_search(store, limit), limit=limit)
        report["seconds"] = round(time.perf_counter() - start, 2)
    finally:
        ds.prepare_baselines = original
    return report


def headline(kind: str, report: dict) -> dict:
    metrics = report["metrics"]
    out = {key: metrics.get(key) for key in HEADLINE[kind]}
    if kind == "locomo":
        out["with_context@10"] = metrics["with_context"]["recall@10"]
        out["by_category_r@10"] = {c: v.get("recall@10") for c, v in report["by_category"].items()}
    out["seconds"] = report["seconds"]
    out["ms_per_query"] = round(1000 * report["seconds"] / max(report["questions"], 1), 1)
    return out


def _set(data: dict, assignment: str) -> None:
    path, value = assignment.split("=", 1)
    *parents, leaf = path.split(".")
    for key in parents:
        data = data.setdefault(key, {})
    data[leaf] = json.loads(value)


def commit() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "memory", "config"], cwd=ROOT, capture_output=True,
                               text=True).stdout.strip()
        return head + ("+dirty" if dirty else "")
    except OSError:
        return "unknown"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", choices=sorted(HEADLINE))
    parser.add_argument("path", type=Path)
    parser.add_argument("--features", default=None, help="comma-separated flags to flip, '' for none")
    parser.add_argument("--set", action="append", default=[], help="policy override, e.g. planner.rrf_k=30")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--store", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--misses", type=Path, default=None, help="write the 'on' run's misses here")
    args = parser.parse_args(argv)
    limit = args.limit or (20 if args.kind == "locomo" else 50)
    items, store = _open_store(args.kind, args.path, args.store)
    data = store.policies.retrieval.data
    for assignment in args.set:
        _set(data, assignment)
    flags = sorted(data["features"]) if args.features is None else [f for f in args.features.split(",") if f]
    runs = {}
    base = evaluate(args.kind, items, store, limit)
    runs["on"] = headline(args.kind, base)
    print("on", json.dumps(runs["on"]), flush=True)
    if args.misses:
        args.misses.write_text(json.dumps(base["misses"], indent=1))
    for flag in flags:
        before = data["features"].get(flag, False)
        data["features"][flag] = not before
        runs[f"{flag}={'off' if before else 'on'}"] = result = headline(args.kind, evaluate(args.kind, items, store, limit))
        data["features"][flag] = before
        print(f"{flag}={'off' if before else 'on'}", json.dumps(result), flush=True)
    out = {"dataset": args.kind, "file": args.path.name, "commit": commit(), "overrides": args.set,
           "features": dict(data["features"]), "runs": runs}
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
