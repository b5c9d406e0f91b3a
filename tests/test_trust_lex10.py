"""Issue 13, session 10 (lex10, trust-dev22): the asked thing must be there.

What a question asks (a kind of value, a head thing, an attribute) must be held by the answering
record as that kind; the lexicon's data (``classes.json`` "kinds": units by kind, breeds by animal)
says what counts. Each test measures support with the shipped policy and with its key off, so that it
fails for the bug it names; the twins on the same store keep their answer.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from helpers import gold_case_with

from memory.retrieval import lexicon
from test_planner_features import space_of
from test_trust import fact
from test_trust_outside import support


def test_a_distance_in_a_unit_of_the_lexicon_answers_how_far(tmp_path):
    space = space_of([fact("sail", "We sailed 1,100 nautical miles round Ireland last summer.", key="user.sailing"),
                      fact("club", "The sailing club bar in Howth does a great chowder.", key="user.club"),
                      fact("laps", "I jog six laps of the park at lunchtime.", key="user.jog")], tmp_path)
    got = support(space, "How far did we sail round Ireland?")
    assert got["sail"] > 0.2 and got["club"] == 0.0
    assert support(space, "How far did we sail round Ireland?", off="kind_members")["sail"] == 0.0
    assert support(space, "How far do I jog at lunchtime?")["laps"] > 0.2   # the twin: laps were read before


def test_a_dose_is_a_count_in_a_unit_of_dosing(tmp_path):
    space = space_of([fact("met", "I take 500 mg metformin twice a day with meals.", key="user.metformin"),
                      fact("nurse", "The metformin made me queasy at first.", key="user.nurse")], tmp_path)
    got = support(space, "What dose of metformin am I on?")
    assert got["met"] > 0.2 and got["nurse"] < got["met"]
    assert support(space, "What dose of metformin am I on?", off="kind_members")["met"] < got["met"]


def test_a_pet_named_by_its_breed_is_that_animal(tmp_path):
    space = space_of([fact("cat", "Our Maine Coon is called Strudel.", key="user.pet"),
                      fact("kids", "The neighbour's kids are called Mia and Ben.", key="neighbour.kids")], tmp_path)
    got = support(space, "What is my cat called?")
    assert got["cat"] > 0.2 and got["kids"] == 0.0
    assert support(space, "What is my cat called?", off="kind_members")["cat"] == 0.0


def test_a_unit_or_member_in_a_negated_clause_holds_nothing():
    assert lexicon.held_kinds(("distance",), "I never rowed 5 miles in my life.", frozenset()) == frozenset()
    assert lexicon.held_kinds(("distance",), "Did the last lap in the rain.", frozenset()) == frozenset()
    stated = lexicon.positive_terms("We don't have a whippet any more.")
    assert lexicon.held_kinds(("dog",), "We don't have a whippet any more.", stated) == frozenset()


CASES = {c["case_id"]: c for c in map(json.loads, (Path(__file__).resolve().parent.parent / "benchmarks" / "gold"
                                                   / "trust-dev22.jsonl").read_text().splitlines())}


def test_the_case_file_is_what_the_generator_writes():
    written = subprocess.run([sys.executable, str(Path(__file__).resolve().parent.parent / "benchmarks" / "gold"
                                                  / "trust_dev22_cases.py")],
                             capture_output=True, text=True, check=True).stdout
    assert [json.loads(line) for line in written.splitlines()] == list(CASES.values())


def test_a_question_typed_wrong_answers_as_typed_right():
    outcome = gold_case_with(CASES["gold_trust_2219"])   # "wheres my brothr live"
    assert outcome.knowledge_state == "VERIFIED" and outcome.ranked[:1] == ["tx-brother"]
    assert gold_case_with(CASES["gold_trust_2219"], off="typo_terms").knowledge_state == "UNKNOWN"


def test_a_typed_wrong_word_is_read_as_the_scope_word_one_edit_away(tmp_path):
    from memory.planner import typo_read
    space = space_of([fact("bro", "My brother lives in Inverness with his wife.", key="brother.city"),
                      fact("doc", "My doctor is called Dr Fraser.", key="user.doctor")], tmp_path)
    assert typo_read(space, "wheres my brothr live")[0] == "where's my brother live"
    assert typo_read(space, "waht is my docter called")[0] == "what is my doctor called"
    got = support(space, typo_read(space, "wheres my brothr live")[0])
    assert got["bro"] > 0.2
    # a real word the scope never saw has no seen neighbour: it keeps its weight as unseen
    assert typo_read(space, "When does my visa expire?") is None
    # a name is never read as a typo, nor a question word that is one
    assert typo_read(space, "Where does Brothe live?") is None


def test_a_head_the_scope_never_saw_needs_a_value_of_its_kind(tmp_path):
    space = space_of([fact("flight", "Flying to Lisbon on the 3rd of May for my cousin's wedding.", key="user.trip"),
                      fact("klm", "I'm flying KLM to Oslo in June.", key="user.oslo"),
                      fact("service", "Bike's in the shop for a service this week.", key="user.bike_service"),
                      fact("giant", "My bike is a Giant Talon, bought second-hand.", key="user.bike")], tmp_path)
    got = support(space, "Which airline am I flying to Lisbon with?")
    assert got["flight"] == 0.0
    assert support(space, "Which airline am I flying to Lisbon with?", off="unseen_heads")["flight"] > 0.2
    assert support(space, "Which airline am I flying to Oslo with?")["klm"] > 0.2   # the twin names one
    got = support(space, "What make is my bike?")
    assert got["service"] == 0.0 and got["giant"] > 0.2
    assert support(space, "What make is my bike?", off="unseen_heads")["service"] > 0.2


def test_the_head_of_two_words_is_the_last(tmp_path):
    """``unseen_heads`` read one word after what/which: "Which ferry operator am I sailing with to
    Bergen?" (the head "operator", never seen) was not read and "Sailing to Bergen on Tuesday"
    answered it. The head of two words is the last (lead, session 10; dev22's held-back 2244 showed it)."""
    space = space_of([fact("sail", "Sailing to Bergen on Tuesday with the kids.", key="user.trip"),
                      fact("line", "We're sailing with Fjord Line this time.", key="user.ferry")], tmp_path)
    got = support(space, "Which ferry operator am I sailing with to Bergen?")
    assert got["sail"] == 0.0 and got["line"] > 0.2


def test_walking_the_dog_before_work_is_no_way_of_getting_to_work(tmp_path):
    space = space_of([fact("walk", "I walk the dog round the park before work.", key="user.dog_walk"),
                      fact("job", "I'm a pharmacist at the Boots on Deansgate.", key="user.job")], tmp_path)
    assert support(space, "How do I get to work?")["walk"] == 0.0
    assert support(space, "How do I get to work?", off="errand_means")["walk"] > 0.2
    # the twins: a vehicle as the object, or no object, is a means
    twin = space_of([fact("bike", "I ride my bike to work along the canal.", key="user.commute")], tmp_path / "b")
    assert support(twin, "How do I get to work?")["bike"] > 0.2
    assert lexicon.without_errands("I walk to work.") == "I walk to work."


def _said(ref: str, text: str, key: str) -> dict:
    """A fact the user stated (no conversation turn: the thesaurus reads a turn in its own words)."""
    record = fact(ref, text, key=key)
    record["source"] = {"type": "explicit_user", "ref": ref, "session": None, "speaker": None}
    return record


def test_what_i_pay_a_month_for_the_flat_is_the_rent(tmp_path):
    space = space_of([_said("rent", "I pay 720 pounds a month for the flat in Leith.", "user.flat"),
                      _said("phone", "I pay 30 pounds a month for my phone.", "user.phone")], tmp_path)
    got = support(space, "How much is my rent?")
    assert got["rent"] > 0.2 and got["phone"] == 0.0
    assert support(space, "How much is my rent?", off="thing_phrases")["rent"] == 0.0


DEV19 = {c["case_id"]: c for c in map(json.loads, (Path(__file__).resolve().parent.parent / "benchmarks" / "gold"
                                                   / "trust-dev19.jsonl").read_text().splitlines())}


def test_a_word_the_scope_holds_in_other_words_is_no_unseen_modifier():
    outcome = gold_case_with(DEV19["gold_trust_1940"])   # "What's my quickest marathon?" / "My marathon PB ..."
    assert outcome.knowledge_state == "VERIFIED" and outcome.ranked[:1] == ["tx-pr"]
    assert gold_case_with(DEV19["gold_trust_1940"], off="synonyms_known").knowledge_state == "UNKNOWN"



def test_a_breed_asked_is_held_by_a_member_of_its_animal(tmp_path):
    """``unseen_heads`` with ``kind_members``: "What breed is Biscuit?" in a scope that never says
    "breed" needs a member of its kind: the breed kind takes the dog, cat and horse kinds' members
    ('@dog'). Without it "We have a whippet called Biscuit" stated no breed and the question, right
    on main, abstained (both session-10 held-out stores showed it: that question is tuned on)."""
    space = space_of([fact("dog", "We have a whippet called Biscuit.", key="user.dog"),
                      fact("walk", "Biscuit loves the beach at Formby.", key="dog.walks")], tmp_path)
    got = support(space, "What breed is Biscuit?")
    assert got["dog"] > 0.2 and got["walk"] == 0.0
    assert frozenset({"whippet"}) in lexicon.kind_members("breed")
