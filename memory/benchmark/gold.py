"""Gold cases: load and check them, replay each in a fresh store, score, gate.

Contract:

- ``load_cases(paths) -> list[dict]``: each path is a ``.jsonl`` file or a
  folder of them. Every line is checked against
  ``schemas/gold-case.schema.json`` and for consistency (unique ``case_id``;
  the category in the id; setup clocks that never go back; every ``@tx``,
  ``expected``, ``forbidden`` and ``hard_negatives`` naming a record created
  by an earlier add/update of the same case). All problems are collected and
  raised as one ``DatasetError`` naming each file, line and case.
- ``run_gold(cases, *, query_fn=None, k=5, progress=None, store_factory=None)
  -> dict``: each case runs in a fresh temporary store with the clock at each
  setup step's ``at``, then the query at ``query.at`` (default: the last
  step's ``at``). ``query_fn(store, QueryRequest) -> dict`` defaults to
  ``memory.query.run_query``; ``store_factory(root, clock)`` to
  ``Store.create``. A setup step whose result differs from its ``expect`` (a
  step without one must be applied), or an engine exception, fails the case,
  which then scores as a miss everywhere. ``progress(done, total)`` after each case.
- The report: ``{"dataset": "gold", "questions", "k", "metrics",
  "by_category", "failures"}``; the metrics are defined in ``_summary``.
- ``check_gates(report, gates) -> list[str]``: the description of every
  failed gate of the report's dataset (a missing or undefined metric fails); a floor
  (a gate ``against`` a baseline) is checked on the whole run and on each of the report's
  ``halves``, there against the baseline on the same half.
  ``load_gates(path=None)`` reads and validates ``config/benchmark-gates.json``.
"""
from __future__ import annotations

import copy
import operator
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .. import schemas
from ..clock import FixedClock
from ..errors import DatasetError, InputError, PolicyError
from ..jsonio import loads_strict
from ..paths import DEFAULT_CONFIG_DIR, PROJECT_ROOT
from . import metrics as m

