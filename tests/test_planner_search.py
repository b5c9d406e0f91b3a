"""SearchSpace.scores and search against a naive reference: neighbour smoothing (every
match raises its neighbours' best), then ``heapq.nlargest`` of every smoothed score. ``search``
picks its top by a faster path on small scopes (``planner._best``): the lists must be equal,
floats and the order of ties included, which scores drawn from a few binary fractions make
frequent."""
from __future__ import annotations

import heapq
from operator import itemgetter

import pytest
from hypothesis import given, settings, strategies as st

from memory import planner
from memory.retrieval.bm25 import BM25Index

# a small vocabulary: many documents share terms, scores tie often (equal documents)
VOCAB = ["alpha", "beta", "gamma", "delta", "eps"]


def reference_scores(space: planner.SearchSpace, tokens: list[str]) -> dict[str, float]:
    """The smoothing as first written: each match raises its neighbours' best."""
    scored = {rid: s for rid, s in space.index.scores(tokens).items() if rid in space.records}
    if space.neighbour_weight <= 0 or not space.sessions:
        return scored
    neighbours: dict[str, tuple[str, ...]] = {}
    for turns in space.sessions.values():
        turns = [rid for rid in turns if rid in space.records]
        for at, rid in enumerate(turns):
            neighbours[rid] = tuple(turns[max(at - 1, 0):at] + turns[at + 1:at + 2])
    best: dict[str, float] = {}
    for rid, score in scored.items():
        for neighbour in neighbours.get(rid, ()):
            if score > best.get(neighbour, 0.0):
                best[neighbour] = score
    smoothed = dict(scored)
    for rid, score in best.items():
        smoothed[rid] = scored.get(rid, 0.0) + space.neighbour_weight * score
    return smoothed


def assert_same_as_reference(space: planner.SearchSpace, tokens: list[str], limit: int) -> None:
    want = reference_scores(space, tokens)
    assert list(space.scores(tokens).items()) == list(want.items())  # values and order
    assert space.search(tokens, limit) == heapq.nlargest(limit, want.items(), key=itemgetter(1))


def space_of(docs: list[list[str]], session_of: list[int], hidden: set[int], weight: float) -> planner.SearchSpace:
    index = BM25Index()
    for i, tokens in enumerate(docs):
        index.add(f"d{i}", tokens)
    records = {f"d{i}": {"id": f"d{i}"} for i in range(len(docs)) if i not in hidden}
    sessions: dict[str, list[str]] = {}
    for i, session in enumerate(session_of):
        if session >= 0:
            sessions.setdefault(f"s{session}", []).append(f"d{i}")
    space = planner.SearchSpace(index, records, sessions)
    space.neighbour_weight = weight
    return space


