"""Issue 13 class 2, session 9 (who9): whose fact it is (trust-dev18).

Each mechanism's test measures support with the shipped policy's flags and settings, once as
shipped and once with that one mechanism off: with it off the wrong record supports (or the right
one does not), so each test fails for the bug it names; twins on the same store keep their answer.
"""
from __future__ import annotations

from memory import planner
from memory.retrieval import lexicon
from test_planner_features import space_of, turn
from test_trust import fact
from test_trust_outside import support


# -- relation_idioms: "my other half", "my significant other", "my OH" name the spouse/partner ----------

def test_a_relation_idiom_is_the_relation(tmp_path):
    space = space_of([fact("oh", "My other half Mateus is a sous-chef at a bistro in Porto."),
                      fact("me", "I work as a radiographer at the Santo António hospital."),
                      fact("bro", "My brother Rui is a dentist in Braga.")], tmp_path)
    for question in ("What does my husband do for a living?", "What is my partner's job?"):
        assert support(space, question)["oh"] > 0.5, question
        assert support(space, question, off="relation_idioms")["oh"] < 0.2, question
        assert support(space, question)["bro"] == 0.0, question   # twin: the brother is no partner
    # the idiom asked, a husband stated
    space = space_of([fact("hub", "My husband Kofi teaches history at a school in Kumasi."),
                      fact("me", "I work as an accountant in Accra.")], tmp_path / "b")
    assert support(space, "What does my significant other teach?")["hub"] > 0.5
    assert support(space, "What does my significant other teach?", off="relation_idioms")["hub"] == 0.0


def test_an_idiom_needs_its_owner_and_its_case():
    assert lexicon.idiom_relations("My OH drives a bus.")[1]
    assert not lexicon.idiom_relations("Oh, my day was long.")[1]              # an interjection
    assert not lexicon.idiom_relations("We ate the other half of the pie.")[1]   # a half of something
    assert lexicon.idiom_relations("What does my other half do?")[0] == "What does my spouse do?"


# -- occupation_reading: "What does X do?" asks X's work, said by what X teaches, runs, works as --------

def test_a_job_said_by_what_someone_teaches_or_runs(tmp_path):
    space = space_of([fact("aunt", "My aunt Ingrid teaches piano at the conservatory in Bergen."),
                      fact("cousin", "My cousin Lars runs a small ferry company."),
                      fact("run", "My cousin Lars runs a marathon every spring."),
                      fact("me", "I am a nurse.")], tmp_path)
    for question, rid in (("What does my aunt do?", "aunt"), ("What is my cousin's job?", "cousin")):
        assert support(space, question)[rid] > 0.5, question
        assert support(space, question, off="occupation_reading")[rid] < 0.2, question
        assert support(space, question)["me"] == 0.0, question   # the caller's job is not theirs
    assert support(space, "What is my cousin's job?")["run"] < 0.2   # a race run is no business


def test_the_friends_job_in_his_own_turn(tmp_path):
    space = space_of([fact("job", "The user works as a translator."),
                      turn("medic", "Jonas", "I work as a midwife at the Charité these days."),
                      turn("ok", "Petra", "That sounds exhausting."),
                      turn("sis", "Jonas", "My sister Greta is a carpenter, she could fix your shelves.")], tmp_path)
    assert support(space, "What does Jonas do for a living?", caller="petra")["medic"] > 0.5
    assert support(space, "What does Jonas do for a living?", caller="petra", off="occupation_reading")["medic"] < 0.5
    assert support(space, "What does Jonas's sister do?", caller="petra")["sis"] > 0.5
    assert support(space, "What does Jonas's sister do?", caller="petra", off="occupation_reading")["sis"] == 0.0


# -- turn_relations: another speaker's "my sister" is not the caller's sister --------------------------

def test_another_speakers_relation_is_not_the_callers(tmp_path):
    space = space_of([turn("sis", "Jonas", "My sister Greta is a carpenter, she could fix your shelves."),
                      turn("mine", "Petra", "My sister Ilse is a pilot with Lufthansa."),
                      turn("yours", "Jonas", "Your brother Kai is a great cook, by the way.")], tmp_path)
    assert support(space, "What does my sister do?", caller="petra")["sis"] == 0.0
    assert support(space, "What does my sister do?", caller="petra", off="turn_relations")["sis"] > 0.5
    assert support(space, "What does my sister do?", caller="petra")["mine"] > 0.5        # twin: her own turn
    assert planner.others_relation_turn(space, "yours", frozenset({"petra"}), frozenset({"brother"})) is False


# -- age_subjects: an age said of one subject never answers for another ---------------------------------

def test_the_callers_age_is_not_the_pets(tmp_path):
    space = space_of([fact("age", "I'm 29."), fact("user", "The user is 29 years old."),
                      fact("tortoise", "My tortoise is called Gamera."),
                      fact("hamster", "My hamster Pip turned two last week.")], tmp_path)
    for question in ("How old is Gamera?", "What age is my tortoise?", "How old is my tortoise Gamera?"):
        got = support(space, question)
        assert got["age"] == got["user"] == got["tortoise"] == 0.0, question
    assert support(space, "How old is Gamera?", off="age_subjects")["age"] > 0.2 or \
        support(space, "How old is Gamera?", off="age_subjects")["user"] > 0.2
    assert support(space, "What is my tortoise's age?", off="age_subjects")["tortoise"] > 0.2
    # twins: the hamster's own record, the caller's own age
    assert support(space, "How old is my hamster?")["hamster"] > 0.5
    assert support(space, "How old is my hamster?")["user"] == 0.0
    assert support(space, "How old is my hamster?", off="age_subjects")["user"] > 0.0


def test_the_callers_own_age_asked_in_another_tense_or_at_a_time_is_theirs(tmp_path):
    """"How old was I in the spring?" read "I in the spring" as the subject (its term: spring), so
    the caller's own "I am 57" stopped answering (a held-out store showed it); the subject of an age
    question ends where its time begins, and "was I" / "will I be" ask the caller's own age."""
    space = space_of([fact("age", "I am 57 years old."), fact("dog", "My dog Bran is a border collie.")], tmp_path)
    for question in ("How old was I in the spring?", "How old will I be next year?", "What age was I in 2020?"):
        assert planner.asked_age_subject(question, "fiona") == frozenset(), question
        assert support(space, question)["age"] > 0.2, question
    assert planner.asked_age_subject("How old was my dog in 2020?", "fiona") == frozenset({"dog"})
    assert support(space, "How old was Bran in 2020?")["age"] == 0.0   # twin: still not the dog's age


def test_a_speakers_first_person_age_is_theirs(tmp_path):
    space = space_of([turn("t", "Marek", "I'm 34 now and still can't cook."), turn("u", "Zofia", "Ha, same.")],
                     tmp_path)
    assert support(space, "How old is Marek?", caller="zofia")["t"] > 0.5


# -- event_questions: "What did my dad do (last week)?" is answered by a turn about the dad -------------

def test_what_a_relation_did_is_told_by_a_turn_about_them(tmp_path):
    space = space_of([turn("dad", "Ines", "My dad drove down to Faro to see his cousins."),
                      turn("me", "Ines", "I spent the day gardening."),
                      fact("dadjob", "My dad is a retired postman.", key="dad.job")], tmp_path)
    got = support(space, "What did my dad do?", caller="ines")
    assert got["dad"] == 1.0 and got["me"] == 0.0 and got["dadjob"] == 0.0
    assert support(space, "What did my dad do?", caller="ines", off="event_questions")["dad"] == 0.0
    assert support(space, "What did my mum do?", caller="ines")["dad"] == 0.0   # twin: another relation
