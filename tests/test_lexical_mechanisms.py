"""Issue 5, session 2: relative dates (index and question side) and person-only possessives.

Each test builds a tiny scope in memory and can fail: with its feature off (or broken) the
distractor wins or the support disappears.
"""
from __future__ import annotations

import pytest

from memory import planner
from memory.indexing import document_text
from memory.retrieval.index import ScopeIndex
from memory.retrieval.temporal import relative_date_words

SETTINGS = {"candidates_per_search": 50, "rrf_k": 60, "max_steps": 6, "context_window": 2,
            "unseen_entity_weight": 4, "speaker_weight": 1, "neighbour_weight": 0.5}
SAID = "2023-05-08T13:56:00Z"  # a Monday


def turn(ref: str, text: str, *, speaker: str | None = "Ann", session: str = "s1", kind: str = "episode",
         date: str = SAID) -> dict:
    return {"id": ref, "revision": 1, "kind": kind, "status": "active", "statement": text, "memory_key": None,
            "source": {"type": "conversation", "ref": ref, "session": session, "speaker": speaker},
            "valid_time": {"from": date, "to": None}, "sensitivity": {"classification": "private"}}


def space_of(records: list[dict], tmp_path, *, relative_dates: bool = False) -> planner.SearchSpace:
    index = ScopeIndex(tmp_path, {"k1": 1.2, "b": 0.75})
    index.apply([(r["id"], document_text(r, speaker_field=True, date_field=True, relative_dates=relative_dates))
                  for r in records], {})
    sessions: dict[str, list[str]] = {}
    for r in records:
        sessions.setdefault(r["source"]["session"], []).append(r["id"])
    return planner.SearchSpace(index, {r["id"]: r for r in records}, sessions)


def features(*on: str):
    return lambda name: name in on


FILLER = [turn(f"f{i}", f"filler chat {word} about the weather", session=f"x{i}")
          for i, word in enumerate("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu".split())]


@pytest.mark.parametrize("text, words", [
    ("I went to a support group yesterday", "7 May 2023 Sunday"),
    ("the day before yesterday", "6 May 2023 Saturday"),
    ("We hiked last Saturday", "6 May 2023 Saturday"),
    ("last Monday", "1 May 2023 Monday"),          # said on a Monday: the one a week before
    ("next Monday", "15 May 2023 Monday"),
    ("this Friday", "12 May 2023 Friday"),
    ("two weeks ago I ran a race", "24 April 2023 Monday"),
    ("3 days ago", "5 May 2023 Friday"),
    ("a couple of days ago", "6 May 2023 Saturday"),
    ("in two weeks", "22 May 2023 Monday"),
    ("next month I start", "June 2023"),
    ("last month", "April 2023"),
    ("two months ago", "March 2023"),
    ("last year", "2022"),
    ("last weekend was fun", "6 May 2023 Saturday 7 Sunday"),
    ("this weekend", "13 May 2023 Saturday 14 Sunday"),
    ("today and this month", ""),                 # the day it was said: date_field has it already
    ("a few days ago", ""),                       # no count: no day
])
def test_relative_date_words_resolve_against_when_it_was_said(text, words):
    assert relative_date_words(text, SAID) == words


def test_relative_date_words_cross_the_year_and_ignore_a_missing_date():
    assert relative_date_words("last month", "2024-01-10T00:00:00Z") == "December 2023"
    assert relative_date_words("yesterday", None) == ""


def test_relative_dates_find_a_turn_by_the_day_it_names(tmp_path):
    # "last month" said in July is June; a turn said in June about camping is the distractor
    records = FILLER + [
        turn("named", "We went camping last month, the kids loved it", date="2023-07-20T10:00:00Z", session="a"),
        turn("said", "camping is fun, I love camping with the kids", date="2023-08-02T10:00:00Z", session="b")]
    question = "When did Ann go camping in June?"
    on = [c.record_id for c in planner.plan(space_of(records, tmp_path / "on", relative_dates=True), question,
                                            SETTINGS, features()).candidates]
    off = [c.record_id for c in planner.plan(space_of(records, tmp_path / "off"), question, SETTINGS,
                                             features()).candidates]
    assert on[0] == "named"
    assert off[0] == "said"


def test_question_dates_search_the_day_a_question_names_relative_to_when_it_is_asked(tmp_path):
    records = FILLER + [
        turn("then", "I buy for the kitchen", date="2023-03-15T11:00:00Z", session="a"),
        turn("other", "I buy kitchen things, kitchen stuff", date="2023-02-01T11:00:00Z", session="b"),
        turn("same_day", "weather chat", date="2023-03-15T09:00:00Z", session="c")]
    space = space_of(records, tmp_path)
    question = "What did I buy for the kitchen 10 days ago?"  # asked on 25 March: 15 March
    assert planner.question_date_terms(question, "2023-03-25T18:00:00Z") == ["15", "march", "2023", "wednesday"]
    on = planner.plan(space, question, SETTINGS, features("question_dates"), as_of="2023-03-25T18:00:00Z")
    off = planner.plan(space, question, SETTINGS, features(), as_of="2023-03-25T18:00:00Z")
    assert [c.record_id for c in on.candidates][0] == "then"
    assert [c.record_id for c in off.candidates][0] == "other"
    assert any(step.get("kind") == "dates" for step in on.steps)


def _subjects(tmp_path, question: str, *on: str):
    space = space_of(FILLER, tmp_path)
    return planner.subject_terms(space, question, "amelie", persons_only="person_possessors" in on)


def test_person_possessors_drop_possessives_that_name_a_thing(tmp_path):
    assert _subjects(tmp_path, "Which airline did I fly with on Valentine's day?") == (["valentin"], [])
    assert _subjects(tmp_path, "Which airline did I fly with on Valentine's day?", "person_possessors") == ([], [])
    assert _subjects(tmp_path, "When did I submit my master's thesis?", "person_possessors") == ([], [])
    # a person's possessive still makes a subject
    assert _subjects(tmp_path, "What is the name of Carla's sister's dog?", "person_possessors") == (["carla", "sister"], [])
    assert _subjects(tmp_path, "Which park is my dog's favourite?", "person_possessors") == (["dog"], [])


def test_person_possessors_make_listed_relations_alternatives(tmp_path):
    records = FILLER + [turn("brother", "I spent 80 dollars on a gift for my brother, a watch", kind="fact", speaker=None)]
    space = space_of(records, tmp_path)
    question = "How much did I spend on gifts for my coworker and brother?"
    with_rule = planner.support(space, question, SETTINGS, features("subject_attribution", "person_possessors"))
    without = planner.support(space, question, SETTINGS, features("subject_attribution"))
    assert with_rule("brother") > 0.2
    assert without("brother") == 0.0
