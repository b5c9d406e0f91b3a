"""Issue 13, honest abstention on conversations: a question that swaps the speakers of a real
event ("What did Caroline realize after her charity race?" when Melanie ran it) abstains, and one
about what its speaker did still answers. One test per mechanism, each failing with it off:
``pronoun_scope`` (who a piece of a sentence is about), ``stated_contest`` (what contests an
answer is what a record states, not what it asks), ``decision.swap_ratio`` (the question asked of
the other speaker is answered far better). The shapes are written here, not copied from the
public sets' questions.
"""
from __future__ import annotations

import json

from memory import planner
from memory.decision import Match, confidence, decide, swapped_better
from memory.policy import ForgettingPolicy, load_policies, load_policy
from memory.paths import PROJECT_ROOT
from test_planner_features import features, space_of, turn
from test_trust import ALL, support
from test_trust_support import KEYED

ON = (*ALL, "subject_gate_only", "sentence_attribution")


# -- pronoun_scope: who each piece of a sentence is about -------------------------------------------

def test_your_thing_in_a_first_person_sentence_is_the_others(tmp_path):
    records = [turn("jon", "Jon", "Thanks, Gina! Your bakery looks great, I remember it!"),
               turn("gina", "Gina", "The bakery is doing great, so busy lately.")]
    space = space_of(records, tmp_path)
    question = "How is Jon's bakery doing?"
    assert support(space, question, *ON, "pronoun_scope", **KEYED)["jon"] == 0.0
    assert support(space, question, *ON, **KEYED)["jon"] > 0.2
    # what Jon says of himself in the same sentence still counts for him
    assert support(space, "What does Jon remember?", *ON, "pronoun_scope", **KEYED)["jon"] > 0.2


def test_congratulations_are_about_the_one_congratulated(tmp_path):
    records = [turn("jon", "Jon", "Hey Gina, congrats on the new bakery!"),
               turn("gina", "Gina", "Thanks, it opened last week.")]
    space = space_of(records, tmp_path)
    question = "When did Jon open his new bakery?"
    assert support(space, question, *ON, "pronoun_scope", **KEYED)["jon"] == 0.0
    assert support(space, question, *ON, **KEYED)["jon"] > 0.2


def test_a_short_name_said_to_the_other_speaker_makes_the_sentence_theirs(tmp_path):
    records = [turn("car", "Caroline", "That charity marathon sounds great, Mel! So rewarding."),
               turn("mel", "Melanie", "I ran a charity marathon last Sunday.")]
    space = space_of(records, tmp_path)
    question = "What did Caroline think about her charity marathon?"
    assert support(space, question, *ON, "pronoun_scope", **KEYED)["car"] == 0.0
    assert support(space, question, *ON, **KEYED)["car"] > 0.2


def test_news_after_a_greeting_stays_the_speakers_and_after_you_the_others(tmp_path):
    records = [turn("mel", "Melanie", "Hey Caroline, that roadtrip last weekend was wild!"),
               turn("car", "Caroline", "I'm so proud of you for finishing the roadtrip."),
               turn("x", "Caroline", "Hi!")]
    space = space_of(records, tmp_path)
    assert support(space, "When did Melanie go on a roadtrip?", *ON, "pronoun_scope", **KEYED)["mel"] > 0.2
    assert support(space, "When did Caroline finish the roadtrip?", *ON, "pronoun_scope", **KEYED)["car"] == 0.0
    assert support(space, "When did Caroline finish the roadtrip?", *ON, **KEYED)["car"] > 0.2


def test_clause_owners_cut_at_person_words():
    pieces = planner._clause_owners("Your bakery looks great, I remember it!", "Jon", frozenset({"Gina"}))
    assert [(sorted(who), text.strip()) for who, text in pieces if text.strip()] == [
        (["Gina"], "Your bakery looks great,"), (["Jon"], "I remember it!")]


