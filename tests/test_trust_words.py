"""Issue 13, session 9 (words9, trust-dev19): the asked thing in other words, and only the asked thing.

A member or an amount answers only in the role asked: a category's member said as the means of a
journey is no member of what one does (``member_roles``), "How do I get to work?" asks the means,
which a record about work stating none does not give (``means_answers``), an amount answers only for
the thing it is the amount of (``amount_things``), and a clause negated by the very word the question
asks ("allergic to penicillin") or, for a yes/no question, plainly negated ("I don't eat meat")
states what it names (``negated_synonyms``). Each test measures support with the shipped policy and
with its key off, so that it fails for the bug it names; the twins on the same store keep their answer.
"""
from __future__ import annotations

from memory import planner
from memory.retrieval import lexicon
from memory.retrieval.tokenize import tokenize
from test_planner_features import space_of
from test_trust import fact
from test_trust_outside import support


def test_a_member_used_as_the_means_of_a_journey_is_no_sport(tmp_path):
    space = space_of([fact("cycle", "I cycle to the clinic along the river.", key="user.commute"),
                      fact("kendo", "I train in kendo at the dojo on Saturday mornings.", key="user.kendo"),
                      fact("sumo", "My dad and I watch the sumo on TV every January.", key="user.sumo")], tmp_path)
    got = support(space, "Which sport do I do?")
    assert got["cycle"] == 0.0 and got["sumo"] == 0.0 and got["kendo"] > 0.2
    off = support(space, "Which sport do I do?", off="member_roles")
    assert off["cycle"] > 0.2 and off["sumo"] > 0.2
    # the twins: a question asking what one watches reads the watched member
    assert support(space, "Which sport do I watch?")["sumo"] > 0.2


def test_the_head_of_any_medical_conditions_is_the_condition(tmp_path):
    space = space_of([fact("migraine", "I've had migraines since my twenties.", key="user.migraine"),
                      fact("ibu", "I take ibuprofen when my knee acts up.", key="user.knee")], tmp_path)
    got = support(space, "Do I have any medical conditions?")
    assert got["migraine"] > 0.2 and got["ibu"] == 0.0
    off = support(space, "Do I have any medical conditions?", off="member_roles")
    assert off["migraine"] == 0.0   # "medical" was read as the medication asked


def test_how_do_i_get_to_work_asks_the_means(tmp_path):
    space = space_of([fact("shift", "My shift at the clinic starts at 8:30 on weekdays.", key="user.shift"),
                      fact("job", "I work as a bus driver in Cardiff.", key="user.job"),
                      fact("cycle", "I cycle to the clinic along the river.", key="user.commute")], tmp_path)
    got = support(space, "How do I get to work?")
    assert got["shift"] == 0.0 and got["job"] == 0.0   # "bus" names the job, no journey
    assert support(space, "How do I get to work?", off="means_answers")["job"] > 0.2
    assert planner._states_means("I cycle to the clinic along the river.", "How do I get to work?")
    assert not planner._states_means("My shift at the clinic starts at 8:30 on weekdays.", "How do I get to work?")


def test_an_amount_answers_only_for_its_own_thing(tmp_path):
    space = space_of([fact("flat", "I rent a two-bedroom flat in Koregaon Park.", key="user.home"),
                      fact("due", "My rent is due on the fifth of every month.", key="user.rent_due"),
                      fact("salary", "My salary in 2025 was 95,000 rupees a month.", key="user.salary"),
                      fact("phone", "I pay 1,800 rupees a month for my phone and internet.", key="user.phone")],
                     tmp_path)
    for question in ("What was my rent in 2025?", "How much rent did I pay in 2025?", "How much is my rent?"):
        got = support(space, question)
        assert all(value == 0.0 for value in got.values()), (question, got)
    assert support(space, "What was my rent in 2025?", off="amount_things")["due"] > 0.2
    assert support(space, "How much rent did I pay in 2025?", off="amount_things")["phone"] > 0.2
    assert support(space, "How much is my rent?", off="amount_things")["flat"] > 0.2
    # the twin: the salary answers for the salary, and for the income of its thesaurus group
    assert support(space, "What was my salary in 2025?")["salary"] > 0.2
    assert support(space, "What was my income in 2025?")["salary"] > 0.0


def test_allergic_to_names_the_medicine_and_dont_eat_meat_settles_the_diet(tmp_path):
    space = space_of([fact("pen", "I'm allergic to penicillin, it gives me hives.", key="user.allergy"),
                      fact("meat", "I don't eat meat or fish.", key="user.diet"),
                      fact("used", "My brother used to be vegetarian.", key="brother.diet")], tmp_path)
    assert support(space, "Which antibiotic am I allergic to?")["pen"] > \
        support(space, "Which antibiotic am I allergic to?", off="negated_synonyms")["pen"]
    assert support(space, "Which antibiotic do I take?")["pen"] == 0.0
    # a plain negation settles a yes/no question; what ended settles nothing now
    eat = frozenset(tokenize("eat meat"))
    assert eat <= lexicon.stated_terms("I don't eat meat or fish.", frozenset(), True)
    assert not eat <= lexicon.stated_terms("I don't eat meat or fish.", frozenset(), False)
    assert not eat <= lexicon.stated_terms("I used to not eat meat.", frozenset(), True)


def test_the_lexicon_knows_races_conditions_and_personal_bests(tmp_path):
    space = space_of([fact("half", "I'm training for the Valencia half marathon in October.", key="user.training"),
                      fact("hay", "I get hay fever every spring.", key="user.hayfever"),
                      fact("pb", "My 10k personal best is 52:30, set in Aix.", key="user.10k")], tmp_path)
    assert support(space, "Which race am I training for?")["half"] > 0.2
    assert support(space, "Which race am I training for?", off="class_lexicon")["half"] < 0.5
    assert support(space, "Do I have any health conditions?")["hay"] > 0.2
    asked = lexicon.asked_synonyms(tokenize("What is my fastest 10k?"))
    assert lexicon.synonym_held(asked, frozenset(tokenize("My 10k personal best is 52:30")))
