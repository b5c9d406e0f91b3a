"""How many turns of the public dev sets the credential screen flags (they hold prose and code).

    PYTHONPATH=$PWD python benchmarks/screen_false_positives.py          # this checkout's screen
    PYTHONPATH=$PWD python benchmarks/screen_false_positives.py --show   # and each flagged span
    PYTHONPATH=/a/checkout/of/724e62f python benchmarks/screen_false_positives.py   # another tree's

Every LoCoMo and LongMemEval dev turn (the text ``memory import`` would store) goes through
``credential_kinds``; the counts are per detector kind. A flagged turn is a refusal on import
(or a redaction), so each one shown should be a real credential, not prose.
"""
from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from memory.credentials import credential_kinds
from memory.importers import load_locomo, load_longmemeval

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


def turns() -> list[str]:
    texts = [t.text for c in load_locomo(DATA / "locomo" / "locomo5_dev.json") for t in c.turns]
    return texts + [t.text for q in load_longmemeval(DATA / "longmemeval" / "longmemeval_s_dev100.json.gz")
                    for t in q.turns]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="print each flagged span with 30 characters around it")
    args = parser.parse_args()
    texts = turns()
    kinds = Counter()
    flagged = [text for text in texts if credential_kinds(text)]
    for text in flagged:
        kinds.update(credential_kinds(text))
    print(f"{len(texts)} turns; {len(flagged)} flagged; by kind: {dict(sorted(kinds.items()))}")
    if args.show:
        from memory.credentials import _DETECTORS, screen_form  # this tree's screen only
        for text in flagged:
            form = screen_form(text)
            for detector in _DETECTORS:
                for match in detector.matches(form):
                    context = form[max(0, match.start() - 30):match.end() + 10].replace("\n", " ")
                    print(f"{detector.kind:18} {context}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
