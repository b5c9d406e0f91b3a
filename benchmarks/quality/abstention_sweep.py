"""Re-run only the decision over cached rankings: the abstention figures of a public set's half
under policy variants, without re-planning (the decision does not change the ranking).

    PYTHONPATH=$PWD python benchmarks/quality/abstention_sweep.py locomo ../shared/data/locomo/locomo5_dev.json \
        --half dev [--store /tmp/abst/locomo-dev] [--set features.x=false ...] [--dump rows.json]

The store of the half is imported once into ``--store`` and reused (it keeps the policy it was
created with, its own copy: delete the folder after a policy change). Each ``--set`` names a variant
(several keys joined with ``,``); the shipped policy is always the first row. Prints, per variant,
abstention precision / recall / false-abstention rate at the shipped decision and the abstention
curve's dev operating point (``datasets.operating_point``), and the sureness curve's
(``datasets.sureness_curve``, with ``features.abstention_sureness``).
"""
from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from pathlib import Path

from memory import planner, query
from memory.benchmark import datasets as ds
from memory.benchmark.runner import import_items, load_dataset
from memory.clock import FixedClock
from memory import decision as decide_mod
from memory.store import Store

_plans: dict = {}
_real_plan = planner.plan


def _cached_plan(space, question, settings, features, *, caller="", as_of=None):
    key = (caller, question, as_of)
    if key not in _plans:
        _plans[key] = _real_plan(space, question, settings, features, caller=caller, as_of=as_of)
    return _plans[key]


planner.plan = _cached_plan


def questions_of(kind: str, items: list, half: str) -> list[tuple]:
    """(scope, question, as_of, should_abstain, label) of the half."""
    out = []
    if kind == "locomo":
        halves = ds.locomo_halves(items)
        for conv in items:
            if halves[conv.sample_id] != half:
                continue
            for q in conv.questions:
                out.append((conv.sample_id, q.question, None, q.category == ds.LOCOMO_ADVERSARIAL,
                            {"category": q.category, "index": q.index, "evidence": list(q.evidence)}))
    else:
        halves = ds.longmemeval_halves(items)
        for q in items:
            if halves[q.question_id] != half:
                continue
            out.append((q.question_id, q.question, ds.end_of_day(q.question_as_of), q.is_abstention,
                        {"question_type": q.question_type, "question_id": q.question_id}))
    return out


def open_store(kind: str, items: list, half: str, root: Path) -> Store:
    clock = FixedClock("2100-01-01T00:00:00Z")
    if (root / "store").exists():
        return Store.open(root / "store", clock=clock)
    halves = ds.locomo_halves(items) if kind == "locomo" else ds.longmemeval_halves(items)
    store = Store.create(root / "store", clock=clock)
    import_items(store, [i for i in items if halves[i.scope_key] == half])
    return store


def run(store: Store, questions: list[tuple]) -> list[dict]:
    rows = []
    decision = store.policies.retrieval.decision
    for scope, question, as_of, should, label in questions:
        store.clock.set(as_of or "2100-01-01T00:00:00Z")
        evaluation = query._evaluate(store, query.QueryRequest(text=question, user=scope, as_of=as_of, limit=20))
        verdict = evaluation.verdict
        conf = decide_mod.confidence(verdict.eligible, decision.get("support_ratio", 0.0),
                                     decision.get("swap_ratio", 0.0), verdict.blocked,
                                     outweigh=store.policies.retrieval.feature("blocked_outweighs"))
        matching = [m for m in verdict.eligible if m.coverage > 0]
        evidence = [m for m in matching if m.support != 0]
        if decision.get("sureness_margin") is not None:   # the shipped decision's own score
            sure = decide_mod.abstention_score(verdict.eligible, conf, decision["min_coverage"])
        else:
            sure = decide_mod.sureness(verdict.eligible, conf) \
                if store.policies.retrieval.feature("abstention_sureness") else None
        rows.append({"should_abstain": should, "abstained": verdict.knowledge_state == "UNKNOWN",
                     "confidence": conf, "sureness": sure, "question": question, "scope": scope, **label,
                     "best": max(((m.coverage if m.support is None else m.support) for m in evidence), default=0.0),
                     "swapped": max((m.swapped for m in matching if m.swapped is not None), default=None),
                     "supports": sorted(((m.coverage if m.support is None else m.support) for m in evidence),
                                        reverse=True)[:10],
                     "anchored": any(m.anchored for m in evidence), "asked": any(m.asked for m in evidence),
                     "stated": max(((m.coverage if m.stated is None else m.stated) for m in matching), default=0.0)})
    return rows


def summary(rows: list[dict]) -> dict:
    should = [r for r in rows if r["should_abstain"]]
    answerable = [r for r in rows if not r["should_abstain"]]
    abst = [r for r in rows if r["abstained"]]
    right = sum(1 for r in abst if r["should_abstain"])
    curve = ds.abstention_curve(rows)
    sureness = ds.sureness_curve(rows)
    return {"precision": round(right / len(abst), 4) if abst else None,
            "recall": round(right / len(should), 4) if should else None,
            "false_abstention_rate": round(sum(1 for r in answerable if r["abstained"]) / len(answerable), 4),
            "operating_point": ds.operating_point(curve), "curve": curve,
            "sureness_point": ds.operating_point(sureness) if sureness else None, "sureness_curve": sureness}


def apply(data: dict, assignment: str) -> None:
    for part in assignment.split(","):
        path, value = part.split("=", 1)
        section, key = path.split(".", 1)
        data[section][key] = json.loads(value)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", choices=("locomo", "longmemeval"))
    parser.add_argument("path", type=Path)
    parser.add_argument("--half", default="dev", choices=ds.HALVES)
    parser.add_argument("--store", type=Path)
    parser.add_argument("--set", action="append", default=[])
    parser.add_argument("--dump")
    parser.add_argument("--time", action="store_true",
                        help="print each variant's seconds for the decision alone (plans cached by a first run)")
    args = parser.parse_args(argv)
    items = load_dataset(args.kind, args.path)
    root = args.store or Path(f"/tmp/abst/{args.kind}-{args.half}")
    root.mkdir(parents=True, exist_ok=True)
    store = open_store(args.kind, items, args.half, root)
    questions = questions_of(args.kind, items, args.half)
    shipped = copy.deepcopy(store.policies.retrieval.data)
    results = {}
    if args.time:
        run(store, questions)   # plans and per-view caches warmed: what follows is the decision alone
    for variant in ["shipped", *args.set]:
        store.policies.retrieval.data.clear()
        store.policies.retrieval.data.update(copy.deepcopy(shipped))
        if variant != "shipped":
            apply(store.policies.retrieval.data, variant)
        started = time.perf_counter()
        rows = run(store, questions)
        seconds = time.perf_counter() - started
        s = summary(rows)
        results[variant] = {"rows": rows, **s}
        op, sp = s["operating_point"], s["sureness_point"]
        keys = ('threshold', 'precision', 'recall', 'false_abstention_rate', 'abstained')
        print(f"{variant}: at decision P {s['precision']} R {s['recall']} FA {s['false_abstention_rate']} | "
              f"op {op and {k: op[k] for k in keys}} | sureness op {sp and {k: sp[k] for k in keys}}"
              + (f" | {seconds:.3f} s" if args.time else ""), flush=True)
    if args.dump:
        Path(args.dump).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
