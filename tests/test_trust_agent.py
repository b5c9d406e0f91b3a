"""Issue 13, an agent builder's wrong answers on a personal store (session 5, trust-dev6).

Each mechanism's test measures support with the shipped policy's flags and settings, once as
shipped and once with that one mechanism off: the wrong record supports (or the right one does
not) with it off, so each test fails for the bug it names. Positive twins on the same store must
still be supported. Facts and conversation turns (I/my = the speaker). The shapes are those of
benchmarks/gold/trust-dev6.jsonl.
"""
from __future__ import annotations

from helpers import add_env
from memory.query import QueryRequest, run_query
from test_planner_features import space_of, turn
from test_trust import fact
from test_trust_outside import support


def said(ref: str, text: str, speaker: str = "alice") -> dict:
    return turn(ref, speaker, text, session="session_1")


# -- predicate_required: the thing's record does not state what is asked of the thing -------------

def test_the_dogs_record_does_not_say_what_the_dog_is_allergic_to(tmp_path):
    space = space_of([fact("dog", "Alice's dog is a beagle named Biscuit."),
                      fact("job", "Alice works as a teacher in Leeds.")], tmp_path)
    for question in ("What is my dog allergic to?", "What is my dog scared of?"):
        assert support(space, question, caller="alice")["dog"] == 0.0, question
        assert support(space, question, caller="alice", off="predicate_required")["dog"] > 0.2, question
    # the twins: what the record does state of the dog
    for question in ("What breed is my dog?", "What is my dog's name?"):
        assert support(space, question, caller="alice")["dog"] > 0.2, question


def test_how_old_asks_a_number_the_cars_record_does_not_hold(tmp_path):
    space = space_of([fact("car", "My car is a red Honda Civic."),
                      fact("van", "Our van is nine years old.")], tmp_path)
    assert support(space, "How old is my car?")["car"] == 0.0
    # age_answers (trust-dev9) also holds "how old" to a stated age: both off for the old behaviour
    assert support(space, "How old is my car?", off="predicate_required,age_answers,age_subjects")["car"] > 0.2
    assert support(space, "What colour is my car?")["car"] > 0.2
    assert support(space, "How old is our van?")["van"] > 0.2


def test_a_turn_about_the_cat_does_not_say_what_it_is_scared_of(tmp_path):
    space = space_of([said("cat", "My cat Luna is a grey tabby."),
                      said("food", "Luna is scared of the hoover.", speaker="alice")], tmp_path)
    assert support(space, "What is my cat scared of?", caller="alice")["cat"] == 0.0
    assert support(space, "What is my cat scared of?", caller="alice", off="predicate_required")["cat"] > 0.2
    assert support(space, "What colour is my cat?", caller="alice")["cat"] > 0.2


# -- owned_subjects: "I'm allergic to ..." is the owner's, not the owner's dog's ------------------

def test_a_first_person_allergy_is_not_the_dogs(tmp_path):
    for n, record in enumerate((fact("me", "I'm allergic to pollen."), said("me", "Honestly I'm allergic to pollen."))):
        space = space_of([fact("dog", "Alice's dog is a beagle named Biscuit."), record], tmp_path / str(n))
        assert support(space, "What is my dog allergic to?", caller="alice")["me"] == 0.0
        assert support(space, "What is my dog allergic to?", caller="alice", off="owned_subjects")["me"] > 0.2
        assert support(space, "What am I allergic to?", caller="alice")["me"] > 0.2   # the twin


def test_a_record_naming_the_owned_thing_still_answers(tmp_path):
    space = space_of([fact("dog", "My dog is allergic to chicken."), fact("me", "I'm allergic to pollen.")], tmp_path)
    found = support(space, "What is my dog allergic to?", caller="alice")
    assert found["dog"] > 0.2 and found["me"] == 0.0


def test_an_attribute_of_the_owner_is_no_owned_thing(tmp_path):
    """"my shoe size" is the owner's size, which a first-person record states without "shoe"."""
    space = space_of([fact("me", "I'm a size 46, wide fit."), fact("run", "My running shoes are worn out.")], tmp_path)
    assert support(space, "What is my shoe size?", caller="alice")["me"] > 0.2


# -- relation_name_answers: "My sister Maria ..." answers "my sister's name" ----------------------

def test_a_record_naming_the_relation_answers_its_name(tmp_path):
    for n, record in enumerate((said("sister", "My sister Maria is visiting next weekend."),
                                fact("sister", "My sister Maria is visiting next weekend."))):
        space = space_of([record, said("work", "Work has been busy at the library.")], tmp_path / str(n))
        assert support(space, "What is my sister's name?", caller="alice")["sister"] > 0.2
        assert support(space, "What is my sister's name?", caller="alice", off="relation_name_answers")["sister"] == 0.0
        # another relation's name is not the sister's
        assert support(space, "What is my brother's name?", caller="alice")["sister"] == 0.0


def test_what_the_boss_is_called(tmp_path):
    space = space_of([fact("boss", "My boss Priya approved my leave."), fact("bro", "My brother Luca lives in Turin.")],
                     tmp_path)
    found = support(space, "What's my boss called?", caller="dev")
    assert found["boss"] > 0.2 and found["bro"] == 0.0
    assert support(space, "What's my boss called?", caller="dev", off="relation_name_answers")["boss"] == 0.0
    assert support(space, "What is my mother's name?", caller="dev") == {"boss": 0.0, "bro": 0.0}


def test_the_agent_builders_store_end_to_end(store):
    store.mutate(add_env("Alice's dog is a beagle named Biscuit.", "dog", "tx1", user="alice"))
    store.mutate(add_env("My sister Maria is visiting next weekend.", "sister.visit", "tx2", user="alice"))
    ask = lambda q: run_query(store, QueryRequest(text=q, user="alice"))["knowledge_state"]  # noqa: E731
    assert ask("What is my dog allergic to?") == "UNKNOWN"
    assert ask("What breed is my dog?") == "VERIFIED"
    assert ask("What is my sister's name?") == "VERIFIED"
    assert ask("What is my brother's name?") == "UNKNOWN"
