"""Dataset evaluators: our search and the baselines, scored on the same questions.

Contract:

- ``search(scope_user, question, as_of) -> SearchOutcome`` is the system under
  test (the CLI passes the query engine; tests pass a stub). ``ranked_refs``
  are turn refs best first, ``context_refs[i]`` the neighbour refs shown with
  ``ranked_refs[i]``, ``abstained`` whether the answer was UNKNOWN. Every
  system's results are cut to ``limit`` before scoring, so the search should
  return at least that many.
- ``evaluate_locomo`` queries scope ``sample_id`` with no as-of;
  ``evaluate_longmemeval`` scope ``question_id`` as of the question's date.
  Each baseline (``baselines.prepare_baselines``) runs on the same haystack and
  abstains exactly when it returns nothing.
- The report is the DESIGN §7 object: ``dataset``, ``questions``, ``metrics``,
  ``by_category``, ``baselines`` ({name: {metrics, by_category}}),
  ``unresolved_evidence``, ``misses`` (ours only), plus the configuration and
  per-system seconds. Metrics are means over the questions where they are
  defined (``metrics.mean``), rounded to 4 places; ``None`` means "no question
  defined it".
- LoCoMo: recall/MRR over categories 1-4 with resolvable evidence, strict and
  ``with_context``; category 5 is scored only as abstention. LongMemEval:
  session-level metrics rank sessions by the first appearance of their turns;
  ``_abs`` questions are scored only as abstention. ``without_late_gold`` scores
  every system again without the questions whose gold sessions are dated after the
  question (an as-of search cannot see them; the baselines ignore dates).
- LongMemEval is queried as of the **end of the question's day** (``end_of_day``,
  DESIGN §7): the dataset's times of day are synthetic.
- Halves (``half_of``): a fixed rule splits every public file into a ``dev`` half
  (tuned on) and a ``test`` half (only reported). Items are grouped into strata
  (LoCoMo: one stratum of conversations — a conversation is never split;
  LongMemEval: ``question_type`` plus whether the id ends in ``_abs``), ordered
  within each stratum by the SHA-256 of their id (``sample_id`` /
  ``question_id``), and dealt alternately dev, test, dev, … The report's
  ``halves`` holds every system's metrics on each half; ``half=`` restricts a run.
"""
from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from memory.benchmark import metrics as m
from memory.benchmark.baselines import BASELINES, BM25_PARAMS, RRF_K, TOKENIZER, prepare_baselines
from memory.importers import Conversation, LocomoQuestion, Question, Turn

OURS = "ours"
SYSTEMS = (OURS, *BASELINES)

LOCOMO_CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
LOCOMO_ADVERSARIAL = 5
LOCOMO_KS = (1, 5, 10, 20)
MISS_TOP = 10

Progress = Callable[[int, int], None]
HALVES = ("dev", "test")


def end_of_day(instant: str) -> str:
    """23:59:59 of the instant's day (UTC): LongMemEval's as-of (DESIGN §7)."""
    return instant[:10] + "T23:59:59Z"


def half_of(items: Sequence, key: Callable, stratum: Callable) -> dict[str, str]:
    """id -> "dev" | "test": within each stratum, by SHA-256 of the id, alternately (module docstring)."""
    strata: dict = {}
    for item in items:
        strata.setdefault(stratum(item), []).append(key(item))
    halves = {}
    for ids in strata.values():
        for at, item_id in enumerate(sorted(ids, key=lambda i: hashlib.sha256(i.encode()).hexdigest())):
            halves[item_id] = HALVES[at % 2]
    return halves


def locomo_halves(conversations: Sequence[Conversation]) -> dict[str, str]:
    return half_of(conversations, lambda c: c.sample_id, lambda c: "conversation")


def longmemeval_halves(questions: Sequence[Question]) -> dict[str, str]:
    return half_of(questions, lambda q: q.question_id, lambda q: (q.question_type, q.is_abstention))


@dataclass
class SearchOutcome:
    """What one search returned, reduced to what the evaluators score."""

    ranked_refs: list[str]
    context_refs: list[list[str]] = field(default_factory=list)
    abstained: bool = False
    confidence: float | None = None   # the answer's confidence (ours only): the abstention curve
    # how sure an abstention is that the question is unanswerable (ours, ``features.abstention_sureness``)
    sureness: float | None = None


Search = Callable[[str, str, str | None], SearchOutcome]


