"""Issue 13, session 7 (lexicon): answerable questions asked in other words (trust-dev12).

A category word is answered by a record stating a member of it (``class_lexicon``), a relation by
the words of its group (``relation_lexicon``), "The user's wife is Hélène." names the wife
(``relation_is_name``), and a yes/no question on a relation's name is answered by the record naming
that relation otherwise (``yes_no_names``). Each test measures support with the shipped policy's
flags and settings, once as shipped and once with its mechanism off, so it fails for the bug it
names; the twins (a member stated about another person, or negated) must not be supported.
"""
from __future__ import annotations

from memory import planner
from memory.retrieval import lexicon
from test_planner_features import SETTINGS, features, space_of, turn
from test_trust import fact
from test_trust_outside import support


def said(ref: str, text: str, speaker: str) -> dict:
    return turn(ref, speaker, text, session="session_1")


# -- the packaged lexicon ----------------------------------------------------------------------------

def test_the_lexicon_ships_as_package_data_with_a_few_dozen_categories():
    known = {category.name for category in lexicon.categories().values()}
    assert len(known) >= 25
    assert {"vegetable", "fruit", "sport", "team", "language", "drink", "medication", "instrument", "pet",
            "vehicle", "job", "colour", "city", "country"} <= known
    # a member phrase needs all of its words: "blood" alone is no anticoagulant
    anticoagulant = lexicon.categories()["anticoagul"]
    assert frozenset({"blood", "thinner"}) in anticoagulant.members
    assert lexicon.held_categories({"anticoagul": anticoagulant}, frozenset({"blood", "type"}),
                                   frozenset({"blood", "type"}), False) == frozenset()
    # '@anticoagulant': a medication's members take its kinds'
    assert frozenset({"warfarin"}) in lexicon.categories()["medic"].members


def test_a_category_counts_only_where_the_question_asks_a_member_of_it():
    assert set(lexicon.asked_categories("What vegetables do I grow?")) == {"veget"}
    assert set(lexicon.asked_categories("Which football team do I support?")) == {"team"}
    assert set(lexicon.asked_categories("Do I take any medication?")) == {"medic"}
    assert lexicon.asked_categories("Do I like the city?") == {}          # not asked for a member
    assert lexicon.asked_categories("What do I grow in the city?") == {}


# -- class_lexicon: a member answers the category ------------------------------------------------------

def test_a_member_answers_the_category_asked(tmp_path):
    space = space_of([fact("veg", "I grow leeks, parsnips and broad beans on my allotment."),
                      fact("sport", "I play badminton at the leisure centre every Sunday."),
                      fact("meds", "I'm on metformin for my blood sugar."),
                      fact("car", "I drive a blue Skoda.")], tmp_path)
    for question, rid in (("What vegetables do I grow?", "veg"), ("What medication am I taking?", "meds")):
        assert support(space, question)[rid] > 0.2, question
        assert support(space, question, off="class_lexicon")[rid] <= 0.2, question
        assert support(space, question)["car"] <= 0.2, question
    # (in so small a scope "Which sport do I play?" is held by "play" alone, lexicon or not: ``answer_types``)
    assert support(space, "Which sport do I play?")["sport"] > 0.2


def test_a_member_stated_about_another_person_or_negated_does_not_answer(tmp_path):
    space = space_of([fact("bro", "My brother Kiran grows chillies and aubergines."),
                      fact("nopot", "I no longer grow potatoes."),
                      fact("mixed", "I grow onions but not courgettes."),
                      fact("tennis", "I gave up tennis after my knee operation.")], tmp_path)
    found = support(space, "What vegetables do I grow?")
    assert found["bro"] == 0.0          # the brother's, by the subject test
    assert found["nopot"] <= 0.2        # negated: "no longer"
    assert found["mixed"] > 0.2         # onions are stated, courgettes are not
    assert support(space, "Which sport do I play?")["tennis"] <= 0.2
    assert support(space, "What vegetables does my brother grow?")["bro"] > 0.2   # the twin


