"""Issue 13 class 3, "before X" (an outside tester's personal store, facts added with --key and a
past --from, then updated): "Where did I live before Manchester?", "Which city did I live in before
I moved?", "What did I do before Acme?" were answered VERIFIED with the current value. "before"
followed by a value a link of a slot with history holds asks as of the second before that value
began; "before I moved/changed" asks for the value before the current one; "before 2022" sets the
instant. "before work" / "before bed" name no value of a slot: no flip to the past. An UNKNOWN's
missing condition names the instant the records were judged at, not today."""
from __future__ import annotations

import pytest

from helpers import add_env, update_env
from memory.decision import question_time
from memory.query import QueryRequest, run_query

NOW = "2026-12-01T09:00:00Z"


@pytest.fixture
def tester(store):
    store.clock.set("2026-11-30T09:00:00Z")
    for env in (add_env("I live in Leeds.", "user.home_city", "tx-1", valid_from="2020-05-01T00:00:00Z"),
                update_env("I live in Manchester.", "tx-2", key="user.home_city", valid_from="2025-03-01T00:00:00Z"),
                add_env("I work as a nurse at St. Mary's hospital.", "user.job", "tx-3",
                        valid_from="2019-01-01T00:00:00Z"),
                update_env("I work as a software developer at Acme.", "tx-4", key="user.job",
                           valid_from="2024-02-01T00:00:00Z"),
                add_env("Before bed I read for half an hour.", "user.evening_routine", "tx-5")):
        assert store.mutate(env)["status"] == "applied"
    store.clock.set(NOW)
    return store


def ask(store, text: str) -> tuple[str, str | None, list[str], list[str]]:
    out = run_query(store, QueryRequest(text=text, user="alice"))
    return out["knowledge_state"], out["reason_code"], [e["statement"] for e in out["evidence"]], \
        out["missing_conditions"]


@pytest.mark.parametrize("question, answer", [
    ("Where did I live before Manchester?", "I live in Leeds."),
    ("Which city did I live in before I moved?", "I live in Leeds."),
    ("What did I do before Acme?", "I work as a nurse at St. Mary's hospital."),
    ("Where did I work before I changed jobs?", "I work as a nurse at St. Mary's hospital."),
    ("Where did I live before 2022?", "I live in Leeds."),
    ("What was my job before February 2024?", "I work as a nurse at St. Mary's hospital."),
])
def test_before_the_current_value_answers_the_one_before_it(tester, question, answer):
    state, _, evidence, _ = ask(tester, question)
    assert (state, evidence[:1]) == ("VERIFIED_HISTORICAL", [answer])
    assert "I live in Manchester." not in evidence and "I work as a software developer at Acme." not in evidence


@pytest.mark.parametrize("question, answer", [
    ("Where do I live?", "I live in Manchester."),
    ("What do I do before bed?", "Before bed I read for half an hour."),
])
def test_twins_that_name_no_value_of_a_slot_stay_current(tester, question, answer):
    state, _, evidence, _ = ask(tester, question)
    assert (state, evidence[:1]) == ("VERIFIED", [answer])


def test_before_work_names_no_single_value_and_does_not_flip_to_the_past(tester):
    """Both jobs say "work": the words name no one link, the question is not about the past."""
    state, _, evidence, _ = ask(tester, "What do I do before work?")
    assert state != "VERIFIED_HISTORICAL" and "I work as a nurse at St. Mary's hospital." not in evidence


def test_before_the_first_value_is_unknown_as_of_then_not_todays_value(tester):
    state, reason, evidence, missing = ask(tester, "Where did I live before Leeds?")
    assert (state, reason, evidence) == ("UNKNOWN", "retired_or_expired", [])
    assert "valid at 2020-04-30T23:59:59Z " in missing[0]


def test_the_missing_condition_names_the_instant_the_records_were_judged_at(tester):
    """It said "valid at 2026-12-01T09:00:00Z" (today) for a question about 2019."""
    state, reason, _, missing = ask(tester, "Where did I live in 2019?")
    assert (state, reason) == ("UNKNOWN", "retired_or_expired")
    assert "valid at 2019-12-31T23:59:59Z " in missing[0] and NOW not in missing[0]


def test_the_words_that_say_before_when_are_not_what_is_asked():
    assert question_time("Where did I live before 2022?", NOW) == ("2021-12-31T23:59:59Z", False, "Where did I live ?")
    assert question_time("What was my job before March 2024?", NOW)[0] == "2024-02-29T23:59:59Z"
    assert question_time("Where was I before 2024-02-01?", NOW)[0] == "2024-01-31T23:59:59Z"
    assert question_time("Which city did I live in before I moved?", NOW)[1:] == (True, "Which city did I live in ?")
    assert question_time("Where did Kim live before moving to Leeds?", NOW)[1]
    assert question_time("What do I do before work?", NOW) == (NOW, False, "What do I do before work?")
    assert question_time("What will I do before 2030?", NOW)[0] == NOW
    assert not question_time("What did I eat before I left for work?", NOW)[1]   # leaving is no change of value
