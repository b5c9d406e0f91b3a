"""Reference retrievers run beside ours over the same turns, in the same process.

Contract: each baseline is ``rank(turns, question, limit) -> list[str]``, the
refs of the best turns, best first, de-duplicated (first appearance wins),
at most ``limit``; turns that share no term with the question are not returned,
so a baseline "abstains" exactly when it returns nothing.

- ``bm25_turns``: BM25 Okapi (rank_bm25 defaults k1=1.5, b=0.75, epsilon=0.25)
  over single turns. ``TurnBM25`` builds the index once per haystack.
- ``refind_pairs``: a ReFind-style retriever. BM25 over adjacent turn pairs
  (turn i + turn i+1 of the same session; a one-turn session is its own
  "pair"), rebuilt on every call; each session scores the reciprocal ranks of
  its matching pairs (RRF, k=60), and a pair's final score fuses its own rank
  with its session's rank (RRF again). A pair contributes both its turns.

Tokenizer: ``memory.retrieval.tokenize.tokenize`` when importable (so the
baselines see words as our engine does), else lowercase ``\\w+`` minus a short
stop list; ``TOKENIZER`` names the one in use, for the report.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence

import numpy as np
from rank_bm25 import BM25Okapi

from memory.importers import Turn

RRF_K = 60
BM25_PARAMS = {"k1": 1.5, "b": 0.75, "epsilon": 0.25}

_WORD = re.compile(r"\w+")
_STOP_WORDS = frozenset(
    "a an and are as at be but by did do does for from had has have he her his how i in is it its "
    "me my of on or s she so t that the their them they this to was we were what when where which "
    "who why will with you your".split()
)


def _fallback_tokenize(text: str) -> list[str]:
    return [word for word in _WORD.findall(text.lower()) if word not in _STOP_WORDS]


try:  # The engine's tokenizer is written in parallel; until it lands, use the fallback.
    from memory.retrieval.tokenize import tokenize as _tokenize

    TOKENIZER = "memory.retrieval.tokenize"
except ImportError:
    _tokenize = _fallback_tokenize
    TOKENIZER = "fallback:lowercase-words-minus-stopwords"


@functools.lru_cache(maxsize=1 << 17)
def tokens(text: str) -> tuple[str, ...]:
    """Cached: ``refind_pairs`` re-tokenizes the same turns on every query otherwise."""
    return tuple(_tokenize(text))


class TurnBM25:
    """BM25 over single turns, built once; ``rank`` may be called per question."""

    def __init__(self, turns: Sequence[Turn]) -> None:
        self.refs = [turn.ref for turn in turns]
        self._index = _bm25([tokens(turn.text) for turn in turns])

    def rank(self, question: str, limit: int) -> list[str]:
        if self._index is None:
            return []
        order = _matching_order(self._index, tokens(question))
        return _unique([self.refs[i] for i in order], limit)


def bm25_turns(turns: Sequence[Turn], question: str, limit: int) -> list[str]:
    return TurnBM25(turns).rank(question, limit)


def refind_pairs(turns: Sequence[Turn], question: str, limit: int) -> list[str]:
    pairs = adjacent_pairs(turns)
    index = _bm25([sum((tokens(turn.text) for turn in pair), ()) for pair in pairs])
    if index is None:
        return []
    pair_order = _matching_order(index, tokens(question))
    fused = fuse_session_rrf([pairs[i][0].session for i in pair_order])
    return _unique([turn.ref for position in fused for turn in pairs[pair_order[position]]], limit)


def adjacent_pairs(turns: Sequence[Turn]) -> list[tuple[Turn, ...]]:
    """(turn i, turn i+1) within each session, in order; a lone turn stands alone."""
    pairs: list[tuple[Turn, ...]] = []
    for session_turns in _by_session(turns):
        if len(session_turns) == 1:
            pairs.append((session_turns[0],))
        pairs.extend(zip(session_turns, session_turns[1:]))
    return pairs


def fuse_session_rrf(sessions_by_rank: Sequence[str], k: int = RRF_K) -> list[int]:
    """Re-rank items (given best first by their own score) with their session's RRF rank.

    ``sessions_by_rank[i]`` is the session of the item at rank i+1. A session's
    score is the sum of 1/(k + rank) over its items; an item's fused score is
    1/(k + its rank) + 1/(k + its session's rank). Returns positions, best first;
    ties keep the original order.
    """
    session_score: dict[str, float] = {}
    for rank, session in enumerate(sessions_by_rank, start=1):
        session_score[session] = session_score.get(session, 0.0) + 1.0 / (k + rank)
    ordered_sessions = sorted(session_score, key=lambda s: -session_score[s])
    session_rank = {session: rank for rank, session in enumerate(ordered_sessions, start=1)}
    fused = [1.0 / (k + rank) + 1.0 / (k + session_rank[session]) for rank, session in enumerate(sessions_by_rank, start=1)]
    return sorted(range(len(fused)), key=lambda position: -fused[position])


Ranker = Callable[[str, int], list[str]]

BASELINES: dict[str, Callable[[Sequence[Turn], str, int], list[str]]] = {
    "bm25_turns": bm25_turns,
    "refind_pairs": refind_pairs,
}


def prepare_baselines(turns: Sequence[Turn]) -> dict[str, Ranker]:
    """Per haystack, each baseline as ``rank(question, limit)``, built as early as its definition allows.

    Plain BM25 indexes the haystack once here; the ReFind-style baseline is
    defined as rebuilt per query, so it only closes over the turns.
    """
    turns = list(turns)
    return {
        "bm25_turns": TurnBM25(turns).rank,
        "refind_pairs": functools.partial(refind_pairs, turns),
    }


def _bm25(documents: list[Sequence[str]]) -> BM25Okapi | None:
    # rank_bm25 divides by the mean document length: an all-empty corpus has none.
    if not any(documents):
        return None
    return BM25Okapi([list(doc) for doc in documents], **BM25_PARAMS)


def _matching_order(index: BM25Okapi, query: Sequence[str]) -> list[int]:
    """Documents sharing a term with the query, by descending score, ties in corpus order.

    Matching is decided on the terms, not on score > 0: rank_bm25 floors a
    common term's IDF at epsilon x the mean IDF, which can be zero or negative
    in a small haystack, and such a turn still matched.
    """
    terms = set(query)
    if not terms:
        return []
    scores = index.get_scores(list(query))
    order = np.argsort(-scores, kind="stable")
    return [int(i) for i in order if not terms.isdisjoint(index.doc_freqs[i])]


def _by_session(turns: Sequence[Turn]) -> list[list[Turn]]:
    groups: dict[str, list[Turn]] = {}
    for turn in turns:
        groups.setdefault(turn.session, []).append(turn)
    return list(groups.values())


def _unique(refs: list[str], limit: int) -> list[str]:
    seen: set[str] = set()
    result = []
    for ref in refs:
        if ref not in seen:
            seen.add(ref)
            result.append(ref)
            if len(result) == limit:
                break
    return result
