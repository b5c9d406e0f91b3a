"""On/off rows of the asked11 keys (benchmarks/reports/gold-trust-ablation-asked11.md): trust-dev25 and the
older cases they changed, each in a fresh store with the shipped policy and the key(s) off.

    PYTHONPATH=$PWD python benchmarks/gold/trust_ablation_asked11.py     (from the checkout's root)
"""
import json, sys
sys.path.insert(0, 'tests')
from helpers import gold_case_with
from memory.benchmark import gold
G = 'benchmarks/gold/'
cases = [json.loads(l) for l in open(G + 'trust-dev25.jsonl')]
extra = {'trust-dev19.jsonl': ['gold_trust_1934'], 'trust-dev22.jsonl': ['gold_trust_2245', 'gold_trust_2249'],
         'trust-dev8.jsonl': ['gold_trust_817', 'gold_trust_823', 'gold_trust_843'], 'forgetting.jsonl': ['gold_forgetting_012'],
         'general-dev.jsonl': ['gold_update_202'], 'trust-dev16.jsonl': ['gold_trust_1619'], 'trust-dev2.jsonl': ['gold_trust_142']}
for f, ids in extra.items():
    cases += [c for c in map(json.loads, open(G + f)) if c['case_id'] in ids]
KEYS = ["other_values", "whole_attributes", "place_residence", "typo_transpositions", "occupation_subjects",
        "indefinite_members", "negation_scope", "latest_values", "compound_senses"]
rows = [("shipped", "")] + [(k, k) for k in KEYS] + [("all off", ",".join(KEYS))]
held = lambda c: c['case_id'].startswith('gold_trust_25') and int(c['case_id'][-4:]) >= 2541
for name, off in rows:
    failed, forb = [], 0
    for c in cases:
        o = gold_case_with(c, off=off)
        s = gold.score_case(o, 5)
        if s.why:
            failed.append(c['case_id'].replace('gold_', ''))
            forb += bool(s.verified_forbidden)
    d25 = [c for c in cases if c['case_id'].startswith('gold_trust_25')]
    f25 = [x for x in failed if x.startswith('trust_25')]
    fh = [x for x in f25 if int(x[-4:]) >= 2541]
    print(f"| {name} | {len(d25)-len(f25)}/{len(d25)} (held back {11-len(fh)}/11) | {forb} | {', '.join(x for x in failed) or '-'} |", flush=True)
