"""Issue 13, session 10 (past10): then, not now.

Each test runs cases of benchmarks/gold/trust-dev20.jsonl (and gold_trust_1726 of trust-dev17) through
the whole query path with the shipped policy and with one mechanism off: off, the case fails the way
a new person's store did ("before I got fitter" answered with today's value, a blood result recorded
last week answering "What did I get up to last week?", a turn complaining about the ferry's price
answering "Do I still go to Mallorca?", an age answering "How far did I swim last year?"). Twins on
the same stores must still pass. The readings themselves are tested as pure functions at the end.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from memory import decision, planner
from memory.benchmark import gold
from helpers import gold_case_with
from memory.store import Store

GOLD = Path(__file__).resolve().parent.parent / "benchmarks" / "gold"
CASES = {c["case_id"]: c for name in ("trust-dev20.jsonl", "trust-dev17.jsonl")
         for c in map(json.loads, (GOLD / name).read_text(encoding="utf-8").splitlines())}


def passes(case_id: str, off: str = "") -> bool:
    return not gold.score_case(gold_case_with(CASES[case_id], off), 5).why


def test_the_case_file_is_what_the_generator_writes():
    written = subprocess.run([sys.executable, str(GOLD / "trust_dev20_cases.py")], capture_output=True, text=True,
                             check=True).stdout
    assert [json.loads(line) for line in written.splitlines()] == \
        [c for c in CASES.values() if c["case_id"].startswith("gold_trust_20")]


# -- before_events: "before <event>" asks the link before the current one ---------------------------

@pytest.mark.parametrize("case_id", ["gold_trust_2001", "gold_trust_2021"])
def test_a_value_before_an_event_is_the_replaced_link(case_id):
    assert passes(case_id)
    assert not passes(case_id, off="before_events")


@pytest.mark.parametrize("case_id", ["gold_trust_2003", "gold_trust_2012", "gold_trust_2020", "gold_trust_2029"])
def test_todays_value_and_a_change_verb_still_answer(case_id):
    assert passes(case_id)


# -- period_doings: what I did in a period, not what was recorded then ------------------------------

@pytest.mark.parametrize("case_id", ["gold_trust_2004", "gold_trust_2013", "gold_trust_2023"])
def test_what_i_did_in_a_period_is_my_turn_told_then(case_id):
    assert passes(case_id)
    assert not passes(case_id, off="period_doings")


# -- light_acts: a habit asked with still/ever needs the going stated -------------------------------

@pytest.mark.parametrize("case_id", ["gold_trust_1726", "gold_trust_2015", "gold_trust_2026"])
def test_a_place_only_named_is_no_habit_of_going(case_id):
    assert passes(case_id)
    assert not passes(case_id, off="light_acts")


@pytest.mark.parametrize("case_id", ["gold_trust_2017", "gold_trust_2027", "gold_trust_1728", "gold_trust_2008"])
def test_a_stated_habit_still_answers(case_id):
    assert passes(case_id)


def test_light_act_readings():
    asked = planner.asked_light_act("Do I still go to Mallorca?")
    assert asked == ("go", frozenset({"mallorca"}))
    assert planner.asked_light_act("Do I go to Mallorca?") is None       # no aspect word: not read
    assert planner.asked_light_act("Am I still driving a Fiat?") is None  # no light verb: aspect_words' test
    assert not planner.states_light_act("I still can't believe what the ferry to Mallorca costs.", asked)
    assert not planner.states_light_act("My trip to Mallorca was great.", asked)
    assert planner.states_light_act("We went to Mallorca in May.", asked)
    assert planner.states_light_act("I fly to Mallorca every June.", asked)
    assert planner.states_light_act("We visited Mallorca last year.", asked)


# -- stated_years: the record stating the year asked answers, the rest are context ------------------

def test_the_record_stating_the_year_answers():
    assert passes("gold_trust_2006")
    assert not passes("gold_trust_2006", off="stated_years")


@pytest.mark.parametrize("case_id", ["gold_trust_2024", "gold_trust_2009"])
def test_a_year_stated_in_the_question_keeps_other_answers(case_id):
    assert passes(case_id)


# -- a word count does not glue to a unit: "I am 29" states no distance ------------------------------

def test_an_age_states_no_distance():
    assert not planner.states_value("distance", "I am 29 years old.")
    assert planner.states_value("distance", "I ran 5km along the river.")
    assert planner.states_value("distance", "The pool is a mile away.")
    assert passes("gold_trust_2018") and passes("gold_trust_2028")


def test_event_words():
    assert decision.event_words("What was my FTP before I got fitter?") == frozenset({"got", "fitter"})
    assert decision.event_words("What is my salary before tax?") is None         # present, one bare word
    assert decision.event_words("What was my salary before tax?") is None        # a bare word
    assert decision.event_words("Where did I live before 2020?") is None         # a date
    assert decision.event_words("Where did I live before I moved?") is None      # a change verb: closing rule


# -- missing_without_time: the words that say when are never what is missing ------------------------

def test_an_unknowns_missing_words_leave_out_the_period():
    case = dict(CASES["gold_trust_2018"])

    def missing(off: str = "") -> str:
        answers = []
        query_fn = gold._default_query_fn()

        def recording(store, request):
            answer = query_fn(store, request)
            answers.append(answer)
            return answer
        from memory.policy import load_policies
        policies = load_policies()
        for key in filter(None, off.split(",")):
            policies.retrieval.data["features"][key] = False
        gold.run_case(case, query_fn=recording,
                      store_factory=lambda root, clock: Store.create(root, clock=clock, policies=policies))
        return " ".join(answers[0]["missing_conditions"])
    assert missing().endswith("covers: far, swim")
    assert "last" in missing(off="missing_without_time")
