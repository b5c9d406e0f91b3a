"""Search p50 in a long-lived process, PostgreSQL against JSONL, at N episodes in one scope
(issue 17, second benchmark), in the same run.

For each backend: fill one scope with N episodes (``apply``, default batch size), open one
store handle as a long-lived server would, warm it with one search, then ROUNDS times: an
add of 20 messages through the same handle, then a search (the "after an add" figure: the
handle catches its state, view and index up from the rows added since), then a second
search with nothing new (the "steady" figure). Ratios are PostgreSQL / JSONL.

    nice -n 5 python benchmarks/postgres_search.py [--episodes 10000] [--rounds 30]

Writes benchmarks/reports/postgres-search-N.md (and .json). Needs psycopg and the PostgreSQL
server binaries (tools/pg_throwaway.sh).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from memory.clock import FixedClock  # noqa: E402
from memory.envelope_builder import build, source, user_scope  # noqa: E402
from memory.query import QueryRequest, run_query  # noqa: E402
from memory.store import PostgresStore, Store  # noqa: E402

SCRIPT = REPO / "tools" / "pg_throwaway.sh"
REPORTS = REPO / "benchmarks" / "reports"
NOW = "2024-03-01T12:00:00Z"
TOPICS = ["weather", "garden", "bicycle", "piano", "holiday", "kitchen", "library", "market", "river", "train"]


def episode(user: str, n: int) -> dict:
    topic = TOPICS[n % len(TOPICS)]
    return build("add", user_scope(user), transaction_id=f"ep-{n}", actor={"type": "agent", "id": "memory-serve"},
                 source=source("conversation", ref=f"s{n // 20}:{n % 20}", session=f"s{n // 20}", speaker="user"),
                 payload={"kind": "episode", "statement": f"turn {n}: we talked about the {topic} and item{n}"},
                 valid_time={"from": NOW, "to": None}, sensitivity="private")


def measure(store, user: str, episodes: int, rounds: int) -> dict:
    start = time.perf_counter()
    for result in store.apply(episode(user, n) for n in range(episodes)):
        assert result["status"] == "applied", result
    fill = time.perf_counter() - start
    ask = QueryRequest(text="what did we say about the piano?", user=user)
    run_query(store, ask)   # warm: the handle reads the scope once
    after_add, steady = [], []
    for r in range(rounds):
        base = episodes + r * 20
        list(store.apply([episode(user, base + m) for m in range(20)]))
        t = time.perf_counter()
        run_query(store, QueryRequest(text=f"item{base + 3} piano", user=user))
        after_add.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        run_query(store, ask)
        steady.append((time.perf_counter() - t) * 1000)
    return {"fill_seconds": fill, "search_after_add_p50_ms": statistics.median(after_add),
            "search_steady_p50_ms": statistics.median(steady)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="memory-search-bench-"))
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = subprocess.run(["bash", str(SCRIPT), "start", str(folder / "pg"), str(port)], capture_output=True,
                         text=True, check=True).stdout.strip()
    try:
        clock = FixedClock(NOW)
        results = {"jsonl": measure(Store.create(folder / "jsonl", clock=clock), "bench", args.episodes, args.rounds),
                   "postgres": measure(PostgresStore.create(url, clock=clock), "bench", args.episodes, args.rounds)}
    finally:
        subprocess.run(["bash", str(SCRIPT), "stop", str(folder / "pg")], capture_output=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                            text=True).stdout.strip()
    ratios = {k: results["postgres"][k] / results["jsonl"][k] for k in results["jsonl"]}
    result = {"command": f"nice -n 5 python benchmarks/postgres_search.py --episodes {args.episodes} "
                         f"--rounds {args.rounds}", "commit": commit, "machine": platform.platform(),
              "episodes": args.episodes, "rounds": args.rounds, "results": results, "ratios": ratios}
    lines = [f"# Search in a long-lived process: PostgreSQL vs JSONL at {args.episodes} episodes in one scope", "",
             f"Produced by `{result['command']}` at commit `{commit}` on {result['machine']} ({os.cpu_count()} "
             "cores, shared with other work while it ran). One store handle per backend, kept open as a server "
             f"keeps it; {args.rounds} rounds of: an add of 20 messages, a search right after it, a search "
             "with nothing new.", "",
             "| | JSONL | PostgreSQL | ratio |", "|---|---|---|---|"]
    names = {"fill_seconds": "filling the scope (s)", "search_after_add_p50_ms": "search right after an add, p50 (ms)",
             "search_steady_p50_ms": "search with nothing new, p50 (ms)"}
    for key, name in names.items():
        lines.append(f"| {name} | {results['jsonl'][key]:.2f} | {results['postgres'][key]:.2f} | {ratios[key]:.2f}× |")
    lines += ["", "The issue's target: search p50 within 1.5× of JSONL.", ""]
    report = REPORTS / f"postgres-search-{args.episodes}"
    report.with_suffix(".json").write_text(json.dumps(result, indent=2) + "\n")
    report.with_suffix(".md").write_text("\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