class _Stopwatch:
    """Per-system seconds; the timer is injected so reports can be made deterministic."""

    def __init__(self, timer: Callable[[], float]) -> None:
        self.timer = timer
        self.seconds = dict.fromkeys(SYSTEMS, 0.0)

    def run(self, name: str, function: Callable, *args):
        start = self.timer()
        try:
            return function(*args)
        finally:
            self.seconds[name] += self.timer() - start


def _runners(search: Search, turns: Sequence[Turn], limit: int, stopwatch: _Stopwatch) -> dict[str, Callable]:
    # Index building is charged to bm25_turns: it is the only baseline that builds ahead.
    rankers = stopwatch.run("bm25_turns", prepare_baselines, turns)
    runners: dict[str, Callable] = {OURS: search}
    for name, rank in rankers.items():
        runners[name] = lambda scope, question, as_of, rank=rank: _baseline_outcome(rank(question, limit))
    return runners


def _baseline_outcome(refs: list[str]) -> SearchOutcome:
    return SearchOutcome(ranked_refs=refs, context_refs=[], abstained=not refs)


def _run_all(runners: dict[str, Callable], stopwatch: _Stopwatch, scope: str, question: str,
             as_of: str | None, limit: int) -> dict[str, SearchOutcome]:
    return {name: _truncated(stopwatch.run(name, run, scope, question, as_of), limit) for name, run in runners.items()}


def _truncated(outcome: SearchOutcome, limit: int) -> SearchOutcome:
    # Every system is judged on the same number of results, whatever its own default.
    return SearchOutcome(outcome.ranked_refs[:limit], outcome.context_refs[:limit], outcome.abstained,
                         outcome.confidence, outcome.sureness)


# --- LoCoMo -----------------------------------------------------------------------


def evaluate_locomo(
    conversations: Sequence[Conversation],
    search: Search,
    *,
    limit: int = 20,
    progress: Progress | None = None,
    timer: Callable[[], float] = time.perf_counter,
    half: str = "all",
) -> dict:
    """Score ``search`` and the baselines on every LoCoMo question (see module docstring)."""
    halves = locomo_halves(conversations)
    conversations = [c for c in conversations if half in ("all", halves[c.sample_id])]
    total = sum(len(conversation.questions) for conversation in conversations)
    stopwatch = _Stopwatch(timer)
    rows: dict[str, list[dict]] = {name: [] for name in SYSTEMS}
    misses: list[dict] = []
    unresolved: list[dict] = []
    done = 0
    for conversation in conversations:
        runners = _runners(search, conversation.turns, limit, stopwatch)
        known = [turn.ref for turn in conversation.turns]
        for item in conversation.questions:
            gold, bad = m.normalize_evidence(item.evidence, known)
            unresolved += [_unresolved(conversation, item, piece) for piece in bad]
            outcomes = _run_all(runners, stopwatch, conversation.sample_id, item.question, None, limit)
            for name, outcome in outcomes.items():
                rows[name].append(_locomo_row(item.category, gold, outcome) | {"half": halves[conversation.sample_id]})
            misses += _locomo_misses(conversation.sample_id, item, gold, rows[OURS][-1], outcomes[OURS])
            done += 1
            if progress:
                progress(done, total)
    return _report("locomo", total, rows, _locomo_category, misses, stopwatch, limit, half) | {
        "unresolved_evidence": len(unresolved),
        "unresolved_evidence_ids": unresolved,
        "excluded_without_evidence": sum(1 for row in rows[OURS] if not row["should_abstain"] and not row["scored"]),
    }


def _unresolved(conversation: Conversation, item: LocomoQuestion, piece: str) -> dict:
    return {"sample_id": conversation.sample_id, "question_index": item.index, "evidence": piece}


def _locomo_row(category: int, gold: list[str], outcome: SearchOutcome) -> dict:
    adversarial = category == LOCOMO_ADVERSARIAL
    # Category 5 evidence points at the distracting turn, not at support: never recall gold.
    scored_gold = [] if adversarial else gold
    groups = m.with_context(outcome.ranked_refs, outcome.context_refs)
    return {
        "category": category,
        "scored": bool(scored_gold),
        "should_abstain": adversarial,
        "abstained": outcome.abstained,
        "confidence": outcome.confidence,
        "sureness": outcome.sureness,
        "scores": _ranking_scores(outcome.ranked_refs, scored_gold),
        "with_context": _ranking_scores(groups, scored_gold),
    }


