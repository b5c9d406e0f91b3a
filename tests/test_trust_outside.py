"""Issue 13, an outside tester's wrong VERIFIED answers on a personal store (session 5).

Each mechanism's test measures support with the shipped policy's flags and settings, once as
shipped and once with that one mechanism off: the wrong record supports (or the right one does
not) with it off, so each test fails for the bug it names. The positive twins on the same store
must still answer. The shapes are those of benchmarks/gold/trust-dev5.jsonl.
"""
from __future__ import annotations

import json

from helpers import add_env
from memory import planner
from memory.paths import PROJECT_ROOT
from memory.query import QueryRequest, run_query
from memory.retrieval.tokenize import tokenize
from test_planner_features import space_of
from test_trust import fact

SHIPPED = json.loads((PROJECT_ROOT / "config" / "retrieval-policy.json").read_text())
SETTINGS = SHIPPED["planner"]
ON = frozenset(name for name, value in SHIPPED["features"].items() if value)


def support(space, question: str, *, off: str = "", caller: str = "u", **settings) -> dict[str, float]:
    features = (lambda name: name in ON and name not in off.split(","))   # off: comma-separated
    measure = planner.support(space, question, dict(SETTINGS, **settings), features, caller)
    return {rid: round(measure(rid), 3) for rid in space.records}


def ask(store, question: str, user: str = "u") -> dict:
    return run_query(store, QueryRequest(text=question, user=user))


# -- negated_openings: a record opening with another person's name, then a negation ----------------

def test_another_persons_doesnt_fact_does_not_answer_the_caller(tmp_path):
    space = space_of([fact("tom", "Tom doesn't eat meat."), fact("me", "I run every morning.")], tmp_path)
    assert support(space, "Do I eat meat?")["tom"] == 0.0
    assert support(space, "Do I eat meat?", off="negated_openings")["tom"] > 0.0
    assert support(space, "Does Tom eat meat?")["tom"] > 0.2   # the twin: asked by his name


def test_another_persons_negative_does_not_bound_the_caller(tmp_path):
    space = space_of([fact("ana", "Ana doesn't eat meat.", kind="negative"),
                      fact("marta", "Marta never drinks coffee.", kind="negative"),
                      fact("leo", "Leo does not smoke.")], tmp_path)
    for question, rid in (("Do I eat meat?", "ana"), ("Do I drink coffee?", "marta")):
        assert support(space, question)[rid] == 0.0, question
        assert support(space, question, off="negated_openings")[rid] > 0.0, question
    assert support(space, "Do I smoke?")["leo"] == 0.0   # "does not": the verb right after the name
    assert support(space, "Does Marta drink coffee?")["marta"] > 0.2


def test_the_callers_own_negative_still_answers(store):
    store.mutate(add_env("Marta never drinks coffee.", "user.colleague.coffee", "tx1", user="u", kind="negative"))
    store.mutate(add_env("I don't drink milk.", "user.milk", "tx2", user="u", kind="negative"))
    assert ask(store, "Do I drink coffee?")["knowledge_state"] == "UNKNOWN"
    assert ask(store, "Do I drink milk?")["knowledge_state"] == "VERIFIED_NEGATIVE"
    assert ask(store, "Does Marta drink coffee?")["knowledge_state"] == "VERIFIED_NEGATIVE"


# -- owner_attributes: "my name" is not the dog's name -------------------------------------------

def test_my_name_is_not_my_dogs_name(tmp_path):
    """Each store as the tester had it: one record, its key holding the attribute word."""
    for n, (rid, text, key, question, twin) in enumerate((
            ("dog", "My dog is called Biscuit.", "user.dog_name", "What's my name?", "What's my dog called?"),
            ("cat", "My cat's name is Pixel.", "user.cat_name", "What is my name?", "What is my cat's name?"),
            ("car", "My car is dark blue in colour.", "user.car_colour", "What's my favourite colour?",
             "What colour is my car?"))):
        space = space_of([fact(rid, text, key=key)], tmp_path / str(n))
        assert support(space, question)[rid] == 0.0, question
        if rid != "car":   # "favourite", a key the scope never saw, already keeps the car out
            assert support(space, question, off="owner_attributes,name_subjects")[rid] > 0.0, question
        # the twin: the attribute of the thing the owner has still answers
        assert support(space, twin)[rid] > 0.2, twin


