"""trust-dev6's mechanisms on/off (session 5, fixc): LoCoMo dev half metrics and threshold-0 operating point, and the questions whose decision changes.

    PYTHONPATH=$PWD python benchmarks/gold/trust_dev6_locomo.py
"""
import json
import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent))
import tempfile
from memory.benchmark.datasets import evaluate_locomo, locomo_halves
from memory.benchmark.runner import engine_search, import_items, load_dataset
from memory.clock import FixedClock
from memory.store import Store
from trust_ablation import _policies
K = ["features.predicate_required", "features.owned_subjects", "features.relation_name_answers"]
path = Path("../shared/data/locomo/locomo5_dev.json")
items = load_dataset("locomo", path)
halves = locomo_halves(items)
with tempfile.TemporaryDirectory() as d:
    root = Path(d) / "l"
    store = Store.create(root, clock=FixedClock("2100-01-01T00:00:00Z"))
    import_items(store, [i for i in items if halves[i.scope_key] == "dev"])
    res = {}
    for label, ch in (("off", {k: False for k in K}), ("on", {})):
        s = Store(root, clock=FixedClock("2100-01-01T00:00:00Z"), policies=_policies(ch))
        base = engine_search(s, 20); seen = {}
        def search(u, q, a):
            o = base(u, q, a); seen[(u, q)] = (o.abstained, o.confidence); return o
        r = evaluate_locomo(items, search, limit=20, half="dev")
        m = r["metrics"]
        print(label, {k: m[k] for k in ("recall@5", "recall@10", "recall@20", "mrr", "abstention_precision", "abstention_recall", "false_abstention_rate")}, r["abstention_operating_point"]["point"], flush=True)
        res[label] = seen
    for k in res["on"]:
        if (res["on"][k][1] > 0) != (res["off"][k][1] > 0):
            print("changed", k, "off:", res["off"].get(k), "on:", res["on"][k])
