"""Issue 13 class 3, session 8 (time): a dated or period question is answered by what was true THEN.

Each test runs cases of benchmarks/gold/trust-dev14.jsonl through the whole query path, once with
the shipped policy and once with one mechanism off: with it off the case fails the way the outside
testers' stores did (a switch told in March answering for January, an event told months before
answering "last Sunday", "What did I do last weekend?" UNKNOWN, a shift change answering "on
Sunday mornings", the standing city cited before the flat held then), so each test fails for the
bug it names. Twins on the same stores must still pass with the mechanism on. The calendar readings
themselves (``memory.retrieval.temporal``) are tested as pure functions at the end.
"""
from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from memory.benchmark import gold
from memory.retrieval import temporal
from helpers import gold_case_with

CASES = {c["case_id"]: c for c in map(json.loads, (Path(__file__).resolve().parent.parent / "benchmarks" / "gold"
                                                   / "trust-dev14.jsonl").read_text(encoding="utf-8").splitlines())}


def run(case_id: str, off: str = "") -> gold.Outcome:
    return gold_case_with(CASES[case_id], off)


def passes(case_id: str, off: str = "") -> bool:
    return not gold.score_case(run(case_id, off), 5).why


def test_the_case_file_is_what_the_generator_writes():
    import subprocess
    import sys
    script = Path(__file__).resolve().parent.parent / "benchmarks" / "gold" / "trust_dev14_cases.py"
    written = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True).stdout
    assert [json.loads(line) for line in written.splitlines()] == list(CASES.values())


# -- named_months: "last January", "in February" (no year) are periods, judged then -----------------

@pytest.mark.parametrize("case_id", ["gold_trust_1411", "gold_trust_1414", "gold_trust_1415", "gold_trust_1431"])
def test_a_month_without_a_year_is_the_period_asked(case_id):
    assert passes(case_id)
    assert not passes(case_id, off="named_months")


def test_the_shift_held_last_december_is_the_replaced_link():
    outcome = run("gold_trust_1414")   # "What shift was I working last December?" asked in April
    assert outcome.knowledge_state == "VERIFIED_HISTORICAL" and outcome.ranked[:1] == ["tx-night"]
    assert run("gold_trust_1414", off="named_months").ranked[:1] == ["tx-early"]


# -- change_starts: a change TO a value told at t does not answer for before t ----------------------

def test_i_started_told_in_2025_does_not_answer_for_2024():
    assert passes("gold_trust_1418")   # "Where did I work as a data analyst in 2024?"
    assert "tx-started" in run("gold_trust_1418", off="change_starts").ranked


def test_i_switched_to_days_in_march_is_not_cited_for_january_2025():
    assert "tx-switch" not in run("gold_trust_1412").ranked   # "… in January 2025?", asked in April
    assert "tx-switch" in run("gold_trust_1412", off="change_starts").ranked


def test_the_change_still_answers_now_and_the_move_itself():
    for case_id in ("gold_trust_1413", "gold_trust_1419", "gold_trust_1432"):
        assert passes(case_id), case_id


# -- dated_records: a record's own time places it; an event told outside the period does not answer -

@pytest.mark.parametrize("case_id", ["gold_trust_1420", "gold_trust_1423", "gold_trust_1424"])
def test_an_event_dated_outside_the_period_does_not_answer(case_id):
    assert passes(case_id)
    assert not passes(case_id, off="dated_records")


def test_on_saturday_told_on_monday_is_last_weekend():
    assert passes("gold_trust_1430")   # "Where did I ride the motorbike last weekend?" asked Tuesday
    assert run("gold_trust_1430", off="dated_records").knowledge_state == "UNKNOWN"


def test_the_catch_and_the_date_still_answer_without_a_period():
    for case_id in ("gold_trust_1422", "gold_trust_1425", "gold_trust_1427", "gold_trust_1440"):
        assert passes(case_id), case_id


# -- period_activity: "What did I do last weekend?" is answered by what I told of then ---------------

@pytest.mark.parametrize("case_id", ["gold_trust_1426", "gold_trust_1429"])
def test_what_did_i_do_last_weekend_is_answered_by_my_turn_of_then(case_id):
    assert passes(case_id)
    assert run(case_id, off="period_activity").knowledge_state == "UNKNOWN"


