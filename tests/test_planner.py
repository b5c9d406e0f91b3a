"""The planner's word tables are written out as terms (no stemming at import): each must be
exactly the terms of the words it is documented by, so a tokenizer change cannot leave it behind."""
import pytest

from memory import planner
from memory.retrieval.tokenize import tokenize


@pytest.mark.parametrize("table", ["_TIME_WORDS", "_RELATIONS", "_THING_OWNED", "_THING_POSSESSORS"])
def test_each_word_table_is_the_terms_of_its_words(table):
    assert getattr(planner, table) == frozenset(tokenize(getattr(planner, table + "_TEXT")))