def test_a_question_about_the_other_speaker_states_nothing_of_them(tmp_path):
    # the asked sentence names the thing, the stated one is the speaker's own project
    # ("Do you have any thriller projects?" asks Nate; by whole sentences it made "thriller" his)
    records = [turn("jo", "Joanna", "Hey Nate, I'm writing a new thriller these days. "
                                    "Do you have any thriller projects?"),
               turn("nate", "Nate", "Sure.")]
    space = space_of(records, tmp_path)
    question = "What thriller is Nate writing these days?"
    assert support(space, question, *ON, "pronoun_scope", **KEYED)["jo"] == 0.0
    assert support(space, question, *ON, **KEYED)["jo"] > 0.2


# -- stated_contest: a question turn does not contest an answer ---------------------------------------

POLICY = ForgettingPolicy(load_policy("forgetting", PROJECT_ROOT / "config"))
NOW = "2024-06-01T00:00:00Z"


def _match(rid: str, coverage: float, support_value: float, **extra) -> Match:
    record = {"id": rid, "kind": "episode", "status": "active", "statement": rid, "memory_key": None,
              "valid_time": {"from": "2024-01-01T00:00:00Z", "to": None},
              "sensitivity": {"classification": "private"},
              "supersession": {"supersedes": [], "superseded_by": None}}
    return Match(record, 1.0, 0.5, coverage, "2024-01-01T00:00:00Z", support=support_value, **extra)


def _state(matches, **ratios) -> str:
    return decide(matches, as_of=NOW, now=NOW, policy=POLICY, min_coverage=0.2, scope_label="user:u",
                  query_terms=["x"], support_ratio=0.5, **ratios).knowledge_state


def test_a_turn_that_only_asks_does_not_contest_the_answer():
    # "What's your favourite genre?" holds every word of the question and states none of them
    answer, asking = _match("answer", 0.3, 0.3, stated=0.3), _match("asking", 1.0, 0.0, stated=0.1)
    assert _state([answer, asking]) == "VERIFIED"
    assert confidence([answer, asking], 0.5) == 0.3
    without = [_match("answer", 0.3, 0.3), _match("asking", 1.0, 0.0)]   # stated not measured: coverage
    assert _state(without) == "UNKNOWN"
    assert confidence(without, 0.5) == 0.0


def test_stated_support_is_coverage_over_what_a_record_states(tmp_path):
    records = [turn("ask", "Nate", "What's your favourite film genre?"),
               turn("say", "Nate", "I love sci-fi films.")]
    space = space_of(records, tmp_path)
    question = "What is Nate's favourite film genre?"
    stated = planner.support(space, question, KEYED, features(*ON), ungated=True)
    gated = planner.support(space, question, KEYED, features(*ON))
    assert stated("ask") < 0.5 and gated("ask") == 0.0
    assert stated("say") == gated("say") > 0


# -- decision.swap_ratio: the question asked of the other speaker -------------------------------------

def test_the_question_is_asked_of_each_other_speaker(tmp_path):
    records = [turn("a", "Caroline Smith", "hello"), turn("b", "Melanie", "hi")]
    space = space_of(records, tmp_path)
    assert planner.swapped_questions(space, "What did Caroline's team paint?") == ["What did Melanie's team paint?"]
    assert planner.swapped_questions(space, "What did Melanie paint?") == ["What did Caroline paint?"]
    assert planner.swapped_questions(space, "What did Caroline and Melanie paint?") == []
    assert planner.swapped_questions(space, "What did I paint?") == []
    assert planner.swapped_questions(space, "What did Melanie paint?", caller="melanie") == []


def test_a_question_answered_far_better_of_the_other_speaker_abstains():
    # "What did Caroline realize after her charity race?": Caroline's best turn shares a word or
    # two; asked of Melanie, her own turn holds the whole question
    weak, swapped = _match("car", 0.4, 0.3, swapped=0.0), _match("mel", 0.55, 0.0, swapped=0.9)
    assert _state([weak, swapped], swap_ratio=0.6) == "UNKNOWN"
    assert confidence([weak, swapped], 0.3, 0.6) == 0.0
    assert _state([weak, swapped]) == "VERIFIED"                     # swap_ratio 0: off
    assert confidence([weak, swapped], 0.3) == 0.3
    # a question about what its speaker did: the swapped question is answered no better
    assert not swapped_better([_match("own", 0.8, 0.8, swapped=0.5)], 0.6)


