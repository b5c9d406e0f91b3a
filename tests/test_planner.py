"""The planner's and the decision's word tables are written out as terms (no stemming at import):
each must be exactly the terms of the words it is documented by, so a tokenizer change cannot
leave it behind, and in the order ``tokenize`` gives them (a set built in another order may iterate
in another order under the same hash seed; the answers must stay byte for byte those of the table
built by ``tokenize``)."""
import re

import pytest

from memory import decision, planner
from memory.retrieval.tokenize import tokenize

from helpers import fresh_python

TABLES = ["_TIME_WORDS", "_RELATIONS", "_THING_OWNED", "_THING_POSSESSORS", "_OLD_TERMS", "_NAME_TERMS",
          "_HOW_OFTEN", "_MONTH_TERMS", "_ATTRIBUTES", "_WHEN_NOUNS", "_INDEFINITES"]


@pytest.mark.parametrize("table", TABLES)
def test_each_word_table_is_the_terms_of_its_words(table):
    assert getattr(planner, table) == frozenset(tokenize(getattr(planner, table + "_TEXT")))


@pytest.mark.parametrize("table", TABLES[4:])
def test_a_table_written_out_iterates_as_the_one_tokenize_builds(table):
    assert list(getattr(planner, table)) == list(frozenset(tokenize(getattr(planner, table + "_TEXT"))))


@pytest.mark.parametrize("table", ["_FAVOURITE_KINDS", "_HEAD_KINDS"])
def test_each_group_of_words_is_the_terms_of_its_words(table):
    built = [frozenset(tokenize(words)) for words in getattr(planner, table + "_TEXT")]
    assert getattr(planner, table) == built
    assert [list(group) for group in getattr(planner, table)] == [list(group) for group in built]


def test_the_decisions_filler_is_the_terms_of_its_words():
    assert decision._FILLER == frozenset(tokenize(decision._FILLER_TEXT))
    assert list(decision._FILLER) == list(frozenset(tokenize(decision._FILLER_TEXT)))


def test_the_form_words_and_calling_off_terms_are_the_terms_of_their_words():
    for form, words in planner._FORM_WORDS_TEXT.items():
        assert list(planner._FORM_WORDS[form]) == list(frozenset(tokenize(words)))
    assert planner._CALLING_OFF_TERMS == tuple(tokenize(planner._CALLING_OFF_TEXT))
    assert list(planner._CHANGING_TERMS) == list(frozenset(tokenize(planner._CHANGING_TEXT)))
    assert list(planner._CHANGED_TERMS) == list(frozenset(tokenize(planner._CHANGED_TEXT)))


def test_importing_the_read_path_stems_no_word():
    """Every `memory query` process imports these: a table stemmed at import cost ~36 us a word
    (pure-Python Snowball), ~180 words, before the question was read."""
    code = ("import memory.cli, memory.query, memory.planner, memory.decision\n"
            "from memory.retrieval import tokenize as t\n"
            "print(t._word_term.cache_info().misses, t._stemmer is None)")
    assert fresh_python(code) == ["0", "True"]


def test_the_class_words_are_the_terms_of_their_words():
    built = {}
    for group in planner._CLASSES_TEXT.split(";"):
        name, kinds = group.split(":")
        built[tokenize(name)[0]] = frozenset(tokenize(kinds))
    assert planner._classes() == built
    assert [(name, list(kinds)) for name, kinds in planner._classes().items()] == \
        [(name, list(kinds)) for name, kinds in built.items()]


LAZY_SAMPLES = ["I was born in 1990 and I'm 34 years old", "My number is +44 20 7946 0958", "We went to Paris on Monday",
                "Hey Caroline, that roadtrip was insane!", "Tom doesn't eat meat, not anymore", "My favourite film is Alien",
                "I love hiking with my dog and my cat", "What did you do for a living in 2021?", "Our team and my brother/sister"]


def test_a_pattern_compiled_on_first_use_finds_what_the_compiled_one_finds():
    lazy = {name: value for name, value in vars(planner).items() if isinstance(value, planner._Lazy)}
    lazy.update({f"_ASKED_VALUES {kind}": value for kind, value in planner._ASKED_VALUES})
    lazy.update({f"_STATED_VALUES {kind}": value for kind, value in planner._STATED_VALUES.items()})
    assert len(lazy) >= 60 and all(isinstance(value, planner._Lazy) for value in lazy.values())
    for name, pattern in lazy.items():
        compiled = re.compile(pattern.pattern)
        for text in LAZY_SAMPLES:
            assert [m.span() for m in pattern.finditer(text)] == [m.span() for m in compiled.finditer(text)], name
            assert pattern.findall(text) == compiled.findall(text), name
            assert pattern.split(text) == compiled.split(text), name
            found, expected = pattern.match(text), compiled.match(text)
            assert (found and found.span()) == (expected and expected.span()), name


def test_importing_the_planner_compiles_none_of_its_lazy_patterns():
    code = ("import memory.cli, memory.query\nfrom memory import planner\n"
            "print(sum('search' in vars(v) for v in vars(planner).values() if isinstance(v, planner._Lazy)))")
    assert fresh_python(code) == ["0"]
