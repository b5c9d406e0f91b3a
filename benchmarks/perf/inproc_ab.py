"""The in-process query of two trees on a shared machine, question by question, taking turns.

``python benchmarks/perf/inproc_ab.py --size 1k --baseline-src /tmp/main --baseline-stores /tmp/stores-main``
starts one worker per tree (this checkout, and ``--baseline-src`` with its own copy of the stores),
each a fresh interpreter that opens the scope-size store ``scale.py`` generated, warms it with 40
of ``scale.questions`` and then answers, one at a time and when told, the next ones
(``run_query``, limit 10, as ``scale.py``'s in-process section). The two never run at the same
time and answer each question right after each other (which goes first alternates), so both see
the same load: on a 2-core machine shared with other jobs, ``scale.py``'s wall-time p50 of two
runs minutes apart measures the load more than the code. Printed: each tree's CPU and wall p50
and the median of the per-question CPU ratios (this tree / baseline).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

WORKER = """
import sys, time
sys.path.insert(0, "benchmarks/perf")
import scale
from pathlib import Path
from memory.query import QueryRequest, run_query
size, stores, warm = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
store = scale.perf.open_store(scale.ensure_stores(stores, [size])[size])
key = scale.plan(size).key
questions = scale.questions(size, 400)
for question in questions[:warm]:
    run_query(store, QueryRequest(text=question, user=key, limit=10))
print("ready", flush=True)
for line in sys.stdin:
    question = questions[warm + int(line) % (len(questions) - warm)]
    cpu, wall = time.process_time(), time.perf_counter()
    run_query(store, QueryRequest(text=question, user=key, limit=10))
    print(time.process_time() - cpu, time.perf_counter() - wall, flush=True)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", default="1k")
    parser.add_argument("--stores", type=Path, default=Path("/tmp/memory-scale"))
    parser.add_argument("--baseline-src", type=Path, required=True)
    parser.add_argument("--baseline-stores", type=Path, required=True)
    parser.add_argument("--questions", type=int, default=300)
    parser.add_argument("--warm", type=int, default=40)
    args = parser.parse_args()
    trees = {"this": (ROOT, args.stores), "baseline": (args.baseline_src.resolve(), args.baseline_stores.resolve())}
    workers = {}
    for name, (source, stores) in trees.items():
        env = {**os.environ, "PYTHONPATH": str(source)}
        workers[name] = subprocess.Popen([sys.executable, "-c", WORKER, args.size, str(stores), str(args.warm)],
                                         cwd=source, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    for worker in workers.values():
        if worker.stdout.readline().strip() != "ready":
            raise SystemExit("a worker did not start")
    cpu: dict[str, list[float]] = {name: [] for name in workers}
    wall: dict[str, list[float]] = {name: [] for name in workers}
    load_start = os.getloadavg()
    for i in range(args.questions):
        for name in (list(workers) if i % 2 else list(reversed(list(workers)))):
            worker = workers[name]
            worker.stdin.write(f"{i}\n")
            worker.stdin.flush()
            c, w = map(float, worker.stdout.readline().split())
            cpu[name].append(c)
            wall[name].append(w)
    for worker in workers.values():
        worker.stdin.close()
        worker.wait()
    ms = lambda values: round(statistics.median(values) * 1000, 3)  # noqa: E731
    ratios = [b / a for a, b in zip(cpu["baseline"], cpu["this"]) if a > 0]
    print(json.dumps({"size": args.size, "questions": args.questions,
                      "cpu_p50_ms": {name: ms(values) for name, values in cpu.items()},
                      "wall_p50_ms": {name: ms(values) for name, values in wall.items()},
                      "cpu_ratio_median": round(statistics.median(ratios), 3),
                      "loadavg": [round(x, 2) for x in load_start] + [round(x, 2) for x in os.getloadavg()]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
