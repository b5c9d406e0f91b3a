"""Issue 13, session 11 (when11, trust-dev23): which time answers.

The question's time — now, so far, "in <a town I used to live in>", a named period, "when I started" —
selects which link of a slot or which dated record answers; a count, a duration or a dose asked must
be held as that kind. Each test runs a case of trust-dev23 with the shipped policy and with its key
off, so that it fails for the bug it names; the twins on the same stores keep their answer.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from helpers import gold_case_with

from memory import when
from memory.retrieval import lexicon

GOLD = Path(__file__).resolve().parent.parent / "benchmarks" / "gold"
CASES = {c["case_id"]: c for c in map(json.loads, (GOLD / "trust-dev23.jsonl").read_text().splitlines())}


def test_the_case_file_is_what_the_generator_writes():
    written = subprocess.run([sys.executable, str(GOLD / "trust_dev23_cases.py")],
                             capture_output=True, text=True, check=True).stdout
    assert [json.loads(line) for line in written.splitlines()] == list(CASES.values())


def test_a_town_left_dates_the_question_by_when_the_user_lived_there():
    outcome = gold_case_with(CASES["gold_trust_2304"])   # "Who was my GP in Perth?"
    assert outcome.knowledge_state == "VERIFIED_HISTORICAL" and outcome.ranked[:1] == ["tx-gp"]
    assert "tx-gp2" not in outcome.ranked
    off = gold_case_with(CASES["gold_trust_2304"], off="place_periods")
    assert off.knowledge_state == "VERIFIED" and off.ranked[:1] == ["tx-gp2"]
    twin = gold_case_with(CASES["gold_trust_2306"])      # "Who is my GP?": today's
    assert twin.knowledge_state == "VERIFIED" and twin.ranked[:1] == ["tx-gp2"]


def test_a_name_dates_only_when_one_replaced_link_of_another_slot_holds_it():
    slots = {"user.home_city": [
        {"statement": "I live in Perth.", "valid_time": {"from": "2012-06-01T00:00:00Z", "to": "2023-11-02T09:00:00Z"}},
        {"statement": "We moved to Dundee in the autumn.", "valid_time": {"from": "2023-11-02T09:00:00Z", "to": None}}]}
    assert when.place_dated("Who was my GP in Perth?", slots) == "Who was my GP before 2023-11-02?"
    assert when.place_dated("Who is my GP in Perth?", slots) == "Who is my GP in Perth?"        # asked now
    assert when.place_dated("Who was my GP in Dundee?", slots) == "Who was my GP in Dundee?"    # today's town
    # the question about the home slot itself is ``past_values``'
    assert when.place_dated("Did I live in Perth?", slots) == "Did I live in Perth?"


def test_the_value_a_history_started_from_is_its_first_link():
    outcome = gold_case_with(CASES["gold_trust_2318"])   # "What dose of ramipril did I start on?"
    assert outcome.knowledge_state == "VERIFIED_HISTORICAL" and outcome.ranked[:1] == ["tx-ramipril"]
    assert not {"tx-ramipril2", "tx-t-tabs"} & set(outcome.ranked)
    off = gold_case_with(CASES["gold_trust_2318"], off="start_values")
    assert "tx-ramipril2" in off.ranked
    twin = gold_case_with(CASES["gold_trust_2320"])      # "What dose of ramipril am I on?"
    assert twin.knowledge_state == "VERIFIED" and twin.ranked[:1] == ["tx-ramipril2"]
    assert when.asks_start("What was my weight when I started at the gym?")
    assert when.asks_start("What was my HbA1c when I was first diagnosed?")
    assert not when.asks_start("What dose am I on?") and not when.asks_start("When did I start?")
    assert not when.asks_start("When did I start at Siemens?")   # asks a date: the link naming Siemens


def test_so_far_is_the_latest_count_of_done_things():
    outcome = gold_case_with(CASES["gold_trust_2303"])   # "How many munros have I climbed so far?"
    assert outcome.knowledge_state == "VERIFIED" and outcome.ranked == ["tx-t-munro2"]
    assert "tx-t-munro1" in gold_case_with(CASES["gold_trust_2303"], off="count_so_far").ranked
    assert when.states_done_count("Ben Lawers took my tally of munros to 94.")
    assert when.states_done_count("I've climbed 70 munros, still 212 to go!")
    assert not when.states_done_count("Only 8 left to go.")
    assert not when.states_done_count("Still twelve to go before the summer.")
    assert when.asks_count_so_far("How many books have I read this year?")
    assert not when.asks_count_so_far("How many books are on the shelf?")


def test_how_many_years_needs_a_duration():
    outcome = gold_case_with(CASES["gold_trust_2317"])   # "How many years did I work at Siemens?"
    assert outcome.knowledge_state == "VERIFIED" and outcome.ranked == ["tx-t-siemens"]
    assert "tx-siemens" in gold_case_with(CASES["gold_trust_2317"], off="asked_durations").ranked
    assert when.states_duration("Seventeen years at Siemens, then they closed the lab.")
    assert when.states_duration("I was there from 2004 to 2021.")
    assert when.states_duration("Twenty-two years on the buses.")
    assert not when.states_duration("I worked at Siemens in Erlangen.")
    # the time between two events is given by their dates, not stated as a duration (LongMemEval dev)
    assert not when.asks_duration("How many days passed between the day I replaced my spark plugs and the race?")
    assert not when.asks_duration("How many months after I moved did I start the course?")
    twin = gold_case_with(CASES["gold_trust_2321"])      # "Where did I work?" names the firm
    assert twin.knowledge_state == "VERIFIED" and twin.ranked[:1] == ["tx-siemens"]


def test_a_weekday_asked_in_the_past_is_the_last_one():
    outcome = gold_case_with(CASES["gold_trust_2312"])   # "What did Dr Claes say on Wednesday?"
    assert outcome.knowledge_state == "VERIFIED" and outcome.ranked == ["tx-t-claes"]
    assert "tx-consultant" in gold_case_with(CASES["gold_trust_2312"], off="past_weekdays").ranked
    assert when.past_weekdays("What did I get up to on Saturday?") == "What did I get up to last Saturday?"
    assert when.past_weekdays("What am I doing on Saturday?") == "What am I doing on Saturday?"


def test_number_words_and_k_count_a_distance():
    """A week's distance told in words ("two hundred and ten k", "forty-one k") is a distance: the
    lexicon's counts hold every cardinal and "k" is a unit of distance."""
    assert lexicon.states_unit("distance", "Legs are dead, did two hundred and ten k on the bike this week.")
    assert lexicon.states_unit("distance", "Did forty-one k over the hills on Sunday.")
    assert lexicon.states_unit("distance", "Ran seventeen miles.")
    outcome = gold_case_with(CASES["gold_trust_2311"])   # "How far did I cycle last week?"
    assert outcome.knowledge_state == "VERIFIED" and outcome.ranked == ["tx-t-week"]
    twin = gold_case_with(CASES["gold_trust_2313"])      # "How far do I cycle in a week?": the habit
    assert twin.knowledge_state == "VERIFIED" and twin.ranked[:1] == ["tx-cycle"]


