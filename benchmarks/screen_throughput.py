"""Admission throughput of two source trees, side by side: did a change to admission slow it?

    python benchmarks/screen_throughput.py --baseline 724e62f        # this checkout vs that commit
    python benchmarks/screen_throughput.py --baseline 724e62f --envelopes 3000 --rounds 7 \
        --out benchmarks/reports/screen-throughput.md

Each round runs, for each tree in turn and each input, one fresh process that imports
that tree's ``memory`` package, loads the turns as episode envelopes (bytes, as
``memory apply`` reads them) and times (a) ``admit`` over all of them and (b)
``Store.apply`` of all of them into an empty store (batch 500, the CLI's default);
admission is the best of three passes, apply one pass (it writes).
Inputs: the LoCoMo dev turns (short, mostly ASCII) and the LongMemEval dev turns
(long, one in sixteen non-ASCII). An envelope refused by either tree counts as
admitted work all the same. The report is the median envelopes/s and the median of each
round's ratio this tree / baseline; the order alternates (ABBA) so drift on a shared
machine bills both trees alike. The baseline tree is ``git archive`` of the named commit in a temporary folder.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
INPUTS = {"locomo": DATA / "locomo" / "locomo5_dev.json",
          "longmemeval": DATA / "longmemeval" / "longmemeval_s_dev100.json.gz"}

_CHILD = r"""
import json, sys, tempfile, time
from pathlib import Path
from memory.clock import FixedClock
from memory.envelope import admit
from memory.errors import MemoryStoreError
from memory.importers import load_locomo, load_longmemeval, turn_envelopes
from memory.jsonio import dumps
from memory.store import Store

count, dataset, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
items = load_locomo(path) if dataset == "locomo" else load_longmemeval(path)[:8]
envelopes = [dumps(e) for item in items for e in turn_envelopes(item)][:count]
with tempfile.TemporaryDirectory() as scratch:
    store = Store.create(Path(scratch) / "store", clock=FixedClock("2024-03-01T00:00:00Z"))
    policy = store.policies.mutation
    admit_s = float("inf")
    for _ in range(3):  # the best of three: a shared machine only ever adds time
        started = time.perf_counter()
        for raw in envelopes:
            try:
                admit(raw, policy)
            except MemoryStoreError:
                pass
        admit_s = min(admit_s, time.perf_counter() - started)
    started = time.perf_counter()
    statuses = [r["status"] for r in store.apply(envelopes, batch_size=500)]
    apply_s = time.perf_counter() - started
print(json.dumps({"envelopes": len(envelopes), "admit_per_s": len(envelopes) / admit_s,
                  "apply_per_s": len(envelopes) / apply_s, "applied": statuses.count("applied")}))
"""


def measure(tree: Path, envelopes: int, dataset: str) -> dict:
    run = subprocess.run([sys.executable, "-c", _CHILD, str(envelopes), dataset, str(INPUTS[dataset])], cwd=tree,
                         env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True)
    if run.returncode:
        sys.exit(f"{tree}: {run.stderr[-2000:]}")
    return json.loads(run.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="the commit to compare with (e.g. main's)")
    parser.add_argument("--envelopes", type=int, default=2000, help="turns per run and input (default 2000)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    parser.add_argument("--out", type=Path, help="also write the figures, command and conditions as markdown")
    args = parser.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as scratch:
        baseline = Path(scratch) / "baseline"
        baseline.mkdir()
        archive = subprocess.run(["git", "archive", args.baseline, "memory", "config", "schemas"], cwd=ROOT,
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(baseline)], input=archive, check=True)
        runs = {(tree, dataset): [] for dataset in INPUTS for tree in ("baseline", "this tree")}
        for number in range(args.rounds):
            for dataset in INPUTS:
                order = [("baseline", baseline), ("this tree", ROOT)]
                for tree, path in order if number % 2 == 0 else order[::-1]:  # ABBA: neither always goes first
                    runs[(tree, dataset)].append(measure(path, args.envelopes, dataset))
    out = {}
    for dataset in INPUTS:
        medians = {tree: {key: statistics.median(r[key] for r in runs[(tree, dataset)])
                          for key in ("admit_per_s", "apply_per_s")} for tree in ("baseline", "this tree")}
        # the ratio is the median of each round's ratio: the two runs of a round share its conditions
        paired = {key: statistics.median(t[key] / b[key] for t, b in zip(runs[("this tree", dataset)],
                                                                         runs[("baseline", dataset)]))
                  for key in ("admit_per_s", "apply_per_s")}
        out[dataset] = {**medians, "envelopes": runs[("this tree", dataset)][0]["envelopes"],
                        "ratio this/baseline": {key: round(value, 3) for key, value in paired.items()}}
    print(json.dumps(out, indent=2))
    if args.out:
        args.out.write_text(_markdown(out, args, load_before, os.getloadavg()), encoding="utf-8")
    return 0


def _markdown(out: dict, args, load_before, load_after) -> str:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "memory"], cwd=ROOT, capture_output=True,
                           text=True).stdout.strip()
    lines = ["# Admission throughput: this tree against a baseline commit", "",
             "Generated by `python benchmarks/screen_throughput.py --baseline "
             f"{args.baseline} --envelopes {args.envelopes} --rounds {args.rounds} --out {args.out}`; "
             "do not edit by hand.", "",
             f"- this tree: `{commit.strip()}`{' (with uncommitted changes)' if dirty else ''}; "
             f"baseline: `{args.baseline}`",
             f"- machine: {os.cpu_count()} CPU(s), load average {load_before[0]:.1f} before and "
             f"{load_after[0]:.1f} after (a shared machine: the ratios are the figure, not the rates)",
             f"- {args.rounds} rounds in ABBA order, one fresh process per tree, input and round; rates are "
             "medians, ratios the median of each round's ratio; admit is the best of 3 passes per process", "",
             "| input | envelopes | admit/s baseline | admit/s this | ratio | apply/s baseline | apply/s this | ratio |",
             "|---|---|---|---|---|---|---|---|"]
    for dataset, row in out.items():
        b, t, r = row["baseline"], row["this tree"], row["ratio this/baseline"]
        lines.append(f"| {dataset} | {row['envelopes']} | {b['admit_per_s']:.0f} | {t['admit_per_s']:.0f} | "
                     f"{r['admit_per_s']:.2f} | {b['apply_per_s']:.0f} | {t['apply_per_s']:.0f} | {r['apply_per_s']:.2f} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