# -- recurring_times: a recurring time asked must be stated by the record ---------------------------

@pytest.mark.parametrize("case_id", ["gold_trust_1433", "gold_trust_1435", "gold_trust_1438"])
def test_a_recurring_time_not_stated_does_not_answer(case_id):
    assert passes(case_id)
    assert run(case_id, off="recurring_times").knowledge_state == "VERIFIED"


def test_a_recurring_time_stated_still_answers():
    for case_id in ("gold_trust_1434", "gold_trust_1436", "gold_trust_1437", "gold_trust_1439", "gold_trust_1441"):
        assert passes(case_id), case_id


# -- then_links_first: the link valid then is cited before the standing fact -------------------------

@pytest.mark.parametrize("case_id,link,standing", [("gold_trust_1401", "tx-flat", "tx-city"),
                                                    ("gold_trust_1402", "tx-flat", "tx-city"),
                                                    ("gold_trust_1407", "tx-namba", "tx-osaka")])
def test_the_link_held_then_is_cited_before_the_standing_city(case_id, link, standing):
    outcome = run(case_id)
    assert outcome.knowledge_state == "VERIFIED_HISTORICAL" and outcome.ranked[:1] == [link]
    assert run(case_id, off="then_links_first").ranked[:1] == [standing]


def test_today_the_city_is_cited_first():
    for case_id in ("gold_trust_1405", "gold_trust_1409"):
        outcome = run(case_id)
        assert outcome.knowledge_state == "VERIFIED" and outcome.ranked[:1] == [CASES[case_id]["expect"]["expected"][0]]


# -- the calendar readings ---------------------------------------------------------------------------

APRIL = dt.date(2025, 4, 10)


def test_named_months_reads_the_last_such_month_and_leaves_the_ambiguous_ones():
    assert temporal.named_months("What shift was I working last January?", APRIL) == \
        [(dt.date(2025, 1, 1), dt.date(2025, 1, 31))]
    assert temporal.named_months("What did I work in December?", APRIL) == [(dt.date(2024, 12, 1), dt.date(2024, 12, 31))]
    assert temporal.named_months("Where am I travelling in June?", APRIL) == []      # to come, present tense
    assert temporal.named_months("What will I do in March?", APRIL) == []            # the future
    assert temporal.named_months("What did I buy last April?", APRIL) == []          # this April or a year ago?
    assert temporal.named_months("Who did I meet in March 2021?", APRIL) == []       # an instant: question_time's
    assert temporal.named_months("What did May say?", APRIL) == []


def test_stated_days_resolve_against_when_the_record_was_told():
    monday, sunday = dt.date(2025, 6, 2), dt.date(2025, 6, 1)
    assert temporal.stated_days("Rode up to Braga on Saturday.", monday) == [(dt.date(2025, 5, 31),) * 2]
    assert temporal.stated_days("We'll ride to Braga on Saturday.", monday) == [(dt.date(2025, 6, 7),) * 2]
    assert temporal.stated_days("Finished moving house this weekend.", sunday) == \
        [(dt.date(2025, 5, 31), dt.date(2025, 6, 1))]
    assert temporal.stated_days("On 12 April I landed a carp.", dt.date(2025, 4, 14)) == [(dt.date(2025, 4, 12),) * 2]
    assert temporal.stated_days("My biggest catch was a carp in 2019.", monday) == \
        [(dt.date(2019, 1, 1), dt.date(2019, 12, 31))]
    assert temporal.stated_days("Theo has been vegan since January 2024.", monday) == []   # a bound, no event


def test_recurring_days_and_changes():
    assert temporal.recurring_days("What do I do on Sunday mornings?") == {"sunday"}
    assert temporal.recurring_days("Where do I go every Thursday?") == {"thursday"}
    assert temporal.recurring_days("Is Ahmed available on Friday morning?") == frozenset()   # one Friday
    assert temporal.recurring_days("What did I do last Sunday?") == frozenset()
    assert temporal.recurring_days("When was the Turbocharged Tuesdays race?") == frozenset()   # a name
    assert temporal.states_change("I switched to the day shift on Monday.")
    assert temporal.states_change("I started as a data analyst at Nordbank.")
    assert not temporal.states_change("I switched from nights to the day shift.")   # states the value before
    assert not temporal.states_change("I work the night shift at the bakery.")
