"""Issue 13, session 10 (lead): a word said only inside a longer phrase of the thesaurus is that
phrase (``features.whole_compounds``). The demo store's first question, "where does the user live?",
cited "The user takes their coffee as a flat white with oat milk" as evidence: the home group's "flat"
was read out of the coffee group's "flat white". Each test measures support with the shipped policy
and with the key off, so that it fails for the bug it names; the twins keep their answer."""
from __future__ import annotations

from memory import api
from memory.policy import load_policies
from memory.retrieval import lexicon
from memory.retrieval.tokenize import tokenize
from memory.store import Store


def _answer(root, off: bool):
    policies = load_policies()
    if off:
        policies.retrieval.data["features"]["whole_compounds"] = False
    store = Store.create(root, policies=policies)
    api.add(store, "demo", "The user takes their coffee as a flat white with oat milk.", key="user.coffee_order",
            aliases=["coffee order", "drink"])
    api.add(store, "demo", "The user lives in Berlin.", key="user.home_city")
    api.add(store, "demo", "The user does not eat meat.", key="user.diet")
    return api.query(store, "where does the user live?", "demo")


def test_a_flat_white_is_no_flat(tmp_path):
    answer = _answer(tmp_path / "on", off=False)
    assert answer.knowledge_state == "VERIFIED"
    assert [item.statement for item in answer.evidence] == ["The user lives in Berlin."]
    cited = [item.statement for item in _answer(tmp_path / "off", off=True).evidence]
    assert "The user takes their coffee as a flat white with oat milk." in cited


def test_the_word_said_on_its_own_as_well_is_still_held():
    asked = lexicon.asked_synonyms(tokenize("Where does the user live?"))
    alone = "Ordered a flat white and walked back to the flat."
    assert lexicon.synonym_held(asked, frozenset(tokenize(alone)), alone, compounds=True)
    coffee = "A flat white with oat milk."
    assert not lexicon.synonym_held(asked, frozenset(tokenize(coffee)), coffee, compounds=True)
    assert lexicon.synonym_held(asked, frozenset(tokenize(coffee)), coffee, compounds=False)


def test_only_side_by_side_words_make_the_phrase():
    assert lexicon._only_in_compounds("flat", tokenize("a flat white with oat milk"))
    assert not lexicon._only_in_compounds("flat", tokenize("a white-walled flat by the sea"))
    assert not lexicon._only_in_compounds("flat", tokenize("the flat has a view, and a flat white"))  # once alone
