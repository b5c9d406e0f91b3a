"""Issue 13, session 10 (lex10, trust-dev22): the asked thing must be there.

What a question asks (a kind of value, a head thing, an attribute) must be held by the answering
record as that kind; the lexicon's data (``classes.json`` "kinds": units by kind, breeds by animal)
says what counts. Each test measures support with the shipped policy and with its key off, so that it
fails for the bug it names; the twins on the same store keep their answer.
"""
from __future__ import annotations

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