def test_a_member_does_not_answer_a_question_refusing_the_category(tmp_path):
    space = space_of([fact("wine", "My favourite wine is Saint-Joseph."), fact("bike", "My bike is red.")], tmp_path)
    assert support(space, "What drink do I like?")["wine"] > 0.2
    assert support(space, "What drink do I like?", off="class_lexicon")["wine"] <= 0.2
    assert support(space, "What drink do I avoid?")["wine"] <= 0.2   # a favourite is not what is avoided


def test_a_place_category_is_held_by_a_place_the_record_names(tmp_path):
    space = space_of([fact("son", "The user's son is Ilyes, who lives in Rotterdam."),
                      fact("sis", "The user's sister Maud moved to Norway last year."),
                      fact("band", "The user's daughter plays in a band.")], tmp_path)
    assert support(space, "Which city is my son in?")["son"] > 0.2
    assert support(space, "Which city is my son in?", off="class_lexicon")["son"] <= 0.2
    assert support(space, "Which country is my sister in?")["sis"] > 0.2
    # a place stated answers no more than the place: "moved to Norway" holds no "work"
    assert support(space, "Which country does my sister work in?")["sis"] == \
        support(space, "Which country does my sister work in?", off="class_lexicon")["sis"] <= 0.2
    assert support(space, "Which city is my daughter in?")["band"] <= 0.2   # "in a band" names no place
    assert support(space, "Which city is my daughter in?")["son"] == 0.0    # the son's city is not hers


def test_the_member_search_comes_after_every_match_of_the_others(tmp_path):
    """The lexicon finds the records naming a member by one more search whose hits come last:
    what the searches found, and its order, is unchanged."""
    space = space_of([fact("veg", "Leeks and parsnips this year."), fact("grow", "I grow tired of rain."),
                      fact("other", "My bike is red.")], tmp_path)
    question = "What vegetables do I grow?"
    without = [c.record_id for c in planner.plan(space, question, SETTINGS, features("class_words")).candidates]
    with_lexicon = [c.record_id for c in planner.plan(space, question, SETTINGS,
                                                      features("class_words", "class_lexicon")).candidates]
    assert with_lexicon[:len(without)] == without
    assert "veg" in with_lexicon and "veg" not in without


# -- relation_lexicon: a relation's group ----------------------------------------------------------------

def test_a_relation_is_answered_by_the_words_of_its_group(tmp_path):
    space = space_of([fact("gp", "The user's GP is Dr Ferrand."),
                      fact("kids", "My son is called Jonas and my daughter is called Ewa."),
                      fact("bro_gp", "My brother's GP is Dr Kahn.")], tmp_path)
    for question, rid in (("Who is my doctor?", "gp"), ("Who is my physician?", "gp"),
                          ("What are my kids called?", "kids")):
        assert support(space, question)[rid] > 0.2, question
        assert support(space, question, off="relation_lexicon")[rid] <= 0.2, question
    assert support(space, "Who is my doctor?")["bro_gp"] == 0.0   # the brother's GP is not mine
    assert support(space, "Who is my dentist?")["gp"] <= 0.2       # a GP is no dentist


def test_a_specific_relation_takes_the_general_words_not_its_sibling(tmp_path):
    space = space_of([fact("wife", "My wife Hélène is a potter."), fact("married", "I'm married to Agnieszka.")],
                     tmp_path)
    assert support(space, "What is my spouse's name?")["wife"] > 0.2
    assert support(space, "What is my partner's name?")["married"] > 0.2
    assert support(space, "What is my partner's name?", off="relation_lexicon")["married"] <= 0.2
    assert support(space, "What's my husband called?")["wife"] == 0.0   # a wife is not a husband


# -- relation_is_name: "The user's wife is Hélène." ----------------------------------------------------------

