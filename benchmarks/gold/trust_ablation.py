"""On/off measurement of issue 13's trust mechanisms (benchmarks/reports/gold-trust-ablation.md).

For the shipped policy and for each mechanism switched off (or its weight set back), one run of:
the trust gold cases by set (dev, dev2, dev3, dev4, frozen test: passed and VERIFIED answers citing a
forbidden record), the other gold categories (passed), and, with ``--locomo FILE``, the LoCoMo
dev half's abstention (precision / recall / false-abstention rate at two thresholds) and R@10.

    PYTHONPATH=$PWD python benchmarks/gold/trust_ablation.py --locomo ../shared/data/locomo/locomo5_dev.json

The test half is only reported: a mechanism that does not pay there is removed, never tuned on it.
"""
from __future__ import annotations

import argparse
import copy
import json
import tempfile
from pathlib import Path

from memory.benchmark import gold
from memory.benchmark.datasets import evaluate_locomo, locomo_halves
from memory.benchmark.runner import engine_search, import_items, load_dataset
from memory.clock import FixedClock
from memory.policy import load_policies
from memory.store import Store

GOLD = Path(__file__).resolve().parent

VARIANTS = [
    ("shipped policy", {}),
    ("`features.subject_gate_only` off", {"features.subject_gate_only": False}),
    ("`features.unseen_modifier_abstains` off", {"features.unseen_modifier_abstains": False}),
    ("`planner.unseen_key_weight` 4 -> 5", {"planner.unseen_key_weight": 5}),
    ("`planner.unseen_time_weight` 0 -> 1", {"planner.unseen_time_weight": 1}),
    ("`features.role_possessors` off", {"features.role_possessors": False}),
    ("`features.named_subjects` off", {"features.named_subjects": False}),
    ("`features.sentence_attribution` off", {"features.sentence_attribution": False}),
    ("`decision.evidence_ratio` 0.4 -> 0", {"decision.evidence_ratio": 0.0}),
    ("`features.irregular_forms` off", {"features.irregular_forms": False}),
    ("`features.relation_names` off", {"features.relation_names": False}),
    ("`features.relation_synonyms` off", {"features.relation_synonyms": False}),
    ("`features.answer_types` off", {"features.answer_types": False}),
    ("`features.caller_turns` off", {"features.caller_turns": False}),
    ("third round all off", {"features.irregular_forms": False, "features.relation_names": False,
                             "features.relation_synonyms": False, "features.answer_types": False,
                             "features.caller_turns": False}),
]


def _policies(changes: dict):
    policies = load_policies()
    data = policies.retrieval.data
    for path, value in changes.items():
        section, key = path.split(".")
        data[section][key] = value
    return policies


def _dev_sets() -> dict[str, str]:
    """case id -> its trust dev set, read from the trust-dev<N>.jsonl files (ids are not numbered
    by set: trust-dev5 holds 4xx ids, trust-dev7 7xx)."""
    sets = {}
    for path in sorted(GOLD.glob("trust-dev*.jsonl")):
        name = path.stem.removeprefix("trust-")
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                sets[json.loads(line)["case_id"]] = name
    return sets


DEV_SETS = _dev_sets()


def _trust_set(case_id: str) -> str:
    """The set a trust case belongs to: a trust-dev<N>.jsonl file's, else ids 1-100 alternate dev
    (trust.jsonl) and frozen test."""
    if not case_id.startswith("gold_trust_"):
        return "other"
    if case_id in DEV_SETS:
        return DEV_SETS[case_id]
    return "dev" if int(case_id.rsplit("_", 1)[1]) % 2 else "test"


def _set_names(cases: list[dict]) -> list[str]:
    names = {_trust_set(c["case_id"]) for c in cases} - {"dev", "test", "other"}
    return ["dev"] + sorted(names, key=lambda n: int(n[3:])) + ["test", "other"]


