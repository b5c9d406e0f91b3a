"""Question by question: the in-process LoCoMo run against the same questions through `memory serve`.

    python benchmarks/quality/via_http_agreement.py ../shared/data/locomo/locomo5_dev.json

Starts `memory serve` on a scratch store (its clock pinned to the in-process run's,
2100-01-01, so relative dates resolve alike), adds every session as the leaderboard's
evaluator does and asks every question with top_k 100 (memory/benchmark/via_http.py);
beside it, the in-process engine (benchmark/runner.engine_search, limit 20) on its own
scratch store. Prints, as JSON: how many answered questions rank identically through the
wire, and where the strict recall@10 of the two differs (on questions the in-process run
answers UNKNOWN, whose evidence is then empty; past the in-process evidence; or lost).
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from memory.benchmark import metrics as m  # noqa: E402
from memory.benchmark.runner import engine_search, import_items, load_dataset  # noqa: E402
from memory.benchmark.via_http import HitMapper, add_all, http_search  # noqa: E402
from memory.clock import FixedClock  # noqa: E402
from memory.remote import LeaderboardClient  # noqa: E402
from memory.store import Store  # noqa: E402

CLOCK = "2100-01-01T00:00:00Z"   # runner.run_dataset's
LIMIT, K = 20, 10


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve(store: Path, port: int) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MEMORY_NOW": CLOCK}
    memory = [sys.executable, "-m", "memory.cli", "--store", str(store)]
    subprocess.run([*memory, "init"], env=env, check=True, stdout=subprocess.DEVNULL)
    process = subprocess.Popen([*memory, "serve", "--port", str(port)], env=env, stderr=subprocess.DEVNULL)
    time.sleep(4)
    return process


def compare(path: Path) -> dict:
    items = load_dataset("locomo", path)
    counts = {"answered": 0, "answered_ranked_identically": 0, "scored": 0}
    recall = dict.fromkeys(("in_process", "wire", "gain_on_unknown", "gain_past_evidence", "loss"), 0.0)
    with tempfile.TemporaryDirectory() as scratch:
        port = free_port()
        server = serve(Path(scratch) / "served", port)
        try:
            local = Store.create(Path(scratch) / "local", clock=FixedClock(CLOCK))
            import_items(local, items)
            mine = engine_search(local, LIMIT)
            with LeaderboardClient(f"http://127.0.0.1:{port}") as client:
                add_all(client, "locomo", items)
                wire = http_search(client, HitMapper(items))
                for conversation in items:
                    known = [turn.ref for turn in conversation.turns]
                    for question in conversation.questions:
                        ours = mine(conversation.sample_id, question.question, None)
                        theirs = wire(conversation.sample_id, question.question, None).ranked_refs[:LIMIT]
                        if not ours.abstained:
                            counts["answered"] += 1
                            counts["answered_ranked_identically"] += theirs[:len(ours.ranked_refs)] == ours.ranked_refs
                        gold, _ = m.normalize_evidence(question.evidence, known)
                        if question.category == 5 or not gold:
                            continue
                        counts["scored"] += 1
                        a, b = m.recall_at_k(ours.ranked_refs, gold, K), m.recall_at_k(theirs, gold, K)
                        recall["in_process"] += a
                        recall["wire"] += b
                        if b > a:
                            recall["gain_on_unknown" if ours.abstained else "gain_past_evidence"] += b - a
                        elif a > b:
                            recall["loss"] += a - b
        finally:
            server.terminate()
    return {**counts, f"recall@{K}": {k: round(v / counts["scored"], 4) for k, v in recall.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("locomo_file", type=Path)
    print(json.dumps(compare(parser.parse_args().locomo_file), indent=2))


if __name__ == "__main__":
    main()