def _ranking_scores(ranked: Sequence, gold: list[str]) -> dict[str, float | None]:
    scores = {f"recall@{k}": m.recall_at_k(ranked, gold, k) for k in LOCOMO_KS}
    scores["mrr"] = m.mrr(ranked, gold)
    return scores


def _locomo_category(row: dict) -> str:
    return LOCOMO_CATEGORIES[row["category"]]


def _locomo_misses(sample_id: str, item: LocomoQuestion, gold: list[str], row: dict, outcome: SearchOutcome) -> list[dict]:
    reason = _miss_reason(row, "recall@10")
    if reason is None:
        return []
    return [{
        "sample_id": sample_id,
        "question_index": item.index,
        "category": LOCOMO_CATEGORIES[item.category],
        "reason": reason,
        "question": item.question,
        "gold": gold,
        "recall@10": row["scores"]["recall@10"],
        "returned": outcome.ranked_refs[:MISS_TOP],
    }]


def _miss_reason(row: dict, recall_key: str) -> str | None:
    """Why a question counts as missed, or None; abstention errors first, they hide retrieval."""
    if row["abstained"] and not row["should_abstain"]:
        return "false_abstention"
    if row["should_abstain"] and not row["abstained"]:
        return "did_not_abstain"
    recall = row["scores"][recall_key]
    if recall is not None and recall < 1.0:
        return f"gold_not_in_top_{MISS_TOP}"
    return None


# --- LongMemEval --------------------------------------------------------------------


def evaluate_longmemeval(
    questions: Sequence[Question],
    search: Search,
    *,
    limit: int = 50,
    progress: Progress | None = None,
    timer: Callable[[], float] = time.perf_counter,
    half: str = "all",
) -> dict:
    """Score ``search`` and the baselines on every LongMemEval question (see module docstring)."""
    halves = longmemeval_halves(questions)
    questions = [q for q in questions if half in ("all", halves[q.question_id])]
    stopwatch = _Stopwatch(timer)
    rows: dict[str, list[dict]] = {name: [] for name in SYSTEMS}
    misses: list[dict] = []
    for done, item in enumerate(questions, start=1):
        runners = _runners(search, item.turns, limit, stopwatch)
        outcomes = _run_all(runners, stopwatch, item.question_id, item.question, end_of_day(item.question_as_of), limit)
        for name, outcome in outcomes.items():
            rows[name].append(_lme_row(item, outcome) | {"half": halves[item.question_id]})
        misses += _lme_misses(item, rows[OURS][-1], outcomes[OURS])
        if progress:
            progress(done, len(questions))
    late = [_gold_sessions_after_as_of(item) for item in questions]
    # every system again on the questions whose gold an as-of search can see: how much of a gap
    # is ranking and how much is the as-of rule (the baselines ignore dates)
    seen = {name: [row for row, n in zip(system_rows, late) if not n] for name, system_rows in rows.items()}
    return _report("longmemeval", len(questions), rows, _lme_category, misses, stopwatch, limit, half) | {
        "unresolved_evidence": 0,
        "gold_sessions_after_question_date": {"sessions": sum(late), "questions": sum(1 for n in late if n)},
        "without_late_gold": {"questions": len(seen[OURS]), "metrics": _summary(seen[OURS]),
                              "baselines": {name: {"metrics": _summary(system_rows)}
                                            for name, system_rows in seen.items() if name != OURS}},
        "empty_turns_skipped": sum(item.empty_turns for item in questions),
    }


def ranked_sessions(ranked_refs: Iterable[str], session_of: Callable[[str], str | None]) -> list[str]:
    """Session ids in the order their first turn appears; refs of unknown sessions are skipped."""
    sessions: list[str] = []
    for ref in ranked_refs:
        session = session_of(ref)
        if session is not None and session not in sessions:
            sessions.append(session)
    return sessions


