"""The gold cases with one retrieval flag off or one planner weight changed, in process.

    python benchmarks/quality/gold_ablation.py                      # as shipped
    python benchmarks/quality/gold_ablation.py relation_subjects    # that feature off
    python benchmarks/quality/gold_ablation.py unseen_key_weight=0  # that planner weight

Prints one JSON line: trust dev / test passed (and answers citing a forbidden record), other cases.
"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from memory import policy
from memory.benchmark.gold import load_cases, run_gold
args=sys.argv[1:]
off=set(a for a in args if '=' not in a)
sets=dict(a.split('=') for a in args if '=' in a)
orig=policy.RetrievalPolicy.feature
policy.RetrievalPolicy.feature=lambda self,name: False if name in off else orig(self,name)
origp=policy.RetrievalPolicy.planner.fget
def planner(self):
    d=dict(origp(self)); d.update({k:float(v) for k,v in sets.items()}); return d
policy.RetrievalPolicy.planner=property(planner)
G=str(ROOT / 'benchmarks' / 'gold') + '/'
dev={x['case_id'] for x in load_cases([G+'trust.jsonl'])}
test={x['case_id'] for x in load_cases([G+'trust-test.jsonl'])}
r=run_gold(load_cases([G]))
fails={f['case_id'] for f in r['failures']}
cited={f['case_id'] for f in r['failures'] if f['got']['knowledge_state'] not in (None,'UNKNOWN') and 'forbidden in evidence' in f['why']}
res={'label':' '.join(args) or 'all on',
     'trust_dev':len(dev-fails), 'trust_dev_n':len(dev), 'trust_test':len(test-fails),'trust_test_n':len(test),
     'trust_dev_cited':len(cited&dev),'trust_test_cited':len(cited&test),
     'other':r['questions']-len(dev)-len(test)-len(fails-dev-test),'other_n':r['questions']-len(dev)-len(test)}
print(json.dumps(res))
