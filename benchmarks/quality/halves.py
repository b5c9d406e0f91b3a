"""Our engine and both baselines on the dev and the test half of a public set, in one process,
with the retrieval policy changed in place (how the issue-13 on/off rows were measured).

Usage (from the repo root):

    python benchmarks/quality/halves.py locomo|longmemeval [--store DIR] [--json OUT] [key=value ...]

``key=value``: ``f.NAME=on|off`` sets a feature, ``d.NAME=x`` a decision setting, any other key a
planner setting (JSON value). The store is imported once into ``--store`` (reused when it is
there) and the baselines' rows are kept beside it (``baselines.pickle``): they do not depend on the
policy. A change to an index flag (``speaker_field``, ``date_field``, ``relative_dates``) needs a
fresh store. The figures are the ones ``memory benchmark KIND FILE`` reports under ``halves``:
the same search (``runner.engine_search``), rows and means (``datasets``). Prints, per half, each
system's headline metrics and every headline metric where ours is below a baseline.
"""
from __future__ import annotations

import json
import pickle
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from memory.benchmark import datasets as ds  # noqa: E402
from memory.benchmark import metrics as m  # noqa: E402
from memory.benchmark.baselines import prepare_baselines  # noqa: E402
from memory.benchmark.runner import engine_search, import_items, load_dataset  # noqa: E402
from memory.clock import FixedClock  # noqa: E402
from memory.store import Store  # noqa: E402

FILES = {"locomo": ROOT / "../shared/data/locomo/locomo5_dev.json",
         "longmemeval": ROOT / "../shared/data/longmemeval/longmemeval_s_dev100.json.gz"}
HEADLINE = {"locomo": ("recall@5", "recall@10", "recall@20", "mrr"),
            "longmemeval": ("recall_any@5", "recall_all@5", "mrr", "turn_recall@10")}
LIMIT = {"locomo": 20, "longmemeval": 50}


def questions(kind: str, items):
    """(item, question, gold refs or None, half) in the evaluators' order."""
    if kind == "locomo":
        halves = ds.locomo_halves(items)
        for conversation in items:
            known = [turn.ref for turn in conversation.turns]
            for question in conversation.questions:
                yield conversation, question, m.normalize_evidence(question.evidence, known)[0], halves[conversation.sample_id]
    else:
        halves = ds.longmemeval_halves(items)
        for question in items:
            yield question, question, None, halves[question.question_id]


def row(kind: str, question, gold, outcome) -> dict:
    return ds._locomo_row(question.category, gold, outcome) if kind == "locomo" else ds._lme_row(question, outcome)


def baseline_rows(kind: str, items, store_dir: Path) -> dict:
    cached = store_dir / "baselines.pickle"
    if cached.exists():
        return pickle.loads(cached.read_bytes())
    rows: dict = {}
    prepared, prepared_for = {}, None
    for item, question, gold, half in questions(kind, items):
        if prepared_for is not item:
            prepared, prepared_for = prepare_baselines(item.turns), item
        for name, rank in prepared.items():
            outcome = ds._baseline_outcome(rank(question.question, LIMIT[kind]))
            rows.setdefault(name, []).append(row(kind, question, gold, outcome) | {"half": half})
    cached.write_bytes(pickle.dumps(rows))
    return rows


def ours_rows(kind: str, items, store) -> list[dict]:
    search, rows = engine_search(store, LIMIT[kind]), []
    for item, question, gold, half in questions(kind, items):
        scope = item.sample_id if kind == "locomo" else item.question_id
        as_of = None if kind == "locomo" else ds.end_of_day(item.question_as_of)
        outcome = ds._truncated(search(scope, question.question, as_of), LIMIT[kind])
        rows.append(row(kind, question, gold, outcome) | {"half": half})
    return rows


def set_policy(store, assignments: list[str]) -> None:
    data = store.policies.retrieval.data
    for assignment in assignments:
        key, value = assignment.split("=", 1)
        if key.startswith("f."):
            data["features"][key[2:]] = value == "on"
        elif key.startswith("d."):
            data["decision"][key[2:]] = float(value)
        else:
            data["planner"][key] = json.loads(value)


def main(argv: list[str]) -> int:
    args = list(argv)
    kind = args.pop(0)
    store_dir = json_out = None
    while args and args[0].startswith("--"):
        flag, value = args.pop(0), args.pop(0)
        store_dir, json_out = (Path(value), json_out) if flag == "--store" else (store_dir, Path(value))
    store_dir = store_dir or Path(tempfile.mkdtemp(prefix=f"halves-{kind}-"))
    items = load_dataset(kind, FILES[kind])
    clock = FixedClock("2100-01-01T00:00:00Z")
    if (store_dir / "store" / "store.json").exists():
        store = Store.open(store_dir / "store", clock=clock)
    else:
        store = Store.create(store_dir / "store", clock=clock)
        import_items(store, items)
    baselines = baseline_rows(kind, items, store_dir)
    set_policy(store, args)
    start = time.perf_counter()
    ours = ours_rows(kind, items, store)
    seconds = time.perf_counter() - start
    out = {"dataset": kind, "overrides": args, "seconds": round(seconds, 1), "halves": {}, "below_a_baseline": []}
    for half in ds.HALVES:
        systems = {"ours": ours, **baselines}
        figures = {name: ds._summary([r for r in rows if r["half"] == half]) for name, rows in systems.items()}
        out["halves"][half] = {name: {k: f[k] for k in HEADLINE[kind]} for name, f in figures.items()}
        out["below_a_baseline"] += [f"{half} {k}: ours {figures['ours'][k]} < {name} {figures[name][k]}"
                                    for name in baselines for k in HEADLINE[kind]
                                    if figures["ours"][k] < figures[name][k]]
    for half, systems in out["halves"].items():
        for name, figures in systems.items():
            print(f"{half:5} {name:13} " + "  ".join(f"{k} {v}" for k, v in figures.items()))
    print("below a baseline:", "; ".join(out["below_a_baseline"]) or "none")
    if json_out:
        json_out.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