def _lme_row(item: Question, outcome: SearchOutcome) -> dict:
    # Abstention questions have no evidence: they are excluded from every recall figure.
    gold_sessions = [] if item.is_abstention else list(item.answer_session_ids)
    gold_turns = [] if item.is_abstention else list(item.answer_turn_refs)
    sessions = ranked_sessions(outcome.ranked_refs, item.session_of)
    scores = {
        "recall@5": m.recall_at_k(sessions, gold_sessions, 5),
        "recall@10": m.recall_at_k(sessions, gold_sessions, 10),
        "recall_any@5": m.recall_any_at_k(sessions, gold_sessions, 5),
        "recall_any@10": m.recall_any_at_k(sessions, gold_sessions, 10),
        "recall_all@5": m.recall_all_at_k(sessions, gold_sessions, 5),
        "recall_all@10": m.recall_all_at_k(sessions, gold_sessions, 10),
        "ndcg@5": m.ndcg_at_k(sessions, gold_sessions, 5),
        "ndcg@10": m.ndcg_at_k(sessions, gold_sessions, 10),
        "mrr": m.mrr(sessions, gold_sessions),
        "turn_recall@10": m.recall_at_k(outcome.ranked_refs, gold_turns, 10),
        "turn_recall@50": m.recall_at_k(outcome.ranked_refs, gold_turns, 50),
    }
    return {
        "question_type": item.question_type,
        "scored": bool(gold_sessions),
        "should_abstain": item.is_abstention,
        "abstained": outcome.abstained,
        "confidence": outcome.confidence,
        "sureness": outcome.sureness,
        "scores": scores,
        "sessions": sessions,
    }


def _lme_category(row: dict) -> str:
    return row["question_type"]


def _lme_misses(item: Question, row: dict, outcome: SearchOutcome) -> list[dict]:
    reason = _miss_reason(row, "recall_all@10")
    if reason is None:
        return []
    return [{
        "question_id": item.question_id,
        "category": item.question_type,
        "reason": reason,
        "question": item.question,
        "gold": list(item.answer_session_ids),
        "gold_turns": list(item.answer_turn_refs),
        "recall_all@10": row["scores"]["recall_all@10"],
        "returned": outcome.ranked_refs[:MISS_TOP],
        "returned_sessions": row["sessions"][:MISS_TOP],
    }]


def _gold_sessions_after_as_of(item: Question) -> int:
    """Gold sessions dated after the question: an as-of search cannot see them (a dataset quirk)."""
    if item.is_abstention:
        return 0
    late = {item.session_ids[turn.session] for turn in item.turns if turn.date > end_of_day(item.question_as_of)}
    return len(late & set(item.answer_session_ids))


# --- report assembly ------------------------------------------------------------------


def _report(dataset: str, questions: int, rows: dict[str, list[dict]], category_of: Callable[[dict], str],
            misses: list[dict], stopwatch: _Stopwatch, limit: int, half: str = "all") -> dict:
    systems = {name: _system_report(system_rows, category_of) for name, system_rows in rows.items()}
    ours = systems.pop(OURS)
    halves = {}
    for name in HALVES:
        if half in ("all", name):
            kept = {system: [row for row in system_rows if row.get("half") == name] for system, system_rows in rows.items()}
            halves[name] = {"questions": len(kept[OURS]), "metrics": _summary(kept[OURS]),
                            "abstention_curve": abstention_curve(kept[OURS]),
                            "abstention_sureness_curve": sureness_curve(kept[OURS]),
                            "baselines": {system: {"metrics": _summary(r)} for system, r in kept.items() if system != OURS}}
    dev_curve = halves.get("dev", {}).get("abstention_curve", [])
    dev_sureness = halves.get("dev", {}).get("abstention_sureness_curve", [])
    return {
        "dataset": dataset,
        "questions": questions,
        "half": half,
        "halves": halves,
        "abstention_curve": abstention_curve(rows[OURS]),
        "abstention_operating_point": {"chosen_on": "dev", "point": operating_point(dev_curve) if dev_curve else None},
        "abstention_sureness_curve": sureness_curve(rows[OURS]),
        "abstention_sureness_operating_point": {"chosen_on": "dev",
                                                "point": operating_point(dev_sureness) if dev_sureness else None},
        "metrics": ours["metrics"],
        "by_category": ours["by_category"],
        "baselines": systems,
        "misses": misses,
        "limit": limit,
        "baseline_config": {"tokenizer": TOKENIZER, "bm25": dict(BM25_PARAMS), "rrf_k": RRF_K},
        "timing_seconds": {name: round(seconds, 3) for name, seconds in stopwatch.seconds.items()},
    }


def _system_report(rows: list[dict], category_of: Callable[[dict], str]) -> dict:
    by_category: dict[str, list[dict]] = {}
    for row in rows:
        by_category.setdefault(category_of(row), []).append(row)
    return {
        "metrics": _summary(rows),
        "by_category": {name: _summary(category_rows) for name, category_rows in _sorted_categories(by_category)},
    }


