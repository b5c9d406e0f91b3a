"""LoCoMo / LongMemEval evaluators driven by a stub search (no store, no engine)."""
from __future__ import annotations

import itertools
import math

import pytest

from memory.benchmark.datasets import SearchOutcome, evaluate_locomo, evaluate_longmemeval, ranked_sessions
from memory.importers import Conversation, LocomoQuestion, Question, Turn


def turn(ref, text, session, speaker="Ann", date="2023-05-08T13:56:00Z"):
    return Turn(ref=ref, session=session, speaker=speaker, text=text, date=date)


CONVERSATION = Conversation(
    sample_id="conv-1",
    speakers=("Ann", "Bob"),
    turns=(
        turn("D1:1", "We planted tomatoes in the garden.", "session_1"),
        turn("D1:2", "My violin lesson was on Tuesday.", "session_1", "Bob"),
        turn("D1:3", "Tomatoes need plenty of sunshine.", "session_1"),
        turn("D1:4", "Then we cooked pasta.", "session_1", "Bob"),
        turn("D2:1", "The harbour was foggy.", "session_2"),
    ),
    questions=(
        LocomoQuestion(0, "Who planted tomatoes?", 4, ("D1:1",), "Ann"),
        LocomoQuestion(1, "Violin and harbour?", 1, ("D1:2; D2:1",), "x"),
        LocomoQuestion(2, "When was the garden planted?", 2, ("D9:9",), "x"),
        LocomoQuestion(3, "Which saxophone quartet?", 5, ("D1:4",), None),
        LocomoQuestion(4, "What pasta did the cousin cook?", 5, ("D1:4",), None),
        LocomoQuestion(5, "Why sunshine?", 3, ("D1:3",), "x"),
    ),
)

# What "our" engine answers for each LoCoMo question, by question text.
LOCOMO_ANSWERS = {
    "Who planted tomatoes?": SearchOutcome(["D1:3", "D1:1"]),
    "Violin and harbour?": SearchOutcome(["D1:2"], [["D1:1", "D2:1"]]),
    "When was the garden planted?": SearchOutcome(["D1:1"]),
    "Which saxophone quartet?": SearchOutcome([], [], abstained=True),
    "What pasta did the cousin cook?": SearchOutcome(["D1:4"]),
    "Why sunshine?": SearchOutcome([], [], abstained=True),
}


class StubSearch:
    """Answers from a table and remembers how it was called."""

    def __init__(self, answers):
        self.answers = answers
        self.calls = []

    def __call__(self, scope_user, question, as_of):
        self.calls.append((scope_user, question, as_of))
        return self.answers[question]


def fake_timer():
    return itertools.count().__next__


@pytest.fixture
def locomo_report():
    return evaluate_locomo([CONVERSATION], StubSearch(LOCOMO_ANSWERS), timer=fake_timer())


def test_locomo_report_has_the_design_shape(locomo_report):
    assert locomo_report["dataset"] == "locomo"
    assert locomo_report["questions"] == 6
    for key in ("recall@5", "recall@10", "mrr", "abstention_precision", "abstention_recall"):
        assert key in locomo_report["metrics"]
    assert list(locomo_report["by_category"]) == ["multi-hop", "temporal", "open-domain", "single-hop", "adversarial"]
    assert set(locomo_report["baselines"]) == {"bm25_turns", "refind_pairs"}
    assert set(locomo_report["timing_seconds"]) == {"ours", "bm25_turns", "refind_pairs"}


def test_locomo_strict_recall_and_mrr_per_category(locomo_report):
    single_hop = locomo_report["by_category"]["single-hop"]
    assert (single_hop["recall@1"], single_hop["recall@5"], single_hop["mrr"]) == (0.0, 1.0, 0.5)


def test_locomo_context_turns_count_only_in_with_context(locomo_report):
    multi_hop = locomo_report["by_category"]["multi-hop"]
    assert multi_hop["recall@1"] == 0.5  # "D1:2; D9:17"-style evidence split into two gold ids
    assert multi_hop["with_context"]["recall@1"] == 1.0


def test_locomo_unresolvable_evidence_is_counted_and_excluded(locomo_report):
    assert locomo_report["unresolved_evidence"] == 1
    assert locomo_report["unresolved_evidence_ids"] == [{"sample_id": "conv-1", "question_index": 2, "evidence": "D9:9"}]
    assert locomo_report["excluded_without_evidence"] == 1
    temporal = locomo_report["by_category"]["temporal"]
    assert (temporal["questions"], temporal["scored"], temporal["recall@10"]) == (1, 0, None)