def test_the_swap_test_end_to_end_over_a_conversation(tmp_path):
    records = [turn("mel", "Melanie", "After the charity race I realized that self-care matters."),
               turn("car", "Caroline", "I realized a lot after moving to the city.")]
    chat = [turn(f"f{i}", "Melanie" if i % 2 else "Caroline", f"chat number {i} about the weather", session="s2")
            for i in range(12)]
    space = space_of(records + chat, tmp_path)
    question = "What did Caroline realize after the charity race?"
    asked = planner.support(space, question, KEYED, features(*ON, "pronoun_scope"))
    (swapped_text,) = planner.swapped_questions(space, question)
    swapped = planner.support(space, swapped_text, KEYED, features(*ON, "pronoun_scope"))
    matches = [_match(rid, 0.5, asked(rid), swapped=swapped(rid)) for rid in ("mel", "car")]
    assert max(asked(rid) for rid in ("mel", "car")) > 0.2     # answered without the swap test
    assert _state(matches) == "VERIFIED"
    assert _state(matches, swap_ratio=0.6) == "UNKNOWN"


# -- policy files written before these keys -------------------------------------------------------------

def test_an_older_policy_file_reads_these_keys_as_off(tmp_path):
    import shutil
    folder = tmp_path / "config"
    shutil.copytree(PROJECT_ROOT / "config", folder)
    path = folder / "retrieval-policy.json"
    data = json.loads(path.read_text())
    del data["decision"]["swap_ratio"], data["features"]["pronoun_scope"], data["features"]["stated_contest"]
    del data["planner"]["question_form_weight"], data["features"]["reply_answers"]
    path.write_text(json.dumps(data))
    retrieval = load_policies(folder).retrieval
    assert retrieval.decision["swap_ratio"] == 0
    assert not retrieval.feature("pronoun_scope") and not retrieval.feature("stated_contest")
    assert retrieval.planner["question_form_weight"] == 1 and not retrieval.feature("reply_answers")



# -- the abstention curve is the decision's rule: abstain at or below the threshold ------------------

def test_the_curve_abstains_at_the_threshold_as_the_decision_does():
    from memory.benchmark.datasets import abstention_curve
    at_bar = _match("turn", 0.2, 0.2)
    assert _state([at_bar]) == "UNKNOWN"       # support must exceed min_coverage 0.2
    rows = [{"should_abstain": True, "confidence": 0.2}, {"should_abstain": False, "confidence": 0.0},
            {"should_abstain": False, "confidence": 0.6}]
    curve = {p["threshold"]: p for p in abstention_curve(rows)}
    assert curve[0.2]["abstained"] == 2 and curve[0.2]["recall"] == 1.0
    assert curve[0.0]["abstained"] == 1       # nothing supports an answer: abstains at any threshold


# -- planner.question_form_weight: the words that shape a question are no terms an answer must hold ---

def test_question_form_terms_are_the_quantity_a_how_asks_for():
    assert planner.question_form_terms("How many turtles does Nate have?") == {"mani"}
    assert planner.question_form_terms("How long has Mia been painting?") == {"long"}
    assert planner.question_form_terms("How often does Ann swim?") == {"often"}
    # a term the rest of the question holds stays: here "long" is also what is asked about
    assert planner.question_form_terms("How long is the long course?") == frozenset()
    assert planner.question_form_terms("How did Nate describe the film?") == frozenset()


