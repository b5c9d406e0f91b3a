"""Issue 13, session 8 (kin8): answerable questions in other words, relations and everyday vocabulary
(trust-dev16).

``everyday_thesaurus``: a phrase of the packaged thesaurus the question holds is held by another
phrase of its group a record states in a clause negating nothing ("How much do I earn?" / "My
salary is 47,000 a year"; not "I used to be vegetarian" for "Do I eat meat?"); whose fact it is
stays the subject tests' ("My friend Chidi earns ..." does not answer what I earn).
``kinship_model``: a relation is named by its word ("my doctorate" is no "my doctor"), relations
named side by side ("my mum and dad") are held by their group's general word ("My parents ..."),
and "Where does my sister live?" is held by a place the record names of her. Each test measures
support with the shipped policy's flags, once as shipped and once with its mechanism off, so it
fails for the bug it names.
"""
from __future__ import annotations

from memory import planner
from memory.retrieval import lexicon
from memory.retrieval.tokenize import tokenize
from test_planner_features import space_of
from test_trust import fact as said
from test_trust_outside import support


def fact(ref: str, text: str) -> dict:
    """A fact kept by an agent (``memory add``): no conversation said it."""
    record = said(ref, text)
    record["source"] = {"type": "explicit_user", "ref": ref, "session": None, "speaker": None}
    return record


def test_the_thesaurus_ships_as_package_data_and_is_general():
    groups = lexicon.synonym_groups()
    assert len(groups) >= 120          # a general thesaurus, not the cases' words
    asked = lexicon.asked_synonyms(tokenize("How much do I earn?"))
    assert lexicon.synonym_held(asked, frozenset(tokenize("My salary is 47,000 a year"))) == {"earn"}
    # a phrase needs all of its words: "home" alone is no "take home"
    asked = lexicon.asked_synonyms(tokenize("How much money do I make?"))
    assert lexicon.synonym_held(asked, frozenset(tokenize("My home is in Leeds"))) == frozenset()


def test_everyday_words_are_held_by_their_synonyms(tmp_path):
    space = space_of([fact("salary", "My salary is 47,000 a year before tax."),
                      fact("phd", "I have a PhD in soil science from Reading."),
                      fact("veg", "I'm vegetarian."),
                      fact("run", "I run five kilometres before breakfast."),
                      fact("test", "I passed my driving test at the third attempt.")], tmp_path)
    for question, rid in (("How much do I earn?", "salary"), ("Do I eat meat?", "veg")):
        assert support(space, question)[rid] > 0.5, question
        assert support(space, question, off="everyday_thesaurus")[rid] < 0.2, question
        assert support(space, question)["run"] < 0.2, question


def test_a_past_or_anothers_synonym_does_not_answer(tmp_path):
    space = space_of([fact("usedveg", "I used to be vegetarian, years ago at university."),
                      fact("friend", "My friend Chidi earns twice what I do as a surgeon."),
                      fact("golf", "I play golf with my father-in-law.")], tmp_path)
    assert support(space, "Do I eat meat?")["usedveg"] < 0.2   # "used to": a clause negating what it says
    assert support(space, "How much does my brother earn?")["friend"] == 0.0


def test_a_relation_is_named_by_its_word_not_its_stem(tmp_path):
    space = space_of([fact("phd", "I have a PhD in soil science from Reading."),
                      fact("gp", "My doctor is Dr Ferrand.")], tmp_path)
    question = "What subject is my doctorate in?"
    assert support(space, question)["phd"] > 0.5
    assert support(space, question, off="kinship_model")["phd"] == 0.0   # "doctorate" read as "doctor"
    assert planner._relation_terms("doctorate") == set() and planner._relation_terms("sisters") == {"sister"}


def test_relations_side_by_side_are_held_by_their_general_word(tmp_path):
    space = space_of([fact("parents", "My parents live in Toruń, near the old town."),
                      fact("gf", "I live with my girlfriend Ines in a rented flat.")], tmp_path)
    question = "Where do my mum and dad live?"
    assert support(space, question)["parents"] > 0.5
    assert support(space, question, off="kinship_model")["parents"] == 0.0
    assert support(space, question)["gf"] == 0.0


def test_where_a_relative_lives_is_held_by_a_place_named_of_them(tmp_path):
    space = space_of([fact("sister", "My sister Marta is a midwife in Gdańsk."),
                      fact("brother", "My brother Piotr runs a bakery in Kraków."),
                      fact("gf", "I live with my girlfriend Ines in a rented flat.")], tmp_path)
    question = "Where does my sister live?"
    assert support(space, question)["sister"] > 0.5
    assert support(space, question, off="kinship_model")["sister"] == 0.0
    assert support(space, question)["brother"] == 0.0   # a sibling of the wrong kind


def test_a_conversation_turn_is_read_in_its_own_words(tmp_path):
    # a long reply holds a synonym of most things in passing: the thesaurus reads facts
    space = space_of([said("reply", "There are several recent research studies on computer vision."),
                      fact("salary", "My salary is 47,000 a year before tax.")], tmp_path)
    space.records["reply"]["source"]["session"] = "s1"
    assert support(space, "What course did I take?")["reply"] == support(
        space, "What course did I take?", off="everyday_thesaurus")["reply"]


def test_relation_groups_know_teenagers_girlfriends_and_birds():
    groups = lexicon.relation_groups()
    assert "teenag" in groups["children"] and "girlfriend" in groups["partner"] and "budgi" in groups["bird"]
    assert "husband" not in groups["girlfriend"]


def test_no_thesaurus_group_holds_a_relation_word():
    # relations are the relation groups' (read with whose relation it is), never plain synonyms
    # ("doctorate" only stems like "doctor")
    for groups in lexicon._thesaurus()["groups"].values():
        for group in groups:
            for phrase in lexicon._split(group):
                terms = set(tokenize(phrase))
                assert not (terms & planner._RELATIONS) or terms == {"doctor"}, phrase


def test_a_job_the_thesaurus_takes_from_the_lexicon_counts_only_as_a_role(tmp_path):
    # jobs stem like everyday words (a gardener, a garden): one counts only as a role the record gives
    asked = lexicon.asked_synonyms(tokenize("Where does my brother work?"))
    assert lexicon.synonym_held(asked, frozenset(tokenize("is a dentist")), "My brother is a dentist in Leeds.")
    assert not lexicon.synonym_held(asked, frozenset(tokenize("loves his garden")), "My brother loves his garden.")
    assert len(lexicon.synonym_groups()) == len(lexicon._groups_written())


def test_the_thesaurus_terms_are_written_out_and_current():
    # a query reads the terms written out, never stems the thesaurus (issue 14)
    import json
    from importlib import resources
    written = json.loads(resources.files("memory").joinpath("packaged", "lexicon", "thesaurus-terms.json")
                         .read_text(encoding="utf-8"))["groups"]
    assert written == lexicon.stemmed_thesaurus(), "run python tools/gen_thesaurus_terms.py"