def test_locomo_overall_recall_averages_scored_questions_only(locomo_report):
    # single-hop 1.0, multi-hop 0.5, open-domain 0.0 (abstained, nothing ranked); temporal unscored.
    assert locomo_report["metrics"]["recall@5"] == 0.5
    assert locomo_report["metrics"]["scored"] == 3


def test_locomo_adversarial_evidence_is_never_scored_as_recall(locomo_report):
    adversarial = locomo_report["by_category"]["adversarial"]
    assert (adversarial["recall@10"], adversarial["mrr"]) == (None, None)


def test_locomo_abstention_figures(locomo_report):
    metrics = locomo_report["metrics"]
    # Abstained on one adversarial (right) and one open-domain question (wrong).
    assert metrics["abstention_precision"] == 0.5
    assert metrics["abstention_recall"] == 0.5
    assert metrics["false_abstentions"] == 1
    assert metrics["false_abstention_rate"] == 0.25
    assert locomo_report["by_category"]["open-domain"]["false_abstention_rate"] == 1.0


def test_locomo_misses_explain_each_failure(locomo_report):
    reasons = {miss["question_index"]: miss["reason"] for miss in locomo_report["misses"]}
    assert reasons == {1: "gold_not_in_top_10", 4: "did_not_abstain", 5: "false_abstention"}
    miss = next(m for m in locomo_report["misses"] if m["question_index"] == 1)
    assert miss == {"sample_id": "conv-1", "question_index": 1, "category": "multi-hop",
                    "reason": "gold_not_in_top_10", "question": "Violin and harbour?",
                    "gold": ["D1:2", "D2:1"], "recall@10": 0.5, "returned": ["D1:2"]}


def test_locomo_baselines_run_on_the_same_questions(locomo_report):
    bm25 = locomo_report["baselines"]["bm25_turns"]
    assert bm25["metrics"]["questions"] == 6
    assert bm25["by_category"]["single-hop"]["mrr"] == 1.0  # "planted" only occurs in D1:1


def test_locomo_baseline_abstains_only_when_it_returns_nothing(locomo_report):
    for name in ("bm25_turns", "refind_pairs"):
        metrics = locomo_report["baselines"][name]["metrics"]
        # "Which saxophone quartet?" shares no term with the conversation; the pasta question does.
        assert (metrics["abstention_precision"], metrics["abstention_recall"]) == (1.0, 0.5)


def test_locomo_search_gets_the_sample_scope_and_no_as_of():
    search = StubSearch(LOCOMO_ANSWERS)
    evaluate_locomo([CONVERSATION], search, timer=fake_timer())
    assert search.calls[0] == ("conv-1", "Who planted tomatoes?", None)
    assert len(search.calls) == 6


def test_locomo_progress_reports_every_question():
    seen = []
    evaluate_locomo([CONVERSATION], StubSearch(LOCOMO_ANSWERS), progress=lambda *a: seen.append(a), timer=fake_timer())
    assert seen == [(i, 6) for i in range(1, 7)]


def test_locomo_baseline_limit_is_applied():
    report = evaluate_locomo([CONVERSATION], StubSearch(LOCOMO_ANSWERS), limit=1, timer=fake_timer())
    # multi-hop gold is two turns; one returned turn can find at most half.
    assert report["baselines"]["refind_pairs"]["by_category"]["multi-hop"]["recall@20"] <= 0.5
    assert report["limit"] == 1


def test_ours_is_cut_to_the_limit_like_the_baselines():
    answers = dict(LOCOMO_ANSWERS, **{"Who planted tomatoes?": SearchOutcome(["D1:2", "D1:3", "D1:4", "D1:1"])})
    report = evaluate_locomo([CONVERSATION], StubSearch(answers), limit=3, timer=fake_timer())
    assert report["by_category"]["single-hop"]["recall@5"] == 0.0


# --- LongMemEval -------------------------------------------------------------------------------


