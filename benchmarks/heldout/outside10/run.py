"""python run.py STORE  -> one JSON line per question (uses whatever `memory` the running python imports)."""
import json, sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qs import Q
from memory import api

USER = "henrique"
CURRENT = {"VERIFIED", "VERIFIED_NEGATIVE", "VERIFIED_WITH_NEGATIVE_BOUNDARY"}

def verdict(expect, kind, state, first):
    if kind == "UNKNOWN":
        return "right" if state == "UNKNOWN" else "VERIFIED-but-wrong"
    if state == "UNKNOWN":
        return "UNKNOWN-but-answerable"
    hit = first is not None and any(e.lower() in first.lower() for e in expect)
    if not hit:
        return "VERIFIED-but-wrong"
    if kind == "ANY":
        return "right"
    fam_ok = (state in CURRENT) if kind == "VERIFIED" else (state == "VERIFIED_HISTORICAL")
    return "right" if fam_ok else "right-state-wrong-kind"

def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python run.py STORE")
    store = api.open_store(sys.argv[1])
    for qid, text, as_of, expect, kind, cat in Q:
        opts = {"as_of": as_of} if as_of else {}
        r = api.query(store, text, USER, **opts)
        ev = r.evidence or []
        first = ev[0].statement if ev else None
        v = verdict(expect, kind, r.knowledge_state, first)
        later = None
        if v == "VERIFIED-but-wrong" and expect:
            later = next((i for i, e in enumerate(ev) if any(x.lower() in (e.statement or "").lower() for x in expect)), None)
        print(json.dumps({"id": qid, "q": text, "as_of": as_of, "cat": cat, "expected": expect or "UNKNOWN",
                          "expected_kind": kind, "state": r.knowledge_state, "reason": r.reason_code,
                          "first": first, "first_kind": ev[0].kind if ev else None,
                          "n_evidence": len(ev), "answer_at_evidence_index": later, "verdict": v},
                         ensure_ascii=False), flush=True)

if __name__ == "__main__":
    main()
