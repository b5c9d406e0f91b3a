"""Admission throughput of two source trees, side by side: did a change to admission slow it?

    python benchmarks/screen_throughput.py --baseline 724e62f        # HEAD's tree vs that commit's
    python benchmarks/screen_throughput.py --baseline 724e62f --envelopes 3000 --rounds 5

Each round runs, for each tree in turn, one fresh process that imports that tree's
``memory`` package, loads the LoCoMo dev turns as episode envelopes (bytes, as
``memory apply`` reads them) and times (a) ``admit`` over all of them and (b)
``Store.apply`` of all of them into an empty store (batch 500, the CLI's default).
The report is the median envelopes/s of each and the ratio this tree / baseline;
the rounds alternate so drift on a shared machine bills both trees alike. The
baseline tree is ``git archive`` of the named commit in a temporary folder.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCOMO = ROOT.parent / "shared" / "data" / "locomo" / "locomo5_dev.json"

_CHILD = r"""
import json, sys, tempfile, time
from pathlib import Path
from memory.clock import FixedClock
from memory.envelope import admit
from memory.importers import load_locomo, turn_envelopes
from memory.jsonio import dumps
from memory.store import Store

count = int(sys.argv[1])
envelopes = [dumps(e) for c in load_locomo(sys.argv[2]) for e in turn_envelopes(c)][:count]
with tempfile.TemporaryDirectory() as scratch:
    store = Store.create(Path(scratch) / "store", clock=FixedClock("2024-03-01T00:00:00Z"))
    policy = store.policies.mutation
    started = time.perf_counter()
    for raw in envelopes:
        admit(raw, policy)
    admit_s = time.perf_counter() - started
    started = time.perf_counter()
    statuses = [r["status"] for r in store.apply(envelopes, batch_size=500)]
    apply_s = time.perf_counter() - started
print(json.dumps({"envelopes": len(envelopes), "admit_per_s": len(envelopes) / admit_s,
                  "apply_per_s": len(envelopes) / apply_s, "applied": statuses.count("applied")}))
"""


def measure(tree: Path, envelopes: int) -> dict:
    run = subprocess.run([sys.executable, "-c", _CHILD, str(envelopes), str(LOCOMO)], cwd=tree,
                         env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True)
    if run.returncode:
        sys.exit(f"{tree}: {run.stderr[-2000:]}")
    return json.loads(run.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="the commit to compare with (e.g. main's)")
    parser.add_argument("--envelopes", type=int, default=2000, help="LoCoMo turns per run (default 2000)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        baseline = Path(scratch) / "baseline"
        baseline.mkdir()
        archive = subprocess.run(["git", "archive", args.baseline, "memory", "config", "schemas"], cwd=ROOT,
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(baseline)], input=archive, check=True)
        runs: dict[str, list[dict]] = {"baseline": [], "this tree": []}
        for _ in range(args.rounds):
            runs["baseline"].append(measure(baseline, args.envelopes))
            runs["this tree"].append(measure(ROOT, args.envelopes))
    out = {name: {key: statistics.median(r[key] for r in rows) for key in ("admit_per_s", "apply_per_s")}
           for name, rows in runs.items()}
    out["ratio this/baseline"] = {key: out["this tree"][key] / out["baseline"][key] for key in ("admit_per_s",
                                                                                               "apply_per_s")}
    out["envelopes"] = runs["this tree"][0]["envelopes"]
    out["applied"] = {name: rows[0]["applied"] for name, rows in runs.items()}
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
