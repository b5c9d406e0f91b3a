"""trust-dev7's mechanisms on/off (session 6, fixa): gold trust-dev7, the frozen half (counts only) and all gold.

    PYTHONPATH=$PWD python benchmarks/gold/trust_dev7_ablation.py
"""
import json
import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent))
from memory.benchmark import gold
from memory.store import Store
from trust_ablation import _policies
K = ["features.place_answers", "features.question_idioms", "features.dispute_governs", "features.question_periods",
     "features.turn_supersession", "features.class_words", "features.dispute_about_subject"]
V = [("shipped", {})] + [(k + " off", {k: False}) for k in K] + [("all off", {k: False for k in K})]
files = {"dev7": ["benchmarks/gold/trust-dev7.jsonl"], "test": ["benchmarks/gold/trust-test.jsonl"], "all": None}
for label, ch in V:
    make = lambda root, clock: Store.create(root, clock=clock, policies=_policies(ch))  # noqa: E731
    out = {}
    for name, paths in files.items():
        if name == "all" and label not in ("shipped", "all off"):
            continue
        r = gold.run_gold(gold.load_cases(paths), store_factory=make)
        m = r["metrics"]
        out[name] = [m["passed"], m["questions"], m["verified_citing_forbidden"]]
        if name == "dev7":
            out["dev7_failed"] = [f["case_id"][-3:] for f in r["failures"]]
        if name == "all":
            out["all_gates_pass"] = not gold.check_gates(r, gold.load_gates())
            out["all_failed"] = [f["case_id"] for f in r["failures"] if not f["case_id"].startswith("gold_trust_0")]
    print(label, json.dumps(out), flush=True)
