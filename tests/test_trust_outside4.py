"""Issue 13, a second outside tester's "never stored, yet VERIFIED" answers (session 6, fixd).

Each mechanism's test runs once as shipped and once with that one policy key off: with it off the
wrong record supports (or the right one does not), so the test fails for the bug it names; twins
must still answer. The shapes are those of benchmarks/gold/trust-dev9.jsonl.
"""
from __future__ import annotations

from test_planner_features import space_of, turn
from test_trust import fact
from test_trust_outside import support
from test_trust_outside3 import statement


# -- age_answers: "how old" asks an age, which the adjective "old" does not state -----------------

def test_how_old_is_answered_by_an_age_not_by_the_word_old(tmp_path):
    space = space_of([statement("leo", "My grandson Léo is 7."),
                      statement("machine", "I still use my old sewing machine."),
                      fact("car", "I drive an old Renault Clio.", key="user.car"),
                      fact("mum", "My mother was born in 1931.", key="mother.birth")], tmp_path)
    for question, wrong in (("How old is my sewing machine?", "machine"), ("How old is my car?", "car")):
        assert support(space, question)[wrong] == 0.0, question
        assert support(space, question, off="age_answers,age_subjects")[wrong] > 0.2, question
    # the twins: a stated age answers, also without the word "old"
    assert support(space, "How old is my grandson?")["leo"] > 0.5
    assert support(space, "How old is my grandson?", off="age_answers,age_search")["leo"] <= 0.5
    assert support(space, "How old is my mother?")["mum"] > 0.5
    assert support(space, "How old is my grandson?")["machine"] == 0.0


def test_how_old_is_didier_is_not_answered_by_his_old_copy(tmp_path):
    space = space_of([turn("copy", "Didier", "I'll lend you my old copy with the film photos."),
                      turn("leo", "Bernard", "My grandson Léo is 7 and loves boats.")], tmp_path)
    assert support(space, "How old is Didier?", caller="bernard")["copy"] == 0.0
    assert support(space, "How old is Didier?", caller="bernard", off="age_answers,age_subjects")["copy"] > 0.2


# -- favourite_objects: "my favourite film" asks a film, not the favourite author -----------------

def test_my_favourite_film_is_not_answered_by_my_favourite_author(tmp_path):
    space = space_of([fact("author", "The user's favourite author is Jean Giono.", key="user.fav_author"),
                      fact("wine", "The user's favourite wine is Saint-Joseph.", key="user.fav_wine"),
                      turn("copy", "Didier", "I'll lend you my old copy with the film photos.")], tmp_path)
    # another kind of favourite, and a turn holding "film" that states no favourite at all
    for rid in ("copy", "author", "wine"):
        assert support(space, "What is my favourite film?")[rid] == 0.0, rid
        assert support(space, "What is my favourite film?", off="favourite_objects")[rid] > 0.0, rid
    # the twins: the kind asked, or another name of it, answers
    assert support(space, "What is my favourite author?")["author"] > 0.5
    assert support(space, "Who is my favourite writer?")["author"] > 0.0
    assert support(space, "What is my favourite wine?")["wine"] > 0.5


# -- compound_heads: "blood type" asks the type; "my blood thinner" is another thing ---------------

def test_my_blood_type_is_not_answered_by_my_blood_thinner(tmp_path):
    space = space_of([statement("thinner", "The cardiologist changed my blood thinner yesterday."),
                      fact("riva", "I take rivaroxaban as a blood thinner.", key="user.medication"),
                      fact("type", "I'm blood type O negative.", key="user.blood")], tmp_path)
    for wrong in ("thinner", "riva"):
        for question in ("What is my blood type?", "What's my blood group?"):
            assert support(space, question)[wrong] == 0.0, (question, wrong)
            # (``whole_attributes``, session 11, reads the same compound: both off)
            assert support(space, question, off="compound_heads,whole_attributes")[wrong] > 0.0, (question, wrong)
    # the twins: the type stated answers, and the thinner answers what it is
    assert support(space, "What is my blood type?")["type"] > 0.5
    assert support(space, "What blood thinner do I take?")["riva"] > 0.5


# -- number_answers: "my phone number" asks a number; "a Fairphone 4" names a model ----------------

def test_my_phone_number_is_not_answered_by_my_phones_model(tmp_path):
    space = space_of([fact("phone", "The user's phone is a Fairphone 4.", key="user.phone"),
                      fact("home", "The user's home is in the Croix-Rousse district of Lyon.", key="user.home"),
                      fact("iphone", "My wife has an iPhone 15.", key="wife.phone")], tmp_path)
    for question in ("What's my home phone number?", "What is my phone number?"):
        for wrong in ("phone", "home"):
            assert support(space, question)[wrong] == 0.0, (question, wrong)
        assert support(space, question, off="number_answers")["phone"] > 0.0, question
    assert support(space, "What is my wife's phone number?")["iphone"] == 0.0
    assert support(space, "What is my wife's phone number?", off="number_answers")["iphone"] > 0.0
    # the twins: a number stated answers, and the model answers what phone it is
    space = space_of([fact("number", "My phone number ends in 4421.", key="user.phone_number"),
                      fact("call", "Call me on 04 78 12 34 56.", key="user.call"),
                      fact("model", "The user's phone is a Fairphone 4.", key="user.phone")], tmp_path)
    assert support(space, "What is my phone number?")["number"] > 0.5
    assert support(space, "What is my phone number?")["model"] == 0.0
    assert support(space, "What phone do I have?")["model"] > 0.5