def test_what_was_told_in_a_period_is_the_callers_turn_told_then():
    """"What did the consultant tell me last week?": the caller's turn told that week of the
    consultant by the name a stated fact gives them ("Saw Dr Claes on Wednesday ..."), not the
    standing record naming the consultant, which was not said then."""
    outcome = gold_case_with(CASES["gold_trust_2310"])
    assert outcome.knowledge_state == "VERIFIED" and outcome.ranked == ["tx-t-claes"]
    assert gold_case_with(CASES["gold_trust_2310"], off="period_news").knowledge_state == "UNKNOWN"
    assert when.asked_news_things(frozenset({"consult", "tell"})) == frozenset({"consult"})
    assert when.asked_news_things(frozenset({"consult"})) == frozenset()   # "Who was my consultant last week?"
    twin = gold_case_with(CASES["gold_trust_2314"])      # "Who is my consultant?": the standing record
    assert twin.knowledge_state == "VERIFIED" and twin.ranked[:1] == ["tx-consultant"]


def test_now_is_answered_by_the_record_ending_the_current_link():
    outcome = gold_case_with(CASES["gold_trust_2308"])   # "What's my job now?"
    assert outcome.knowledge_state == "VERIFIED" and outcome.ranked[:1] == ["tx-t-supply"]
    assert "tx-job" not in outcome.ranked
    assert gold_case_with(CASES["gold_trust_2308"], off="ended_links").ranked[:1] == ["tx-job"]
    assert when.asks_now("Am I still working for the council?") and not when.asks_now("What was my job?")


def test_what_do_i_do_asks_the_callers_work():
    outcome = gold_case_with(CASES["gold_trust_2305"])   # "What do I do these days?"
    assert outcome.knowledge_state == "VERIFIED" and outcome.ranked[:1] == ["tx-t-left"]
    assert gold_case_with(CASES["gold_trust_2305"], off="own_doings").knowledge_state == "UNKNOWN"
    assert when.own_doing("What do I do these days?") == "What do I do for work these days?"
    assert when.own_doing("What do I do?") == "What do I do for work?"
    assert when.own_doing("What do I do with old batteries?") == "What do I do with old batteries?"
    assert when.own_doing("What does my sister do?") == "What does my sister do?"


def test_a_count_of_what_is_left_is_no_count_of_what_is_done():
    """"How many stitches... have I done so far?" is not answered by "still 139 to go" alone."""
    sys.path.insert(0, str(GOLD))
    from trust_dev7_cases import fact, turn
    from trust_dev14_cases import cases
    setup = [turn("tx-t-left", "ewa", "Ewa", "I've still got 139 to go on the blanket squares.", "2025-05-02T19:00:00Z"),
             fact("tx-wool", "ewa", "The wool for the blanket squares came from a shop in Kraków.", "2025-04-01",
                  "user.wool")]
    case = next(cases([("ewa", setup, [("How many blanket squares have I knitted so far?", "UNKNOWN",
                                        "insufficient_evidence", [], ["tx-t-left"], [], None,
                                        "2025-06-02T09:00:00Z", "a count of what is left")])], 1))
    assert gold_case_with(case).knowledge_state == "UNKNOWN"
    assert "tx-t-left" in gold_case_with(case, off="count_so_far").ranked
    assert when.states_left_count_only("I've still got 139 to go.")
    assert not when.states_left_count_only("I've climbed 70 munros, still 212 to go!")