DEFAULT_CASES_DIR = PROJECT_ROOT / "benchmarks" / "gold"
DEFAULT_GATES = DEFAULT_CONFIG_DIR / "benchmark-gates.json"
RECORD_CREATING = ("add", "update")
RECALL_KS = (1, 5, 10)
_COMPARISONS = {">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt, "==": operator.eq}
# A transaction id may come back only in a step that proves idempotency or its refusal.
_REPLAY_STATUSES = ("idempotent", "refused")


# -- loading -------------------------------------------------------------------------


def case_files(paths: Iterable[str | Path] | None = None) -> list[Path]:
    """The ``.jsonl`` files named, folders expanded (sorted); default: ``benchmarks/gold``."""
    found: list[Path] = []
    for path in map(Path, paths or [DEFAULT_CASES_DIR]):
        found += sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
    return found


def load_cases(paths: Iterable[str | Path] | None = None) -> list[dict]:
    cases: list[dict] = []
    problems: list[str] = []
    seen: dict[str, str] = {}
    for path in case_files(paths):
        try:
            lines = path.read_bytes().split(b"\n")
        except OSError as exc:
            problems.append(f"{path}: cannot read ({exc.strerror})")
            continue
        for number, raw in enumerate(lines, start=1):
            if not raw.strip():
                continue
            where = f"{path.name}:{number}"
            case, found = _check_line(raw, where)
            problems += found
            if case is None:
                continue
            case_id = case["case_id"]
            if case_id in seen:
                problems.append(f"{where} {case_id}: duplicate case_id (first at {seen[case_id]})")
            seen.setdefault(case_id, where)
            if not found:
                cases.append(case)
    if problems:
        raise DatasetError(f"{len(problems)} problem(s) in the gold cases: " + "; ".join(problems[:10]),
                           code="gold_cases_invalid", details=problems)
    return cases


def _check_line(raw: bytes, where: str) -> tuple[dict | None, list[str]]:
    try:
        case = loads_strict(raw, what=where)
    except InputError as exc:
        return None, [exc.message]
    if not isinstance(case, dict):
        return None, [f"{where}: a case must be a JSON object"]
    label = f"{where} {case.get('case_id', '(no case_id)')}"
    violations = schemas.violations("gold-case", case)
    if violations:
        return case if isinstance(case.get("case_id"), str) else None, [f"{label}: {v}" for v in violations]
    return case, [f"{label}: {p}" for p in consistency_problems(case)]


def consistency_problems(case: dict) -> list[str]:
    """What the schema cannot say: ids, references and clocks that must agree within a case."""
    problems = []
    if not case["case_id"].startswith(f"gold_{case['category']}_"):
        problems.append(f"case_id does not carry its category '{case['category']}'")
    created: set[str] = set()
    seen_tx: set[str] = set()
    last_at = None
    for index, step in enumerate(case["setup"]):
        envelope, expect = step["envelope"], step.get("expect") or {}
        tx = envelope["transaction_id"]
        if last_at is not None and step["at"] < last_at:
            problems.append(f"setup[{index}] ({tx}): the clock goes back")
        last_at = step["at"]
        for ref in _references(envelope):
            if ref not in created:
                problems.append(f"setup[{index}] ({tx}): '@{ref}' names no earlier record of this case")
        if tx in seen_tx and expect.get("status") not in _REPLAY_STATUSES:
            problems.append(f"setup[{index}]: transaction_id '{tx}' repeats outside a replay step")
        seen_tx.add(tx)
        if envelope["operation"] in RECORD_CREATING and expect.get("status", "applied") == "applied":
            created.add(tx)
    query_at = case["query"].get("at")
    if query_at is not None and last_at is not None and query_at < last_at:
        problems.append("query.at is before the last setup step")
    for name in ("expected", "forbidden", "hard_negatives"):
        for tx in case["expect"][name]:
            if tx not in created:
                problems.append(f"expect.{name}: '{tx}' names no record created in setup")
    overlap = set(case["expect"]["expected"]) & set(case["expect"]["forbidden"])
    if overlap:
        problems.append(f"expect: {sorted(overlap)} both expected and forbidden")
    return problems


def _references(envelope: dict) -> list[str]:
    """The transaction ids an envelope names with '@' (target.record_id, payload.conflict_with)."""
    target = envelope.get("target") or {}
    payload = envelope.get("payload") or {}
    named = [target.get("record_id")] + list(payload.get("conflict_with") or [])
    return [value[1:] for value in named if isinstance(value, str) and value.startswith("@")]


def _substituted(envelope: dict, record_ids: dict[str, str]) -> dict:
    envelope = copy.deepcopy(envelope)

    def swap(value):
        return record_ids.get(value[1:], value) if isinstance(value, str) and value.startswith("@") else value

    target = envelope.get("target")
    if isinstance(target, dict) and "record_id" in target:
        target["record_id"] = swap(target["record_id"])
    payload = envelope.get("payload")
    if isinstance(payload, dict) and isinstance(payload.get("conflict_with"), list):
        payload["conflict_with"] = [swap(v) for v in payload["conflict_with"]]
    return envelope


# -- running ---------------------------------------------------------------------------


@dataclass
class Outcome:
    """What the engine did with one case, in the case's own names (transaction ids)."""

    case: dict
    knowledge_state: str | None = None
    reason_code: str | None = None
    ranked: list[str] = field(default_factory=list)      # evidence, best first, as transaction ids
    evidence: list[dict] = field(default_factory=list)
    stale: set[str] = field(default_factory=set)         # records an update or retire closed
    failure: str | None = None                           # setup mismatch or engine error


def run_gold(cases: list[dict], *, query_fn: Callable | None = None, k: int = 5,
             progress: Callable[[int, int], None] | None = None,
             store_factory: Callable | None = None) -> dict:
    query_fn = query_fn or _default_query_fn()
    store_factory = store_factory or _default_store_factory()
    outcomes = []
    for done, case in enumerate(cases, start=1):
        outcomes.append(run_case(case, query_fn=query_fn, store_factory=store_factory, limit=max(10, k)))
        if progress:
            progress(done, len(cases))
    return build_report(outcomes, k)


def run_case(case: dict, *, query_fn: Callable, store_factory: Callable, limit: int = 10) -> Outcome:
    outcome = Outcome(case)
    with tempfile.TemporaryDirectory(prefix="memory-gold-") as tmp:
        clock = FixedClock(case["setup"][0]["at"])
        try:
            store = store_factory(Path(tmp) / "store", clock)
            record_ids = _apply_setup(store, clock, case, outcome)
            if outcome.failure is None:
                clock.set(case["query"].get("at") or case["setup"][-1]["at"])
                answer = query_fn(store, _request(case["query"], limit))
                _read_answer(outcome, answer, {rid: tx for tx, rid in record_ids.items()})
        except Exception as exc:  # one engine bug must not hide the other cases' results
            outcome.failure = f"engine error: {type(exc).__name__}: {exc}"
    return outcome


def _apply_setup(store, clock: FixedClock, case: dict, outcome: Outcome) -> dict[str, str]:
    """Apply the steps in order; returns transaction id -> record id of the records created."""
    record_ids: dict[str, str] = {}
    closed: set[str] = set()
    for index, step in enumerate(case["setup"]):
        clock.set(step["at"])
        envelope = _substituted(step["envelope"], record_ids)
        result = store.mutate(envelope)
        mismatch = _step_mismatch(step.get("expect"), result)
        if mismatch:
            outcome.failure = f"setup[{index}] ({envelope['transaction_id']}): {mismatch}"
            break
        if result.get("status") != "applied":
            continue
        if envelope["operation"] in RECORD_CREATING:
            record_ids.setdefault(envelope["transaction_id"], result["record_id"])
        if envelope["operation"] in ("update", "retire"):
            closed.add((envelope.get("target") or {}).get("record_id"))
    outcome.stale = {tx for tx, record_id in record_ids.items() if record_id in closed}
    return record_ids


def _step_mismatch(expect: dict | None, result: dict) -> str | None:
    error = result.get("error") or {}
    got = f"{result.get('status')}" + (f"/{error['code']}" if error.get("code") else "")
    if expect is None:
        return None if result.get("status") == "applied" else f"expected applied, got {got}"
    if result.get("status") != expect["status"] or ("code" in expect and error.get("code") != expect["code"]):
        wanted = expect["status"] + (f"/{expect['code']}" if "code" in expect else "")
        return f"expected {wanted}, got {got}"
    return None


def _request(query: dict, limit: int):
    from ..query import QueryRequest

    return QueryRequest(text=query["text"], user=query["user"], as_of=query.get("as_of"),
                        recorded_as_of=query.get("recorded_as_of"),
                        include_inactive=query.get("include_inactive", False), limit=limit)


def _read_answer(outcome: Outcome, answer: dict, tx_of: dict[str, str]) -> None:
    outcome.knowledge_state = answer.get("knowledge_state")
    outcome.reason_code = answer.get("reason_code")
    outcome.evidence = list(answer.get("evidence") or [])
    outcome.ranked = [tx_of.get(item.get("id"), item.get("id")) for item in outcome.evidence]


def _default_query_fn() -> Callable:
    from ..query import run_query

    return run_query


def _default_store_factory() -> Callable:
    from ..store import Store

    return lambda root, clock: Store.create(root, clock=clock)


# -- scoring ---------------------------------------------------------------------------


@dataclass
class Score:
    """One case scored; ``why`` is empty when the case passed."""

    category: str
    recall: dict[int, float | None]
    mrr: float | None
    state_ok: bool
    reason_ok: bool | None          # None: the case gives no reason code
    abstained: bool
    should_abstain: bool
    forbidden_hits: int
    verified_forbidden: bool        # answered (not UNKNOWN) citing a forbidden record
    stale_uses: int
    hard_negative_above: bool
    provenance: list[bool]
    setup_failed: bool
    why: list[str]


def score_case(outcome: Outcome, k: int) -> Score:
    expect = outcome.case["expect"]
    expected, ranked = expect["expected"], outcome.ranked
    hits = [tx for tx in ranked if tx in set(expect["forbidden"])]
    answered = outcome.knowledge_state not in (None, "UNKNOWN")
    stale = [item for item, tx in zip(outcome.evidence, ranked)
             if tx in hits and answered and _is_stale(item, tx, outcome.stale)]
    reason_ok = None if expect["reason_code"] is None else outcome.reason_code == expect["reason_code"]
    score = Score(
        category=outcome.case["category"],
        recall={n: m.recall_at_k(ranked, expected, n) for n in sorted({*RECALL_KS, k})},
        mrr=m.mrr(ranked, expected),
        state_ok=outcome.knowledge_state == expect["knowledge_state"],
        reason_ok=reason_ok,
        abstained=outcome.knowledge_state == "UNKNOWN",
        should_abstain=expect["knowledge_state"] == "UNKNOWN",
        forbidden_hits=len(hits),
        verified_forbidden=answered and bool(hits),
        stale_uses=len(stale),
        hard_negative_above=_hard_negative_above(ranked, expected, expect["hard_negatives"]),
        provenance=[_has_provenance(item) for item in outcome.evidence],
        setup_failed=outcome.failure is not None,
        why=[],
    )
    score.why = _why(outcome, score, hits, k)
    return score


def _is_stale(item: dict, tx: str, closed: set[str]) -> bool:
    superseded = ((item.get("supersession") or {}).get("superseded_by")) is not None
    return item.get("status") == "retired" or superseded or tx in closed


def _hard_negative_above(ranked: list[str], expected: list[str], hard: list[str]) -> bool:
    """A hard negative ranked above the first expected record (or returned when none is)."""
    if not expected:
        return False
    first = next((i for i, tx in enumerate(ranked) if tx in expected), len(ranked))
    return any(tx in hard for tx in ranked[:first])


def _has_provenance(item: dict) -> bool:
    source = item.get("source") or {}
    recorded = item.get("recorded_time") or {}
    valid = item.get("valid_time") or {}
    return bool(source.get("type") and source.get("ref") and recorded.get("recorded_at") and valid.get("from"))


def _why(outcome: Outcome, score: Score, hits: list[str], k: int) -> list[str]:
    expect = outcome.case["expect"]
    if outcome.failure:
        return [outcome.failure]
    why = []
    if not score.state_ok:
        why.append(f"knowledge_state {outcome.knowledge_state}, expected {expect['knowledge_state']}")
    if score.reason_ok is False:
        why.append(f"reason_code {outcome.reason_code}, expected {expect['reason_code']}")
    missing = [tx for tx in expect["expected"] if tx not in outcome.ranked[:k]]
    if missing:
        why.append(f"not in top {k}: {', '.join(missing)}")
    if hits:
        why.append(f"forbidden in evidence: {', '.join(hits)}")
    return why


def build_report(outcomes: list[Outcome], k: int) -> dict:
    scores = [score_case(outcome, k) for outcome in outcomes]
    categories = sorted({s.category for s in scores})
    return {
        "dataset": "gold",
        "questions": len(scores),
        "k": k,
        "metrics": _summary(scores, k),
        "by_category": {c: _summary([s for s in scores if s.category == c], k) for c in categories},
        "failures": [_failure(outcome, score, k) for outcome, score in zip(outcomes, scores) if score.why],
    }


def _summary(scores: list[Score], k: int) -> dict:
    """Recall@n and MRR over cases with expected records; accuracies over the cases that
    define them; abstention precision/recall from (predicted UNKNOWN, expected UNKNOWN);
    counts summed; provenance over every evidence item returned."""
    reasons = [s.reason_ok for s in scores if s.reason_ok is not None]
    provenance = [ok for s in scores for ok in s.provenance]
    summary = {"questions": len(scores), "passed": sum(not s.why for s in scores)}
    summary["pass_rate"] = summary["passed"] / len(scores) if scores else None
    for n in sorted({*RECALL_KS, k}):
        summary[f"recall@{n}"] = m.mean(s.recall[n] for s in scores)
    summary["mrr"] = m.mean(s.mrr for s in scores)
    summary["knowledge_state_accuracy"] = _rate([s.state_ok for s in scores])
    summary["reason_code_accuracy"] = _rate(reasons)
    summary.update(m.abstention_scores((s.abstained, s.should_abstain) for s in scores))
    summary["forbidden_hits"] = sum(s.forbidden_hits for s in scores)
    summary["verified_citing_forbidden"] = sum(s.verified_forbidden for s in scores)
    summary["critical_stale_use_count"] = sum(s.stale_uses for s in scores)
    summary["hard_negative_outranked"] = sum(s.hard_negative_above for s in scores)
    summary["provenance_completeness"] = _rate(provenance)
    summary["setup_failures"] = sum(s.setup_failed for s in scores)
    return summary


def _rate(flags: list[bool]) -> float | None:
    return sum(flags) / len(flags) if flags else None


def _failure(outcome: Outcome, score: Score, k: int) -> dict:
    return {"case_id": outcome.case["case_id"], "category": score.category, "why": "; ".join(score.why),
            "got": {"knowledge_state": outcome.knowledge_state, "reason_code": outcome.reason_code,
                    "evidence": outcome.ranked[:k]}}


# -- gates -----------------------------------------------------------------------------


def load_gates(path: str | Path | None = None) -> dict:
    path = Path(path or DEFAULT_GATES)
    try:
        gates = loads_strict(path.read_bytes(), what=f"gates file {path.name}")
    except OSError as exc:
        raise PolicyError(f"cannot read gates file {path} ({exc.strerror})", code="gates_invalid") from None
    except InputError as exc:
        raise PolicyError(exc.message, code="gates_invalid") from None
    problems = schemas.violations("benchmark-gates", gates)
    if problems:
        raise PolicyError(f"gates file {path.name} fails its schema: " + "; ".join(problems),
                          code="gates_invalid", details=problems)
    return gates


def check_gates(report: dict, gates: dict | list) -> list[str]:
    """Descriptions of the failed gates that apply to the report's dataset."""
    listed = gates["gates"] if isinstance(gates, dict) else gates
    failures = []
    for gate in listed:
        if gate["dataset"] == report.get("dataset"):
            failure = _gate_failure(report, gate)
            if failure:
                failures.append(failure)
            if gate.get("against"):
                failures += _half_failures(report, gate)
    return failures


def _half_failures(report: dict, gate: dict) -> list[str]:
    """A floor (a gate ``against`` a baseline) holds on each half the report holds too
    (``halves``: the dev half tuned on, the test half only reported), each against the
    baseline on the same half: a mechanism tuned on dev must not fall below it on test."""
    failures = []
    for name, half in sorted((report.get("halves") or {}).items()):
        if not isinstance(half, dict) or not half.get("questions"):
            continue
        failure = _gate_failure({"metrics": half.get("metrics", {}), "baselines": half.get("baselines", {})}, gate)
        if failure:
            failures.append(f"[{name} half] {failure}")
    return failures


def _gate_failure(report: dict, gate: dict) -> str | None:
    """``against`` (a baseline's name): the threshold is that baseline's figure on the same
    metric in the same report, plus ``threshold`` (a margin); a floor "ours >= plain BM25"."""
    where = gate.get("category")
    figures = report.get("by_category", {}).get(where, {}) if where else report.get("metrics", {})
    value = figures.get(gate["metric"])
    threshold = gate["threshold"]
    against = gate.get("against")
    if against:
        baseline = report.get("baselines", {}).get(against, {})
        theirs = (baseline.get("by_category", {}).get(where, {}) if where else baseline.get("metrics", {})).get(gate["metric"])
        if not isinstance(theirs, (int, float)) or isinstance(theirs, bool):
            return f"{gate['metric']} vs {against}: the baseline was not measured"
        threshold = theirs + gate["threshold"]
    label = (f"{'[' + where + '] ' if where else ''}{gate['metric']} {gate['comparison']} "
             + (f"{against} ({round(threshold, 4)})" if against else f"{gate['threshold']}"))
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return f"{label}: not measured"
    if not _COMPARISONS[gate["comparison"]](value, threshold):
        return f"{label}: got {round(value, 4)}"
    return None
