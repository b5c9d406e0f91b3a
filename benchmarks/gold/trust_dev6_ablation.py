"""trust-dev6's mechanisms on/off (session 5, fixc): gold trust-dev6, the frozen half (counts only) and all gold.

    PYTHONPATH=$PWD python benchmarks/gold/trust_dev6_ablation.py
"""
import json
import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent))
from memory.benchmark import gold
from memory.store import Store
from trust_ablation import _policies
K = ["features.predicate_required", "features.owned_subjects", "features.relation_name_answers"]
V = [("shipped", {})] + [(k + " off", {k: False}) for k in K] + [("all three off", {k: False for k in K})]
files = {"dev6": ["benchmarks/gold/trust-dev6.jsonl"], "test": ["benchmarks/gold/trust-test.jsonl"], "all": None}
for label, ch in V:
    make = lambda root, clock: Store.create(root, clock=clock, policies=_policies(ch))
    out = {}
    for name, paths in files.items():
        if name == "all" and label not in ("shipped", "all three off"):
            continue
        cases = gold.load_cases(paths)
        r = gold.run_gold(cases, store_factory=make)
        m = r["metrics"]
        out[name] = (m["passed"], m["questions"], m["verified_citing_forbidden"]) + ((not gold.check_gates(r, gold.load_gates())),) if name == "all" else (m["passed"], m["questions"], m["verified_citing_forbidden"])
        if name == "dev6":
            out["dev6_failed"] = [f["case_id"][-3:] for f in r["failures"]]
        if name == "all":
            out["all_failed"] = [f["case_id"] for f in r["failures"]]
    print(label, json.dumps(out), flush=True)