def test_the_owners_own_name_still_answers(tmp_path):
    space = space_of([fact("dog", "My dog is called Biscuit."), fact("me", "My name is Rui Costa.")], tmp_path)
    measured = support(space, "What's my name?")
    assert measured["me"] > 0.2 and measured["dog"] == 0.0


def test_owner_attribute_questions_are_told_from_owned_ones():
    assert planner._asks_owner_attribute("What's my name?")
    assert planner._asks_owner_attribute("What's my favourite colour?")
    assert not planner._asks_owner_attribute("What's my dog's name?")
    assert not planner._asks_owner_attribute("What colour is my car?")
    assert not planner._asks_owner_attribute("What is the name of my boat?")


# -- subject_only_abstains: a record sharing only the subject does not say what it does ------------

def test_what_does_my_wife_do_is_not_her_birthday(tmp_path):
    space = space_of([fact("wife", "My wife Maria's birthday is on 14 July."),
                      fact("mother", "My mother is called Helena."),
                      fact("bro", "My brother Luca lives in Turin.")], tmp_path)
    for question, rid in (("What does my wife do?", "wife"), ("What does my mother do?", "mother"),
                          ("What does my brother do?", "bro")):
        assert support(space, question)[rid] == 0.0, question
        # (``occupation_reading`` reads the question as asking her work, which no record states)
        assert support(space, question, off="subject_only_abstains,occupation_reading")[rid] > 0.0, question
    assert support(space, "When is my wife's birthday?")["wife"] > 0.2
    assert support(space, "What is my mother called?")["mother"] > 0.2
    assert support(space, "Where does my brother live?")["bro"] > 0.2
    assert support(space, "Who is my brother?")["bro"] > 0.2   # asks for the subject itself


# -- planner.indefinite_weight: "anything" names nothing a record must hold -------------------------

def test_allergic_to_anything_is_answered_by_the_allergy(tmp_path):
    space = space_of([fact("dad", "My father, Rui, is allergic to penicillin."),
                      fact("fear", "I am afraid of spiders.")], tmp_path)
    shipped = support(space, "Is my dad allergic to anything?")["dad"]
    counted = support(space, "Is my dad allergic to anything?", indefinite_weight=1)["dad"]
    assert shipped > counted and shipped >= SHIPPED["decision"]["support_coverage"]
    assert support(space, "Am I afraid of anything?")["fear"] > \
        support(space, "Am I afraid of anything?", indefinite_weight=1)["fear"]
    # the twin: the mother's allergy is not stored
    assert support(space, "Is my mother allergic to anything?")["dad"] == 0.0


def test_indefinites_are_no_key_terms():
    terms = planner._coverage_terms("Is my dad allergic to anything?", "", {"unseen_key_weight": 4,
                                                                           "indefinite_weight": 0})
    anything = tokenize("anything")[0]
    assert anything not in terms[0] and anything not in terms[3]
    counted = planner._coverage_terms("Is my dad allergic to anything?", "", {"unseen_key_weight": 4})
    assert anything in counted[0] and anything in counted[3]


def test_the_outside_testers_store_end_to_end(store):
    store.mutate(add_env("My father, Rui, is allergic to penicillin.", "user.father.allergy", "tx1", user="u"))
    store.mutate(add_env("My dog is called Biscuit.", "user.dog_name", "tx2", user="u"))
    store.mutate(add_env("Tom doesn't eat meat.", "brother.diet", "tx3", user="u"))
    assert ask(store, "Is my dad allergic to anything?")["knowledge_state"] == "VERIFIED"
    assert ask(store, "What's my name?")["knowledge_state"] == "UNKNOWN"
    assert ask(store, "What's my dog called?")["knowledge_state"] == "VERIFIED"
    assert ask(store, "Do I eat meat?")["knowledge_state"] == "UNKNOWN"