@st.composite
def bm25_cases(draw):
    n = draw(st.integers(1, 40))
    docs = draw(st.lists(st.lists(st.sampled_from(VOCAB), min_size=1, max_size=6), min_size=n, max_size=n))
    session_of = draw(st.lists(st.integers(-1, 4), min_size=n, max_size=n))
    hidden = draw(st.sets(st.integers(0, n - 1), max_size=n // 4))
    weight = draw(st.sampled_from([0.0, 0.25, 0.5, 1, 1.5, 3.0]))
    tokens = draw(st.lists(st.sampled_from(VOCAB + ["missing"]), min_size=1, max_size=4))
    return space_of(docs, session_of, hidden, weight), tokens, draw(st.integers(0, n + 2))


@settings(max_examples=200, deadline=None)
@given(bm25_cases())
def test_smoothing_equals_the_reference_loop_on_a_real_index(case):
    space, tokens, limit = case
    assert_same_as_reference(space, tokens, limit)


class FixedScores:
    """An index that answers any query with the given scores, in the given order."""

    def __init__(self, scores: dict[str, float], ids: list[str]) -> None:
        self._scores, self._ids = scores, ids

    def scores(self, tokens) -> dict[str, float]:
        return dict(self._scores)

    def doc_ids(self) -> list[str]:
        return list(self._ids)


@st.composite
def exact_cases(draw):
    """Scores and weights that are binary fractions, zero and negative ones among them (tiny
    corpora score so): sums are exact, so smoothed scores tie all the time, where a wrong order
    or a non-positive neighbour counted as a lift shows. Some turns sit in two sessions (more
    than two neighbours: the loop path)."""
    n = draw(st.integers(1, 30))
    ids = [f"d{i}" for i in range(n)]
    matched = draw(st.lists(st.sampled_from(ids), unique=True))
    values = st.sampled_from([-1.0, -0.5, 0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0])
    scores = {rid: draw(values) for rid in matched}  # the scoring order is the drawn order
    sessions: dict[str, list[str]] = {}
    for rid in draw(st.permutations(ids)):
        for session in draw(st.sets(st.integers(0, 3), max_size=2 if draw(st.integers(0, 9)) == 0 else 1)):
            sessions.setdefault(f"s{session}", []).append(rid)
    hidden = draw(st.sets(st.sampled_from(ids), max_size=n // 4))
    space = planner.SearchSpace(FixedScores(scores, ids), {rid: {} for rid in ids if rid not in hidden}, sessions)
    space.neighbour_weight = draw(st.sampled_from([0.25, 0.5, 1, 2.0]))
    return space, draw(st.integers(0, n + 2))


@settings(max_examples=400, deadline=None)
@given(exact_cases())
def test_smoothing_equals_the_reference_loop_on_exact_ties(case):
    space, limit = case
    assert_same_as_reference(space, ["q"], limit)


def test_tied_turns_reached_through_a_weak_first_neighbour_keep_its_order():
    # session r1 n1 r n2 r2, scored r, r2, r1: the weak r, scored first, reaches n1 then n2;
    # the strong r1 and r2 lift both to the same score, and r2 (scored before r1) lifts n2 first
    scores = {"r": 0.25, "r2": 1.0, "r1": 1.0}
    ids = ["r", "r2", "r1", "n1", "n2"]
    space = planner.SearchSpace(FixedScores(scores, ids), {rid: {} for rid in ids},
                                {"s": ["r1", "n1", "r", "n2", "r2"]})
    space.neighbour_weight = 2.0
    assert space.search(["q"], 2) == [("n1", 2.0), ("n2", 2.0)]
    assert_same_as_reference(space, ["q"], 5)


def test_a_turn_between_non_positive_matches_is_not_lifted():
    scores = {"a": -0.5, "b": 0.0, "c": 1.0}
    ids = ["a", "x", "b", "c", "y"]
    space = planner.SearchSpace(FixedScores(scores, ids), {rid: {} for rid in ids}, {"s": ids})
    space.neighbour_weight = 0.5
    # x sits between a (negative) and b (zero): not lifted, so not returned; y follows c
    assert space.scores(["q"]) == {"a": -0.5, "b": 0.5, "c": 1.0, "y": 0.5}
    assert_same_as_reference(space, ["q"], 5)


# ``search`` smooths only the records that can reach its top (``SearchSpace._smoothed_top``)
# once the matches outnumber four times the limit: many matches, small limits


@st.composite
def wide_bm25_cases(draw):
    n = draw(st.integers(30, 160))
    docs = draw(st.lists(st.lists(st.sampled_from(VOCAB), min_size=1, max_size=6), min_size=n, max_size=n))
    session_of = draw(st.lists(st.integers(-1, 6), min_size=n, max_size=n))
    hidden = draw(st.sets(st.integers(0, n - 1), max_size=n // 4))
    weight = draw(st.sampled_from([0.25, 0.5, 1, 1.5, 3.0]))
    tokens = draw(st.lists(st.sampled_from(VOCAB + ["missing"]), min_size=1, max_size=4))
    return space_of(docs, session_of, hidden, weight), tokens, draw(st.integers(1, 8))


@settings(max_examples=200, deadline=None)
@given(wide_bm25_cases())
def test_the_top_of_many_matches_equals_the_reference_loop_on_a_real_index(case):
    space, tokens, limit = case
    assert_same_as_reference(space, tokens, limit)


@st.composite
def wide_exact_cases(draw):
    """As ``exact_cases``, with many matches against the limit: few distinct scores, so ties
    sit across the bound and between lifted turns whose first lifter differs."""
    n = draw(st.integers(20, 120))
    ids = [f"d{i}" for i in range(n)]
    matched = draw(st.lists(st.sampled_from(ids), unique=True, min_size=n // 2))
    values = st.sampled_from([-1.0, 0.0, 0.25, 0.5, 1.0, 2.0, 4.0])
    scores = {rid: draw(values) for rid in matched}
    sessions: dict[str, list[str]] = {}
    for rid in draw(st.permutations(ids)):
        for session in draw(st.sets(st.integers(0, 5), max_size=2 if draw(st.integers(0, 9)) == 0 else 1)):
            sessions.setdefault(f"s{session}", []).append(rid)
    hidden = draw(st.sets(st.sampled_from(ids), max_size=n // 4))
    space = planner.SearchSpace(FixedScores(scores, ids), {rid: {} for rid in ids if rid not in hidden}, sessions)
    space.neighbour_weight = draw(st.sampled_from([0.25, 0.5, 1, 2.0]))
    return space, draw(st.integers(1, 6))


@settings(max_examples=400, deadline=None)
@given(wide_exact_cases())
def test_the_top_of_many_matches_equals_the_reference_loop_on_exact_ties(case):
    space, limit = case
    assert_same_as_reference(space, ["q"], limit)


def test_turns_lifted_to_a_tie_keep_the_order_their_first_lifter_gave_them():
    # x sits between the weak p (scored first) and the strong q; y after the strong r. The loop
    # lifts x first (at p), then y: x comes first although r, which sets y's share, precedes q.
    # Enough weak matches that the top is found without smoothing them all
    scores = {"p": 0.25, **{f"w{i}": 0.25 for i in range(20)}, "r": 8.0, "q": 8.0, "m": 3.0,
              "a1": 1.0, "a2": 0.875, "a3": 0.75}
    ids = list(scores) + ["x", "y"]
    space = planner.SearchSpace(FixedScores(scores, ids), {rid: {} for rid in ids},
                                {"s1": ["p", "x", "q"], "s2": ["r", "y"]})
    space.neighbour_weight = 0.5
    assert len(space._smoothed_top(space.index.scores(["q"]), 3)) < len(scores)
    assert space.search(["q"], 3) == [("r", 8.0), ("q", 8.0), ("x", 4.0)]
    assert_same_as_reference(space, ["q"], 3)


@settings(max_examples=200, deadline=None)
@given(wide_bm25_cases(), st.integers(0, 3))
def test_a_kept_part_of_many_matches_ranks_as_the_reference_loop(case, parity):
    # a speaker search: ``keep`` filters the smoothed scores by id, then the best are taken
    space, tokens, limit = case
    keep = lambda items: [(rid, s) for rid, s in items if int(rid[1:]) % 4 != parity]  # noqa: E731
    want = heapq.nlargest(limit, keep(reference_scores(space, tokens).items()), key=itemgetter(1))
    assert space.search(tokens, limit, keep) == want


@settings(max_examples=200, deadline=None)
@given(wide_bm25_cases(), st.integers(0, 8), st.integers(5, 12))
def test_a_speaker_search_keeping_few_of_many_matches_ranks_as_the_reference_loop(case, parity, every):
    # ``keep`` keeps fewer matches than ``limit`` (``SearchSpace._few_kept``): the lifted turns
    # it keeps are found walking the matches best first, not by smoothing every match
    space, tokens, limit = case
    keep = lambda items: [(rid, s) for rid, s in items if int(rid[1:]) % every == parity % every]  # noqa: E731
    want = heapq.nlargest(limit, keep(reference_scores(space, tokens).items()), key=itemgetter(1))
    assert space.search(tokens, limit, keep) == want


@settings(max_examples=400, deadline=None)
@given(wide_exact_cases(), st.integers(0, 6))
def test_a_speaker_search_keeping_few_of_many_matches_ranks_as_the_reference_loop_on_exact_ties(case, parity):
    space, limit = case
    keep = lambda items: [(rid, s) for rid, s in items if int(rid[1:]) % 7 == parity]  # noqa: E731
    want = heapq.nlargest(limit, keep(reference_scores(space, ["q"]).items()), key=itemgetter(1))
    assert space.search(["q"], limit, keep) == want


@pytest.mark.parametrize("limit, kept, want", [
    # x is lifted first (at the weak p, scored first), y at r; both reach 4.0 from q and r, which
    # the walk meets in BM25 order (r first): the lifted turns keep the loop's order
    (3, {"x", "y", "m"}, [("x", 4.0), ("y", 4.0), ("m", 3.0)]),
    # the walk must go on through a match whose share only ties the floor: x ties y and m
    (2, {"x", "y", "n"}, [("n", 4.0), ("x", 4.0)]),
])
def test_a_speaker_search_keeping_few_matches_finds_the_tied_turns_in_the_loops_order(limit, kept, want):
    scores = {"p": 0.25, **{f"w{i}": 0.25 for i in range(30)}, "r": 8.0, "q": 8.0, "m": 3.0, "n": 4.0}
    ids = list(scores) + ["x", "y"]
    space = planner.SearchSpace(FixedScores(scores, ids), {rid: {} for rid in ids},
                                {"s1": ["p", "x", "q"], "s2": ["r", "y"]})
    space.neighbour_weight = 0.5
    keep = lambda items: [(rid, s) for rid, s in items if rid in kept]  # noqa: E731
    assert len(keep(scores.items())) < limit < len(scores) // (4 * planner._LIFTERS)   # ``_few_kept``'s case
    assert space.search(["q"], limit, keep) == want
    assert want == heapq.nlargest(limit, keep(reference_scores(space, ["q"]).items()), key=itemgetter(1))


# ``search`` over many matches scores only those that can reach its pool (``_pruned_scores``,
# ``QueryScores.at_least``: MaxScore): the same list, floats and order of ties as scoring all.
# Skewed term frequencies, so that common terms' parts cannot reach the pool alone


@st.composite
def pruned_cases(draw):
    n = draw(st.integers(40, 200))
    words = st.sampled_from(["the"] * 6 + ["day"] * 3 + ["rain", "rain", "hike", "lake", "zebra"])
    docs = draw(st.lists(st.lists(words, min_size=1, max_size=8), min_size=n, max_size=n))
    session_of = draw(st.lists(st.integers(-1, 8), min_size=n, max_size=n))
    weight = draw(st.sampled_from([0.25, 0.5, 1, 1.5]))
    tokens = draw(st.lists(st.sampled_from(["the", "day", "rain", "hike", "lake", "zebra", "the"]),
                           min_size=2, max_size=5))
    return space_of(docs, session_of, set(), weight), tokens, draw(st.integers(1, 6))


@settings(max_examples=250, deadline=None)
@given(pruned_cases())
def test_a_search_scoring_only_the_matches_that_can_count_ranks_as_scoring_all(case):
    space, tokens, limit = case
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(planner, "_PRUNE_FROM", 1)      # prune however few the matches
        assert_same_as_reference(space, tokens, limit)


def test_a_search_leaves_out_the_matches_of_common_terms_that_cannot_count():
    # 300 documents hold "the", 12 "the" and "rain", 30 "zebra": the best 2 of 'the rain zebra'
    # come from the rare terms' matches; most of "the"'s alone cannot reach the pool
    docs = [["the", "x"]] * 300 + [["the", "rain"]] * 12 + [["zebra", "y"]] * 30
    space = space_of(docs, [i // 3 for i in range(len(docs))], set(), 0.5)
    scores = space.index.query_scores(["the", "rain", "zebra"])
    held = scores.at_least(scores.score(300 + 11) * 0.99)
    assert held is not None and len(held) < 100
    assert list(held) == scores.in_order(held)
    assert held == {slot: value for slot, value in scores.whole().items() if slot in held}
    assert list(held) == [slot for slot in scores.whole() if slot in held]
