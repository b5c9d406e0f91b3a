"""The retrieval mechanisms of issue 5, each on a tiny scope built in memory (no store, no data).

Each test can fail: switching its feature off (or breaking it) makes the distractor win.
"""
from __future__ import annotations

from memory import planner
from memory.decision import Match, decide
from memory.indexing import document_text
from memory.policy import load_policy, ForgettingPolicy
from memory.retrieval.index import ScopeIndex
from memory.retrieval.temporal import date_words

SETTINGS = {"candidates_per_search": 50, "rrf_k": 60, "max_steps": 6, "context_window": 2,
            "unseen_entity_weight": 4, "speaker_weight": 1, "neighbour_weight": 0.0}


def turn(ref: str, speaker: str | None, text: str, *, session: str = "s1", kind: str = "episode",
         date: str = "2023-07-17T14:31:00Z") -> dict:
    return {"id": ref, "revision": 1, "kind": kind, "status": "active", "statement": text, "memory_key": None,
            "source": {"type": "conversation", "ref": ref, "session": session, "speaker": speaker},
            "valid_time": {"from": date, "to": None}, "sensitivity": {"classification": "private"}}


def space_of(records: list[dict], tmp_path, *, date_field: bool = False) -> planner.SearchSpace:
    index = ScopeIndex(tmp_path, {"k1": 1.2, "b": 0.75})
    index.apply([(r["id"], document_text(r, speaker_field=True, date_field=date_field)) for r in records], {})
    sessions: dict[str, list[str]] = {}
    for r in records:
        if r["kind"] == "episode":
            sessions.setdefault(r["source"]["session"], []).append(r["id"])
    return planner.SearchSpace(index, {r["id"]: r for r in records}, sessions)


def features(*on: str):
    return lambda name: name in on


def ranked(space, question: str, *on: str) -> list[str]:
    return [c.record_id for c in planner.plan(space, question, SETTINGS, features(*on)).candidates]


FILLER = [turn(f"f{i}", "Ann" if i % 2 else "Bob", f"filler chat number {i} about weather") for i in range(12)]


def test_date_words_spell_the_day_month_year_and_weekday():
    assert date_words("2023-10-13T10:31:00Z") == "13 October 2023 Friday"
    assert date_words("not a date") == ""


def test_date_field_finds_a_turn_by_the_month_it_was_said(tmp_path):
    records = FILLER + [turn("june", "Ann", "we went camping with the kids", date="2023-06-02T10:00:00Z"),
                        turn("july", "Ann", "we went camping with the kids", date="2023-07-02T10:00:00Z")]
    question = "When did Ann go camping in July?"
    assert ranked(space_of(records, tmp_path / "on", date_field=True), question)[0] == "july"
    assert ranked(space_of(records, tmp_path / "off"), question)[0] == "june"


def test_speaker_search_prefers_the_named_speakers_own_turn_over_a_vocative_mention(tmp_path):
    records = FILLER + [
        turn("said", "Bob", "Ann, Ann! My hobby: I paint.", session="s2"),
        turn("own", "Ann", "I paint landscapes, lakes, rivers and old sunsets, as a weekend hobby", session="s3")]
    question = "What does Ann paint as a hobby?"
    assert ranked(space_of(records, tmp_path / "a"), question, "speaker_search")[0] == "own"
    assert ranked(space_of(records, tmp_path / "b"), question)[0] == "said"


def test_neighbour_scoring_lifts_the_answer_after_the_question_that_names_the_topic(tmp_path):
    records = FILLER + [
        turn("ask", "Bob", "How was the pottery class you took last week?", session="s2"),
        turn("answer", "Ann", "Loved it! I made a bowl and a small blue vase.", session="s2"),
        turn("other", "Ann", "Work was busy, I made a plan for the spring.", session="s3")]
    question = "What did Ann make at the pottery class?"
    def ranked_with(space, weight):  # planner.neighbour_weight: 0 is off
        settings = dict(SETTINGS, neighbour_weight=weight)
        return [c.record_id for c in planner.plan(space, question, settings, features()).candidates]
    with_pairs = ranked_with(space_of(records, tmp_path / "a"), 0.5)
    without = ranked_with(space_of(records, tmp_path / "b"), 0.0)
    assert with_pairs.index("answer") < with_pairs.index("other")
    assert without.index("answer") > without.index("other")


def test_subject_terms_are_named_speakers_and_possessors_never_the_caller(tmp_path):
    space = space_of(FILLER, tmp_path)
    assert planner.subject_terms(space, "What is the name of Carla's sister's dog?", "carla") == (["sister"], [])
    assert planner.subject_terms(space, "Which school does Akira's son go to?", "akira") == (["son"], [])
    # the caller's name folds ("Amélie" is caller amelie); her salary is hers, her sister is another person
    assert planner.subject_terms(space, "What is Amélie's salary?", "amelie") == ([], [])
    assert planner.subject_terms(space, "What does Amélie's sister do?", "amelie") == (["sister"], [])
    assert planner.subject_terms(space, "Which park is my dog's favourite?", "amelie") == (["dog"], [])
    assert planner.subject_terms(space, "Which city does my sister live in?", "amelie") == (["sister"], [])
    assert planner.subject_terms(space, "What did Ann and Bob discuss?", "") == ([], ["ann", "bob"])


def _support(space, question: str, *on: str, caller: str = ""):
    return planner.support(space, question, SETTINGS, features(*on), caller)


def test_subject_attribution_gives_no_support_to_a_record_about_someone_else(tmp_path):
    records = [turn("own", None, "Carla's dog is a beagle called Pepper.", kind="fact"),
               turn("city", None, "Carla's sister lives in Valencia.", kind="fact")] + FILLER
    space = space_of(records, tmp_path)
    question = "What is the name of Carla's son's dog?"
    assert _support(space, question, "subject_attribution", caller="carla")("own") == 0.0
    assert _support(space, question, caller="carla")("own") > 0.2


def test_asserted_support_ignores_terms_a_record_only_asks_about(tmp_path):
    records = FILLER + [turn("asks", "Ann", "Nice! Which hair colour did you choose?")]
    space = space_of(records, tmp_path)
    question = "Which hair colour did Ann choose?"
    assert _support(space, question, "asserted_support")("asks") < 0.5
    assert _support(space, question)("asks") > 0.9


SHIPPED = ForgettingPolicy(load_policy("forgetting"))


def _decide(matches, ratio: float):
    return decide(matches, as_of="2024-01-01T00:00:00Z", now="2024-01-01T00:00:00Z", policy=SHIPPED,
                  min_coverage=0.2, scope_label="user:u", query_terms=["x"], support_ratio=ratio)


def test_support_ratio_abstains_when_someone_elses_record_covers_far_better():
    other = Match(turn("other", "Bob", "x", kind="fact"), 5.0, 1.0, 0.9, "2023-01-01T00:00:00Z", support=0.0)
    weak = Match(turn("weak", "Ann", "x", kind="fact"), 1.0, 0.5, 0.3, "2023-01-01T00:00:00Z", support=0.3)
    assert _decide([other, weak], 0.5).knowledge_state == "UNKNOWN"
    assert _decide([other, weak], 0.0).knowledge_state == "VERIFIED"


def test_a_match_without_support_falls_back_to_its_coverage():
    plain = Match(turn("m", None, "x", kind="fact"), 1.0, 1.0, 0.3, "2023-01-01T00:00:00Z")
    assert plain.sufficient(0.2) and not plain.sufficient(0.5)