def _sorted_categories(by_category: dict[str, list[dict]]) -> list[tuple[str, list[dict]]]:
    # LoCoMo categories keep their official numbering; other datasets sort by name.
    def key(entry: tuple[str, list[dict]]) -> tuple:
        return (entry[1][0].get("category", 0), entry[0])

    return sorted(by_category.items(), key=key)


def _summary(rows: list[dict]) -> dict:
    answerable = [row for row in rows if not row["should_abstain"]]
    false_abstentions = sum(1 for row in answerable if row["abstained"])
    summary = {"questions": len(rows), "scored": sum(1 for row in rows if row["scored"])}
    summary |= _means(row["scores"] for row in rows)
    if rows and "with_context" in rows[0]:
        summary["with_context"] = _means(row["with_context"] for row in rows)
    abstention = m.abstention_scores((row["abstained"], row["should_abstain"]) for row in rows)
    summary |= {key: _round(value) for key, value in abstention.items()}
    summary["false_abstentions"] = false_abstentions
    summary["false_abstention_rate"] = _round(false_abstentions / len(answerable)) if answerable else None
    # the figures a user of the answer sees: an UNKNOWN returns no evidence, a miss everywhere
    summary["answered"] = _means({key: (0.0 if row["abstained"] and value is not None else value)
                                  for key, value in row["scores"].items()} for row in rows)
    return summary


CURVE_THRESHOLDS = tuple(round(0.05 * i, 2) for i in range(21))


def abstention_curve(rows: list[dict]) -> list[dict]:
    """Abstention precision, recall and false-abstention rate if the answer abstained whenever its
    confidence (``SearchOutcome.confidence``) is at or below each threshold, as the decision does
    with that ``min_coverage`` (support must exceed it, ``decision.Match.sufficient``; threshold 0
    abstains only when nothing supports an answer); rows without a confidence (the baselines)
    give an empty curve."""
    rows = [row for row in rows if row.get("confidence") is not None]
    if not rows:
        return []
    return [_point(threshold, rows, [row for row in rows if row["confidence"] <= threshold])
            for threshold in CURVE_THRESHOLDS]


SURENESS_THRESHOLDS = tuple(round(0.05 * i, 2) for i in range(1, 21))


def sureness_curve(rows: list[dict]) -> list[dict]:
    """Abstention precision, recall and false-abstention rate if the answer abstained whenever its
    sureness (``SearchOutcome.sureness``, ``decision.sureness``: for a question naming a speaker,
    by how much the question asked of another speaker is better supported than as asked) is at
    or above each threshold; rows without one (the baselines, or ``features.abstention_sureness``
    off) give an empty curve."""
    rows = [row for row in rows if row.get("sureness") is not None]
    if not rows:
        return []
    return [_point(threshold, rows, [row for row in rows if row["sureness"] >= threshold])
            for threshold in SURENESS_THRESHOLDS]


def _point(threshold: float, rows: list[dict], predicted: list[dict]) -> dict:
    should = sum(1 for row in rows if row["should_abstain"])
    answerable = len(rows) - should
    right = sum(1 for row in predicted if row["should_abstain"])
    return {"threshold": threshold, "abstained": len(predicted),
            "precision": _round(right / len(predicted)) if predicted else None,
            "recall": _round(right / should) if should else None,
            "false_abstention_rate": _round((len(predicted) - right) / answerable) if answerable else None}


def operating_point(curve: list[dict], *, precision: float = 0.90, false_abstention: float = 0.05) -> dict | None:
    """The threshold with the best recall among those with precision >= ``precision`` and
    false abstentions <= ``false_abstention``; failing that, the best recall within the
    false-abstention limit alone (the target is then not met). Chosen on the dev half only."""
    allowed = [p for p in curve if p["false_abstention_rate"] is not None and p["false_abstention_rate"] <= false_abstention
               and p["recall"] is not None]
    meeting = [p for p in allowed if p["precision"] is not None and p["precision"] >= precision]
    pool = meeting or allowed
    if not pool:
        return None
    best = max(pool, key=lambda p: (p["recall"], p["precision"] or 0.0, -p["threshold"]))
    return dict(best, meets_target=bool(meeting))


def _means(score_dicts: Iterable[dict[str, float | None]]) -> dict[str, float | None]:
    score_dicts = list(score_dicts)
    keys = score_dicts[0].keys() if score_dicts else ()
    return {key: _round(m.mean(scores[key] for scores in score_dicts)) for key in keys}


def _round(value):
    return round(value, 4) if isinstance(value, float) else value
