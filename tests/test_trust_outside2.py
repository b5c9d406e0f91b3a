"""Issue 13, outside testers' wrong answers on personal and agent stores (session 6, trust-dev7).

Each mechanism's test measures it as shipped and with that one mechanism off: the wrong record
answers (or the right one does not) with it off, so each test fails for the bug it names.
Positive twins on the same store must still answer. The shapes are those of
benchmarks/gold/trust-dev7.jsonl.
"""
from __future__ import annotations

import pytest

from memory import planner
from memory.decision import Match, decide
from memory.policy import ForgettingPolicy, load_policy
from test_planner_features import space_of, turn
from test_trust import fact
from test_trust_outside import ON, SETTINGS, support

NOW = "2024-06-10T09:00:00Z"
FORGETTING = ForgettingPolicy(load_policy("forgetting"))


def said(ref: str, text: str, speaker: str = "lena", date: str = "2024-06-01T09:00:00Z") -> dict:
    return turn(ref, speaker, text, session="session_1", date=date)


# -- place_answers: a "where" question needs a record stating a place --------------------------------

def test_a_record_sharing_the_thing_but_no_place_does_not_say_where(tmp_path):
    space = space_of([fact("cat", "My cat Luna hates the new apartment."),
                      fact("office", "My new office has a great coffee machine."),
                      fact("job", "I work at the hospital in Leeds.")], tmp_path)
    for question, rid in (("Where is my new apartment?", "cat"), ("Where is my new office?", "office")):
        assert support(space, question, caller="lena")[rid] == 0.0, question
        assert support(space, question, caller="lena", off="place_answers")[rid] > 0.2, question
    # the twins: the same record answers what it states, a stated place answers "where"
    assert support(space, "What does my cat hate?", caller="lena")["cat"] > 0.2
    assert support(space, "Where do I work?", caller="lena")["job"] > 0.2


def test_a_stated_place_still_answers_where(tmp_path):
    space = space_of([fact("apt", "My new apartment is on Rua Augusta in Lisbon."),
                      fact("office", "My new office is near Canary Wharf."),
                      said("trip", "We went to Greece last summer, it was lovely.")], tmp_path)
    assert support(space, "Where is my new apartment?", caller="lena")["apt"] > 0.2
    assert support(space, "Where is my new office?", caller="lena")["office"] > 0.2
    assert support(space, "Where did I go last summer?", caller="lena")["trip"] > 0.2


@pytest.mark.parametrize("statement, place", [
    ("I live in Leeds.", True), ("Choir meets in the church hall on Fridays.", True), ("I'm from Sweden.", True),
    ("She works from home.", True), ("My cat Luna hates the new apartment.", False),
    ("The wedding was lovely, we danced all night.", False)])
def test_what_states_a_place(statement, place):
    assert planner.states_place(statement) is place


# -- question_idioms: "for a living" asks for a job, not where one lives ------------------------------

def test_for_a_living_is_not_live(tmp_path):
    space = space_of([fact("nurse", "I work as a nurse at St Mary's."), fact("leeds", "I live in Leeds.")], tmp_path)
    found = support(space, "What do I do for a living?", caller="sara")
    assert found["leeds"] == 0.0 and found["nurse"] > 0.2
    old = support(space, "What do I do for a living?", caller="sara", off="question_idioms")
    assert old["leeds"] > 0.2 and old["nurse"] == 0.0
    assert support(space, "Where do I live?", caller="sara")["leeds"] > 0.2   # the twin


def test_for_a_living_searches_for_the_job(tmp_path):
    space = space_of([fact("nurse", "I work as a nurse at St Mary's."), fact("leeds", "I live in Leeds.")], tmp_path)
    on = lambda name: name in ON  # noqa: E731
    found = [c.record_id for c in planner.plan(space, "What do I do for a living?", SETTINGS, on).candidates]
    assert found and found[0] == "nurse"
    old = [c.record_id for c in planner.plan(space, "What do I do for a living?", SETTINGS,
                                              lambda name: on(name) and name != "question_idioms").candidates]
    assert old[0] == "leeds"   # the bug: "living" searched for "live"


# -- dispute_governs: a dispute about the question's slot governs over a turn --------------------------

def _match(record: dict, support_value: float) -> Match:
    return Match(record, 1.0, 1.0, 1.0, "2024-06-01T09:00:00Z", support=support_value)


def _disputed(ref: str, text: str) -> dict:
    record = fact(ref, text, key="plumber.visit")
    record.update(status="disputed", valid_time={"from": "2024-06-01T09:00:00Z", "to": None})
    return record


def _decide(matches, governs: bool):
    return decide(matches, as_of=NOW, now=NOW, policy=FORGETTING, min_coverage=0.2, scope_label="user:omar",
                  query_terms=["plumber", "come"], support_ratio=0.5, dispute_governs=governs)


def test_a_turn_does_not_answer_around_a_dispute_about_the_question():
    tuesday, thursday = _disputed("tue", "The plumber is coming on Tuesday."), _disputed("thu", "... on Thursday.")
    boiler = said("boiler", "The plumber is coming this week to fix the boiler.")
    matches = lambda: [_match(tuesday, 1.0), _match(thursday, 1.0), _match(boiler, 1.0)]  # noqa: E731
    governed = _decide(matches(), True)
    assert (governed.knowledge_state, governed.reason_code) == ("UNKNOWN", "unresolved_conflict")
    assert _decide(matches(), False).knowledge_state == "VERIFIED"   # the bug: the turn answered


def test_the_turn_still_answers_what_the_disputed_facts_do_not_state():
    tuesday, thursday = _disputed("tue", "The plumber is coming on Tuesday."), _disputed("thu", "... on Thursday.")
    boiler = said("boiler", "The plumber is coming this week to fix the boiler.")
    # "What is the plumber fixing?": the disputed facts hold the plumber, not what is fixed
    answered = _decide([_match(tuesday, 0.3), _match(thursday, 0.3), _match(boiler, 1.0)], True)
    assert answered.knowledge_state == "VERIFIED" and answered.evidence[0].record["id"] == "boiler"
    # a stated fact answering beside the dispute is not a turn answering around it
    gym = fact("gym", "The plumber's van is parked on Elm Street.", key="van")
    gym["valid_time"] = {"from": "2024-06-01T09:00:00Z", "to": None}
    assert _decide([_match(tuesday, 1.0), _match(gym, 1.0)], True).knowledge_state == "VERIFIED"
