"""The decision: which matches may answer, the knowledge state, and why not.

Pure functions of (matches, instants, policies). Validity decides, status
qualifies: a record answers for instant T when T lies in its half-open valid
time and it is active — or retired with a closed valid time. Candidates,
disputed and rejected records answer at no instant. An UNKNOWN carries the
first applicable reason in the forgetting policy's priority order and the
conditions that would have allowed an answer.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .clock import add_days
from .policy import ForgettingPolicy

# why a matching record could not answer -> the abstention reason it supports
BLOCKERS = {
    "disputed": "unresolved_conflict",
    "retired": "retired_or_expired",
    "expired": "retired_or_expired",
    "not_yet_valid": "retired_or_expired",
    "retention": "retired_or_expired",
    "candidate": "candidate_or_unverified",
    "rejected": None,   # never right: it supports no reason of its own
}


@dataclass
class Match:
    record: dict
    score: float          # BM25 of the whole question
    rank_score: float     # the planner's fused score (orders evidence)
    coverage: float       # idf-weighted share of the question's terms the record holds
    created_at: str
    context: list = field(default_factory=list)
    support: float | None = None  # how far it alone supports an answer (None: its coverage)

    def sufficient(self, min_coverage: float) -> bool:
        """Enough, alone, to answer (``planner.support``: about the question's subject, stated)."""
        return (self.coverage if self.support is None else self.support) >= min_coverage


def blocker(record: dict, created_at: str, as_of: str, now: str, policy: ForgettingPolicy) -> str | None:
    """None when the record may answer for ``as_of``; else what stops it."""
    status = record["status"]
    if status in ("disputed", "candidate", "rejected"):
        return status
    if status not in policy.answering_statuses:
        return "retired"
    valid = record["valid_time"]
    if status == "retired" and valid["to"] is None and policy.retired_requires_closed_validity:
        return "retired"
    if as_of < valid["from"]:
        return "not_yet_valid"
    if valid["to"] is not None and as_of >= valid["to"]:
        return "retired" if status == "retired" else "expired"
    days = policy.retention_days(record["kind"], record["sensitivity"]["classification"])
    if days is not None and add_days(created_at, days) <= now:
        return "retention"
    return None


@dataclass
class Decision:
    knowledge_state: str
    reason_code: str | None
    missing_conditions: list[str]
    evidence: list[Match]
    blocked: list[tuple[Match, str]]
    eligible: list[Match] = field(default_factory=list)   # every match that may answer, sufficient or not


def decide(matches: list[Match], *, as_of: str, now: str, policy: ForgettingPolicy, min_coverage: float,
           scope_label: str, query_terms: list[str], support_coverage: float = 0.0,
           support_ratio: float = 0.0) -> Decision:
    """Answer when an eligible match is sufficient: its support (``Match.sufficient``) reaches
    ``min_coverage``; then every eligible match above ``support_coverage`` is listed as
    evidence, best first. With ``support_ratio``, the best support must also reach that share of
    the best coverage: when a record about someone else covers the question far better than
    anything about its subject, the question is most likely about the wrong person."""
    answering, blocked = [], []
    for match in matches:
        if match.coverage < min(min_coverage, support_coverage) or match.coverage <= 0:
            continue
        why = blocker(match.record, match.created_at, as_of, now, policy)
        if why:
            if match.sufficient(min_coverage):
                blocked.append((match, why))
        else:
            answering.append(match)
    # a record that fails the subject test (support 0) is about someone else: it may contest an
    # answer (``_uncontested``) but is never listed as evidence for it
    evidence = [m for m in answering if m.support != 0]
    if any(m.sufficient(min_coverage) for m in evidence) and _uncontested(answering, support_ratio):
        evidence = [m for m in evidence if m.coverage >= support_coverage]
        return Decision(_answered_state([m for m in evidence if m.sufficient(min_coverage)], now), None, [],
                        evidence, blocked, evidence)
    reason = _first_reason(blocked, policy)
    return Decision("UNKNOWN", reason, _missing(reason, blocked, as_of, scope_label, query_terms), [], blocked,
                    evidence)


def _uncontested(evidence: list[Match], support_ratio: float) -> bool:
    if support_ratio <= 0:
        return True
    best_support = max((m.coverage if m.support is None else m.support) for m in evidence)
    return best_support >= support_ratio * max(m.coverage for m in evidence)


def _answered_state(evidence: list[Match], now: str) -> str:
    negative = any(m.record["kind"] == "negative" for m in evidence)
    positive = any(m.record["kind"] != "negative" for m in evidence)
    if negative and positive:
        return "VERIFIED_WITH_NEGATIVE_BOUNDARY"
    if negative:
        return "VERIFIED_NEGATIVE"
    ended = all(m.record["valid_time"]["to"] is not None and m.record["valid_time"]["to"] <= now
                for m in evidence)
    return "VERIFIED_HISTORICAL" if ended else "VERIFIED"


def _first_reason(blocked: list[tuple[Match, str]], policy: ForgettingPolicy) -> str:
    present = {BLOCKERS[why] for _, why in blocked} - {None}
    for reason in policy.abstention_priority:
        if reason in present:
            return reason
    return "insufficient_evidence"


def _missing(reason: str, blocked, as_of: str, scope_label: str, query_terms: list[str]) -> list[str]:
    ids = lambda wanted: sorted({m.record["id"] for m, why in blocked if BLOCKERS[why] == wanted})  # noqa: E731
    if reason == "unresolved_conflict":
        return [f"a resolve envelope settling the dispute among {', '.join(ids(reason))}"]
    if reason == "retired_or_expired":
        return [f"an active record valid at {as_of} (the matches {', '.join(ids(reason))} "
                "were retired, expired or not yet valid then)"]
    if reason == "candidate_or_unverified":
        return [f"a reviewer's approval of candidate {', '.join(ids(reason))}"]
    terms = ", ".join(query_terms) if query_terms else "the question's terms"
    return [f"an active record in scope {scope_label} that covers: {terms}"]
