"""memory.decision: eligibility, knowledge state, reason codes — pure, no store."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

from memory.decision import BLOCKERS, Match, blocker, decide
from memory.policy import ForgettingPolicy, LoadedPolicy, load_policy
from memory.vocabulary import REASON_CODES

NOW = "2024-06-01T00:00:00Z"
SHIPPED = load_policy("forgetting")


def policy(**changes) -> ForgettingPolicy:
    data = {**copy.deepcopy(SHIPPED.data), **changes}
    return ForgettingPolicy(LoadedPolicy("forgetting", Path("forgetting-policy.json"), "0" * 64, data))


def record(name: str, *, status: str = "active", kind: str = "fact", valid_from: str = "2024-01-01T00:00:00Z",
           valid_to: str | None = None, classification: str = "private") -> dict:
    return {"id": f"mem_{name}", "revision": 1, "kind": kind, "status": status, "memory_key": f"user.{name}",
            "statement": name, "valid_time": {"from": valid_from, "to": valid_to},
            "sensitivity": {"classification": classification}}


def match(rec: dict, *, score: float = 1.0, coverage: float = 1.0, created_at: str = "2024-01-01T00:00:00Z") -> Match:
    return Match(rec, score, score, coverage, created_at)


def run(matches, *, as_of: str = NOW, forgetting: ForgettingPolicy | None = None, min_coverage: float = 0.5):
    return decide(matches, as_of=as_of, now=NOW, policy=forgetting or policy(), min_coverage=min_coverage,
                  scope_label="user:u1", query_terms=["home", "citi"])


# -- blocker: validity decides, status qualifies ---------------------------------------

@pytest.mark.parametrize("rec, as_of, expected", [
    (record("a"), NOW, None),
    (record("a", status="candidate"), NOW, "candidate"),
    (record("a", status="disputed"), NOW, "disputed"),
    (record("a", status="rejected"), NOW, "rejected"),
    # retired with an open validity never held "until then": it answers nowhere
    (record("a", status="retired"), "2024-03-01T00:00:00Z", "retired"),
    # retired with a closed validity held until then
    (record("a", status="retired", valid_to="2024-04-01T00:00:00Z"), "2024-03-01T00:00:00Z", None),
    (record("a", status="retired", valid_to="2024-04-01T00:00:00Z"), "2024-04-01T00:00:00Z", "retired"),
    (record("a", valid_from="2025-01-01T00:00:00Z"), NOW, "not_yet_valid"),
    # half-open: the first instant counts, the end instant does not
    (record("a", valid_from=NOW), NOW, None),
    (record("a", valid_to=NOW), NOW, "expired"),
    (record("a", valid_to="2024-07-01T00:00:00Z"), NOW, None),
])
def test_blocker(rec, as_of, expected):
    assert blocker(rec, "2024-01-01T00:00:00Z", as_of, NOW, policy()) == expected


def test_retention_counts_from_creation_against_now_not_as_of():
    sensitive = record("a", classification="sensitive")
    assert blocker(sensitive, "2023-06-03T00:00:00Z", NOW, NOW, policy()) is None       # 364 days old (leap year)
    assert blocker(sensitive, "2023-06-02T00:00:00Z", NOW, NOW, policy()) == "retention"  # 365 days: window over
    past = "2024-03-01T00:00:00Z"  # an as-of in the past does not bring an expired record back
    assert blocker(sensitive, "2023-06-02T00:00:00Z", past, NOW, policy()) == "retention"
    assert blocker(record("b"), "2020-01-01T00:00:00Z", NOW, NOW, policy()) is None     # private: kept


def test_the_answering_statuses_come_from_the_policy():
    retired = record("a", status="retired", valid_to="2024-04-01T00:00:00Z")
    assert blocker(retired, "2024-01-01T00:00:00Z", "2024-03-01T00:00:00Z", NOW,
                   policy(answering_statuses=["active"])) == "retired"


def test_every_blocker_maps_to_a_known_reason_or_none():
    assert set(BLOCKERS.values()) - {None} <= set(REASON_CODES)


# -- decide -----------------------------------------------------------------------------

def test_an_eligible_sufficient_match_answers_and_blocked_better_ones_do_not():
    current = match(record("berlin"), score=2.0)
    retired = match(record("paris", status="retired", valid_to="2024-02-01T00:00:00Z"), score=9.0)
    verdict = run([retired, current])
    assert verdict.knowledge_state == "VERIFIED" and verdict.reason_code is None
    assert [m.record["id"] for m in verdict.evidence] == ["mem_berlin"]
    assert [(m.record["id"], why) for m, why in verdict.blocked] == [("mem_paris", "retired")]


def test_a_match_below_min_coverage_never_answers():
    weak = match(record("pet"), coverage=0.2)
    verdict = run([weak])
    assert (verdict.knowledge_state, verdict.reason_code) == ("UNKNOWN", "insufficient_evidence")
    assert verdict.evidence == []
    assert verdict.missing_conditions == ["an active record in scope user:u1 that covers: home, citi"]
    # support must exceed min_coverage: at exactly the bar it does not answer (issue 13, the
    # lead's visa repro sat exactly there), just above it does
    assert run([weak], min_coverage=0.2).knowledge_state == "UNKNOWN"
    assert run([weak], min_coverage=0.19).knowledge_state == "VERIFIED"


@pytest.mark.parametrize("statuses, reason", [
    (["disputed", "retired", "candidate"], "unresolved_conflict"),
    (["retired", "candidate"], "retired_or_expired"),
    (["candidate"], "candidate_or_unverified"),
    (["rejected"], "insufficient_evidence"),  # never right: supports no reason of its own
    ([], "insufficient_evidence"),
])
def test_the_reason_is_the_first_in_the_policys_priority(statuses, reason):
    matches = [match(record(f"r{i}", status=status)) for i, status in enumerate(statuses)]
    verdict = run(matches)
    assert (verdict.knowledge_state, verdict.reason_code) == ("UNKNOWN", reason)
    assert verdict.evidence == []


def test_the_priority_order_is_read_from_the_policy():
    matches = [match(record("d", status="disputed")), match(record("c", status="candidate"))]
    reordered = policy(abstention_priority=["candidate_or_unverified", "unresolved_conflict",
                                            "retired_or_expired", "insufficient_evidence"])
    assert run(matches).reason_code == "unresolved_conflict"
    assert run(matches, forgetting=reordered).reason_code == "candidate_or_unverified"


def test_missing_conditions_name_the_blocked_records():
    verdict = run([match(record("x", status="disputed")), match(record("y", status="disputed"))])
    assert verdict.missing_conditions == ["a resolve envelope settling the dispute among mem_x, mem_y"]
    candidate = run([match(record("z", status="candidate"))])
    assert candidate.missing_conditions == ["a reviewer's approval of candidate mem_z"]
    expired = run([match(record("w", valid_to="2024-02-01T00:00:00Z"))])
    assert expired.reason_code == "retired_or_expired"
    assert "mem_w" in expired.missing_conditions[0] and NOW in expired.missing_conditions[0]


# -- knowledge states -------------------------------------------------------------------

def test_a_negative_alone_is_verified_negative():
    assert run([match(record("no_meat", kind="negative"))]).knowledge_state == "VERIFIED_NEGATIVE"


def test_a_negative_with_a_positive_is_a_negative_boundary():
    verdict = run([match(record("no_meat", kind="negative")), match(record("fish"))])
    assert verdict.knowledge_state == "VERIFIED_WITH_NEGATIVE_BOUNDARY"


def test_a_negative_that_cannot_answer_sets_no_boundary():
    verdict = run([match(record("no_meat", kind="negative", status="candidate")), match(record("fish"))])
    assert verdict.knowledge_state == "VERIFIED"


def test_evidence_whose_validity_ended_before_now_is_historical():
    paris = record("paris", status="retired", valid_from="2023-01-01T00:00:00Z", valid_to="2024-02-01T00:00:00Z")
    verdict = run([match(paris)], as_of="2023-06-01T00:00:00Z")
    assert verdict.knowledge_state == "VERIFIED_HISTORICAL"
    assert [m.record["id"] for m in verdict.evidence] == ["mem_paris"]


def test_validity_ending_in_the_future_is_still_current():
    berlin = record("berlin", status="retired", valid_to="2025-01-01T00:00:00Z")  # a future-dated update
    lisbon = record("lisbon", valid_from="2025-01-01T00:00:00Z")
    verdict = run([match(lisbon, score=5.0), match(berlin)])
    assert verdict.knowledge_state == "VERIFIED"
    assert [m.record["id"] for m in verdict.evidence] == ["mem_berlin"]
    assert [why for _, why in verdict.blocked] == ["not_yet_valid"]
