"""Retrieval answers over the scope-size stores, to compare two trees byte for byte.

``PYTHONHASHSEED=0 PYTHONPATH=<tree> python benchmarks/perf/scale_answers.py --out FILE [--serve 10k]``
writes one JSON file: for each size, ``run_query`` over 60 of ``scale.questions`` (limit 10) and
20 of them with ``include_inactive`` (limit 100), the candidates of every ``planner.plan`` with
their floats as ``repr`` (id, BM25, fused, coverage, attributed), and with ``--serve`` the
``api.search`` answers after each of 30 adds on a scratch copy of that store (the stores are never
changed). Run it on two trees and ``cmp`` the files: scoring changes must leave them equal.
``PYTHONHASHSEED`` is fixed because coverage sums a set of terms, whose order follows the seed.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import scale  # noqa: E402

from memory import api, planner  # noqa: E402
from memory.query import QueryRequest, run_query  # noqa: E402

PLANS: list = []
_plan = planner.plan


def _recorded_plan(*args, **kwargs):
    result = _plan(*args, **kwargs)
    PLANS.append([(c.record_id, repr(c.score), repr(c.fused), repr(c.coverage), c.attributed)
                  for c in result.candidates])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stores", type=Path, default=Path("/tmp/memory-scale"))
    parser.add_argument("--size", action="append", choices=list(scale.SIZES))
    parser.add_argument("--serve", choices=list(scale.SIZES), help="also searches interleaved with adds")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    planner.plan = _recorded_plan          # query.py calls planner.plan through the module
    out: dict = {}
    for name in args.size or list(scale.SIZES):
        store = scale.perf.open_store(args.stores / f"scale-{name}")
        key, questions = scale.plan(name).key, scale.questions(name, 60)
        out[name] = [run_query(store, QueryRequest(text=q, user=key, limit=10)) for q in questions] + \
            [run_query(store, QueryRequest(text=q, user=key, limit=100, include_inactive=True)) for q in questions[:20]]
    if args.serve:
        with tempfile.TemporaryDirectory(prefix="scale-answers-") as scratch:
            copy = Path(scratch) / "store"
            shutil.copytree(args.stores / f"scale-{args.serve}", copy)
            store, key = scale.perf.open_store(copy), scale.plan(args.serve).key
            questions = scale.questions(args.serve, 30)
            api.search(store, "warm up", key, top_k=10)
            found = []
            for i, question in enumerate(questions):
                texts = [f"Bench message {i}.{j}: we talked about {questions[(i + j) % len(questions)]}"
                         for j in range(scale.MESSAGES_PER_ADD)]
                api.add_conversation(store, scale._add_body(key, f"p{i}", texts))
                found.append(api.search(store, question, key, top_k=10))
            out["serve-" + args.serve] = found
    out["plans"] = PLANS
    args.out.write_text(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
