"""A question's coverage must not depend on the interpreter's hash seed: its term weights are
summed in question order. Summed in a set's order, the last bit of a coverage followed
PYTHONHASHSEED, so two runs of one benchmark could break a tie differently."""
from memory import planner


class _Index:
    def df(self, term: str) -> int:
        return 0 if term.startswith("unseen") else 3


class _Space:
    index = _Index()

    def weight(self, term: str) -> float:
        return 1.0 / (1 + len(term))


def test_term_weights_follow_the_question_order():
    terms = ["zebra", "apple", "mango", "kiwi", "unseenword", "banana", "cherry", "date", "fig", "grape"]
    weights = planner._term_weights(_Space(), terms, frozenset(), 2.0, frozenset({"unseenword"}), 4.0)
    assert list(weights) == terms


def test_repeated_terms_are_weighed_once():
    weights = planner._term_weights(_Space(), ["kiwi", "fig", "kiwi"], frozenset(), 1.0)
    assert list(weights) == ["kiwi", "fig"]
