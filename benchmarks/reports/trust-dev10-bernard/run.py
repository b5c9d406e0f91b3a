# The outside tester's /tmp/outside8/home/run.py, pointed at a store given as argv[1] (its policies re-pinned
# with `memory --store COPY init --accept-policies` from the tree under test), answers written to argv[2]; OFF=a,b
# turns features off for the run. Run from /tmp/outside8/home (qs.py) with PYTHONPATH=<tree>.
import json, sys
from memory import api
from qs import Q
store = api.open_store(sys.argv[1])
import os
for key in filter(None, os.environ.get("OFF", "").split(",")):   # features turned off for this run
    store.policies.retrieval.data["features"][key] = False
out=[]
for i,(q,asof,exp,cls) in enumerate(Q,1):
    kw={}
    if asof: kw["as_of"]=asof
    r = api.query(store, q, "bernard", **kw)
    ev = r.evidence[0].statement if r.evidence else ""
    sp = (r.evidence[0].source or {}).get("speaker","") if r.evidence else ""
    out.append(dict(n=i,q=q,asof=asof,exp=exp,cls=cls,state=r.knowledge_state,reason=r.reason_code,ev=ev,sp=sp,
                    ev2=[e.statement for e in r.evidence[1:3]]))
json.dump(out, open(sys.argv[2],"w"), ensure_ascii=False, indent=1)
for o in out: print(o["n"], o["q"], "|", o["asof"], "| exp:", o["exp"], "| got:", o["state"], o["reason"] or "", "|", (o["sp"]+": " if o["sp"] else "")+o["ev"])