def lme_question(question_id, answer_sessions=("s_b", "s_c"), question_type="multi-session", gold_turns=("s_b:1",)):
    return Question(
        question_id=question_id,
        question_type=question_type,
        question="Where did I go hiking?",
        answer="x",
        question_as_of="2023-06-01T00:00:00Z",
        answer_session_ids=tuple(answer_sessions),
        answer_turn_refs=tuple(gold_turns),
        turns=(
            turn("s_a:0", "Tips for tomatoes?", "s_a", "user", "2023-05-01T08:00:00Z"),
            turn("s_a:1", "Water them.", "s_a", "assistant", "2023-05-01T08:00:00Z"),
            turn("s_b:1", "I went hiking in the Alps.", "s_b", "user", "2023-05-02T08:00:00Z"),
            turn("s_c:0", "More hiking in the Alps today.", "s_c", "user", "2023-06-30T08:00:00Z"),
            turn("s_a#2:0", "Tips for tomatoes?", "s_a#2", "user", "2023-05-20T08:00:00Z"),
        ),
        session_ids={"s_a": "s_a", "s_b": "s_b", "s_c": "s_c", "s_a#2": "s_a"},
    )


# Like the real data, the _abs question still names answer sessions: they must not be scored.
LME_QUESTIONS = [lme_question("q1"), lme_question("q2_abs"),
                 lme_question("q3", question_type="temporal-reasoning")]
LME_ANSWERS = {
    "q1": SearchOutcome(["s_a:0", "s_b:1", "s_a:1", "s_c:0"]),
    "q2_abs": SearchOutcome([], [], abstained=True),
    "q3": SearchOutcome([]),
}


class LmeStub(StubSearch):
    def __call__(self, scope_user, question, as_of):
        self.calls.append((scope_user, question, as_of))
        return self.answers[scope_user]


@pytest.fixture
def lme_report():
    return evaluate_longmemeval(LME_QUESTIONS, LmeStub(LME_ANSWERS), timer=fake_timer())


def test_ranked_sessions_follow_first_appearance_and_merge_repeats():
    question = LME_QUESTIONS[0]
    assert ranked_sessions(["s_a#2:0", "s_b:1", "s_a:0", "zz:1"], question.session_of) == ["s_a", "s_b"]


def test_lme_session_metrics(lme_report):
    q1 = lme_report["by_category"]["multi-session"]
    # sessions ranked s_a, s_b, s_c; gold s_b and s_c
    assert (q1["recall_any@5"], q1["recall_all@5"], q1["recall@5"], q1["mrr"]) == (1.0, 1.0, 1.0, 0.5)
    ideal = 1 + 1 / math.log2(3)
    assert q1["ndcg@5"] == round((1 / math.log2(3) + 1 / math.log2(4)) / ideal, 4)
    assert q1["turn_recall@10"] == 1.0


def test_lme_abstention_questions_are_excluded_from_recall(lme_report):
    q1 = lme_report["by_category"]["multi-session"]
    assert (q1["questions"], q1["scored"]) == (2, 1)
    metrics = lme_report["metrics"]
    assert (metrics["abstention_precision"], metrics["abstention_recall"]) == (1.0, 1.0)
    # q1 perfect, q3 nothing ranked; q2_abs (nothing ranked either) is not averaged in
    assert metrics["recall_any@5"] == 0.5
    assert metrics["turn_recall@10"] == 0.5


def test_lme_search_gets_the_question_scope_and_date():
    search = LmeStub(LME_ANSWERS)
    evaluate_longmemeval(LME_QUESTIONS, search, timer=fake_timer())
    assert search.calls[0] == ("q1", "Where did I go hiking?", "2023-06-01T23:59:59Z")  # end of its day


def test_lme_counts_gold_sessions_dated_after_the_question(lme_report):
    assert lme_report["gold_sessions_after_question_date"] == {"sessions": 2, "questions": 2}


def test_lme_reports_every_system_again_without_the_questions_whose_gold_is_late():
    on_time = lme_question("q4", answer_sessions=("s_b",))          # s_c (late) is not gold here
    answers = {"q1": LME_ANSWERS["q1"], "q4": SearchOutcome(["s_a:0"])}   # q1 perfect, q4 missed
    report = evaluate_longmemeval([LME_QUESTIONS[0], on_time], LmeStub(answers), timer=fake_timer())
    assert report["metrics"]["recall_any@5"] == 0.5
    without = report["without_late_gold"]
    assert (without["questions"], without["metrics"]["recall_any@5"]) == (1, 0.0)
    assert set(without["baselines"]) == set(report["baselines"])


def test_lme_misses(lme_report):
    assert [(m["question_id"], m["reason"]) for m in lme_report["misses"]] == [("q3", "gold_not_in_top_10")]


def test_lme_baselines_score_sessions_too(lme_report):
    bm25 = lme_report["baselines"]["bm25_turns"]["metrics"]
    assert bm25["recall_all@5"] == 1.0  # "hiking" is only in the two gold sessions
    assert lme_report["dataset"] == "longmemeval" and lme_report["questions"] == 3
