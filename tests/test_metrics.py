"""Retrieval / abstention arithmetic and LoCoMo evidence normalization."""
from __future__ import annotations

import math

import pytest

from memory.benchmark.metrics import (
    abstention_scores,
    mean,
    mrr,
    ndcg_at_k,
    normalize_evidence,
    recall_all_at_k,
    recall_any_at_k,
    recall_at_k,
    with_context,
)

RANKED = ["a", "x", "b", "y", "c"]


def test_recall_at_k_is_the_found_fraction_of_gold():
    assert recall_at_k(RANKED, ["a", "b", "z"], 3) == pytest.approx(2 / 3)
    assert recall_at_k(RANKED, ["a", "b", "z"], 1) == pytest.approx(1 / 3)


def test_recall_all_and_any():
    assert recall_all_at_k(RANKED, ["a", "b"], 3) == 1.0
    assert recall_all_at_k(RANKED, ["a", "b"], 2) == 0.0
    assert recall_any_at_k(RANKED, ["b", "z"], 2) == 0.0
    assert recall_any_at_k(RANKED, ["b", "z"], 3) == 1.0


def test_repeated_gold_ids_count_once():
    assert recall_at_k(RANKED, ["a", "a"], 1) == 1.0


def test_metrics_over_no_gold_are_undefined_not_zero():
    for value in (recall_at_k(RANKED, [], 5), recall_all_at_k(RANKED, [], 5), recall_any_at_k(RANKED, [], 5),
                  mrr(RANKED, []), ndcg_at_k(RANKED, [], 5)):
        assert value is None


def test_mrr_is_the_reciprocal_rank_of_the_first_hit():
    assert mrr(RANKED, ["b", "c"]) == pytest.approx(1 / 3)
    assert mrr(RANKED, ["z"]) == 0.0


def test_ndcg_binary_relevance():
    # hits at ranks 1 and 3, two gold: (1 + 1/log2(4)) / (1 + 1/log2(3))
    expected = (1 + 1 / math.log2(4)) / (1 + 1 / math.log2(3))
    assert ndcg_at_k(RANKED, ["a", "b"], 5) == pytest.approx(expected)
    assert ndcg_at_k(["a", "b"], ["a", "b"], 5) == pytest.approx(1.0)


def test_ndcg_does_not_reward_a_repeated_hit():
    assert ndcg_at_k(["a", "a"], ["a", "b"], 2) == pytest.approx(1 / (1 + 1 / math.log2(3)))


def test_groups_count_every_member_at_their_rank():
    groups = with_context(["x", "y"], [["a"], ["b", "c"]])
    assert recall_at_k(groups, ["a", "c"], 1) == 0.5
    assert recall_at_k(groups, ["a", "c"], 2) == 1.0
    assert mrr(groups, ["c"]) == 0.5


def test_with_context_tolerates_missing_context_lists():
    assert with_context(["x", "y"], [["a"]]) == [frozenset({"x", "a"}), frozenset({"y"})]


def test_abstention_precision_and_recall():
    pairs = [(True, True), (True, False), (False, True), (False, False), (True, True)]
    scores = abstention_scores(pairs)
    assert scores["abstention_precision"] == pytest.approx(2 / 3)
    assert scores["abstention_recall"] == pytest.approx(2 / 3)
    assert (scores["abstained"], scores["should_abstain"]) == (3, 3)


def test_abstention_undefined_without_predictions_or_expectations():
    assert abstention_scores([(False, True)])["abstention_precision"] is None
    assert abstention_scores([(True, False)])["abstention_recall"] is None


def test_mean_skips_none():
    assert mean([1.0, None, 0.0]) == 0.5
    assert mean([None]) is None
    assert mean([]) is None


@pytest.mark.parametrize(
    "raw, ids",
    [
        (["D8:6; D9:17"], ["D8:6", "D9:17"]),
        (["D:11:26"], ["D11:26"]),
        (["D30:05"], ["D30:5"]),
        (["D3:4 D3:5"], ["D3:4", "D3:5"]),
        (["D1:1", "D01:1"], ["D1:1"]),
    ],
)
def test_normalize_evidence_general_rules(raw, ids):
    assert normalize_evidence(raw) == (ids, [])


def test_normalize_evidence_unparseable_is_unresolved():
    assert normalize_evidence(["D", "D2:1"]) == (["D2:1"], ["D"])


def test_normalize_evidence_against_the_conversation():
    known = ["D1:1", "D1:2", "D2:1"]
    assert normalize_evidence(["D1:02", "D10:19", "D2:1"], known) == (["D1:2", "D2:1"], ["D10:19"])


def test_normalize_evidence_returns_the_conversations_spelling():
    assert normalize_evidence(["D1:2"], ["D01:02"]) == (["D01:02"], [])
