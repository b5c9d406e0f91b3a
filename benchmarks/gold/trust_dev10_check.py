"""trust-dev10 case by case: the state and the first three cited statements, the cases failing, and
the report's ``hard_negative_outranked`` (a record not stating what is asked cited before the
answer), with features turned off for the run (issue 13, session 7, typed). The same listing as
``trust_dev13_check.py``, run on trust-dev10.jsonl.

    PYTHONPATH=$PWD python benchmarks/gold/trust_dev10_check.py [--off=typed_answers] [--off=typed_evidence_order]
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import trust_dev13_check  # noqa: E402

CASES = Path(__file__).with_name("trust-dev10.jsonl")

if __name__ == "__main__":
    trust_dev13_check.main([f"--cases={CASES}", *sys.argv[1:]])
