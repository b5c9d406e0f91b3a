"""Reference retrievers run beside ours over the same turns, in the same process.

Contract: each baseline is ``rank(turns, question, limit) -> list[str]``, the
refs of the best turns, best first, de-duplicated (first appearance wins),
at most ``limit``; turns that share no term with the question are not returned,
so a baseline "abstains" exactly when it returns nothing.

- ``bm25_turns``: BM25 Okapi (rank_bm25 defaults k1=1.5, b=0.75, epsilon=0.25)
  over single turns, each indexed as "speaker: text" (``turn_document``).
  ``TurnBM25`` builds the index once per haystack.
- ``refind_pairs``: a ReFind-style retriever, rebuilt on every call. BM25
  ranks adjacent turn pairs (turn i + turn i+1 of the same session; a
  one-turn session is its own "pair") and, separately, whole sessions; the
  two rankings are fused by reciprocal rank fusion (k=60): a pair scores
  1/(60 + its rank) + 1/(60 + its session's rank), and contributes both its
  turns, in conversation order. (Ranking sessions by the summed reciprocal
  ranks of their pairs instead was measured worse on LoCoMo, R@5 0.49 vs 0.60:
  speaker names make nearly every pair match, so long sessions won.)

Tokenizer: ``memory.retrieval.tokenize.tokenize`` when importable (so the
baselines see words as our engine does), else lowercase ``\\w+`` minus a short
stop list; ``TOKENIZER`` names the one in use, for the report.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence

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


def turn_document(turn: Turn) -> tuple[str, ...]:
    """A turn's terms as the baselines index them: the speaker's name, then the text.

    LoCoMo questions name the speaker ("When did Caroline ..."); indexing the
    name is what the published BM25 reference does (measured on the LoCoMo
    subset: R@5 0.504 -> 0.529 with it).
    """
    return tokens(f"{turn.speaker}: {turn.text}")


class TurnBM25:
    """BM25 over single turns, built once; ``rank`` may be called per question."""

    def __init__(self, turns: Sequence[Turn]) -> None:
        self.refs = [turn.ref for turn in turns]
        self._index = _bm25([turn_document(turn) for turn in turns])

    def rank(self, question: str, limit: int) -> list[str]:
        if self._index is None:
            return []
        order = _matching_order(self._index, tokens(question))
        return _unique([self.refs[i] for i in order], limit)


def bm25_turns(turns: Sequence[Turn], question: str, limit: int) -> list[str]:
    return TurnBM25(turns).rank(question, limit)


def refind_pairs(turns: Sequence[Turn], question: str, limit: int) -> list[str]:
    query = tokens(question)
    pairs = adjacent_pairs(turns)
    pair_index = _bm25([_joined(pair) for pair in pairs])
    if pair_index is None:
        return []
    pair_order = _matching_order(pair_index, query)
    sessions = _by_session(turns)
    session_order = _matching_order(_bm25([_joined(session) for session in sessions]), query)
    session_rank = {sessions[i][0].session: rank for rank, i in enumerate(session_order, start=1)}
    fused = fuse_session_rrf([pairs[i][0].session for i in pair_order], session_rank)
    return _unique([turn.ref for position in fused for turn in pairs[pair_order[position]]], limit)


def adjacent_pairs(turns: Sequence[Turn]) -> list[tuple[Turn, ...]]:
    """(turn i, turn i+1) within each session, in order; a lone turn stands alone."""
    pairs: list[tuple[Turn, ...]] = []
    for session_turns in _by_session(turns):
        if len(session_turns) == 1:
            pairs.append((session_turns[0],))
        pairs.extend(zip(session_turns, session_turns[1:]))
    return pairs


def fuse_session_rrf(sessions_by_rank: Sequence[str], session_rank: Mapping[str, int], k: int = RRF_K) -> list[int]:
    """Re-rank items (given best first) by reciprocal rank fusion with their session's rank.

    ``sessions_by_rank[i]`` is the session of the item at rank i+1; an item's
    fused score is 1/(k + its rank) + 1/(k + its session's rank), the session
    term 0 for a session that did not rank. Returns positions, best first;
    ties keep the original order.
    """
    def fused(position: int) -> float:
        rank = session_rank.get(sessions_by_rank[position])
        return 1.0 / (k + position + 1) + (1.0 / (k + rank) if rank else 0.0)

    return sorted(range(len(sessions_by_rank)), key=lambda position: -fused(position))


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


def _joined(turns: Sequence[Turn]) -> tuple[str, ...]:
    return sum((turn_document(turn) for turn in turns), ())


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