def test_a_relation_named_by_is_answers_what_it_is_called(tmp_path):
    space = space_of([fact("wife", "The user's wife is Hélène."), fact("bro", "My brother is Spanish."),
                      fact("gp", "The user's GP is Dr Ferrand.")], tmp_path)
    assert support(space, "What's my wife called?")["wife"] == 1.0
    assert support(space, "What's my wife called?", off="relation_is_name")["wife"] <= 0.2
    assert support(space, "What is my brother's name?")["bro"] <= 0.2   # a nationality is no name
    assert planner._copular_names("My brother is Spanish.", "") == set()
    # names folded, as _relation_names gives them
    assert planner._copular_names("The user's wife is Hélène.", "") == {("wife", "helen")}


# -- yes_no_names: the false side of "Is X's sister called N?" -------------------------------------------------

def test_a_yes_no_question_on_a_name_is_answered_by_the_name_stated_otherwise(tmp_path):
    space = space_of([said("yusuf", "My brother Yusuf is driving up from Leicester on Friday.", "Tariq"),
                      said("omar", "I'm seeing my cousin Omar at the weekend.", "Nadia"),
                      said("hi", "Have a good time with him!", "Tariq")], tmp_path)
    question = "Is Tariq's brother called Omar?"
    assert support(space, question, caller="tariq")["yusuf"] == 1.0
    assert support(space, question, caller="tariq", off="yes_no_names")["yusuf"] <= 0.2
    assert support(space, question, caller="tariq")["omar"] == 0.0        # Nadia's cousin Omar
    assert support(space, "Is Tariq's brother named Yusuf?", caller="tariq")["yusuf"] == 1.0   # the twin: yes
    assert support(space, "Is Nadia's brother called Omar?", caller="tariq")["omar"] == 0.0


def test_a_name_asked_yes_no_is_no_subject_every_record_must_hold(tmp_path):
    space = space_of([fact("sis", "My sister is Clara."), fact("cousin", "My cousin Rosa lives in Seville.")],
                     tmp_path)
    assert support(space, "Is my sister named Rosa?")["sis"] == 1.0
    assert support(space, "Is my sister named Rosa?")["cousin"] == 0.0
    # off: the question was read as stating that Rosa is the sister, and the cousin answered
    assert support(space, "Is my sister named Rosa?", off="yes_no_names")["cousin"] > 0.2
    assert planner.yes_no_name("Is my husband's name Tom?") == frozenset({"tom"})
    assert planner.yes_no_name("Is my sister a nurse?") == frozenset()


def test_a_name_after_the_categorys_verb_is_a_member(tmp_path):
    space = space_of([fact("legia", "I support Legia Warsaw."), fact("bro", "My brother supports Lech Poznań."),
                      fact("kids", "My son is called Jonas and my daughter is called Ewa."),
                      fact("married", "I'm married to Agnieszka.")], tmp_path)
    assert support(space, "Which team do I support?")["legia"] > 0.2
    assert support(space, "Which team do I support?", off="class_lexicon")["legia"] <= 0.2
    assert support(space, "Which team do I support?")["bro"] == 0.0      # the brother's team
    assert support(space, "Which team does my brother support?")["bro"] > 0.2
    negated = space_of([fact("no", "I don't support Arsenal any more."),
                        fact("bro", "My brother supports Lech Poznań."),
                        fact("kids", "My son is called Jonas.")], tmp_path / "negated")
    assert support(negated, "Which team do I support?")["no"] <= 0.2


def test_a_relation_word_the_lexicon_adds_is_the_owners_not_another_persons(tmp_path):
    space = space_of([said("karim", "Élodie's husband Karim might want it, ask him.", "Bernard"),
                      fact("wife", "The user's wife is Colette.")], tmp_path)
    assert support(space, "Who is my partner?", caller="bernard")["wife"] > 0.2
    assert support(space, "Who is my partner?", caller="bernard")["karim"] == 0.0


def test_a_name_after_the_categorys_verb_answers_only_what_the_record_holds(tmp_path):
    space = space_of([said("fan", "I'm a huge fan of the Lakers, never miss a game.", "Tim"),
                      said("sign", "I just signed with the Minnesota Wolves!", "John")], tmp_path)
    assert support(space, "Which team did Tim sign with?", caller="x")["fan"] <= 0.2
