"""Where the time goes at one scope size: the profile notes of perf.md's scope-size section.

``python benchmarks/perf/scale_profile.py --stores /tmp/memory-scale --size 100k`` prints, for the
store ``scale.py`` generated for that size (nothing in it is changed: writes go to a copy):

- ``process``: one fresh interpreter per run, time (``time.perf_counter``) and peak RSS
  (``ru_maxrss``) after each step of a ``memory query``: imports, the current view, the index,
  the query;
- ``warm``: the share of ``run_query`` spent in the heaviest functions over warm queries
  (``cProfile``; the profiler slows everything, the shares are what to read);
- ``serve``: the same for a search right after an add of 20 messages on one open store, as
  ``memory serve`` runs them.
"""
from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate as gen  # noqa: E402
import scale  # noqa: E402

STEPS = """
import resource, sys, time, json
out, t0 = [], time.perf_counter()
def mark(step):
    out.append([step, round((time.perf_counter() - t0) * 1000, 1),
                round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)])
from memory.clock import FixedClock
from memory.store import Store
from memory.query import QueryRequest, run_query
from memory import indexing
mark("imports")
store = Store.open(sys.argv[1], clock=FixedClock(sys.argv[4])); scope = {"type": "user", "key": sys.argv[2]}
fingerprint = store.fingerprint(scope)
indexing.current_view(store, scope, fingerprint); mark("current view")
indexing.open_index(store, scope, fingerprint); mark("index")
run_query(store, QueryRequest(text=sys.argv[3], user=sys.argv[2])); mark("query")
print(json.dumps(out))
"""


def process_steps(root: Path, key: str, questions: list[str]) -> list:
    runs = [json.loads(subprocess.run([sys.executable, "-c", STEPS, str(root), key, q, gen.QUERY_NOW],
                                      capture_output=True, text=True, check=True).stdout) for q in questions]
    steps = [step for step, _, _ in runs[0]]
    median = lambda values: sorted(values)[len(values) // 2]  # noqa: E731
    return [{"step": step, "ms_at_end_p50": median([r[i][1] for r in runs]),
             "peak_rss_mb_p50": median([r[i][2] for r in runs])} for i, step in enumerate(steps)]


def shares(profile: cProfile.Profile, top: int) -> list:
    stats = pstats.Stats(profile)
    total = max(stats.total_tt, 1e-9)
    rows = sorted(stats.stats.items(), key=lambda item: -item[1][2])[:top]       # by own time
    return [{"function": f"{Path(file).name}:{line}({name})", "own_share": round(tt / total, 3),
             "calls": calls} for (file, line, name), (_, calls, tt, _, _) in rows]


def warm(root: Path, key: str, questions: list[str], top: int) -> dict:
    from memory.query import QueryRequest, run_query
    store = scale.perf.open_store(root)
    run_query(store, QueryRequest(text="warm up", user=key))
    profile = cProfile.Profile()
    for question in questions:
        profile.enable()
        run_query(store, QueryRequest(text=question, user=key, limit=10))
        profile.disable()
    return {"queries": len(questions), "top_own_time": shares(profile, top)}


def serve(root: Path, key: str, questions: list[str], top: int, scratch: Path) -> dict:
    from memory import api, indexing
    copy = scratch / "profile-serve"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(root, copy)
    try:
        store = scale.perf.open_store(copy)
        api.search(store, "warm up", key, top_k=10)       # saved now: the copy's pins are rebuilt
        indexing.defer_saves(store)                        # then saved off the request, as memory serve does
        profile = cProfile.Profile()
        for i, question in enumerate(questions):
            texts = [f"Bench message {i}.{j}: we talked about {questions[(i + j) % len(questions)]}"
                     for j in range(scale.MESSAGES_PER_ADD)]
            api.add_conversation(store, scale._add_body(key, f"p{i}", texts))
            profile.enable()
            api.search(store, question, key, top_k=10)
            profile.disable()
        indexing.flush_saves(store)
    finally:
        shutil.rmtree(copy, ignore_errors=True)
    return {"searches": len(questions), "top_own_time": shares(profile, top)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stores", type=Path, default=Path("/tmp/memory-scale"))
    parser.add_argument("--size", choices=list(scale.SIZES), default="100k")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--top", type=int, default=8)
    args = parser.parse_args()
    root, key = args.stores / f"scale-{args.size}", scale.plan(args.size).key
    questions = scale.questions(args.size, 20)
    with tempfile.TemporaryDirectory(prefix="memory-profile-") as scratch:
        started = time.perf_counter()
        out = {"size": args.size, "process": process_steps(root, key, questions[:args.runs]),
               "warm": warm(root, key, questions, args.top),
               "serve": serve(root, key, questions[:10], args.top, Path(scratch))}
        out["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