def test_how_many_does_not_let_a_turn_saying_many_outweigh_the_answer(tmp_path):
    # the other speaker's "so many days" held the rarest word of "How many turtles does Nate
    # have?": asked of her, the question was supported better than by every turn about the turtles
    nate = ["I took my turtles out for a walk today.", "My turtles love strawberries.",
            "The turtles are sleeping in their tank.", "I got the turtles a new friend, now there are three!",
            "Cleaning the turtles' tank takes an hour."]
    records = [turn(f"n{i}", "Nate", text) for i, text in enumerate(nate)]
    records.append(turn("jo", "Joanna", "Good luck, so many days of gaming sound hard!"))
    chat = [turn(f"f{i}", "Nate" if i % 2 else "Joanna", f"chat number {i} about the weather", session="s2")
            for i in range(12)]
    space = space_of(records + chat, tmp_path)
    question = "How many turtles does Nate have?"
    (swapped_text,) = planner.swapped_questions(space, question)

    def state(form_weight):
        settings = dict(KEYED, question_form_weight=form_weight)
        asked = planner.support(space, question, settings, features(*ON, "pronoun_scope"))
        swapped = planner.support(space, swapped_text, settings, features(*ON, "pronoun_scope"))
        matches = [_match(r["id"], 0.5, asked(r["id"]), swapped=swapped(r["id"])) for r in records]
        return _state(matches, swap_ratio=0.6)
    assert state(0) == "VERIFIED"
    assert state(1) == "UNKNOWN"


# -- reply_answers: a reply states what the turn before asked ----------------------------------------

def test_a_reply_states_what_the_other_speaker_asked(tmp_path):
    # "Any plans for the summer, you two?" / "Researching adoption agencies": Caroline's plans for
    # the summer, though her turn says neither word; asked of Melanie, only her own chatter is left
    records = [turn("mel1", "Melanie", "I can't wait for the summer break, it will be so relaxing!"),
               turn("mel2", "Melanie", "What are your plans for the summer, do you have any?"),
               turn("car", "Caroline", "Researching adoption agencies, it's been a dream to have a family."),
               turn("mel3", "Melanie", "That's wonderful news.")]
    chat = [turn(f"f{i}", "Melanie" if i % 2 else "Caroline", f"chat number {i} about the weather", session="s2")
            for i in range(12)]
    space = space_of(records + chat, tmp_path)
    question = "What are Caroline's plans for the summer?"
    on = (*ON, "pronoun_scope")
    assert support(space, question, *on, "reply_answers", **KEYED)["car"] == 1.0
    assert support(space, question, *on, **KEYED)["car"] == 0.0
    # the question turn itself states nothing, and a reply is its own speaker's only
    assert support(space, question, *on, "reply_answers", **KEYED)["mel2"] == 0.0
    assert support(space, "What are Melanie's plans for the summer?", *on, "reply_answers", **KEYED)["car"] == 0.0


def test_a_reply_turns_the_swap_test_on_the_speaker_who_was_asked(tmp_path):
    records = [turn("mel1", "Melanie", "I can't wait for the summer break, it will be so relaxing!"),
               turn("mel2", "Melanie", "What are your plans for the summer, do you have any?"),
               turn("car", "Caroline", "Researching adoption agencies, it's been a dream to have a family.")]
    chat = [turn(f"f{i}", "Melanie" if i % 2 else "Caroline", f"chat number {i} about the weather", session="s2")
            for i in range(12)]
    space = space_of(records + chat, tmp_path)
    question = "What are Melanie's plans for the summer?"
    (swapped_text,) = planner.swapped_questions(space, question)

    def state(*on):
        asked = planner.support(space, question, KEYED, features(*ON, "pronoun_scope", *on))
        swapped = planner.support(space, swapped_text, KEYED, features(*ON, "pronoun_scope", *on))
        matches = [_match(r["id"], 0.5, asked(r["id"]), swapped=swapped(r["id"])) for r in records]
        return _state(matches, swap_ratio=0.6)
    assert state("reply_answers") == "UNKNOWN"
    assert state() == "VERIFIED"
