"""The deterministic planner: several BM25 searches, notes, fusion, context.

Offline and repeatable. Steps (each can be switched off in the retrieval
policy's ``features``): search the whole question; search its entities,
numbers and dates; search again with terms learned from the first results
(pseudo-relevance feedback); fuse the rankings with reciprocal rank fusion,
per record and per session; expand episodes to neighbouring turns of the same
session. It stops within ``planner.max_steps`` searches. It only reads.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from .retrieval.tokenize import tokenize

_ENTITY = re.compile(r"\b(?:[A-Z][\w'-]+|\d[\d/:.-]*)\b")


@dataclass
class Candidate:
    record_id: str
    score: float = 0.0          # BM25 of the whole question
    fused: float = 0.0
    coverage: float = 0.0


@dataclass
class PlanResult:
    candidates: list[Candidate]
    query_terms: list[str]
    steps: list[dict] = field(default_factory=list)


class SearchSpace:
    """What the planner may read: one scope's index and the records it may return."""

    def __init__(self, index, records: dict[str, dict]) -> None:
        self.index = index
        self.records = records

    def search(self, tokens: list[str], limit: int) -> list[tuple[str, float]]:
        scored = self.index.scores(tokens)
        hits = [(rid, s) for rid, s in scored.items() if rid in self.records]
        hits.sort(key=lambda item: -item[1])
        return hits[:limit]

    def idf(self, term: str) -> float:
        return self.index.idf(term)

    def terms(self, record_id: str) -> list[str]:
        return self.index.terms(record_id)

    def weight(self, term: str) -> float:
        n = max(len(self.index), 1)
        df = max(self.index.df(term), 1)
        return math.log(1 + (n - df + 0.5) / (df + 0.5))


def entity_terms(question: str) -> list[str]:
    """Capitalized words, numbers and dates: what the question is about."""
    words = _ENTITY.findall(question)
    first = question.strip().split(" ", 1)[0] if question.strip() else ""
    return tokenize(" ".join(w for w in words if w != first or any(c.isdigit() for c in w)))


_TIME_WORDS = frozenset(tokenize(
    "January February March April May June July August September October November December "
    "Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec Monday Tuesday Wednesday Thursday Friday "
    "Saturday Sunday New Year Christmas Easter"))


def name_terms(question: str) -> list[str]:
    """Capitalized words past the first: the names a question is about. Numbers, dates, months
    and weekdays are not: in a question they usually set the time, not the subject."""
    words = question.strip().split()[1:]
    return [t for t in tokenize(" ".join(w for w in words if w[:1].isupper())) if t not in _TIME_WORDS]


def feedback_terms(space: SearchSpace, top_ids: list[str], query_terms: set[str], count: int) -> list[str]:
    """Terms frequent in the first results and rare in the scope (Rocchio-style)."""
    weights: Counter = Counter()
    for record_id in top_ids:
        for term, tf in Counter(space.terms(record_id)).items():
            if term not in query_terms:
                weights[term] += (1 + math.log(tf)) * space.idf(term)
    return [term for term, _ in weights.most_common(count)]


def coverage(space: SearchSpace, record_id: str, query_terms: list[str], entities: frozenset = frozenset(),
             unseen_entity_weight: float = 1.0) -> float:
    """Share of the question's weight that the record holds.

    Weights are a smoothed idf, log(1 + (N - df + 0.5) / (df + 0.5)), always positive even in
    tiny scopes where BM25's idf degenerates; a term the scope has never seen weighs as much as
    its rarest seen term (df 1): unknown words count against an answer, but do not drown it —
    except a named entity or number the scope has never seen ("Where does Maria live?"), which
    weighs ``unseen_entity_weight`` times as much: it is what the question is about.
    """
    unique = set(query_terms)
    weights = {t: space.weight(t) * (unseen_entity_weight if t in entities and not space.index.df(t) else 1.0)
               for t in unique}
    total = sum(weights.values())
    if total <= 0:
        return 0.0
    held = set(space.terms(record_id))
    return sum(w for t, w in weights.items() if t in held) / total


def question_coverage(space: SearchSpace, question: str, settings: dict, caller: str = "") -> Callable[[str], float]:
    """record_id -> coverage of ``question``, as every planner measures it (one rule, so the
    deterministic and the llm planner face the same relevance bar).

    The caller's own name does not count ("What does Ravi take?" asked in scope user:Ravi is
    about the scope); names the scope never saw weigh ``unseen_entity_weight`` times.
    """
    terms = tokenize(question)
    own = set(tokenize(caller))
    covered_terms = [t for t in terms if t not in own] or terms
    entities = frozenset(name_terms(question))
    unseen_weight = settings.get("unseen_entity_weight", 1.0)
    return lambda record_id: coverage(space, record_id, covered_terms, entities, unseen_weight)


def _rrf(rankings: list[list[str]], k: int) -> dict[str, float]:
    fused: Counter = Counter()
    for ranking in rankings:
        for rank, record_id in enumerate(ranking, 1):
            fused[record_id] += 1.0 / (k + rank)
    return fused


def _session_bonus(space: SearchSpace, ranking: list[str], k: int) -> dict[str, float]:
    """Each session ranked by its best turn; every turn of it gets the session's RRF share."""
    session_rank: dict[str, int] = {}
    for record_id in ranking:
        session = space.records[record_id]["source"].get("session")
        if session and session not in session_rank:
            session_rank[session] = len(session_rank) + 1
    bonus = {}
    for record_id in ranking:
        session = space.records[record_id]["source"].get("session")
        if session:
            bonus[record_id] = 1.0 / (k + session_rank[session])
    return bonus


def plan(space: SearchSpace, question: str, settings: dict, features, *, caller: str = "") -> PlanResult:
    """Run the searches and return candidates ranked by fused score.

    ``caller`` is the scope's own key: a question that names its own user ("What does Ravi
    take in the morning?") is about the scope, so that name does not count in coverage.
    """
    per_search, k = settings["candidates_per_search"], settings["rrf_k"]
    budget = settings["max_steps"]
    terms = tokenize(question)
    steps: list[dict] = []
    if not terms:
        return PlanResult([], terms, [{"action": "finish", "why": "the question has no searchable terms"}])

    def search(action: str, tokens: list[str]) -> list[str]:
        hits = space.search(tokens, per_search)
        steps.append({"action": "search", "kind": action, "terms": tokens, "hits": len(hits)})
        return [rid for rid, _ in hits]

    first_hits = space.search(terms, per_search)
    steps.append({"action": "search", "kind": "question", "terms": terms, "hits": len(first_hits)})
    first = [rid for rid, _ in first_hits]
    rankings = [first]
    if features("entity_search") and len(steps) < budget:
        entities = entity_terms(question)
        if entities and set(entities) != set(terms):
            rankings.append(search("entities", entities))
    if features("feedback_expansion") and first and len(steps) < budget:
        extra = feedback_terms(space, first[:3], set(terms), 5)
        if extra:
            rankings.append(search("feedback", terms + extra))
    fused = _rrf(rankings, k)
    if features("session_fusion"):
        for record_id, bonus in _session_bonus(space, first, k).items():
            fused[record_id] += bonus
    scores = dict(first_hits)
    covers = question_coverage(space, question, settings, caller)
    candidates = [Candidate(rid, scores.get(rid, 0.0), value, covers(rid)) for rid, value in fused.items()]
    candidates.sort(key=lambda c: (-c.fused, -c.score))
    steps.append({"action": "take_note", "kept": len(candidates)})
    steps.append({"action": "finish", "searches": sum(1 for s in steps if s["action"] == "search")})
    return PlanResult(candidates, terms, steps)