def gold_row(changes: dict) -> dict:
    cases = gold.load_cases()
    make = lambda root, clock: Store.create(root, clock=clock, policies=_policies(changes))  # noqa: E731
    report = gold.run_gold(cases, store_factory=make)
    failed = {f["case_id"] for f in report["failures"]}
    cited = {f["case_id"] for f in report["failures"] if f["got"]["knowledge_state"] != "UNKNOWN"
             and "forbidden in evidence" in f["why"]}
    row = {}
    for name in _set_names(cases):
        ids = [c["case_id"] for c in cases if _trust_set(c["case_id"]) == name]
        row[name] = (sum(1 for i in ids if i not in failed), len(ids), sum(1 for i in ids if i in cited))
    row["gates"] = not gold.check_gates(report, gold.load_gates())
    row["failed_dev"] = sorted(i for i in failed if _trust_set(i) not in ("test", "other"))
    return row


def locomo_row(path: Path, root: Path, changes: dict) -> dict:
    items = load_dataset("locomo", path)
    store = Store(root, clock=FixedClock("2100-01-01T00:00:00Z"), policies=_policies(changes))
    base = engine_search(store, 20)
    abstained = {}

    def search(user, question, as_of):
        outcome = base(user, question, as_of)
        abstained[f"{user}: {question}"] = outcome.confidence <= 0
        return outcome

    report = evaluate_locomo(items, search, limit=20, half="dev")
    curve = {p["threshold"]: p for p in report["abstention_curve"]}
    return {"r10": report["metrics"]["recall@10"], "at": {t: curve[t] for t in (0.05, 0.2)},
            "abstained": abstained}


def _variants(off: list[str]) -> list[tuple[str, dict]]:
    """With --off: the shipped policy, each named flag off alone, and all of them off together."""
    if not off:
        return VARIANTS
    alone = [(f"`{key}` off", {key: False}) for key in off]
    return [("shipped policy", {})] + alone + ([("all of them off", {key: False for key in off})]
                                               if len(off) > 1 else [])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", type=Path, help="the LoCoMo file (its dev half is imported once)")
    parser.add_argument("--off", action="append", default=[], metavar="SECTION.KEY",
                        help="ablate these boolean keys (each alone, then together) instead of the built-in rows, "
                             "e.g. --off features.predicate_required --off features.owned_subjects")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="trust-ablation-") as scratch:
        root = Path(scratch) / "locomo"
        if args.locomo:
            items = load_dataset("locomo", args.locomo)
            halves = locomo_halves(items)
            store = Store.create(root, clock=FixedClock("2100-01-01T00:00:00Z"))
            import_items(store, [i for i in items if halves[i.scope_key] == "dev"])
        for label, changes in _variants(args.off):
            row = {"variant": label, "changes": copy.deepcopy(changes), "gold": gold_row(changes)}
            if args.locomo:
                row["locomo_dev"] = locomo_row(args.locomo, root, changes)
            rows.append(row)
    if args.json:
        print(json.dumps([{**row, "locomo_dev": {k: v for k, v in row["locomo_dev"].items() if k != "abstained"}}
                          if "locomo_dev" in row else row for row in rows], indent=1))
        return
    names = [n for n in rows[0]["gold"] if n not in ("gates", "failed_dev")]
    print("| variant | " + " | ".join(f"trust {n}" if n != "other" else "other gold" for n in names)
          + " | gold gates | LoCoMo dev R@10 | abst. P / R / FA at 0.05 | at 0.2 (min_coverage) |")
    print("|" + "---|" * (len(names) + 5))
    for row in rows:
        g = row["gold"]
        cells = [row["variant"]] + [f"{p}/{n} ({c})" if name != "other" else f"{p}/{n}"
                                    for name in names for p, n, c in [g[name]]]
        cells.append("pass" if g["gates"] else "fail")
        if "locomo_dev" in row:
            lo = row["locomo_dev"]
            cells.append(f"{lo['r10']:.4f}")
            for t in (0.05, 0.2):
                p = lo["at"][t]
                cells.append(f"{p['precision']} / {p['recall']} / {p['false_abstention_rate']}")
        print("| " + " | ".join(cells) + " |")
    shipped = rows[0]
    for row in rows[1:]:
        print(f"\n{row['variant']}: dev cases failing that pass shipped: "
              f"{sorted(set(row['gold']['failed_dev']) - set(shipped['gold']['failed_dev'])) or 'none'}")
        if "locomo_dev" in row:
            moved = [q for q, a in row["locomo_dev"]["abstained"].items()
                     if a != shipped["locomo_dev"]["abstained"].get(q)]
            print(f"  LoCoMo dev questions whose abstention differs from shipped: {len(moved)}")


if __name__ == "__main__":
    main()
