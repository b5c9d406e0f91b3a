"""``memory serve`` for many users: its resident memory after touching 1, 50 and 200 users.

Contract: ``python benchmarks/perf/serve_many_users.py --stores /tmp/memory-many-users
[--baseline-src /path/to/other/tree]`` uses (or writes, through ``Store.apply``) one store of
``--users`` users of ``--records`` records each (``generate.scope_envelopes``: episodes as the
importers write them, keyed facts, updates), then, for each tree (this one, and the baseline's
when given) and each count of users, starts a fresh ``memory serve`` (``python -m memory.cli``
with ``PYTHONPATH`` at that tree), touches that many users one after another and reads the
server's resident memory (``VmRSS``, and the peak ``VmHWM``) from ``/proc``. Two workloads:

- ``search``: one ``/v1/memories/search`` per user (the read caches: view, index, query view);
- ``add+search``: one ``/v1/memories/add`` of two messages, then a search, per user (the folded
  state a write keeps as well). The adds stay in the store (two records per user per run).

The runs alternate between the trees. Prints a JSON document; ``--json-out`` writes it too
(``benchmarks/reports/perf.md``, "Many users", quotes it with the command).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate as gen  # noqa: E402
import run as perf  # noqa: E402
from scale import Server, _add_body  # noqa: E402

from memory.clock import FixedClock  # noqa: E402
from memory.query import QueryRequest, run_query  # noqa: E402
from memory.store import Store  # noqa: E402

TREE = HERE.parents[1]
QUESTIONS = ("What did we talk about last time?", "Where does Maria live?", "What did I cook for dinner?")


def users(count: int) -> list[str]:
    return [f"many-{i:04d}" for i in range(count)]


def ensure_store(folder: Path, count: int, records: int) -> Path:
    root = folder / f"store-{count}x{records}"
    done = root.with_suffix(".done")
    if done.exists():
        return root
    store = Store.create(root, clock=FixedClock(gen.QUERY_NOW))
    for key in users(count):
        results = store.apply(list(gen.scope_envelopes(gen.SEED, gen.ScopePlan(key, records, "probe"))))
        assert all(r["status"] in ("applied", "duplicate") for r in results)
    for key in users(count):      # the derived files (view, index) saved, as a served store has them
        run_query(store, QueryRequest(text=QUESTIONS[0], user=key))
    done.write_text("done\n")
    return root


def _rss(pid: int) -> dict[str, float]:
    """The server's resident memory in MB: all of it, its peak, and the anonymous part (the
    heap) apart from the file pages (the mapped index files, which the kernel may drop)."""
    status = Path(f"/proc/{pid}/status").read_text()
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    mb = {name: round(int(fields[field].split()[0]) / 1024, 1)
          for name, field in (("rss_mb", "VmRSS"), ("peak_rss_mb", "VmHWM"), ("anon_mb", "RssAnon"),
                              ("file_mb", "RssFile"))}
    return mb


class TreeServer(Server):
    """scale.Server, with ``python -m memory.cli`` of ``tree`` (its PYTHONPATH) and extra flags."""

    def __init__(self, root: Path, log: Path, tree: Path, flags: list[str]) -> None:
        env = perf.base_env(root)
        env["PYTHONPATH"] = str(tree)
        super().__init__(root, log, command=[sys.executable, "-m", "memory.cli"], flags=flags, env=env, cwd=tree)


def one_run(root: Path, tree: Path, touched: list[str], workload: str, log: Path, flags: list[str],
            run_id: str) -> dict:
    server = TreeServer(root, log, tree, flags)
    try:
        idle = _rss(server.process.pid)["rss_mb"]
        start = time.perf_counter()
        for i, user in enumerate(touched):
            if workload == "add+search":
                body = _add_body(user, f"{run_id}-{i}", [f"I told {user} about the garden ({run_id}).",
                                                         "We also talked about the bicycle."])
                body["session_id"] = f"many-{run_id}"
                server.client.post("/v1/memories/add", json=body).raise_for_status()
            server.client.post("/v1/memories/search", json={"query": QUESTIONS[i % len(QUESTIONS)], "user_id": user,
                                                             "top_k": 10}).raise_for_status()
        seconds = time.perf_counter() - start
        memory = _rss(server.process.pid)
    finally:
        server.close()
    return {**memory, "idle_rss_mb": idle, "seconds": round(seconds, 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stores", type=Path, default=Path("/tmp/memory-many-users"))
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--records", type=int, default=200, help="records per user")
    parser.add_argument("--touch", type=int, action="append", help="users touched per run (default 1, 50, 200)")
    parser.add_argument("--workload", action="append", choices=("search", "add+search"))
    parser.add_argument("--baseline-src", type=Path, default=None, help="another tree (e.g. main's checkout)")
    parser.add_argument("--serve-flag", action="append", default=[], help="passed to this tree's memory serve")
    parser.add_argument("--json-out", type=Path, default=None)
    args = parser.parse_args(argv)
    args.stores.mkdir(parents=True, exist_ok=True)
    root = ensure_store(args.stores, args.users, args.records)
    trees = [("this", TREE, args.serve_flag)]
    if args.baseline_src is not None:
        trees.append(("baseline", args.baseline_src.resolve(), []))
    results: dict = {"users": args.users, "records_per_user": args.records, "trees": {n: str(t) for n, t, _ in trees},
                     "serve_flags": args.serve_flag, "runs": []}
    run = 0
    for workload in args.workload or ["search", "add+search"]:
        for count in args.touch or [1, 50, 200]:
            for name, tree, flags in (trees if run % 2 == 0 else trees[::-1]):
                run += 1
                figures = one_run(root, tree, users(args.users)[:count], workload, args.stores / f"serve-{run}.log",
                                  flags, f"r{os.getpid()}-{run}")
                results["runs"].append({"tree": name, "workload": workload, "users_touched": count, **figures})
                print(json.dumps(results["runs"][-1]), file=sys.stderr)
    text = json.dumps(results, indent=2)
    print(text)
    if args.json_out:
        args.json_out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
