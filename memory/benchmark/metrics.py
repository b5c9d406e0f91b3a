"""Retrieval and abstention metrics, and LoCoMo evidence-id normalization.

Contract (all pure):

- ``ranked`` is best-first. An item is an id (``str``) or a group of ids that
  were retrieved together at that rank (a hit plus its context turns, see
  ``with_context``); ``recall_*`` and ``mrr`` accept both, ``ndcg_at_k`` ids only.
- A metric over an empty gold set is ``None`` (undefined, not zero), and
  ``mean`` skips ``None`` so an undefined item never drags an average down.
- ``recall_at_k`` = |gold ∩ top k| / |gold|; ``recall_all_at_k`` is 1.0 only if
  every gold id is in the top k; ``recall_any_at_k`` if any is.
- ``mrr`` = 1 / rank of the first item holding a gold id (0.0 if none).
- ``ndcg_at_k`` uses binary relevance; the ideal ranking puts min(|gold|, k)
  gold ids first.
- ``abstention_scores`` takes (predicted, expected) pairs; precision is None
  when nothing was predicted, recall None when nothing should have been.
"""
from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterable, Sequence

RankedItem = str | Collection[str]

# "D", then the session number, then the turn number, with stray separators
# between them tolerated (e.g. "D:11:26"); leading zeros are dropped (D30:05 = D30:5).
_EVIDENCE_ID = re.compile(r"\s*[Dd]\W*?(\d+)\s*:\W*?(\d+)\s*")
# Several ids written in one string ("D8:6; D9:17") are split on these.
_EVIDENCE_SEPARATORS = re.compile(r"[;,]|\s+(?=[Dd])")


def recall_at_k(ranked: Sequence[RankedItem], gold: Collection[str], k: int) -> float | None:
    if not gold:
        return None
    return len(_found(ranked[:k], gold)) / len(set(gold))


def recall_all_at_k(ranked: Sequence[RankedItem], gold: Collection[str], k: int) -> float | None:
    if not gold:
        return None
    return 1.0 if _found(ranked[:k], gold) == set(gold) else 0.0


def recall_any_at_k(ranked: Sequence[RankedItem], gold: Collection[str], k: int) -> float | None:
    if not gold:
        return None
    return 1.0 if _found(ranked[:k], gold) else 0.0


def mrr(ranked: Sequence[RankedItem], gold: Collection[str]) -> float | None:
    if not gold:
        return None
    gold_set = set(gold)
    for rank, item in enumerate(ranked, start=1):
        if _members(item) & gold_set:
            return 1.0 / rank
    return 0.0


def ndcg_at_k(ranked: Sequence[str], gold: Collection[str], k: int) -> float | None:
    if not gold:
        return None
    gold_set = set(gold)
    seen: set[str] = set()
    dcg = 0.0
    for position, item in enumerate(ranked[:k]):
        # A repeated id is not a second relevant result.
        if item in gold_set and item not in seen:
            dcg += 1.0 / math.log2(position + 2)
        seen.add(item)
    ideal = sum(1.0 / math.log2(position + 2) for position in range(min(len(gold_set), k)))
    return dcg / ideal


def abstention_scores(pairs: Iterable[tuple[bool, bool]]) -> dict[str, float | None]:
    """``pairs`` of (abstained, should_abstain) -> precision, recall and the counts behind them."""
    predicted = expected = correct = 0
    for abstained, should in pairs:
        predicted += abstained
        expected += should
        correct += abstained and should
    return {
        "abstention_precision": correct / predicted if predicted else None,
        "abstention_recall": correct / expected if expected else None,
        "abstained": predicted,
        "should_abstain": expected,
    }


def mean(values: Iterable[float | None]) -> float | None:
    """Arithmetic mean of the defined values; None when there are none."""
    defined = [value for value in values if value is not None]
    return sum(defined) / len(defined) if defined else None


def with_context(ranked: Sequence[str], context: Sequence[Sequence[str]]) -> list[frozenset[str]]:
    """Each ranked id grouped with its context refs: what a reader sees at that rank."""
    groups = []
    for position, ref in enumerate(ranked):
        neighbours = context[position] if position < len(context) else ()
        groups.append(frozenset((ref, *neighbours)))
    return groups


def normalize_evidence(raw: Iterable[str], known: Collection[str] | None = None) -> tuple[list[str], list[str]]:
    """Split and canonicalize LoCoMo evidence ids -> (resolved ids, unresolved raw pieces).

    A piece is unresolved when it does not parse as an evidence id, or when
    ``known`` (the conversation's turn refs) is given and no turn has it.
    Resolved ids are returned as written in ``known`` (canonical form when
    ``known`` is None), de-duplicated, in first-seen order.
    """
    by_canonical = None if known is None else {_canonical(ref) or ref: ref for ref in known}
    resolved: list[str] = []
    unresolved: list[str] = []
    for piece in _pieces(raw):
        canonical = _canonical(piece)
        ref = canonical if by_canonical is None or canonical is None else by_canonical.get(canonical)
        if ref is None:
            unresolved.append(piece)
        elif ref not in resolved:
            resolved.append(ref)
    return resolved, unresolved


def _pieces(raw: Iterable[str]) -> Iterable[str]:
    for entry in raw:
        for piece in _EVIDENCE_SEPARATORS.split(entry):
            if piece.strip():
                yield piece.strip()


def _canonical(piece: str) -> str | None:
    match = _EVIDENCE_ID.fullmatch(piece)
    return f"D{int(match.group(1))}:{int(match.group(2))}" if match else None


def _members(item: RankedItem) -> frozenset[str]:
    return frozenset((item,)) if isinstance(item, str) else frozenset(item)


def _found(items: Iterable[RankedItem], gold: Collection[str]) -> set[str]:
    gold_set = set(gold)
    found: set[str] = set()
    for item in items:
        found |= _members(item) & gold_set
    return found
