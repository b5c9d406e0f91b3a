"""Quick on/off of the when11 keys on trust-dev23 (and dev20, dev14: the time sets)."""
import json, sys
from memory.benchmark import gold
from memory.policy import load_policies
from memory.store import Store
KEYS = ["past_weekdays", "place_periods", "start_values", "count_so_far", "asked_durations", "period_news", "ended_links", "own_doings"]
files = ["benchmarks/gold/trust-dev23.jsonl", "benchmarks/gold/trust-dev20.jsonl", "benchmarks/gold/trust-dev14.jsonl"]
cases = {f: [json.loads(l) for l in open(f)] for f in files}
def run(off):
    pol = load_policies()
    for k in off: pol.retrieval.data["features"][k] = False
    out = {}
    for f, cs in cases.items():
        oc = [gold.run_case(c, query_fn=gold._default_query_fn(), store_factory=lambda r, clk: Store.create(r, clock=clk, policies=pol)) for c in cs]
        sc = [gold.score_case(o, 5) for o in oc]
        passed = [c["case_id"] for c, s in zip(cs, sc) if not s.why]
        held = [c["case_id"] for c in cs if c["description"].startswith("held back")]
        out[f] = (len(passed), len(cs), sum(s.verified_forbidden for s in sc), len([p for p in passed if p in held]), len(held), sorted(set(c["case_id"] for c in cs) - set(passed)))
    return out
rows = [("shipped", [])] + [(k + " off", [k]) for k in KEYS] + [("all off", KEYS)]
for name, off in rows:
    r = run(off)
    print(json.dumps({"row": name, **{f.split("/")[-1]: v for f, v in r.items()}}), flush=True)
