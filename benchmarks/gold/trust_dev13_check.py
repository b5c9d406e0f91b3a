"""trust-dev13 case by case: the state and the first three cited statements, the cases failing,
``hard_negative_outranked`` and the VERIFIED answers citing a forbidden record, with features turned
off for the run (issue 13, session 8, asked). ``--case=ID`` prints that case's matches (support,
coverage) as the decision saw them.

    PYTHONPATH=$PWD python benchmarks/gold/trust_dev13_check.py [--off=asked_attributes] [--cases=FILE] [--case=ID]
"""
import dataclasses
import sys
from pathlib import Path

from memory.benchmark import gold
from memory.query import run_query

CASES = Path(__file__).with_name("trust-dev13.jsonl")


def main(args: list[str]) -> None:
    off = [a.split("=", 1)[1] for a in args if a.startswith("--off=")]
    files = [Path(a.split("=", 1)[1]) for a in args if a.startswith("--cases=")] or [CASES]
    shown = {a.split("=", 1)[1] for a in args if a.startswith("--case=")}
    cases = gold.load_cases(files)
    seen = []

    def answer(store, request):
        for key in off:
            store.policies.retrieval.data["features"][key] = False
        if shown:
            request = dataclasses.replace(request, trace=True)
        out = run_query(store, request)
        seen.append(out)
        return out
    report = gold.run_gold(cases, query_fn=answer)
    failing = {f["case_id"]: f["why"] for f in report["failures"]}
    for case, out in zip(cases, seen):
        cited = [e["statement"] for e in out["evidence"]][:3]
        print(case["case_id"], out["knowledge_state"], "|", case["query"]["text"], "|", cited,
              "| FAIL " + failing[case["case_id"]] if case["case_id"] in failing else "")
        if case["case_id"] in shown:
            print("   missing:", out.get("missing_conditions"))
            for step in out["planner"]["steps"]:
                print("   ", str(step)[:600])
    metrics = report["metrics"]
    print(f"{metrics['passed']}/{metrics['questions']} passed, hard_negative_outranked "
          f"{metrics['hard_negative_outranked']}, verified_citing_forbidden {metrics['verified_citing_forbidden']}"
          + (f" (off: {', '.join(off)})" if off else ""))


if __name__ == "__main__":
    main(sys.argv[1:])
