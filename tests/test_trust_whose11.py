"""Issue 13 class 2, session 11 (whose11): whose fact, whose name (benchmarks/gold/trust-dev24.jsonl).

Each test runs a small store of its own (other personas than the dev file's) through the whole query
path, once with the shipped policy and once with one mechanism off: with it off the question is
answered the way the new people's stores showed (the caller's own "My name is ..." for "husbands
name?", UNKNOWN for "What does our boy do?", a plan naming no puppy cited for the puppy's name), so
each test fails for the bug it names. Twins on the same stores keep their answer.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from memory import planner
from memory.benchmark import gold
from memory.retrieval import lexicon
from helpers import gold_case_with

GOLD = Path(__file__).resolve().parent.parent / "benchmarks" / "gold"
sys.path.insert(0, str(GOLD))
from trust_dev8_cases import cases as store_cases, fact  # noqa: E402
from trust_dev18_cases import chat  # noqa: E402

V, U = "VERIFIED", "UNKNOWN"


def outcome(user: str, records: list, question: str, state: str, expected: list, forbidden: list,
            off: str = "") -> bool:
    """Whether ``question`` asked of ``records`` passes as a gold case (state, evidence, nothing forbidden)."""
    case = next(store_cases([(user, records, [(question, state, expected, forbidden, "whose11 test")])], 1))
    return not gold.score_case(gold_case_with(case, off), 5).why


def test_the_case_file_is_what_the_generator_writes():
    written = subprocess.run([sys.executable, str(GOLD / "trust_dev24_cases.py")], capture_output=True, text=True,
                             check=True).stdout
    assert written == (GOLD / "trust-dev24.jsonl").read_text(encoding="utf-8")


MAIREAD = [fact("t-name", "mairead", "My name is Mairead Quinn.", 1, "user.name"),
           fact("t-wife", "mairead", "My wife Orla plays the fiddle in a ceili band.", 1, "wife.music"),
           fact("t-gd", "mairead", "Our second grandchild, Aoife, arrived in Sligo on Easter Monday.", 1, "gd.birth"),
           fact("t-job", "mairead", "I drive the school bus in Ballina.", 1, "user.job"),
           fact("t-boy", "mairead", "Our boy rang from the site, he sounded worn out.", 2, "son.call"),
           fact("t-son", "mairead", "My son Cathal is an electrician in Perth.", 2, "son.job"),
           fact("t-eldest", "mairead", "Our eldest, Niamh, is a midwife at the Mater.", 2, "dau.job"),
           fact("t-youngest", "mairead", "My youngest, Donal, works as a barista in Galway.", 2, "son2.job"),
           fact("t-home", "mairead", "I live in Crossmolina by the lake.", 2, "user.home")]


# -- bare_genitives: "wifes name?" is the wife's name --------------------------------------------------

def test_a_relation_typed_without_its_apostrophe_is_its_possessive():
    assert planner.bare_genitives("wifes name?") == "wife's name?"
    assert planner.bare_genitives("whats my sons job") == "what's my son's job"
    assert planner.bare_genitives("Where do my sisters live?") == "Where do my sisters live?"
    assert planner.bare_genitives("What are my sons called?") == "What are my sons called?"
    assert outcome("mairead", MAIREAD, "wifes name?", V, ["t-wife"], ["t-name"])
    assert not outcome("mairead", MAIREAD, "wifes name?", V, ["t-wife"], ["t-name"], off="bare_genitives")


# -- qualified_relations: "Our second grandchild, Aoife, ..." names a grandchild -----------------------

def test_a_relation_named_with_a_qualifying_word_gives_its_name():
    assert ("grandchild", "aoif") in planner.qualified_relation_names(
        "Our second grandchild, Aoife, arrived in Sligo on Easter Monday.", "mairead")
    assert outcome("mairead", MAIREAD, "What's my granddaughter called?", V, ["t-gd"], ["t-name"])
    assert not outcome("mairead", MAIREAD, "What's my granddaughter called?", V, ["t-gd"], ["t-name"],
                       off="qualified_relations")


def test_the_callers_own_name_stays_the_callers():
    assert outcome("mairead", MAIREAD, "What is my name?", V, ["t-name"], [])


# -- colloquial_relations: "our boy", "our eldest" are relations ---------------------------------------

def test_a_colloquial_relation_is_read_as_the_relation():
    assert lexicon.colloquial_relations("What does our boy do?")[0] == "What does our son do?"
    assert lexicon.colloquial_relations("my eldest brother Tom")[0] == "my eldest brother Tom"
    assert lexicon.colloquial_relations("the boy next door")[0] == "the boy next door"


def test_a_colloquial_relation_is_answered_by_that_persons_job():
    assert outcome("mairead", MAIREAD, "What does our boy do?", V, ["t-son"], ["t-boy", "t-job"])
    assert not outcome("mairead", MAIREAD, "What does our boy do?", V, ["t-son"], ["t-boy", "t-job"],
                       off="colloquial_relations")


def test_the_eldest_is_not_the_youngest():
    # a guard on the reading: "our eldest" is read "our eldest child", which child stays a subject
    assert lexicon.colloquial_relations("our eldest")[0] == "our eldest child"
    assert outcome("mairead", MAIREAD, "What does our eldest do?", V, ["t-eldest"], ["t-youngest", "t-son"])


def test_a_relatives_record_in_the_first_person_plural_is_not_the_callers():
    assert outcome("mairead", MAIREAD, "What is my job?", V, ["t-job"], ["t-eldest"])
    assert not outcome("mairead", MAIREAD, "What is my job?", V, ["t-job"], ["t-eldest"],
                       off="colloquial_relations")


# -- doing_now: "What's our eldest doing now?" asks their work -----------------------------------------

def test_what_someone_is_doing_now_asks_what_they_do():
    assert planner.doing_now_read("What's Niamh doing these days?") == "What does Niamh do these days?"
    assert planner.doing_now_read("What am I doing now?") == "What am I doing now?"
    assert outcome("mairead", MAIREAD, "What's our eldest doing now?", V, ["t-eldest"], [])
    assert not outcome("mairead", MAIREAD, "What's our eldest doing now?", V, ["t-eldest"], [], off="doing_now")


# -- kin_group: "my family" is every relation of it ----------------------------------------------------

def test_the_family_is_the_kin_group():
    assert outcome("mairead", MAIREAD, "Who in my family is a midwife?", V, ["t-eldest"], ["t-job"])
    assert not outcome("mairead", MAIREAD, "Who in my family is a midwife?", V, ["t-eldest"], ["t-job"],
                       off="kin_group")


def test_relatives_are_the_kin_group_too():
    assert outcome("mairead", MAIREAD, "Which of my relatives is an electrician?", V, ["t-son"], ["t-job"])
    assert not outcome("mairead", MAIREAD, "Which of my relatives is an electrician?", V, ["t-son"], ["t-job"],
                       off="kin_group")


# -- thing_names and speaker_relation_names: a friend's own turns --------------------------------------

TOMASZ = ([fact("t-t-name", "tomasz", "My name is Tomasz Nowak.", 1, "user.name"),
           fact("t-t-job", "tomasz", "I work as a tram driver in Krakow.", 1, "user.job")]
          + chat("tomasz", "k1", "2024-06-03", [
              ("t-k-wife", "Kasia", "My wife Ewelina finally got the flat in Kazimierz."),
              ("t-t1", "Tomasz", "Great news!"),
              ("t-k-dau", "Kasia", "And my daughter Zuza is graduating in July."),
              ("t-k-plan", "Kasia", "Ewelina and I have put our names down for a rescue cat."),
          ])
          + chat("tomasz", "k2", "2024-06-05", [
              ("t-k-grad", "Kasia", "Our Zuza's graduation is on 9 July at the Jagiellonian."),
              ("t-k-cat", "Kasia", "The cat is called Pierogi, he hides under the bed."),
              ("t-t2", "Tomasz", "Ha, perfect name."),
          ]))


def test_a_person_named_beside_a_thing_is_not_its_name():
    assert outcome("tomasz", TOMASZ, "What did Kasia call the rescue cat?", V, ["t-k-cat"], ["t-k-plan"])
    assert not outcome("tomasz", TOMASZ, "What did Kasia call the rescue cat?", V, ["t-k-cat"], ["t-k-plan"],
                       off="thing_names")


def test_a_friends_relation_is_the_name_her_own_turns_give_it():
    assert outcome("tomasz", TOMASZ, "When is Kasia's daughter's graduation?", V, ["t-k-grad"], [])
    assert not outcome("tomasz", TOMASZ, "When is Kasia's daughter's graduation?", V, ["t-k-grad"], [],
                       off="speaker_relation_names")


def test_the_callers_own_job_stays_the_callers():
    assert outcome("tomasz", TOMASZ, "What is my job?", V, ["t-t-job"], [])


# -- occupation_search: "What do I do for work?" finds what the caller teaches -------------------------

ROISIN = [fact("t-r-job", "roisin", "I lecture in organic chemistry at Queen's.", 1, "user.job"),
          fact("t-r-home", "roisin", "I live off the Lisburn Road.", 1, "user.home"),
          fact("t-r-bro", "roisin", "My brother Fergal lives in Derry.", 1, "brother.home")]


def test_a_job_told_without_a_job_word_is_found_for_a_work_question():
    assert outcome("roisin", ROISIN, "What do I do for work?", V, ["t-r-job"], [])
    assert not outcome("roisin", ROISIN, "What do I do for work?", V, ["t-r-job"], [], off="occupation_search")


def test_a_job_word_naming_someones_role_is_no_work_of_the_caller():
    """Session 11's merge: with ``occupation_search`` "What do I do for a living these days?" was answered by
    "the vet bill was ..." (an untuned held-out store): "the vet" is who holds that role for the caller."""
    records = ROISIN + [fact("t-r-cat", "roisin", "We have a tabby cat called Biscuit.", 1, "user.cat")] + \
        chat("roisin", "r1", "2024-06-03", [("t-r-hi", "Roisin", "Busy week here."),
                                            ("t-r-vet", "Roisin", "Biscuit had two teeth out, the vet bill was 240 pounds."),
                                            ("t-r-ok", "Ciara", "Poor Biscuit!")])
    assert planner.states_occupation("the vet bill was 240 pounds") and \
        not planner.states_occupation("the vet bill was 240 pounds", roles=True)
    assert planner.states_occupation("My sister Marta is a midwife in Gdansk.", roles=True)
    assert outcome("roisin", records, "What do I do for a living these days?", V, ["t-r-job"], ["t-r-vet"])


# -- agent_nouns: "a teacher" is held by "teaches" -----------------------------------------------------

def test_a_job_asked_by_its_agent_noun_is_held_by_its_verb():
    assert planner.agent_nouns_of("Who in my family is a teacher?") == {"teacher": ("teach", "teache")}
    records = MAIREAD + [fact("t-aunt", "mairead", "My aunt Brid teaches at the national school in Foxford.", 2,
                              "aunt.job")]
    assert outcome("mairead", records, "Who in my family is a teacher?", V, ["t-aunt"], ["t-job"])
    assert not outcome("mairead", records, "Who in my family is a teacher?", V, ["t-aunt"], ["t-job"],
                       off="agent_nouns")
