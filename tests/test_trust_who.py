"""Issue 13 class 2, session 8 (who): whose fact a conversation turn states (trust-dev15).

A store holds the user's keyed facts beside turns between the user (speaker = the scope's owner)
and a friend. Each mechanism's test measures support with the shipped policy's flags and settings,
once as shipped and once with that one mechanism off: the wrong record supports with it off, so
each test fails for the bug it names; twins on the same store must still be supported.
"""
from __future__ import annotations

from memory import planner
from test_planner_features import space_of, turn
from test_trust import fact
from test_trust_outside import support


def said(ref: str, speaker: str, text: str, session: str = "s1") -> dict:
    return turn(ref, speaker, text, session=session)


def _rhys(tmp_path):
    return space_of([
        fact("job", "The user works as a bus driver for Cardiff Bus."),
        said("swim", "Rhys", "I swim at the Empire Pool twice a week before my shift."),
        said("padel", "Gwen", "I started playing padel at the leisure centre, you should come along."),
        said("quiz", "Gwen", "You were brilliant at the quiz night, you knew every capital city."),
        said("hannah", "Rhys", "My partner Hannah works as a software tester at a bank."),
        said("days", "Rhys", "Hannah works from home on Mondays and Fridays."),
        said("ffion", "Gwen", "My sister Ffion changed jobs in May."),
        said("she", "Gwen", "She loves it, she turned the box room into an office since she works from home."),
        said("mum", "Rhys", "Mum is much happier. She turned the spare room into a studio since she paints at home."),
        said("mum2", "Rhys", "My mum Eirlys retired in March."),
    ], tmp_path)


# -- caller_clauses: the caller's question is answered by the pieces of a turn about the caller ----

def test_the_friends_i_said_to_the_caller_is_the_friends(tmp_path):
    space = _rhys(tmp_path)
    for question in ("Do I play padel?", "Where do I play padel?"):
        assert support(space, question, caller="rhys")["padel"] < 0.2, question
        assert support(space, question, caller="rhys", off="caller_clauses")["padel"] > 0.5, question
    # twins: the caller's own turn, and what the friend says to the caller ("you knew ...")
    assert support(space, "Where do I swim?", caller="rhys")["swim"] > 0.5
    assert support(space, "What did I know at the quiz night?", caller="rhys")["quiz"] > 0.5
    # the friend asked by name keeps her padel
    assert support(space, "Where does Gwen play padel?", caller="rhys")["padel"] > 0.5


def test_a_turn_about_a_third_person_is_not_the_callers(tmp_path):
    space = _rhys(tmp_path)
    # said by the caller: "Hannah works from home on Mondays", "She ... paints at home"
    for question, rid in (("Do I work from home?", "days"), ("Do I paint at home?", "mum"),
                          ("What did I turn the spare room into?", "mum")):
        assert support(space, question, caller="rhys")[rid] < 0.2, question
        assert support(space, question, caller="rhys", off="caller_clauses")[rid] > 0.5, question


def test_a_question_about_a_relation_of_the_caller_is_not_cut_to_the_caller(tmp_path):
    space = space_of([said("puppy", "Rhys", "My daughter said she wants a puppy for her birthday.")], tmp_path)
    assert support(space, "What does my daughter want for her birthday?", caller="rhys")["puppy"] > 0.5


def test_a_caller_who_is_no_speaker_changes_nothing(tmp_path):
    space = _rhys(tmp_path)
    for rid, value in support(space, "Do I play padel?", caller="someone").items():
        assert value == support(space, "Do I play padel?", caller="someone", off="caller_clauses")[rid]


# -- turn_persons: a person the conversations name as someone's relation is a subject ---------------

def test_a_name_a_turn_gives_a_relation_is_a_subject(tmp_path):
    space = _rhys(tmp_path)
    assert planner.turn_persons(space, "Which days does Hannah work from home?", "rhys") == {"hannah"}
    question = "Which days does Hannah work from home?"
    assert support(space, question, caller="rhys")["days"] > 0.5
    assert support(space, question, caller="rhys")["she"] == 0.0       # she is Ffion, not Hannah
    assert support(space, question, caller="rhys", off="turn_persons")["she"] > 0.5
    # "What does Ffion do now?": the friend's "I teach ..." is not about Ffion
    space2 = space_of([said("teach", "Gwen", "I teach chemistry at Whitchurch High now."),
                       said("ffion", "Gwen", "My sister Ffion teaches piano.")], tmp_path / "2")
    assert support(space2, "What does Ffion teach?", caller="rhys")["teach"] == 0.0
    assert support(space2, "What does Ffion teach?", caller="rhys", off="turn_persons")["teach"] > 0.0
    assert support(space2, "What does Ffion teach?", caller="rhys")["ffion"] > 0.5


def test_a_speaker_is_no_turn_person_and_an_unnamed_word_is_none(tmp_path):
    space = _rhys(tmp_path)
    assert planner.turn_persons(space, "What does Gwen teach?", "rhys") == set()
    assert planner.turn_persons(space, "What does Cardiff Bus run?", "rhys") == set()


def test_a_named_relation_opening_a_piece_is_not_the_named_speakers(tmp_path):
    space = space_of([said("job", "Maya", "I teach ceramics at the community college."),
                      said("cousin", "Jon", "My cousin Leila teaches there too."),
                      said("dog", "Maya", "Leila walks her greyhound past my flat every morning.")], tmp_path)
    assert support(space, "Does Maya have a greyhound?")["dog"] < 0.5
    assert support(space, "Does Maya have a greyhound?", off="turn_persons")["dog"] > 0.5
    assert support(space, "Does Leila have a greyhound?")["dog"] > 0.5   # the twin: Leila's
    assert support(space, "What does Maya teach?")["job"] > 0.5


def test_several_named_people_are_alternatives(tmp_path):
    space = space_of([said("rachel", "Sam", "My friend Rachel had her baby in March."),
                      said("alex", "Sam", "My cousin Alex became a dad last year."),
                      said("me", "Sam", "I became a godparent in June.")], tmp_path)
    question = "Who became a parent first, Rachel or Alex?"
    shipped = support(space, question, caller="sam")
    assert shipped["alex"] > 0.2 and shipped["me"] == 0.0
    assert support(space, "When did Alex become a dad?", caller="sam")["rachel"] == 0.0


def test_she_opening_a_turn_is_whom_the_speakers_turn_before_named(tmp_path):
    space = space_of([said("visit", "Sam", "I might visit my friend Rachel who recently moved to a new flat."),
                      said("city", "Sam", "She moved to Chicago."),
                      said("other", "Kim", "She moved to Denver.", session="s2")], tmp_path)
    question = "Where did Rachel move to?"
    assert support(space, question, caller="sam")["city"] > 0.5
    assert support(space, question, caller="sam")["other"] == 0.0   # no turn before naming Rachel
