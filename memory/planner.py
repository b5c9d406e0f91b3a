"""The deterministic planner: several BM25 searches, notes, fusion, context.

Offline and repeatable. Steps (each can be switched off in the retrieval
policy's ``features``): search the whole question; search its entities,
numbers and dates; search again with terms learned from the first results
(pseudo-relevance feedback); for a first-person question, search the caller's own turns
(``planner.own_turns_weight``); rank by sentence embedding (``dense_search``, an optional
extra); fuse the rankings with reciprocal rank fusion, per record and per session (sessions
ranked by BM25 over whole sessions, ``planner.session_weight``); expand episodes to
neighbouring turns of the same session. It stops within ``planner.max_steps`` searches.
It only reads.
"""
from __future__ import annotations

import heapq
import math
import re
import unicodedata
import weakref
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter

from .retrieval import lexicon
from .retrieval.patterns import Lazy as _Lazy   # a module pattern compiled when first used
from .retrieval.temporal import relative_date_words
from .retrieval.tokenize import tokenize


@dataclass
class Candidate:
    record_id: str
    score: float = 0.0          # BM25 of the whole question
    fused: float = 0.0
    coverage: float = 0.0
    attributed: bool = True     # holds every term the question is about (``attribution``)


@dataclass
class PlanResult:
    candidates: list[Candidate]
    query_terms: list[str]
    steps: list[dict] = field(default_factory=list)


# ``SearchSpace._smoothed_top``: the neighbours of the best ``_LIFTERS * limit`` matches are
# smoothed exactly, the rest bounded
_LIFTERS = 2
# ``SearchSpace._pruned_scores``: the postings a search must leave out to score only some matches
# (fewer: the passes that pick them cost more than scoring them all)
_PRUNE_FROM = 12000


def _smoother(weight: float, sources_of: Callable, scored_of: Callable, key_of: Callable) -> Callable:
    """A record's smoothed score as ``SearchSpace._smoothed`` writes it: its own score plus
    ``weight`` times the best score among the records it neighbours (``_smoothed_top`` and
    ``_few_kept`` score the records they keep with it, on the same floats)."""
    def smoothed(rid: str, score: float) -> float:
        best = 0.0
        for source in sources_of(rid):
            value = scored_of(key_of(source), 0.0)
            if value > best:
                best = value
        return score + weight * best if best > 0.0 else score
    return smoothed


class SearchSpace:
    """What the planner may read: one scope's index and the records it may return."""

    # the ``dense_search`` arm: a ``retrieval.dense.DenseIndex`` over these records, or None
    # with the reason in ``dense_note`` (the extra is not installed: lexical search goes on)
    dense = None
    dense_note: str | None = None

    def __init__(self, index, records: dict[str, dict], sessions: dict[str, list[str]] | None = None,
                 memo: dict | None = None) -> None:
        self.index = index
        self.records = records
        self.sessions = sessions or {}
        self.neighbour_weight = 0.0
        # speakers and neighbours depend only on records and sessions: a caller that reuses
        # them across queries passes one memo so they are computed once, not per query
        self._memo = {} if memo is None else memo
        self._asked: dict = {}   # ``asked``: per question, this object's own

    def asked(self, name: str) -> dict:
        """A named cache of what a question's tests work out from the question and this whole
        space, not per record (the support test is set up several times per question: as
        asked, ungated, with the speakers swapped). Kept by this object only: a query makes its
        own space, and a write the next query reads makes the next one."""
        found = self._asked.get(name)
        if found is None:
            found = self._asked[name] = {}
        return found

    def memo(self, name: str) -> dict:
        """A named cache of values that depend only on this space's records (shared by the
        queries of one cached view; entries are only ever added, never changed)."""
        found = self._memo.get(name)      # not ``setdefault(name, {})``: asked ~700 times a query,
        if found is None:                 # each call built a dict only to drop it
            found = self._memo[name] = {}
        return found

    def search(self, tokens: list[str], limit: int, keep: Callable | None = None) -> list[tuple[str, float]]:
        """``_best(self.scores(tokens), limit)``, smoothing only the records that can be among
        the ``limit`` best (``_smoothed_top``) and, of many matches, scoring only those that can
        reach its pool (``_pruned_scores``): the same list, floats and order of ties. ``keep``
        ((id, score) pairs -> those of them to rank, in order, by id alone: a speaker search
        keeps its speakers' records) filters the smoothed scores first."""
        smoothing = self.neighbour_weight > 0 and self.sessions
        scored_slots = getattr(self.index, "scored_slots", None)
        if smoothing and scored_slots is not None and self._returns_every_indexed_record():
            # scores keyed by the index's slots: only the records kept are named by id
            pruned = self._pruned_scores(tokens, limit) if keep is None else None
            if pruned is not None:
                return _best(self._smoothed_top(pruned, limit, None, pruned.tables), limit)
            by_slot, ids, slot_of = scored_slots(tokens)
            return _best(self._smoothed_top(by_slot, limit, keep, (ids, slot_of)), limit)
        scored = self._bm25_scores(tokens)
        if not smoothing:
            return _best(scored if keep is None else dict(keep(scored.items())), limit)
        return _best(self._smoothed_top(scored, limit, keep), limit)

    def _pruned_scores(self, tokens: list[str], limit: int) -> "_Pruned | None":
        """The scores ``_smoothed_top`` reads of a search with many matches, worked out only for
        the matches that can reach its pool (``_Pruned``); None when the index cannot say which
        (then every match is scored). Two floors, each a score every match that counts reaches:
        the ``_LIFTERS * limit``-th best of a few matches' scores (those of the rarest terms), under
        which no match is among the ``_LIFTERS * limit`` best; then, with those best scores
        exact, the pool's ``low`` as ``_smoothed_top`` works it out (``_pool_bounds``), which
        checks it again and scores every match if it is below."""
        query_scores = getattr(self.index, "query_scores", None)
        if query_scores is None or limit <= 0 or len(self.index) < _PRUNE_FROM:
            return None                 # (no posting of a smaller index holds that many)
        scores = query_scores(tokens)
        largest, total = scores.matches()
        if largest < _PRUNE_FROM:
            return None
        sample = scores.sample(2 * _LIFTERS * limit)
        if len(sample) < _LIFTERS * limit:
            return None
        best = scores.at_least(heapq.nlargest(_LIFTERS * limit, sample)[-1], _PRUNE_FROM)
        if best is None or len(best) < _LIFTERS * limit:
            return None
        best = heapq.nlargest(_LIFTERS * limit, best.values())
        if best[limit - 1] <= 0.0:
            return None
        bounds = _pool_bounds(best[limit - 1], best[-1], self.neighbour_weight)
        if bounds is None:
            return None
        floor = bounds[-1]
        held = scores.at_least(floor, _PRUNE_FROM)
        return None if held is None else _Pruned(scores, held, floor)

    def scores(self, tokens: list[str]) -> dict[str, float]:
        """BM25 of every record this space may return that holds a term; with a
        ``neighbour_weight``, a turn also scores that share of its best neighbour's BM25
        (a turn-pair view computed at query time: an answer often sits one turn after the
        question that names its topic, "What did you think of it?" / "I loved it")."""
        scored = self._bm25_scores(tokens)
        if self.neighbour_weight <= 0 or not self.sessions:
            return scored
        return self._smoothed(scored)

    def _bm25_scores(self, tokens: list[str]) -> dict[str, float]:
        scored = self.index.scores(tokens)
        if not self._returns_every_indexed_record():
            scored = {rid: s for rid, s in scored.items() if rid in self.records}
        return scored

    def _smoothed(self, scored: dict[str, float]) -> dict[str, float]:
        """Every scored record with its neighbour's share, then the unscored turns lifted by a
        neighbour, in the order they were first lifted (``_best`` breaks ties by this order)."""
        # the hot loop of a query: names bound locally; a score <= 0 never beats the default.
        # A store's current view works neighbours out when first asked and keeps them: the loop
        # reads what is known (a dict) and asks only for the rest
        neighbours = self._neighbours()
        if hasattr(neighbours, "known"):
            known = neighbours.known()
            if len(known) < len(scored):
                # a view new to this process: the lifters' neighbours worked out in one go (one
                # hold of the view's lock, not one per hit); a warm view knows most, and a pass
                # to find the few it does not would cost more than it saves
                neighbours.compute_many([rid for rid, score in scored.items() if score > 0.0 and rid not in known])
            known_of, compute = known.get, neighbours.compute
        else:
            known_of, compute = neighbours.get, lambda rid: ()
        best = {}
        best_of, weight = best.get, self.neighbour_weight
        for rid, score in scored.items():
            if score > 0.0:
                found = known_of(rid)
                for neighbour in (compute(rid) if found is None else found):
                    if score > best_of(neighbour, 0.0):
                        best[neighbour] = score
        smoothed = dict(scored)
        scored_of = scored.get
        for rid, score in best.items():
            smoothed[rid] = scored_of(rid, 0.0) + weight * score
        return smoothed

    def _smoothed_top(self, scored: dict, limit: int, keep: Callable | None = None,
                      slots: tuple | None = None) -> dict[str, float]:
        """The records of ``_smoothed(scored)`` that can be among its ``limit`` best, with the
        same scores in the same order: ``_best`` of this equals ``_best`` of ``_smoothed``, and
        only these records' neighbours are looked at (at 100k records a question's terms match
        tens of thousands; the loop of ``_smoothed`` over all of them was half a query).

        Why nothing that counts is left out. A share is never negative, so the ``limit`` best
        BM25 scores stay at least ``theta`` (the ``limit``-th of them) once smoothed: the
        ``limit``-th best smoothed score is at least ``theta`` (of the kept ones: ``keep`` goes
        by id, and ``theta`` is then the ``limit``-th best kept BM25 score). ``high`` is at most
        the ``_LIFTERS * limit``-th best BM25 score; the records scoring at least that are the
        lifters, and their neighbours are smoothed exactly. Any other record has no lifter for
        a neighbour, so its share is at most ``weight * high``: a scored record below ``theta -
        weight * high``, and (when ``weight * high < theta``) every unscored turn, end below
        ``theta`` (``margin`` covers the rounding of these bounds). They follow the ``limit``
        best whatever their order, so leaving them out changes neither the top nor its order
        (a stable sort of what is left). The same holds against any ``limit`` smoothed scores
        already worked out (a floor that rises as records are smoothed, best BM25 first), which
        ends the walk early. Kept records are smoothed by the same expression as in
        ``_smoothed``, scored ones in ``scored`` order, unscored ones after them in the order
        ``_smoothed`` lifts them first (``_first_lift_order``).

        ``slots``: ``scored`` is keyed by index slot, ``slots`` is (slot -> id, id -> slot) and
        only the records kept are named by id (the same records, scores and order: the index
        maps its slot scores to ids in order)."""
        if slots is None:
            key_of = id_of = _same
        else:
            ids, slot_of = slots
            key_of, id_of = slot_of.get, ids.__getitem__
        pruned = scored if isinstance(scored, _Pruned) else None

        def by_id(lifts: Callable | None = None) -> dict[str, float]:
            whole = scored if pruned is None else pruned.whole()
            if lifts is not None:           # the kept records, and every match in their sessions
                return {id_of(key): value for key, value in whole.items() if lifts(key)}
            return whole if slots is None else {ids[slot]: value for slot, value in whole.items()}

        def everything() -> dict[str, float]:
            if keep is None:
                return self._smoothed(by_id())
            # a match ``lifts`` passes by has no kept neighbour and is not kept (``_lifter``): the
            # kept records' smoothed scores, and their order, are those of every match
            smoothed = self._smoothed(by_id(_lifter(keep, slots)))
            return dict(keep(smoothed.items()))
        if limit <= 0 or _fewer_than(scored, 4 * _LIFTERS * limit + 1):
            return everything()
        best = heapq.nlargest(_LIFTERS * limit, scored.values())
        ranked = None if keep is None else _kept(keep, scored, id_of, slots)
        lifts = None if keep is None else _lifter(keep, slots)
        if ranked is not None and len(ranked) < limit:
            return self._few_kept(scored, limit, keep, ranked, key_of, id_of, lifts)
        theta = best[limit - 1] if ranked is None else heapq.nlargest(limit, ranked.values())[-1]
        weight = self.neighbour_weight
        if theta <= 0.0:
            return everything()
        # the lifters: the best ``_LIFTERS * limit``, and at least every record scoring half the
        # ``theta / weight`` that could lift an unscored turn to ``theta`` (so ``cut`` is at
        # least ``theta / 2``: a speaker search's ``theta`` may be far below the best scores)
        bounds = _pool_bounds(theta, best[-1], weight)
        if bounds is None:
            return everything()                # an unscored turn could reach the top: all of them
        high, share, margin, cut, low = bounds
        if pruned is not None and low < pruned.floor:   # the pool may hold matches not scored
            return self._smoothed_top(pruned.whole(), limit, keep, slots)
        # (unpacked, each item's tuple is made only for a match kept: ~half the pass at 100k)
        pool = [(key, score) for key, score in scored.items() if score >= low]
        if _fewer_than(scored, 2 * len(pool)):
            return everything()                # most records can count: nothing to save
        neighbours_of, sources_of = self._neighbour_lookups()
        scored_of = scored.get
        smoothed = _smoother(weight, sources_of, scored_of, key_of)
        exact: dict = {}                        # key -> smoothed score, of the kept records
        unscored: dict[str, None] = {}
        for key, score in pool:
            if score >= high:                   # a lifter: its neighbours are smoothed exactly
                if lifts is not None and not lifts(key):
                    continue                    # a session none of whose turns is kept
                for neighbour in neighbours_of(id_of(key)):
                    found = key_of(neighbour)
                    if found is not None and found in scored:
                        if found not in exact and (ranked is None or neighbour in ranked):
                            exact[found] = smoothed(neighbour, scored_of(found))
                    else:
                        unscored[neighbour] = None
        if keep is not None and unscored:
            unscored = dict(keep(unscored.items()))
        # 0.0 + weight * the best lifter, as ``_smoothed`` writes it: each of these has a lifter
        lifted = {rid: smoothed(rid, 0.0) for rid in unscored}
        # the other records, best BM25 first, until even the largest share cannot lift one to
        # the ``limit``-th best smoothed score found so far (a floor on the true one)
        floor: list[float] = []
        for value in list(exact.values()) + list(lifted.values()):
            if len(floor) < limit:
                heapq.heappush(floor, value)
            elif value > floor[0]:
                heapq.heapreplace(floor, value)
        # (only a match scoring ``cut`` or more is walked: those below it, lifters only, are not sorted)
        walked = pool if low >= cut else [(key, score) for key, score in pool if score >= cut]
        for key, score in sorted(walked, key=itemgetter(1), reverse=True):
            if score < cut or (len(floor) == limit and score + share + margin < floor[0]):
                break
            if key in exact or (ranked is not None and id_of(key) not in ranked):
                continue
            value = exact[key] = smoothed(id_of(key), score)
            if len(floor) < limit:
                heapq.heappush(floor, value)
            elif value > floor[0]:
                heapq.heapreplace(floor, value)
        out = {id_of(key): exact[key] for key in _in_order(scored, exact)}   # in ``scored`` order
        if len(lifted) > 1 and len(set(lifted.values())) < len(lifted):
            order = _first_lift_order(scored, lifted, neighbours_of, sources_of, key_of)
            lifted = {rid: lifted[rid] for rid in order}
        out.update(lifted)
        return out

    def _few_kept(self, scored: dict, limit: int, keep: Callable, ranked: dict[str, float],
                  key_of: Callable, id_of: Callable, lifts: Callable | None = None) -> dict[str, float]:
        """``_smoothed_top`` when ``keep`` keeps fewer than ``limit`` of the matches (a speaker
        search over a common question at 100k: ~40% of speaker searches, up to 6.6k matches,
        each of which the full smoothing gave its neighbours): the kept matches smoothed
        exactly, and of the turns they do not hold but a match lifts, those kept that can be
        among the ``limit`` best, found walking the matches best BM25 first.

        Why nothing that counts is left out. A lifted turn scores ``0.0 + weight * s``, ``s`` the
        best BM25 of the matches it is a neighbour of; the walk meets it at the first of them, so
        a turn not met yet scores at most ``weight * s`` for the ``s`` the walk is at (the same
        expression on the same floats: no rounding margin). Once that is below the ``limit``-th
        best score found (kept matches and lifted turns), no turn left can be among the
        ``limit`` best. The records returned carry ``_smoothed``'s floats, kept matches first
        in ``scored`` order, then lifted turns in the order ``_smoothed`` lifts them first: the
        order ``dict(keep(self._smoothed(...).items()))`` gives them."""
        weight = self.neighbour_weight
        neighbours_of, sources_of = self._neighbour_lookups()
        scored_of = scored.get
        smoothed = _smoother(weight, sources_of, scored_of, key_of)
        out = {rid: smoothed(rid, score) for rid, score in ranked.items()}   # in ``scored`` order
        floor = heapq.nlargest(limit, out.values())
        heapq.heapify(floor)
        lifted: dict[str, float] = {}
        met: set[str] = set()
        for key, score in sorted(scored.items(), key=itemgetter(1), reverse=True):
            if score <= 0.0 or (len(floor) == limit and weight * score < floor[0]):
                break                           # only a match scoring above 0 lifts
            if lifts is not None and not lifts(key):
                continue                        # its neighbours are turns none of which is kept
            fresh = []
            for neighbour in neighbours_of(id_of(key)):
                if neighbour not in met:
                    met.add(neighbour)
                    found = key_of(neighbour)
                    if found is None or found not in scored:
                        fresh.append((neighbour, 0.0))
            for rid, _ in (keep(fresh) if fresh else ()):
                value = lifted[rid] = smoothed(rid, 0.0)
                if len(floor) < limit:
                    heapq.heappush(floor, value)
                elif value > floor[0]:
                    heapq.heapreplace(floor, value)
        if len(lifted) > 1 and len(set(lifted.values())) < len(lifted):     # ties: as first lifted
            order = _first_lift_order(scored, lifted, neighbours_of, sources_of, key_of)
            lifted = {rid: lifted[rid] for rid in order}
        out.update(lifted)
        return out

    def _neighbour_lookups(self) -> tuple[Callable, Callable]:
        """(record id -> its neighbours, record id -> the records it is a neighbour of). A
        store's current view gives each turn the turns before and after it in its session, so
        the two are the same; a plain dict is turned round once (a turn may sit in two
        sessions there)."""
        neighbours = self._neighbours()
        if hasattr(neighbours, "known"):
            known_of, compute = neighbours.known().get, neighbours.compute

            def neighbours_of(rid: str) -> tuple:
                found = known_of(rid)
                return compute(rid) if found is None else found
            return neighbours_of, neighbours_of
        sources = self.memo("neighbour_sources").get("of")
        if sources is None or sources[0] is not neighbours:
            turned: dict[str, list[str]] = {}
            for rid, found in neighbours.items():
                for neighbour in found:
                    turned.setdefault(neighbour, []).append(rid)
            sources = self.memo("neighbour_sources")["of"] = (neighbours, turned)
        return (lambda rid: neighbours.get(rid, ())), (lambda rid: sources[1].get(rid, ()))

    def _returns_every_indexed_record(self) -> bool:
        """True when no indexed record is outside ``records`` (the usual case: a current view
        of the whole scope), so scores need no filtering; checked once per index and view."""
        known = self.memo("covers_index").get("index")
        if known is None or known[0] is not self.index:
            covers_index = getattr(self.records, "covers_index", None)   # a store's current view:
            covers = covers_index(self.index) if covers_index is not None else None  # by cursors
            if covers is None:
                covers_all = getattr(self.records, "covers", None)   # ... or by its id table
                covers = covers_all(self.index.doc_ids()) if covers_all is not None \
                    else all(rid in self.records for rid in self.index.doc_ids())
            known = self.memo("covers_index")["index"] = (self.index, covers)
        return known[1]

    def idf(self, term: str) -> float:
        return self.index.idf(term)

    def terms(self, record_id: str) -> list[str]:
        return self.index.terms(record_id)

    def term_set(self, record_id: str) -> frozenset[str]:
        """The record's distinct terms (coverage asks this of every candidate of every query)."""
        cache = self.memo("term_set")
        terms = cache.get(record_id)
        if terms is None:
            terms = cache[record_id] = frozenset(self.index.terms(record_id))
        return terms

    def weight(self, term: str) -> float:
        n = max(len(self.index), 1)
        df = max(self.index.df(term), 1)
        return math.log(1 + (n - df + 0.5) / (df + 0.5))

    def _neighbours(self) -> dict[str, tuple[str, ...]]:
        """record_id -> the turns just before and after it in its session (computed once)."""
        neighbours = self._memo.get("neighbours")
        if neighbours is None and hasattr(self.records, "neighbours"):
            # a store's current view: each record's neighbours found when asked, not all up front
            neighbours = self._memo["neighbours"] = self.records.neighbours()
        if neighbours is None:
            neighbours = {}
            for turns in self.sessions.values():
                turns = [rid for rid in turns if rid in self.records]
                for at, rid in enumerate(turns):
                    neighbours[rid] = tuple(turns[max(at - 1, 0):at] + turns[at + 1:at + 2])
            self._memo["neighbours"] = neighbours
        return neighbours

    def speaker(self, record_id: str) -> str | None:
        column = getattr(self.records, "column", None)   # a store's current view: no parse
        if column is not None:
            return column("speaker", record_id)
        return (self.records[record_id].get("source") or {}).get("speaker")

    def records_by_speaker(self) -> dict[str | None, frozenset[str]]:
        """Speaker -> the ids of the records they said (None: records without a speaker),
        computed once: a speaker search keeps the scores of a few speakers' records."""
        by_speaker = self._memo.get("records_by_speaker")
        names = getattr(self.records, "speaker_names", None)       # a store's current view
        if by_speaker is None and names is not None and (found := names()) is not None:
            by_speaker = self._memo["records_by_speaker"] = _BySpeaker(self.records, found)
        if by_speaker is None:
            group_ids = getattr(self.records, "group_ids", None)   # a store's current view: by column
            grouped: dict = group_ids("speaker") if group_ids is not None else {}
            if group_ids is None:
                for record_id in self.records:
                    grouped.setdefault(self.speaker(record_id), set()).add(record_id)
            by_speaker = self._memo["records_by_speaker"] = {k: frozenset(v) for k, v in grouped.items()}
        return by_speaker

    def speakers(self) -> dict[str, tuple[str, ...]]:
        """Speaker term -> every speaker whose name holds it, sorted ("maria" -> "Maria Brown",
        "Maria Romano"), over the records this space may return (computed once). Every name
        sharing a term is kept: keeping one would pick it by set order, which changes from one
        process to the next."""
        speakers = self._memo.get("speakers")
        if speakers is None:
            distinct = getattr(self.records, "distinct", None)   # a store's current view: by column
            names = (distinct("speaker") if distinct is not None
                     else {self.speaker(record_id) for record_id in self.records}) - {None}
            by_term: dict[str, list[str]] = {}
            for name in sorted(names):
                for term in tokenize(name):
                    if name not in by_term.setdefault(term, []):
                        by_term[term].append(name)
            speakers = self._memo["speakers"] = {term: tuple(found) for term, found in by_term.items()}
        return speakers


# ``carried_memo``: the memos whose entries are each one record's own, worked out from that record
# alone (its statement, kind, speaker, its terms in the index, the turn before it in its session):
# true of the same record after any number of appended records
_PER_RECORD_MEMOS = ("term_set", "asserted_terms", "record_relations", "record_person", "relation_names",
                     "held_terms", "damped_tfs", "session_of", "asked_before",
                     # read from the record's statement alone (the lexicon's first readings, its
                     # idioms, its mood, whether it says "you" without "I")
                     "lexicon_positive", "lexicon_stated", "lexicon_roles", "lexicon_place", "idiom_held",
                     "mood_marks", "says_only_you")
# per record, and read with the other speakers of its session (``_turn_text``): true until a
# record of that session names a speaker it had not
_SESSION_PEER_MEMOS = ("speaks_about", "sentences_about", "clauses_about")


def carried_memo(memo: dict, older, records, appended: list[str]) -> dict:
    """A ``SearchSpace`` memo for ``records``, from ``memo``, the one of an ``older`` snapshot of
    the same scope, when ``records`` are ``older``'s and ``appended`` after them, unchanged (a
    long-lived reader after a write that only added records): what stays true is kept, what the
    new records change is extended by them or worked out again when asked, so a search after a
    write costs O(appended records), not O(scope). Every value equals what a fresh memo gives.

    - per-record memos (``_PER_RECORD_MEMOS``): kept, shared (entries are only ever added);
    - ``_SESSION_PEER_MEMOS``: kept but for the records of a session an appended record brought a
      new speaker into;
    - ``session_sizes``: kept but for the count of sessions and the sessions appended to;
    - ``session_term_counts`` and ``turns_calling_off``: extended by the appended records when
      first asked (``_term_counts``, ``turns_calling_off``: they read the index);
    - ``speakers``: kept while the appended records bring no new speaker;
    - the rest (the snapshot's neighbours, session speakers, whether the index covers it) is
      worked out again: bound to the snapshot, or O(speakers)."""
    out: dict = {name: memo[name] for name in _PER_RECORD_MEMOS if name in memo}
    carry_parsed = getattr(records, "carry_parsed", None)
    if carry_parsed is not None:
        carry_parsed(older)       # the records ``older`` parsed: not read from the shards again
    if not appended:
        out.update((name, memo[name]) for name in _SESSION_PEER_MEMOS if name in memo)
    elif any(name in memo for name in _SESSION_PEER_MEMOS):
        before = memo.get("session_speakers")
        if before is None:
            before = older.session_speakers()
        sessions = records.column_values("session", appended)
        speakers = records.column_values("speaker", appended)
        # a session with no speaker before holds no turn (no entry): only the others can change
        joined = {session for session, speaker in zip(sessions, speakers)
                  if session and speaker and speaker not in (before.get(session) or (speaker,))}
        for name in _SESSION_PEER_MEMOS:
            if name in memo:
                kept = memo[name] if not joined else dict(memo[name])
                if joined:
                    for record_id, session in zip(list(kept), records.column_values("session", list(kept))):
                        if session in joined:
                            del kept[record_id]
                out[name] = kept
    sizes = memo.get("session_sizes")
    if sizes is not None:
        touched = set(appended) | set(records.column_values("session", appended)) | {""}
        # ``list``: a query of the older view may add a session meanwhile (a copy in one step)
        out["session_sizes"] = {session: size for session, size in list(sizes.items()) if session not in touched}
    pending = memo.get("session_term_counts_from")
    if pending is not None:
        out["session_term_counts_from"] = (pending[0], pending[1] + tuple(appended))
    elif "session_term_counts" in memo:
        out["session_term_counts_from"] = (memo["session_term_counts"], tuple(appended))
    speakers = memo.get("speakers")
    if speakers is not None:
        # kept while the appended records name no speaker it lacks (the records only grew: the
        # distinct names are the older ones and theirs)
        named = {name for found in speakers.values() for name in found}
        if set(records.column_values("speaker", appended)) - {None} <= named:
            out["speakers"] = speakers
    calling = memo.get("turns_calling_off")
    if calling is not None and "found" in calling:
        out["turns_calling_off"] = {"from": (calling["found"], tuple(appended))}
    elif calling is not None and "from" in calling:
        found, earlier = calling["from"]
        out["turns_calling_off"] = {"from": (found, earlier + tuple(appended))}
    return out


class _BySpeaker(Mapping):
    """``SearchSpace.records_by_speaker`` over a store's current view: the speakers in the order
    they first speak, from the view's groups (O(speakers)); their records grouped only when one
    is first asked for (a pass over every record: the planner's callers read the names only,
    and a search after each write of a served scope paid that pass for them)."""

    def __init__(self, records, names: list) -> None:
        self._records, self._names, self._groups = records, dict.fromkeys(names), None

    def __iter__(self):
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def __getitem__(self, name) -> frozenset[str]:
        if self._groups is None:
            self._groups = {k: frozenset(v) for k, v in self._records.group_ids("speaker").items()}
        return self._groups[name]


def _same(value):
    return value


def _kept(keep: Callable, scored: dict, id_of: Callable, slots: tuple | None) -> dict:
    """``dict(keep(...))`` of every (id, score) of ``scored``, in its order; by the index's slots
    when ``keep`` can read them (``current.SpeakerFilter.by_slot``): no id made for a match not kept."""
    by_slot = getattr(keep, "by_slot", None)
    if by_slot is not None and slots is not None:
        found = by_slot(scored, slots[0])
        if found is not None:
            return found
    return dict(keep(zip(map(id_of, scored), scored.values())))


def _lifter(keep: Callable, slots: tuple | None) -> Callable | None:
    """A test of a match's key in ``scored`` that is False only when ``keep`` keeps none of the
    match's neighbours, scored or not (``current.SpeakerFilter.lifter``): such a match neither
    lifts a kept turn nor is a kept turn's lifter, so ``_smoothed_top`` and ``_few_kept`` pass it
    by without reading its neighbours. None: ``keep`` cannot say."""
    lifter = getattr(keep, "lifter", None)
    if lifter is None:
        return None
    return lifter(None if slots is None else slots[0])


def _first_lift_order(scored: dict, lifted: dict[str, float], neighbours_of: Callable,
                      sources_of: Callable, key_of: Callable = _same) -> list[str]:
    """The unscored turns of ``lifted`` in the order ``SearchSpace._smoothed`` lifts them first:
    by the earliest (in ``scored`` order) neighbour scoring above 0 that lifts each, then by
    its place in that neighbour's tuple. Only those neighbours' relative order is looked up.
    ``key_of``: record id -> its key in ``scored`` (an index slot, or the id itself)."""
    lifters = {rid: [source for source in sources_of(rid) if scored.get(key_of(source), 0.0) > 0.0]
               for rid in lifted}
    wanted = {key_of(source): source for found in lifters.values() for source in found}
    position = {wanted[key]: at for at, key in enumerate(_in_order(scored, wanted))}

    def first_lift(rid: str) -> tuple[int, int]:
        first = min(lifters[rid], key=position.__getitem__)
        return position[first], neighbours_of(first).index(rid)
    return sorted(lifted, key=first_lift)


class _Pruned(Mapping):
    """A search's BM25 scores keyed by index slot as ``_smoothed_top`` reads them when they are
    many: iterating gives ``held`` (every match scoring ``floor`` or more, and others, in the
    index's scoring order), ``get`` and ``in`` any match's exact score (``QueryScores.score``),
    ``whole()`` every match scored. ``_fewer_than`` and ``_in_order`` stand for ``len`` and the
    walk of the whole dict's order."""

    def __init__(self, scores, held: dict[int, float], floor: float) -> None:
        self._scores, self._held, self.floor = scores, held, floor
        index = scores._index
        self.tables = (index._ids, index._slot_of)   # slot -> id, id -> slot

    def __getitem__(self, slot: int) -> float:
        found = self.get(slot)
        if found is None:
            raise KeyError(slot)
        return found

    def get(self, slot, default=None):
        found = self._held.get(slot)
        if found is None and slot is not None:     # None: a record the index does not hold
            found = self._scores.score(slot)
        return default if found is None else found

    def __contains__(self, slot: object) -> bool:
        return self.get(slot) is not None

    def __iter__(self):
        return iter(self._held)

    def __len__(self) -> int:
        return len(self._held)

    def items(self):
        return self._held.items()

    def values(self):
        return self._held.values()

    def whole(self) -> dict[int, float]:
        return self._scores.whole()

    def fewer_than(self, count: int) -> bool:
        return self._scores.fewer_than(count)

    def in_order(self, keys) -> list[int]:
        return self._scores.in_order(keys)


def _pool_bounds(theta: float, last: float, weight: float) -> tuple | None:
    """``SearchSpace._smoothed_top``'s bounds from ``theta`` (the ``limit``-th best BM25 score)
    and ``last`` (the ``_LIFTERS * limit``-th): (high, share, margin, cut, low), or None when an
    unscored turn could reach the top."""
    high = min(last, theta / (2 * weight))
    share = weight * high
    margin = 1e-9 * (abs(theta) + abs(share))
    if high <= 0.0 or share >= theta - margin:
        return None
    cut = theta - share - margin
    return high, share, margin, cut, min(cut, high)


def _fewer_than(scored, count: int) -> bool:
    """Whether ``scored`` scores fewer than ``count`` records (``_Pruned``: the whole dict)."""
    return scored.fewer_than(count) if isinstance(scored, _Pruned) else len(scored) < count


def _in_order(scored, keys) -> Iterable:
    """The keys of ``keys`` (each scored) in ``scored``'s order (``_Pruned``: the whole dict's)."""
    return scored.in_order(keys) if isinstance(scored, _Pruned) else filter(keys.__contains__, scored)


def _best(scores: dict[str, float], limit: int) -> list[tuple[str, float]]:
    """The ``limit`` best (id, score), best first, ties in ``scores`` order: exactly
    ``heapq.nlargest(limit, scores.items(), key=itemgetter(1))`` (a stable sort by descending
    score). nlargest walks every item in Python; when they are few against ``limit`` (a search
    of a small scope), sorting the bare floats in C finds the limit-th score, and only the
    items at or above it are sorted, stably, as nlargest would order them."""
    if limit <= 0 or len(scores) > 8 * limit:
        return heapq.nlargest(limit, scores.items(), key=itemgetter(1))
    if len(scores) > limit:
        floor = sorted(scores.values(), reverse=True)[limit - 1]
        items = [(rid, score) for rid, score in scores.items() if score >= floor]
    else:
        items = list(scores.items())
    items.sort(key=itemgetter(1), reverse=True)
    return items[:limit]


# the words, and their terms written out: a query process need not stem them at import
# (tests/test_planner.py holds each table to ``tokenize`` of its words)
_TIME_WORDS_TEXT = (
    "January February March April May June July August September October November December "
    "Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec Monday Tuesday Wednesday Thursday Friday "
    "Saturday Sunday New Year Christmas Easter")
_TIME_WORDS = frozenset({
    "apr", "april", "aug", "august", "christma", "dec", "decemb", "easter", "feb", "februari",
    "friday", "jan", "januari", "jul", "juli", "jun", "june", "mar", "march", "may", "monday", "new",
    "nov", "novemb", "oct", "octob", "saturday", "sep", "sept", "septemb", "sunday", "thursday",
    "tuesday", "wednesday", "year"})


def name_terms(question: str) -> list[str]:
    """Capitalized words past the first: the names a question is about. Numbers, dates, months
    and weekdays are not: in a question they usually set the time, not the subject."""
    words = question.strip().split()[1:]
    return [t for t in tokenize(" ".join(w for w in words if w[:1].isupper())) if t not in _TIME_WORDS]


# a possessor and what it owns: "sister's dog", "kids' school" (overlapping: "Carla's sister's dog")
_POSSESSIVE = _Lazy(r"(?<![\w'])([^\W_][\w-]*?)(?:'s|s')(?!\w)(?=\s+([^\W_][\w-]*))?")
# first-person possessives ("my sister", "our landlord"): the caller owns what follows
_FIRST_PERSON = _Lazy(r"(?i)\b(?:my|our)\s+([^\W_][\w-]*)")
# how agent memories name the scope's owner ("The user lives in Berlin"): "the user's sister" is "my sister"
_OWNER_WORDS = frozenset({"user"})
# nouns that name another person by their relation to the owner: "my sister", "Akira's son".
# Only these become the subject of an owner's possessive; "my local park" or "the user's
# favourite cake" stay about the owner (measured: requiring any owned word cost LongMemEval
# session recall_any@5 0.927 -> 0.802, its questions being first-person).
_RELATIONS_TEXT = (
    "sister sisters brother brothers sibling mother mom mum mommy father dad daddy parent parents "
    "wife husband spouse partner fiance fiancee girlfriend boyfriend son sons daughter daughters "
    "child children kid kids baby grandmother grandma granny grandfather grandpa grandparents "
    "grandson granddaughter grandchild aunt uncle cousin niece nephew stepmother stepfather "
    "stepson stepdaughter friend friends roommate flatmate housemate neighbour neighbor "
    "boss manager colleague coworker teammate landlord landlady tenant mentor therapist doctor "
    "dentist teacher coach nanny babysitter")
_RELATIONS = frozenset({
    "aunt", "babi", "babysitt", "boss", "boyfriend", "brother", "child", "children", "coach",
    "colleagu", "cousin", "cowork", "dad", "daddi", "daughter", "dentist", "doctor", "father", "fianc",
    "fiance", "flatmat", "friend", "girlfriend", "grandchild", "granddaught", "grandfath", "grandma",
    "grandmoth", "grandpa", "grandpar", "grandson", "granni", "housem", "husband", "kid", "landladi",
    "landlord", "manag", "mentor", "mom", "mommi", "mother", "mum", "nanni", "neighbor", "neighbour",
    "nephew", "niec", "parent", "partner", "roommat", "sibl", "sister", "son", "spous", "stepdaught",
    "stepfath", "stepmoth", "stepson", "teacher", "teammat", "tenant", "therapist", "uncl", "wife"})
# ``person_possessors``: possessives that name a thing, not someone's ("Valentine's day",
# "a master's thesis", "New Year's Eve"): by the owned word or by the possessor
_THING_OWNED_TEXT = "day eve night degree degrees diploma thesis program programme course"
_THING_OWNED = frozenset({"cours", "day", "degre", "diploma", "eve", "night", "program", "programm", "thesi"})
_THING_POSSESSORS_TEXT = "master masters bachelor bachelors"
_THING_POSSESSORS = frozenset({"bachelor", "master"})
# "my coworker and brother", "my mom or my dad": relations named side by side are alternatives
_COORDINATED = _Lazy(r"(?i)\b(?:my|our)\s+([^\W_][\w-]*)((?:\s*(?:,|\band\b|\bor\b|&)\s*"
                          r"(?:(?:my|our)\s+)?[^\W_][\w-]*)+)")
_COORDINATED_WORD = _Lazy(r"(?i)(?:,|\band\b|\bor\b|&)\s*(?:(?:my|our)\s+)?([^\W_][\w-]*)")


def named_speakers(space: SearchSpace, question: str) -> set[str]:
    """The scope's speakers a question names ("What did Melanie paint?").

    First-person questions ("What did I buy?") are not pinned to the user's own turns:
    measured on LongMemEval, that lost turn recall (0.739 -> 0.708), as the assistant's
    replies hold facts about the user too."""
    by_term = space.speakers()
    if not by_term:
        return set()
    capitalized = " ".join(w for w in question.split() if w[:1].isupper())
    return {name for t in tokenize(capitalized) if t in by_term for name in by_term[t]}


def speaker_ranking(space: SearchSpace, terms: list[str], speakers: set[str], limit: int) -> list[str]:
    """The question's other terms searched over the named speakers' own records only."""
    names = set(tokenize(" ".join(speakers)))
    content = [t for t in terms if t not in names] or terms
    # each hit's speaker looked up (O(hits)) rather than every record grouped by speaker (O(scope))
    speaker_filter = getattr(space.records, "speaker_filter", None)     # a store's current view: by column
    if speaker_filter is not None:
        keep = speaker_filter(speakers)
    else:
        speaker = space.speaker
        keep = lambda items: [(rid, s) for rid, s in items if speaker(rid) in speakers]  # noqa: E731
    # ``search`` ranks as ``heapq.nlargest(limit, key=itemgetter(1))`` of the kept smoothed scores
    return [rid for rid, _ in space.search(content, limit, keep)]


def _folded(text: str) -> str:
    """Without diacritics: "Amélie" asked by caller "amelie" is the caller."""
    if text.isascii():
        return text  # nothing to decompose; most terms, and this runs per term per candidate
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


@lru_cache(maxsize=4096)
def _speaker_terms(speaker: str) -> frozenset:
    """A speaker's terms, folded and not: a scope has few speakers and many candidates."""
    terms = set(tokenize(speaker))
    return frozenset(terms | {_folded(term) for term in terms})


def subject_terms(space: SearchSpace, question: str, caller: str = "", *,
                  persons_only: bool = False, relations_too: bool = False,
                  roles_out: bool = False, whole_words: bool = False) -> tuple[list[str], list[str]]:
    """What the question is about, which evidence must hold: (every possessor in it but the
    caller, and what the caller possesses — "Carla's sister's dog" asked by Carla -> sister,
    "Akira's son" asked by Akira -> son; at least one of the scope's
    speakers it names — "What did John and Tim discuss?" is answered by either). Never the
    caller's own name. Terms are folded (no diacritics).

    ``persons_only`` (the ``person_possessors`` feature): a possessive that names a thing
    ("Valentine's day", "my master's thesis") has no subject, and relations named side by side
    ("gifts for my coworker and brother") are alternatives, like named speakers: a record about
    either may answer.

    ``roles_out`` (the ``role_possessors`` feature): a possessor that is neither a name nor a
    relation ("the contractor's quote", "the dog's bowl") describes the thing asked about; it is
    not a subject every record must hold ("His quote is 26,000" answers).

    ``whole_words`` (``kinship_model``): a relation is named by its word, not by a word stemming
    alike ("my doctorate" is no "my doctor": ``_relation_terms``)."""
    # the same for each setup of the support test of one question (``SearchSpace.asked``)
    cache = space.asked("subject_terms")
    key = (question, caller, persons_only, relations_too, roles_out, whole_words, len(space.records), len(space.index))
    known = cache.get(key)
    if known is None:
        known = cache[key] = _subject_terms(space, question, caller, persons_only, relations_too, roles_out,
                                                  whole_words)
    return list(known[0]), list(known[1])


def _subject_terms(space: SearchSpace, question: str, caller: str, persons_only: bool, relations_too: bool,
                   roles_out: bool, whole_words: bool) -> tuple[list[str], list[str]]:
    text = _folded(question.replace("\u2019", "'"))
    relation_terms = _relation_terms if whole_words else (lambda word: set(tokenize(word)) & _RELATIONS)
    own = set(tokenize(_folded(caller))) | _OWNER_WORDS
    by_term = {_folded(term) for term in space.speakers()}
    capitalized = " ".join(w for w in text.split() if w[:1].isupper())
    speakers = sorted({t for t in tokenize(capitalized) if t in by_term} - own)
    possessive: set[str] = set()
    for possessor, owned in _POSSESSIVE.findall(text):
        terms = set(tokenize(possessor))
        if persons_only and _names_a_thing(terms, owned):
            continue
        if roles_out and not possessor[:1].isupper() and not terms & (_RELATIONS | own):
            continue
        # "Akira's son" asked by Akira is "my son": the relation is the subject; "Zoe's husband"
        # asked by anyone else is about the husband as well as Zoe (``relation_subjects``)
        relation = relation_terms(owned)
        possessive |= relation if terms and terms <= own else (terms | relation if relations_too else terms)
    for owned in _FIRST_PERSON.findall(text):
        possessive |= relation_terms(owned)
    alternatives = _coordinated_relations(text) if persons_only else set()
    possessive = sorted(possessive - own - set(speakers) - alternatives)
    if alternatives - own:
        speakers = sorted(set(speakers) | (alternatives - own))
    return possessive, speakers


@lru_cache(maxsize=1)
def _relation_words() -> frozenset[str]:
    return frozenset(_RELATIONS_TEXT.split())


def _relation_terms(word: str) -> set[str]:
    """``kinship_model``: the relation term of a word that is a relation word itself ("sister",
    "fiancé"), none for a word only stemming like one ("doctorate", "parenting", "kidding")."""
    if _folded(word.lower()) not in _relation_words():
        return set()
    return set(tokenize(word)) & _RELATIONS


def _kin_groups(space: SearchSpace, question: str) -> dict[str, frozenset[str]]:
    """``kinship_model``: the question's words of a relation's lexicon group whose other words the
    scope holds ("my bird" / "My budgie is called Kiwi"), with those words."""
    groups = lexicon.relation_groups()
    found = {}
    for term in dict.fromkeys(tokenize(question)):
        others = groups.get(term)
        if others and any(space.index.df(other) for other in others):
            found[term] = others
    return found


_NAMED_THING = _Lazy(r"(?i)\b(?:my|our)\s+([^\W\d_][\w-]*)\s+(?:called|named|'s\s+name)\b")


def _named_things(question: str, caller: str, forms: bool) -> frozenset[str]:
    """``kinship_model``: a thing of the owner's whose name is asked ("What's my dog called?"): not a
    relation, an attribute or the owner's own words."""
    own = set(tokenize(_folded(caller))) | _OWNER_WORDS
    found = set()
    for hit in _NAMED_THING.finditer(question.replace("\u2019", "'")):
        terms = tokenize(hit.group(1))
        if len(terms) == 1 and terms[0] not in _RELATIONS | _ATTRIBUTES | own:
            found.add(base_term(terms[0]) if forms else terms[0])
    return frozenset(found)


def _states_other_owned(statement: str, things: frozenset[str]) -> bool:
    """``kinship_model``: whether a statement names a thing of the owner's ("my budgie") that is none
    of ``things`` nor a relation: it is about that thing, not the one asked."""
    for hit in _OWNED_THING.finditer(statement.replace("\u2019", "'")):
        terms = set(tokenize(hit.group(1)))
        if len(terms) == 1 and not terms & (things | _RELATIONS | _ATTRIBUTES) and \
                hit.group(1).lower() not in ("favourite", "favorite", "own", "first", "last", "full", "home"):
            return True
    return False


def _names_a_thing(possessor: set[str], owned: str) -> bool:
    return bool(possessor & _THING_POSSESSORS) or bool(set(tokenize(owned)) & _THING_OWNED)


def _coordinated_relations(text: str) -> set[str]:
    """Relations listed together after "my"/"our": "my coworker and brother" -> both."""
    found: set[str] = set()
    for first, rest in _COORDINATED.findall(text):
        listed = set(tokenize(" ".join([first, *_COORDINATED_WORD.findall(rest)]))) & _RELATIONS
        if len(listed) > 1:
            found |= listed
    return found


_SENTENCE_END = _Lazy(r"(?<=[.!?])\s+")


def asserted_terms(space: SearchSpace, record_id: str) -> frozenset[str]:
    """The record's terms less those only in its questions: "Did you choose a color?" asks
    about a color, it does not state one. Speaker, date and key terms stay."""
    cache = space.memo("asserted_terms")
    terms = cache.get(record_id)
    if terms is None:
        terms = cache[record_id] = frozenset(_asserted_terms(space, record_id))
    return terms


def _asserted_terms(space: SearchSpace, record_id: str) -> frozenset[str]:
    statement = space.records[record_id]["statement"]
    if "?" not in statement:
        return space.term_set(record_id)  # asks nothing: no split, no tokenizing
    sentences = _SENTENCE_END.split(statement)
    asked = set(tokenize(" ".join(x for x in sentences if x.rstrip().endswith("?"))))
    if not asked:
        return space.term_set(record_id)
    stated = set(tokenize(" ".join(x for x in sentences if not x.rstrip().endswith("?"))))
    return space.term_set(record_id) - (asked - stated)


# ``subject_only_abstains``: a question asking what someone does, where, when or how, by an auxiliary
# and no other content word ("What does my mother do?", "Where did Sam go?" with "go" a stop word)
_ASKS_WHAT_DONE = _Lazy(r"(?i)^\s*(?:what|where|when|how|why|which)\b[^?]*\b(?:do|does|did|doing)\b")
_OWNED_THING = _Lazy(r"(?i)\b(?:my|our)\s+([^\W\d_][\w-]*)")
_OWNER_FIRST_PERSON = _Lazy(r"(?i)\b(?:i|i'm|i've|me|myself)\b")


def _asks_owner_attribute(question: str) -> bool:
    """Whether the question asks an attribute of the owner ("What's my name?", "What is my
    age?", "What's my favourite colour?") rather than of something the owner has ("my dog's
    name", "What colour is my car?")."""
    text = question.replace("\u2019", "'")
    return bool(_OWNER_ATTRIBUTE.search(text)) and not _OWNED_THING.search(_OWNER_ATTRIBUTE.sub(" ", text))


def _states_other_thing(statement: str, asked: frozenset) -> bool:
    """Whether a record states an attribute of something the owner has, not of the owner: it
    names "my <thing>" where the thing is no attribute and not asked ("My dog is called
    Biscuit"), and neither states the owner's attribute ("my name") nor speaks as "I"."""
    text = statement.replace("\u2019", "'")
    if _OWNER_ATTRIBUTE.search(text) or _OWNER_FIRST_PERSON.search(text):
        return False
    for thing in _OWNED_THING.findall(text):
        terms = tokenize(thing)
        if terms and not set(terms) & (_ATTRIBUTES | asked) and thing.lower() not in (
                "favourite", "favorite", "full", "first", "last", "middle", "home", "real"):
            return True
    return False


# ``place_answers``: a question asking where ("Where is my new apartment?", "Where does my choir meet?")
# is answered only by a record that states a place: a word of place before a word ("in Leeds", "near
# Canary Wharf", "at the hospital", "from Sweden", "to Greece", an institution: "an account with ING",
# "works for Acme", "for" only before a name) or a place adverb ("here", "abroad")
_ASKS_WHERE = _Lazy(r"(?i)^\W*where\b")
_STATES_PLACE = _Lazy(r"(?i)\b(?:(?-i:for\s+[A-Z])|(?:in|at|on|near|from|to|into|onto|by|with|behind|beside|outside|inside|across|"
                           r"around|along|opposite|between|off|toward|towards|within|past|via|under|above|beneath|"
                           r"next\s+to|close\s+to)\s+[^\W_]|(?:here|there|home|abroad|overseas|downtown|uptown|"
                           r"nearby|upstairs|downstairs|locally|away|elsewhere|somewhere|everywhere)\b)")


# ``dispute_about_subject``: a question asking when, and a record stating a time ("on Friday", "at 7am",
# "in March", "next weekend", "2024-06-07")
_ASKS_WHEN = _Lazy(r"(?i)^\W*(?:when\b|what\s+(?:time|day|date)\b)")
_STATES_TIME = _Lazy(r"(?i)\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|january|february|march|april|may|june|"
                          r"july|august|september|october|november|december|today|tonight|tomorrow|yesterday|"
                          r"weekend|morning|afternoon|evening|noon|midnight|\d{1,2}(?::\d\d)?\s*(?:am|pm)|"
                          r"\d{1,2}:\d\d|\d{4}-\d\d-\d\d|(?:next|last|this)\s+(?:week|month|year))\b")


def subject_slot(space: SearchSpace, question: str, features, caller: str = "") -> Callable[[str], bool] | None:
    """``features.dispute_about_subject``: record_id -> whether the record is about the slot a
    question asks ("When is my sister visiting?": the sister's time): it holds every subject term
    of the question (a relation or a person, ``subject_terms``) and states the kind of value asked
    (a time for "when", a place for "where"). None when the question names no subject or asks
    neither: "My sister arrives on Friday" is about the slot of "When is my sister visiting?"."""
    if _ASKS_WHEN.match(question):
        states = _STATES_TIME.search
    elif _ASKS_WHERE.match(question):
        states = _STATES_PLACE.search
    else:
        return None
    required, _speakers = subject_terms(space, question, caller, persons_only=features("person_possessors"),
                                        relations_too=features("relation_subjects"),
                                        roles_out=features("role_possessors"))
    if not required:
        return None
    forms = features("irregular_forms")
    required = sorted({base_term(t) for t in required}) if forms else required

    def about(record_id: str) -> bool:
        held = _held_terms(space, record_id)
        held = _with_bases(held) if forms else held
        return all(term in held for term in required) and bool(states(space.records[record_id]["statement"]))
    return about


def states_place(statement: str) -> bool:
    """Whether a statement says where something is or happens (``place_answers``)."""
    return bool(_STATES_PLACE.search(statement))


# ``question_idioms``: phrases whose words stem to another content word than what they ask ("What
# do I do for a living?" asks for a job; "living" is not "I live in Leeds"): each is read as the
# words that say what it asks, by the searches and the coverage and support tests (the index unchanged)
_IDIOMS_TEXT = (("for a living", "work job"), ("make a living", "work job"),
                ("earn a living", "work job"), ("earn my living", "work job"), ("earn his living", "work job"),
                ("earn her living", "work job"))
_IDIOMS = _Lazy(r"(?i)\b(?:%s)\b" % "|".join(re.escape(phrase).replace(r"\ ", r"\s+")
                                                   for phrase, _ in _IDIOMS_TEXT))
_IDIOM_WORDS = {phrase: words for phrase, words in _IDIOMS_TEXT}


# ``class_words``: a word naming a class of things, and the kinds of it a record names instead ("Do I have
# any pets?" / "My cat Luna sleeps all day"), each group "class: kind kind ..."; read by the coverage and
# support tests and to find candidates after every match of the searches (their ranking unchanged)
_CLASSES_TEXT = (
    "pet: cat kitten dog puppy hamster rabbit bunny parrot budgie goldfish guinea tortoise turtle snake lizard "
    "ferret gerbil; vehicle: car van truck lorry motorbike motorcycle scooter jeep suv; "
    "instrument: guitar piano violin cello drums flute saxophone trumpet ukulele keyboard clarinet harp")


# class term -> the terms of its kinds, written out as ``tokenize`` gives them (``_CLASSES_TEXT``): no
# stemming in every query process
_CLASSES = {
    "pet": frozenset(("cat", "kitten", "dog", "puppi", "hamster", "rabbit", "bunni", "parrot", "budgi", "goldfish",
                      "guinea", "tortois", "turtl", "snake", "lizard", "ferret", "gerbil")),
    "vehicl": frozenset(("car", "van", "truck", "lorri", "motorbik", "motorcycl", "scooter", "jeep", "suv")),
    "instrument": frozenset(("guitar", "piano", "violin", "cello", "drum", "flute", "saxophon", "trumpet", "ukulel",
                             "keyboard", "clarinet", "harp")),
}


def _classes() -> dict[str, frozenset[str]]:
    """class term -> the terms of its kinds (``_CLASSES_TEXT``)."""
    return _CLASSES


def class_kinds(question: str) -> dict[str, frozenset[str]]:
    """The class terms a question holds ("pets", "a vehicle") and the terms of their kinds."""
    classes = _classes()
    return {term: classes[term] for term in tokenize(question) if term in classes}


def _with_classes(held: frozenset[str], kinds: dict[str, frozenset[str]]) -> frozenset[str]:
    """``held`` and each class whose kind it holds ("cat" also holds "pet")."""
    named = {name for name, members in kinds.items() if not members.isdisjoint(held)}
    return held | named if named else held


# ``class_lexicon`` / ``relation_lexicon``: the packaged lexicon (``retrieval.lexicon``) read by the support
# and coverage tests, never by a search's scores
def lexicon_terms(space: SearchSpace, question: str, categories: bool, relations: bool,
                  forms: bool = False, asked: frozenset[str] | None = None, synonyms: bool = False,
                  kinship: bool = False, roles: bool = False,
                  settled: bool = False, means: bool = False,
                  compounds: bool = False, residence: bool = False,
                  scoped: bool = False) -> Callable[[str, frozenset[str]], frozenset[str]] | None:
    """(record_id, held) -> the question's category and relation terms the record holds in other
    words, None when the question asks neither. ``categories``: a category the question asks a
    member of ("What vegetables do I grow?") is held by a member the record states in a clause that
    negates nothing ("I grow leeks and parsnips"; not "I no longer grow potatoes"), a place
    category ("Which city ...", "What country ...") by a place it names ("lives in Rotterdam").
    ``relations``: a relation word of the question is held by the words of its group
    (``lexicon.relation_groups``: "my doctor" by "My GP ...", "my kids" by "my son ..."). Whose
    member it is stays the subject tests' business. ``asked``: the terms the question weighs. A place
    stated, or a name after the category's verb ("supports Legia Warsaw"), counts only in a record
    holding some of what else the question asks ("Which city do I work in?" is not answered by "I
    live in Lyon", "Which team did Tim sign with?" by "I'm a fan of the Lakers"), and so does a member
    of a category whose members are names (team, car, country: ``Category.strict``) or when the
    question asks a refusal of it ("What drink do I avoid?" / "My favourite wine is ...").
    ``synonyms`` (``everyday_thesaurus``): a phrase of the packaged thesaurus the question holds whole
    is held by another phrase of its group the record states in a clause that negates nothing ("How
    much do I earn?" / "My salary is ..."; not "I used to be vegetarian" for "Do I eat meat?").
    ``kinship`` (``kinship_model``): a relation is asked by its word, not a word stemming alike ("my
    doctorate" asks no doctor), and the verb of "Where does my sister live?" is held by a place the
    record names in a clause negating nothing ("My sister Marta is a midwife in Gdańsk"); whose
    place it is stays the subject tests' business. ``roles`` (``member_roles``): the head of "any
    medical conditions" is the condition (``lexicon.asked_heads``), and a member said as the means of
    a journey ("I cycle to the clinic"), or watched ("we watch the sumo") where the question asks no
    watching, following or liking, is no member of the category asked. ``settled``
    (``negated_synonyms``): a clause whose negating word the question holds itself ("allergic to
    penicillin" for "Which antibiotic am I allergic to?") states what it names, and a plainly negated
    one settles a yes/no question ("I don't eat meat" / "Am I a vegetarian?"; ``lexicon.stated_terms``).
    ``means`` (``means_answers``): for a question asking the means of a journey ("How do I get to
    work?"), the words of a record's key are stated too ("user.commute": the commute is what it states)."""
    base = base_term if forms else (lambda t: t)
    wanted = (lexicon.asked_heads(question) if roles else lexicon.asked_categories(question)) if categories else {}
    groups = lexicon.relation_groups() if relations else {}
    related = {t: groups[t] for t in dict.fromkeys(tokenize(question)) if t in groups}
    if kinship and related:
        related = {t: others for t, others in related.items() if t in lexicon.relation_word_terms(question)}
    thesaurus = lexicon.asked_synonyms(tokenize(question)) if synonyms else ()
    parts = lexicon.asked_parts(question) if synonyms and categories else {}
    if parts:   # "Which part of town ...": a place in town, the part named by it
        wanted = {**wanted, **{t: lexicon.categories()[t] for t in parts}}
    resides = _ASKS_RESIDENCE.match(question.replace("\u2019", "'")) if kinship else None
    residing = frozenset(base(t) for t in tokenize(resides.group(1))) if resides else frozenset()
    if not wanted and not related and not thesaurus and not residing:
        return None
    places = any(category.place for category in wanted.values())
    if residence and places and not residing:   # ``place_residence``: "Which suburb do we live in?"
        residing = asked_residence_verb(question, base)
    rest = frozenset(asked or ()) - {base(t) for t in wanted} - {base(t) for t in related} \
        - {base(t) for part in parts.values() for t in part}
    refusing = lexicon.negates(question)
    negators = lexicon.asked_negators(question) if settled else frozenset()
    yes_no = settled and bool(_YES_NO_OPENING.match(question))
    keyed = means and bool(_ASKS_MEANS.match(question.replace("\u2019", "'")))
    watching = roles and lexicon.asks_spectator(question)

    def positive(record_id: str) -> frozenset[str]:
        if negators or yes_no:
            cache = space.memo("lexicon_stated")
            found = cache.get((record_id, negators, yes_no, scoped))
            if found is None:
                found = cache[(record_id, negators, yes_no, scoped)] = lexicon.stated_terms(
                    space.records[record_id]["statement"], negators, yes_no, scoped)
            return found
        cache = space.memo("lexicon_positive_scoped" if scoped else "lexicon_positive")   # ``negation_scope``
        found = cache.get(record_id)
        if found is None:
            found = cache[record_id] = lexicon.positive_terms(space.records[record_id]["statement"], scoped)
        return found

    def members_stated(record_id: str, stated: frozenset[str]) -> frozenset[str]:
        """``roles``: the terms stated, but a member said as the means of a journey."""
        if not roles:
            return stated
        cache = space.memo("lexicon_roles")
        roled = cache.get(record_id)
        if roled is None:
            statement = space.records[record_id]["statement"]
            roled = cache[record_id] = (lexicon.journey_terms(statement), lexicon.spectator_terms(statement))
        other = roled[0] if watching else roled[0] | roled[1]
        return stated - other if other else stated

    def place(record_id: str) -> bool:
        cache = space.memo("lexicon_place")
        found = cache.get(record_id)
        if found is None:
            found = cache[record_id] = lexicon.names_place(space.records[record_id]["statement"])
        return found

    def held_terms(record_id: str, held: frozenset[str]) -> frozenset[str]:
        # what the record states in clauses negating nothing (``lexicon.positive_terms``, a first
        # reading of its statement) is read only by a test this question and record run: a turn
        # asked about by the thesaurus alone needs none
        stated = positive(record_id) if wanted or related or (thesaurus and not _is_turn(space.records[record_id])) \
            else frozenset()
        if keyed:
            key = frozenset(tokenize((space.records[record_id].get("memory_key") or "").replace(".", " ")
                                     .replace("_", " ")))
            stated, held = stated | key, held | key
        found = set()
        if thesaurus and not _is_turn(space.records[record_id]):
            # a conversation turn is read in its own words: a long reply holds a synonym of most
            # things in passing ("research studies" is no "course" of mine; LongMemEval's _abs)
            found |= {base(t) for t in lexicon.synonym_held(thesaurus, held & stated,
                                                             space.records[record_id]["statement"], compounds)}
        if residing and place(record_id):
            found |= residing
        if wanted:
            more = not rest or not rest.isdisjoint(held | found)   # the record holds some of what else is asked
            # a place or a name after the category's verb ("supports Legia") is read from a capital
            # letter, not from a word the lexicon lists: it counts only with some of the rest held
            named_place = places and more and place(record_id)
            found |= {base(t) for t in lexicon.held_categories(wanted, held, members_stated(record_id, stated),
                                                               named_place,
                                                               space.records[record_id]["statement"] if more else "")
                      if more or not (refusing or wanted[t].place or wanted[t].strict)}
            found |= {base(t) for term, part in parts.items() if base(term) in found for t in part}
        for term, others in related.items():
            if not others.isdisjoint(held & stated):
                found.add(base(term))
        return frozenset(found - held) if found else frozenset()
    return held_terms


# ``negated_synonyms``: a question answered yes or no ("Am I a vegetarian?", "Do I eat meat?")
_YES_NO_OPENING = _Lazy(r"(?i)^\W*(?:am|is|are|was|were|do|does|did|have|has|had|can|could|will|would)\s+"
                        r"(?:i|you|he|she|we|they|my|our|your|his|her|their|[^\W\d_][\w-]*)\b")

# ``kinship_model``: "Where does my sister live?", "Where are my parents based?"
_ASKS_RESIDENCE = _Lazy(r"(?i)^\W*where\b.*?\b(live|lives|living|lived|based|stay|stays|staying|reside|resides)\b")


def _lexicon_share(share: Callable[[frozenset[str]], float], space: SearchSpace, question: str, features,
                   forms: bool, weights: dict[str, float]) -> Callable[[frozenset[str], str], float]:
    """(held, record_id) -> ``share`` of what the record holds, with the category and relation terms
    it holds in other words (``lexicon_terms``; ``class_lexicon``, ``relation_lexicon``)."""
    extra = lexicon_terms(space, question, features("class_lexicon"), features("relation_lexicon"), forms,
                          frozenset(weights), synonyms=features("everyday_thesaurus"),
                          kinship=features("kinship_model"), roles=features("member_roles"),
                          settled=features("negated_synonyms"), means=features("means_answers"),
                          compounds=features("whole_compounds"), residence=features("place_residence"),
                          scoped=features("negation_scope"))
    if extra is None:
        return lambda held, record_id: share(held)
    return lambda held, record_id: share(held | extra(record_id, held))


def kind_reader(space: SearchSpace, question: str, features, forms: bool) -> Callable[[str], frozenset[str]] | None:
    """``features.kind_members``: record_id -> the terms naming a kind the question asks by its name
    ("How far ...", "What dose ...", "What is my cat called?") that the record holds by a value in one
    of the kind's units ("1,100 nautical miles", "500 mg") or by one of its members ("Our Maine Coon
    ...", "a whippet"; ``lexicon.held_kinds``, in clauses negating nothing). None when the question
    names no kind. Read per record on first use, kept in the space's memo."""
    if not features("kind_members"):
        return None
    kinds = lexicon.asked_kinds(tokenize(question))
    if not kinds:
        return None
    base = base_term if forms else (lambda t: t)
    cache = space.memo("kind_members")

    def held(record_id: str) -> frozenset[str]:
        found = cache.get((record_id, kinds))
        if found is None:
            statement = space.records[record_id]["statement"]
            found = cache[(record_id, kinds)] = frozenset(
                base(t) for t in lexicon.held_kinds(kinds, statement, lexicon.positive_terms(statement)))
        return found
    return held


def kinds_known(space: SearchSpace, question: str, features) -> frozenset[str]:
    """``kind_members``: the terms of the kinds the question names ("my cat") that the scope holds in
    other words, by a member all of whose terms it holds ("Maine Coon"), and (``synonyms_known``) the
    terms of a thesaurus phrase the question holds whose group has another written phrase all of whose
    terms the scope holds ("quickest" beside "PB"): a word the scope never saw but knows so is no
    unseen modifier (``unseen_modifier``'s ``known``)."""
    asked = frozenset(tokenize(question))
    found: set[str] = set()
    if features("synonyms_known") and features("everyday_thesaurus"):
        # "my quickest marathon" in a scope holding "My marathon PB ...": another phrase of its group
        # (a one-word phrase only: "type 2" beside "type 1" of the diabetes group is another thing)
        for phrase, others, written in lexicon.asked_synonyms(asked):
            if len(phrase) == 1 and any(other in written and all(space.index.df(t) for t in other) for other in others):
                found |= phrase
    if not features("kind_members"):
        return frozenset(found)
    for name in lexicon.asked_kinds(asked):
        if any(all(space.index.df(t) for t in member) for member in lexicon.kind_members(name)):
            found |= lexicon.kind_names(name) & asked
    return frozenset(found)


# ``features.typo_terms``: a word a person typed wrong at a shell ("wheres my brothr live", "waht is my
# docter called"): the question's first word read as the question word one edit away, and a word the
# scope never saw (five letters or more, lower case) as the one word the scope holds one edit away
_TYPED_WORD = _Lazy(r"[^\W\d_][^\W\d_']*(?:'[^\W\d_]+)?")
_QUESTION_WORDS = ("what", "where", "when", "which", "who", "whose", "how", "why")
_UNAPOSTROPHISED = {"whats": "what's", "wheres": "where's", "whos": "who's", "hows": "how's", "whens": "when's",
                    "whys": "why's"}
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _one_edit(word: str) -> set[str]:
    """The strings one deletion, transposition, substitution or insertion (a-z) away from ``word``."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    return ({a + b[1:] for a, b in splits if b} | {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
            | {a + c + b[1:] for a, b in splits if b for c in _LETTERS} | {a + c + b for a, b in splits for c in _LETTERS})


def typo_read(space: SearchSpace, question: str) -> tuple[str, dict[str, str]] | None:
    """``typo_terms``: ``question`` with its typed-wrong words read as what they are one edit from, and
    {typed: read}; None when it holds none. The first word is read as a question word ("waht" ->
    "what", "wheres" -> "where's") when it is none and exactly one is one edit away; another word whose
    term the scope never saw — five letters or more, not capitalised (a name), no word of the packaged
    lexicon — as the word of the packaged lexicon (a relation, a category or member, an everyday word)
    whose term the scope holds when exactly one such term is one edit away ("brothr" -> "brother"). A real word the scope never saw ("visa") has no seen neighbour and keeps
    its weight as an unseen term."""
    def typed(number: int, word: str) -> str | None:
        low, found = word.lower(), None
        if number == 0 and low not in _QUESTION_WORDS and "'" not in low:
            near = [w for w in _QUESTION_WORDS if w in _one_edit(low)] if len(low) >= 3 else []
            found = _UNAPOSTROPHISED.get(low) or (near[0] if len(near) == 1 else None)
        elif len(low) >= 5 and word == low and low.isalpha():
            found = _seen_neighbour(space, low)
        return found[0].upper() + found[1:] if found and word[0].isupper() else found
    return _words_read(question, typed)


def _words_read(question: str, read_as: Callable[[int, str], str | None]) -> tuple[str, dict[str, str]] | None:
    """``question`` with each typed word (its place among the words, the word) that ``read_as`` reads
    as another word replaced by it, and {typed: read}; None when it reads none (``typo_read``,
    ``transposition_read``)."""
    text = question.replace("\u2019", "'")
    read: dict[str, str] = {}
    pieces, at = [], 0
    for number, hit in enumerate(_TYPED_WORD.finditer(text)):
        found = read_as(number, hit.group(0))
        if found:
            read[hit.group(0)] = found
            pieces += [text[at:hit.start()], found]
            at = hit.end()
    if not read:
        return None
    return "".join(pieces) + text[at:], read


def _seen_neighbour(space: SearchSpace, word: str) -> str | None:
    """The word one edit from ``word`` whose term the scope holds, when ``word``'s is unseen and
    exactly one seen term is one edit from it; None otherwise."""
    terms = tokenize(word)
    if len(terms) != 1 or space.index.df(terms[0]) or word in lexicon.lexicon_words():
        return None
    seen = {t for t in _one_edit(terms[0]) if len(t) >= 4 and space.index.df(t)}
    if len(seen) != 1:
        return None
    term = next(iter(seen))
    # the written word: one edit from the typed word, whose term is the seen one
    # (a word of the packaged lexicon only: a relation, a category or a member, an everyday word of
    # the thesaurus. A scope holds odd words and typos of its own, "confidered", "whiting": an unseen
    # real word of a question, "considered", "writing", is read as none of them)
    words = lexicon.lexicon_words()
    for candidate in sorted(_one_edit(word)):
        if candidate in words and tokenize(candidate) == [term]:
            return candidate
    return None


def transposition_read(space: SearchSpace, question: str) -> tuple[str, dict[str, str]] | None:
    """``typo_transpositions``: ``question`` with each lower-case word of three letters or more whose
    term the scope never saw read as the scope word two of its adjacent letters swapped make
    (``_transposed_neighbour``), and {typed: read}; None when no word is read so."""
    return _words_read(question, lambda number, word: _transposed_neighbour(space, word)
                       if len(word) >= 3 and word == word.lower() and word.isalpha() else None)


def _transposed_neighbour(space: SearchSpace, word: str) -> str | None:
    """``typo_transpositions`` (issue 13, session 11, asked11): the word two adjacent letters of
    ``word`` swapped make ("ratign" -> "rating", "sitser" -> "sister": the slip of a fast typist) whose
    term the scope holds, when ``word``'s term is unseen, it is no word of the packaged lexicon and
    exactly one such swap does; None otherwise. Any word the scope holds, not only the lexicon's: a
    swap of two letters rarely turns one real word into another (three letters or more: "dgo" -> "dog";
    a word ``tokenize`` drops, "form" for "from", has no term and is never read)."""
    terms = tokenize(word)
    if len(terms) != 1 or space.index.df(terms[0]) or word in lexicon.lexicon_words():
        return None
    found = {}
    for i in range(len(word) - 1):
        if word[i] == word[i + 1]:
            continue
        swapped = word[:i] + word[i + 1] + word[i] + word[i + 2:]
        read = tokenize(swapped)
        if len(read) == 1 and len(read[0]) >= min(4, len(word)) and space.index.df(read[0]):
            found[read[0]] = swapped
    return next(iter(found.values())) if len(found) == 1 else None


# ``features.unseen_heads``: the kind of value a what/which question asks by its head noun ("Which airline
# ...", "What make is my bike?", "What blood group ...") when no record of the scope holds that noun
# the head is the last noun of what follows what/which: "Which train company am I travelling with?" asks a company
_UNSEEN_HEAD = _Lazy(r"(?i)^\W*(?:what|which)\s+((?:[^\W\d_][\w-]*\s+)?[^\W\d_][\w-]*)\s+(?:is|are|am|was|were|do|does|did|has|have|had|"
                     r"can|could|will|would|should)\b")


def unseen_head_holders(space: SearchSpace, question: str, caller: str, features,
                        forms: bool) -> Callable[[str], bool] | None:
    """``unseen_heads``: record_id -> whether a record may state the value a what/which question asks by
    a head noun (``answer_type``'s, "am" too: "Which airline am I flying with?") the scope never saw: it names a member of the head's lexicon category
    or kind ("a Toyota", "a whippet"), or a value by a capitalised word past the first of its sentence
    that is no time and no word of the question ("My bike is a Giant Talon", "I'm flying KLM to Oslo").
    The scope holding no "airline" at all, "Flying to Lisbon on the 3rd of May" states none, whatever
    else of the question it holds (``_typed_share`` lets a record naming the asked thing stand for the
    kind). A plural head ("What preparations have I made ...?") asks a list of what was done, not one
    named value, and is not read. None when the question asks no such head (nothing is read)."""
    if not features("unseen_heads"):
        return None
    found = _UNSEEN_HEAD.match(question.replace("\u2019", "'"))
    # (a plural head asks a list of what was done or had, "what preparations have I made", not one named value)
    plural = found is not None and found.group(1).lower().endswith("s") and not found.group(1).lower().endswith("ss")
    words = found.group(1).split() if found else []
    # two words the lexicon knows as one thing ("blood thinner", a member) are that thing, asked by name
    compound = len(words) == 2 and lexicon.names_member(frozenset(tokenize(found.group(1))))
    terms = tokenize(words[-1]) if found and not plural and not compound else []
    word = terms[0] if len(terms) == 1 else None
    if word is None or asked_value(question) is not None or word in _ATTRIBUTES or word in _WHEN_TERMS \
            or word in _NAME_TERMS or space.index.df(word) or space.index.df(base_term(word)):
        return None
    category = lexicon.categories().get(word)
    kinds = lexicon.asked_kinds((word,))
    asked = frozenset(tokenize(_folded(question)))
    cache = space.memo("unseen_heads")

    def holds(record_id: str) -> bool:
        found = cache.get((record_id, question))
        if found is None:
            statement = space.records[record_id]["statement"].replace("\u2019", "'")
            stated = space.term_set(record_id)   # (what a clause negates is the negation tests' business)
            found = cache[(record_id, question)] = bool(
                (category is not None and any(member <= stated for member in category.members))
                or (kinds and lexicon.held_kinds(kinds, statement, stated))
                or _names_other_value(statement, asked))
        return found
    return holds


def _names_other_value(statement: str, asked: frozenset[str]) -> bool:
    """Whether a sentence of the statement names a value by a capitalised word past its first that
    says no time and is no word of the question (``asked``, folded terms)."""
    for sentence in _SENTENCE_END.split(statement):
        words = sentence.split()
        for word in words[1:]:
            if not word[:1].isupper() or word in ("I", "I'm", "I've", "I'd", "I'll"):
                continue
            terms = set(tokenize(_folded(word)))
            if terms and not terms <= _WHEN_TERMS and terms.isdisjoint(asked):
                return True
    return False


def errand_means(question: str, features) -> bool:
    """``features.errand_means``: whether a question asks the means of a journey (``means_answers``'s
    "How do I get to work?") so that a verb of moving with an object that is no vehicle ("I walk the
    dog before work", ``lexicon.without_errands``) states no means."""
    return features("errand_means") and features("means_answers") and features("asked_attributes") \
        and bool(_ASKS_MEANS.match(question.replace("\u2019", "'")))


def thing_phrase_holders(space: SearchSpace, features,
                         attribute_of: frozenset[str]) -> Callable[[str], frozenset[str]] | None:
    """``features.thing_phrases``: record_id -> the terms of the thing whose attribute is asked that a
    record holds by a whole other phrase of its thesaurus group, in a clause negating nothing ("I pay
    720 pounds a month for the flat" holds the rent of "How much is my rent?"; ``lexicon.synonym_held``).
    None when no thing asked has a group."""
    if not attribute_of or not features("thing_phrases") or not features("everyday_thesaurus"):
        return None
    asked = lexicon.asked_synonyms(attribute_of)
    if not asked:
        return None

    cache = space.memo("thing_phrases")

    def holds(record_id: str) -> frozenset[str]:
        found = cache.get((record_id, attribute_of))
        if found is None:
            statement = space.records[record_id]["statement"]
            found = cache[(record_id, attribute_of)] = lexicon.synonym_held(
                asked, lexicon.positive_terms(statement) & space.term_set(record_id), statement)
        return found
    return holds


def _share_adding(share: Callable[[frozenset[str], str], float],
                  more: Callable[[str], frozenset[str]] | None) -> Callable[[frozenset[str], str], float]:
    """``share`` with the terms ``more(record_id)`` says a record holds in other words (``kind_members``:
    the kind names it holds by a unit or a member; ``other_values``: the value asked, held by a record
    stating another of its attribute); ``share`` itself when ``more`` is None."""
    if more is None:
        return share
    return lambda held, record_id: share(held | more(record_id), record_id)


# ``yes_no_names``: a yes/no question asking whether someone is called a name ("Is Tariq's brother called
# Omar?", "Is my sister named Rosa?", "Is my husband's name Tom?")
_YES_NO_NAME = _Lazy(r"^\W*(?i:is|was|isn't|wasn't)\s+.+?(?:\s+(?:called|named)|'s\s+(?:first\s+)?name(?:\s+is)?)"
                          r"\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)\s*[?.!]*\s*$")


def yes_no_name(question: str) -> frozenset[str]:
    """The terms of the name a yes/no question asks someone is called, none when it asks no name.
    What is asked is the name: a record naming the same relation otherwise ("my brother Yusuf")
    answers it, the false side included, as "Is Kim's plan O2?" is answered by the plan held."""
    found = _YES_NO_NAME.match(question.replace("\u2019", "'"))
    return frozenset(tokenize(_folded(found.group(1)))) if found else frozenset()


# ``relation_is_name``: "The user's wife is Hélène.", "My sister is Clara, ...", "I'm married to Agnieszka."
# a word that may be a name: any letter first ("Élodie"), its case checked where it is read
_CAPITALISED = r"([^\W\d_][\w-]*)"
_MARRIED_TO = _Lazy(r"(?i)\b(?:i'm|i\s+am|i\s+was|i've\s+been|i\s+have\s+been|(?:the\s+)?user\s+is|"
                         r"(?:the\s+)?user\s+has\s+been|(?:the\s+)?user's)\s+(?:married|engaged)\s+to\s+"
                         + _CAPITALISED)


@lru_cache(maxsize=256)
def _copular_pattern(caller: str) -> re.Pattern:
    owner = r"(?:[Mm]y|[Oo]ur|[Tt]he\s+user's" + (rf"|(?i:{re.escape(caller)})'s" if caller else "") + ")"
    return re.compile(rf"\b{owner}\s+{_LINK_RELATION}\s+(?:is|was)\s+{_CAPITALISED}(?=\s*(?:[.,;!?]|$|"
                      r"\s+(?:and|who|whom|from|but)\b))")


def _copular_names(statement: str, caller: str) -> set[tuple[str, str]]:
    """``relation_is_name``: the (relation, name) pairs a statement gives by "is" ("The user's wife is
    Hélène.", "My sister is Clara, she ..."; the name ends the clause, so "My brother is Spanish
    and ..." is read only when the word is no language or nationality of the lexicon) and by "married
    to" (the owner's spouse). Folded terms, as ``_relation_names`` gives them."""
    text = statement.replace("\u2019", "'")
    adjectives = {t for name in ("languag", "nation") for member in
                  getattr(lexicon.categories().get(name), "members", ()) for t in member}
    pairs = [(m.group(1), m.group(2)) for m in _copular_pattern(caller).finditer(text)]
    pairs += [("spouse", m.group(1)) for m in _MARRIED_TO.finditer(text)]
    found = set()
    for relation, name in pairs:
        if name.lower() in _NOT_NAMES or not name[0].isupper():
            continue
        relations, names = set(tokenize(relation)) & _RELATIONS, tokenize(_folded(name))
        if len(relations) == 1 and len(names) == 1 and names[0] not in _TIME_WORDS and names[0] not in adjectives:
            found.add((next(iter(relations)), names[0]))
    return found


def without_idioms(question: str) -> str:
    """``question`` with each idiom of ``_IDIOMS_TEXT`` read as what it asks: "What do I do for a
    living?" -> "What do I do work job?"."""
    return _IDIOMS.sub(lambda found: " " + _IDIOM_WORDS[" ".join(found.group(0).lower().split())] + " ", question)


# ``features.aspect_words``: the words by which a question says WHEN it asks (still, ever, now,
# anymore, already, yet, just, currently, these days): they select the current or a past value
# (``decision.question_time`` reads them on the question itself) and name nothing a record must hold
_ASPECT = _Lazy(r"(?i)\b(?:still|ever|any\s*more|any\s+longer|already|yet|just|now|nowadays|currently|"
                r"these\s+days)\b")


def without_aspect(question: str, seen: Callable[[str], bool] | None = None) -> str:
    """``question`` without its aspect words (``_ASPECT``) for the support and coverage tests: "Do I
    still go to Mallorca?" -> "Do I go to Mallorca?", so that "I still can't believe what the ferry
    to Mallorca costs" is not half answered by "still". With ``seen`` (term -> whether the scope
    holds it), only the words a record may hold go: one the scope never saw holds no answer and
    weighs as ``planner.unseen_time_weight`` says. The question itself when nothing else is left
    ("What now?")."""
    def gone(found: re.Match) -> str:
        return " " if seen is None or all(seen(t) for t in tokenize(found.group(0))) else found.group(0)
    rest = _ASPECT.sub(gone, question)
    return rest if rest != question and tokenize(rest) else question


# ``features.aspect_words``: a yes/no question asking whether an act goes on or ever happened ("Am I
# still driving the Fiat?", "Do I ever drive to Valencia?"): its verb and what it acts on
_ASKED_ACT = _Lazy(r"(?i)^\W*(?:do|does|did|am|is|are|was|were|have|has|had)\s+"
                   r"(?:i|we|you|he|she|they|[^\W\d_][\w-]*)\s+([^\W\d_][\w-]*)\s+((?:[^\W_][\w'-]*\s*){1,4})[?.!]*\s*$")
# verbs that say little of the act by themselves ("Do I still go to Mallorca?", "Do I have a Volvo?")
_LIGHT_VERBS_TEXT = "be been have has had do does did done go goes went gone get got make made take took own use keep"
_LIGHT_VERBS = frozenset(("done", "get", "go", "goe", "gone", "got", "keep", "made", "make", "take", "took", "use",
                          "went"))   # the terms of the words (be, have, do, own are no terms at all)


def asked_act(question: str, forms: bool = True) -> tuple[frozenset[str], frozenset[str]]:
    """(verb, thing) of a yes/no question asking of an act, once its aspect words are gone
    (``without_aspect``): "Am I driving a Fiat?" -> ({drive}, {fiat}); a light verb (go, have, get …)
    gives no verb term, a linking verb nothing ("Am I still a member …?" names no act)."""
    found = _ASKED_ACT.match(question.replace("\u2019", "'"))
    if not found or found.group(1).lower() in _LINKING_VERBS:
        return frozenset(), frozenset()
    verb = [base_term(t) if forms else t for t in tokenize(found.group(1))]
    things = frozenset(t for t in tokenize(found.group(2)) if t not in _TIME_WORDS and t not in _WHEN_NOUNS
                       and t not in _RELATIONS and t not in _INDEFINITES)
    return frozenset(t for t in verb if t not in _LIGHT_VERBS), things


def holds_act(statement: str, verb: frozenset[str], things: frozenset[str], forms: bool = True) -> bool:
    """Whether a record holds the act a question asks of (``asked_act``): its verb, in any form
    ("Drove my nephew …" holds drive), and one term of the thing it acts on. "Drove my nephew to
    football, he's still buzzing" does not hold "driving the Fiat"; "Best paella I have ever eaten,
    … in Valencia" does not hold "drive to Valencia"."""
    held = frozenset(tokenize(statement))
    if forms:
        held = held | frozenset(base_term(t) for t in held)
    return verb <= held and (not things or not things.isdisjoint(held))
# ``light_acts`` (issue 13, session 10): a yes/no question asking with an aspect word whether a light
# verb's act goes on or ever happened ("Do I still go to Mallorca?", "Do I ever take the ferry to
# Plentzia?") names its act by that verb and a place or thing: a record states the act when it holds
# the verb itself in any form ("I go to the txoko every Thursday", "went") or, for going, says it with
# a verb of its own before "to" the place ("I ride out to Sopot", "Drove to Mundaka"), not a noun
# ("the ferry to Mallorca", "my trip to"), or visits it. Only naming the place says nothing of going.
_GOING_VERBS = frozenset(("go",))
_VERB_TO = _Lazy(r"(?i)(?:^|(?<![\w'-])(?!(?:the|a|an|my|our|your|his|her|their|its|this|that|these|those|every|each|"
                 r"some|any|no|\d[\w,.]*)\s)[^\W\d_][\w'-]*\s+)"
                 r"(?!(?:the|a|an|my|our|your|his|her|their|its|this|that)\b)"
                 r"[^\W\d_][\w'-]*\s+(?:(?:out|over|down|up|back|across|round|off)\s+)?(?:to|into)\b([^.;!?]*)")
_VISITS = _Lazy(r"(?i)\b(?:visit|visits|visited|visiting|been\s+to|stay(?:s|ed|ing)?\s+(?:in|at))\b([^.;!?]*)")


def asked_light_act(question: str, forms: bool = True) -> tuple[str, frozenset[str]] | None:
    """``light_acts``: (the light verb's term, the terms of what it acts on) of a yes/no question
    asking with an aspect word (still, ever, anymore …: ``_ASPECT``) whether a light verb's act goes
    on ("Do I still go to Mallorca?" -> ("go", {mallorca})); None for any other question."""
    if not _ASPECT.search(question):
        return None
    found = _ASKED_ACT.match(without_aspect(question).replace("\u2019", "'"))
    if not found:
        return None
    verb = [base_term(t) for t in tokenize(found.group(1))]
    if len(verb) != 1 or verb[0] not in _LIGHT_VERBS and verb[0] not in ("go", "take"):
        return None
    things = asked_act(without_aspect(question), forms)[1]
    return (base_term(verb[0]), things) if things else None


def states_light_act(statement: str, light: tuple[str, frozenset[str]], forms: bool = True) -> bool:
    """``light_acts``: whether a statement states the act ``asked_light_act`` read: it holds the light
    verb in any form, or, for going, a verb of its own before "to" the thing ("I ride out to Sopot")
    or a visit of it, the thing among the words that follow."""
    verb, things = light
    held = frozenset(tokenize(statement))
    if verb in held or verb in {base_term(t) for t in held}:
        return True
    if verb not in _GOING_VERBS:
        return False
    text = statement.replace("\u2019", "'")
    for hit in list(_VERB_TO.finditer(text)) + list(_VISITS.finditer(text)):
        if not things.isdisjoint(tokenize(hit.group(1))):
            return True
    return False


# ``occupation_reading`` (issue 13, session 9): "What does my uncle do?" asks his work as "What does
# my uncle do for a living?" does, and a clause saying what someone teaches, runs or started at
# says it in other words than a job's ("My uncle Rafael teaches geography", "Ana runs a small
# hostel", "I started at the new clinic", "head of radiology"; a race run is no business run)
_ASKS_BARE_DOING = _Lazy(r"(?i)^\W*what\s+(?:does|do)\s+(?!you\b)\S.*?\s+do(?:\s+(?:now|nowadays|these\s+days|"
                         r"currently|today))?\s*[?.!]*\s*$")
_OCCUPATION_TEXT = "work job occupation profession career"
_OCCUPATION = frozenset(("work", "job", "occup", "profess", "career"))
# what a question asking someone's work may hold beside it: "Where does Kemal work now?"
_NOW_TEXT = "now nowadays currently current"
_NOW_TERMS = frozenset(("now", "nowaday", "current"))
_BARE_DOING_TEXT = "work job"
_BARE_DOING = frozenset(("work", "job"))
_STATES_OCCUPATION = _Lazy(
    r"(?i)\b(?:works?\s+as\s+(?:a|an)\b|(?:teach(?:es|ing)?|lectur(?:es|ing))\s+(?!(?:me|us|you|him|her|them|myself|yourself|himself|"
    r"herself|it|that|this)\b)[^\W\d_]"
    r"|(?:runs?|running|owns?|owning|manages?|managing)\s+(?:a|an|the|his|her|their|my|our|its|[^\W\d_][\w-]*'s)\s+"
    r"(?!(?:[\w-]+\s+){0,2}?(?:marathons?|races?|half|halves|miles?|km|kilomet\w*|laps?|\d))"
    r"|(?:started|starts|starting|joined|joins)\s+(?:work(?:ing)?\s+)?(?:at|with)\s+(?:a|an|the|[A-Z])"
    r"|head\s+of\s+[^\W\d_]|promoted\s+to\b)")


def asked_occupation(question: str) -> frozenset[str]:
    """``occupation_reading``: the terms by which a question asks someone's work ("What is Ana's
    job?": job; "Where does Kemal work now?": work), "work" and "job" for "What does my uncle do?";
    none when it asks no work."""
    if _ASKS_BARE_DOING.match(question.replace("\u2019", "'")):
        return _BARE_DOING
    return frozenset(tokenize(question)) & _OCCUPATION


# ``doing_now``: "What's our eldest doing now?", "What is Tomasz doing these days?" (not "What am I
# doing ...", not "What are you doing ...": what one does now, asked of someone else)
_ASKS_DOING_NOW = _Lazy(r"(?i)^\W*what(?:'s|\s+is|\s+are)\s+(?!(?:i|you|we)\b)(\S.*?)\s+doing\s+"
                        r"(now|nowadays|these\s+days)\s*[?.!]*\s*$")


def doing_now_read(question: str) -> str:
    """``doing_now``: a question asking what someone else is doing now or these days read as what they
    do ("What's our eldest doing now?" -> "What does our eldest do now?"), which ``occupation_reading``
    reads as their work; any other question unchanged."""
    found = _ASKS_DOING_NOW.match(question.replace("\u2019", "'"))
    return "What does %s do %s?" % (found.group(1), found.group(2)) if found else question


def occupation_question(question: str) -> str:
    """``occupation_reading``: "What does my uncle do?" read as "What does my uncle do work job?"
    (as ``without_idioms`` reads "for a living"); any other question unchanged."""
    if _ASKS_BARE_DOING.match(question.replace("\u2019", "'")):
        return question.rstrip(" ?.!") + " " + _BARE_DOING_TEXT + "?"
    return question


@lru_cache(maxsize=8192)
def states_occupation(statement: str, roles: bool = False) -> bool:
    """``occupation_reading``: whether a statement says what someone does for work other than by a
    job's word ("works as a tester", "teaches geography", "runs a small hostel", "started at the new
    clinic") or names a job of the lexicon in a clause negating nothing ("Huw is a plumber", also in
    a conversation turn, which the thesaurus reads in its own words only). ``roles``
    (``occupation_search``): a job word just after "the" or a possessive pronoun names the one holding
    that role for someone ("the vet bill was ...", "my new GP says ..."), not anyone's work."""
    text = statement.replace("\u2019", "'")
    if _STATES_OCCUPATION.search(text):
        return True
    job = lexicon.categories().get("job")
    stated = lexicon.positive_terms(_ROLE_HELD.sub(" ", text) if roles else text) if job is not None else frozenset()
    return job is not None and any(member <= stated for member in job.members)


# ``occupation_search``: a determiner naming whose role a job word is ("the vet", "my new GP", "our
# plumber"): the one or two words after it are no job stated ("Our Ailsa's a physio" keeps "a physio")
_ROLE_HELD = _Lazy(r"(?i)\b(?:the|my|our|your|his|her|their)\s+[^\W\d_][\w-]*(?:\s+[^\W\d_][\w-]*)?")


def _occupation_share(share_in: Callable[[frozenset[str], str], float], space: SearchSpace,
                      asked: frozenset[str]) -> Callable[[frozenset[str], str], float]:
    """``share_in`` with the work a question asks held by a record saying it otherwise."""
    def shared(held: frozenset[str], record_id: str) -> float:
        if states_occupation(space.records[record_id]["statement"]):
            held = held | asked
        return share_in(held, record_id)
    return shared


# ``event_questions`` (issue 13, session 9): "What did my dad do (last week)?" asks an event of its
# subject, which no word of the question names: a record of the subject said then tells it
_ASKS_EVENT = _Lazy(r"(?i)^\W*what\s+did\s+\S.*?\s+do\s*[?.!]*\s*$")


def idiom_held(space: SearchSpace, record_id: str) -> frozenset[str]:
    """``relation_idioms``: the relation terms a record holds by an idiom ("My other half Jannik ...":
    spouse, partner; ``lexicon.idiom_relations``)."""
    cache = space.memo("idiom_held")
    found = cache.get(record_id)
    if found is None:
        found = cache[record_id] = lexicon.idiom_relations(space.records[record_id]["statement"])[1]
    return found


# ``turn_relations`` (issue 13, session 9): in a conversation "my brother" is the speaker's brother:
# another speaker's "My brother Huw is a plumber" is not the caller's brother ("your brother" is)
_TURN_POSSESSIVE = _Lazy(r"(?i)\b(my|our|your)\s+([^\W\d_][\w-]*)")


def scope_says_colloquial(space: SearchSpace) -> bool:
    """``colloquial_relations``: whether any record of the scope holds a colloquial relation word
    (a scope that never says "lad", "eldest" ... has no record to read them in)."""
    return bool(colloquial_records(space))


def colloquial_records(space: SearchSpace) -> frozenset[str]:
    """``colloquial_relations``: the ids of the records holding a colloquial relation word, found once
    per view through the index (the only ones ``colloquial_held`` reads)."""
    cache = space.memo("colloquial_records")
    found = cache.get(None)
    if found is None:
        terms = [t for t in sorted(_all_colloquial()) if space.index.df(t)]
        found = cache[None] = frozenset(space.index.scores(terms)) if terms else frozenset()
    return found


@lru_cache(maxsize=1)
def _all_colloquial() -> frozenset[str]:
    """The terms of every colloquial relation word of the lexicon."""
    return lexicon.colloquial_words(("child",))


def colloquial_held(space: SearchSpace, record_id: str) -> frozenset[str]:
    """``colloquial_relations``: the relation terms a record holds by a colloquial word after my/our
    ("Our lad says he might visit": child, kids; ``lexicon.colloquial_relations``)."""
    cache = space.memo("colloquial_held")
    found = cache.get(record_id)
    if found is None:
        found = cache[record_id] = lexicon.colloquial_relations(space.records[record_id]["statement"])[1]
    return found


def colloquial_about(space: SearchSpace, record_id: str, asked: frozenset) -> bool:
    """``colloquial_relations``: whether a record opening with a colloquial relation ("Our eldest,
    Sigrid, is a nurse ...", read "Our child, Sigrid, ...") is about what the question asks, as
    ``_about_relation_asked`` reads a record opening with a relation word; any other record is."""
    held = colloquial_held(space, record_id)
    if not held:
        return True
    cache = space.memo("colloquial_opening")
    found = cache.get(record_id)
    if found is None:
        opening = _COLLOQUIAL_OPENING.match(space.records[record_id]["statement"].replace("\u2019", "'"))
        found = cache[record_id] = (opening is not None,
                                    frozenset(tokenize(_folded(opening.group(1) or ""))) if opening else frozenset())
    opens, named = found
    return not opens or not held.isdisjoint(asked) or not named.isdisjoint(asked)


_OWNED_GROUP = _Lazy(r"(?i)\b(?:my|our|the\s+user's)\s+([a-z][\w-]*)")


def speaker_relation_links(space: SearchSpace, speakers: list[str], relations: list[str]) -> dict[str, frozenset[str]]:
    """``speaker_relation_names``: relation term -> the names the named speakers' own turns give that
    relation of theirs ("My son Pablo finally proposed", said by Lucia: son -> pablo), or one of its
    other words (``_relation_others``). Only the records holding the relation word, at most
    ``_PERSON_PROBE`` of them, are read."""
    wanted = frozenset(speakers)
    found: dict[str, frozenset[str]] = {}
    for term in relations:
        words = {term} | _relation_others(term)
        names: set[str] = set()
        for word in words:
            if not 0 < space.index.df(word) <= _PERSON_PROBE:
                continue
            for record_id in space.index.scores([word]):
                record = space.records.get(record_id) if record_id in space.records else None
                speaker = _turn_speaker(record) if record is not None else None
                if speaker and not _speaker_terms(speaker).isdisjoint(wanted):
                    names |= {name for relation, name in _relation_names(record["statement"], "") if relation in words}
        if names:
            found[term] = frozenset(names)
    return found


@lru_cache(maxsize=256)
def asked_kin_group(question: str) -> frozenset[str]:
    """``kin_group``: the terms of a word naming the owner's family as a group that the question asks
    about ("Who in my family is a nurse?": famili; "Which of my relatives ...": relat)."""
    general = lexicon.kin_group()[0]
    return frozenset(t for hit in _OWNED_GROUP.finditer(question.replace("\u2019", "'"))
                     for t in tokenize(hit.group(1)) if t in general)


def kin_links(space: SearchSpace, family: frozenset[str], caller: str) -> dict[str, frozenset[str]]:
    """``kin_group``: each family word asked -> the relations the family is made of, their colloquial
    words ("our eldest") and the names the scope's facts give them (``person_links``)."""
    members = lexicon.kin_group()[1]
    names = person_links(space, sorted(t for t in members if space.index.df(t)), caller)
    held = members | lexicon.colloquial_words(members) | frozenset().union(*names.values())
    return {term: held for term in family}


_COLLOQUIAL_QUALIFIER = _Lazy(r"\b(?:[Mm]y|[Oo]ur)\s+([a-z][\w-]*)\s+(?:child|children|kid|kids)\b")


def colloquial_qualifiers(question: str) -> frozenset[str]:
    """``colloquial_relations``: the terms of a colloquial word naming a member of a relation group
    that the question, read (``lexicon.colloquial_relations``), keeps before the group's word ("our
    eldest child": eldest)."""
    words = _all_colloquial()
    return frozenset(t for hit in _COLLOQUIAL_QUALIFIER.finditer(question) for t in tokenize(hit.group(1))
                     if t in words)


def colloquial_links(space: SearchSpace, terms: frozenset[str]) -> dict[str, frozenset[str]]:
    """``colloquial_relations``: a colloquial word -> the names the scope's records give it where one
    opens with it ("Our eldest, Sigrid, is a nurse": eldest -> sigrid); only the records holding the
    word, at most ``_PERSON_PROBE`` of them, are read."""
    found: dict[str, frozenset[str]] = {}
    for term in terms:
        if not 0 < space.index.df(term) <= _PERSON_PROBE:
            continue
        names = set()
        for record_id in space.index.scores([term]):
            if record_id in space.records and term in colloquial_held_words(space, record_id):
                opening = _COLLOQUIAL_OPENING.match(space.records[record_id]["statement"].replace("\u2019", "'"))
                if opening and opening.group(1) and opening.group(1).lower() not in _NOT_NAMES:
                    names.update(tokenize(_folded(opening.group(1))))
        if names:
            found[term] = frozenset(names)
    return found


def colloquial_held_words(space: SearchSpace, record_id: str) -> frozenset[str]:
    """The terms of the colloquial words a record opens with after my/our ("Our eldest, ...": eldest)."""
    opening = _COLLOQUIAL_WORD_OPENING.match(space.records[record_id]["statement"].replace("\u2019", "'"))
    return frozenset(tokenize(opening.group(1))) if opening and colloquial_held(space, record_id) else frozenset()


_COLLOQUIAL_WORD_OPENING = _Lazy(r"^\W*(?:[Mm]y|[Oo]ur)\s+([^\W\d_][\w-]*)")


# ``colloquial_relations``: a record opening with my/our and one word, then perhaps a name ("Our eldest,
# Sigrid, ...", "Our lad says ..."); ``colloquial_held`` says whether that word is a relation's
_COLLOQUIAL_OPENING = _Lazy(r"^\W*(?:[Mm]y|[Oo]ur)\s+[^\W\d_][\w-]*(?:'s)?(?:,?\s+([A-ZÀ-ÖØ-Þ][\w-]*))?")


def asked_own_relations(question: str) -> frozenset[str]:
    """``turn_relations``: the relation terms a question asks as the caller's ("my brother": brother)."""
    return frozenset(t for owned in _FIRST_PERSON.findall(question.replace("\u2019", "'")) for t in _relation_terms(owned))


def others_relation_turn(space: SearchSpace, record_id: str, caller_terms: frozenset[str],
                         relations: frozenset[str]) -> bool:
    """``turn_relations``: whether a record is another speaker's turn naming ``relations`` (with their
    other words) only as the speaker's own ("my brother", "our son"), never as "your ..." said to the
    caller."""
    record = space.records[record_id]
    speaker = space.speaker(record_id) if _is_turn(record) else None
    if not speaker or not _speaker_terms(speaker).isdisjoint(caller_terms):
        return False
    mine = False
    for owner, word in _TURN_POSSESSIVE.findall(record["statement"].replace("\u2019", "'")):
        terms = _relation_terms(word)
        if not terms or terms.isdisjoint(relations):
            continue
        if owner.lower() == "your":
            return False
        mine = True
    return mine


def _first_person_of(space: SearchSpace, record_id: str, own: frozenset[str]) -> frozenset[str]:
    """Whom "I" is in a record: a conversation turn's speaker, else the owner."""
    speaker = space.speaker(record_id) if _is_turn(space.records[record_id]) else None
    return _speaker_terms(speaker) if speaker else own


def support(space: SearchSpace, question: str, settings: dict, features, caller: str = "", *,
            ungated: bool = False) -> Callable[[str], float]:
    """record_id -> how far it alone supports an answer (the decision's sufficiency test).

    ``subject_attribution``: 0 unless the record holds every subject term (``subject_terms``) in
    its text or as its speaker — the question is about someone else's sister, or about what
    Melanie did while only Caroline did it. ``asserted_support``: coverage counts only what the
    record states, not what it asks. With neither, support is plain coverage.

    Issue 13's tests, each behind its flag (``planner.unseen_key_weight``, in ``_term_weights``,
    is the fifth); ``relation_subjects``
    (a record stating a relation's fact — "My brother's shoe size is 44", "Mira's partner is
    named Tobias" — supports only a question naming that relation); ``dialogue_pronouns`` (in a
    conversation, I/my is the speaker, you/your the other speaker, and a name said to someone
    — "Jon, I work as a nurse" — is not the turn's subject; a turn saying "you" to a named
    speaker is about them, "You work nights at the hospital" said to Felipe); ``negative_scope``
    (a negative record supports only a question about what it negates: "does not drink alcohol"
    does not answer "what does she drink in the morning?").

    ``named_subjects`` (``record_person``: a fact opening with another person's name, "Karim
    plays padel every Thursday", supports only a question naming them); ``sentence_attribution``
    (with ``dialogue_pronouns``, a turn supports a question about a speaker only with the
    sentences about them: ``_sentences_about``); ``pronoun_scope`` (with it, by the pieces of each
    sentence, cut where someone becomes its subject: ``_clause_owners``, ``_clauses_about``).

    ``ungated`` (``stated_contest``): no subject test at all — what the record states of the
    question whoever it is about, the measure a record contests an answer with.

    What the question asks, as against whom it is about: ``subject_gate_only``
    (subject terms are a gate, not coverage: "Where does my brother work?" is not half answered
    by "My brother's shoe size is 44"); ``unseen_modifier_abstains`` (``unseen_modifier``: the thing
    asked about is qualified by a word the scope never saw — "my visa expire", "the chess club",
    "my credit card": the records about what the scope knows are about another thing); ``planner.unseen_time_weight`` (a word that says when, "now", weighs that share of an
    ordinary term when the scope never saw it).

    Set up once per question and space: the as-asked and the ``ungated`` readings of one
    question share it (``_support_setup``).
    """
    # (``occupation_reading`` is not for ``stated_contest``: a friend's "I teach chemistry now" does
    # not contest my job; only then does the ungated reading need a setup of its own)
    contest = ungated and features("occupation_reading") and bool(asked_occupation(_idiom_read(question, features)))
    measure = _support_setup(space, question, settings, features, caller, contest)
    return (lambda record_id: measure(record_id, True)) if ungated else measure


def _idiom_read(question: str, features) -> str:
    """The question as the support test reads it: its idioms (``question_idioms``) and relation
    idioms (``relation_idioms``: "my other half" is "my spouse", ``lexicon.idiom_relations``) in
    plain words."""
    return _idioms_read(question, features("question_idioms"), features("relation_idioms"),
                        features("bare_genitives"), features("colloquial_relations"))


@lru_cache(maxsize=256)
def _idioms_read(question: str, idioms: bool, relations: bool, genitives: bool = False,
                 colloquial: bool = False) -> str:
    """``_idiom_read`` of the features' flags: a question's support setups and the ``support``
    calls that find them read it several times, and the relation idioms' pattern (the lexicon's,
    read once) is one long alternation."""
    if genitives:
        question = bare_genitives(question)
    if idioms:
        question = without_idioms(question)
    if relations:
        question = lexicon.idiom_relations(question)[0]
    if colloquial:
        question = lexicon.colloquial_relations(question)[0]
    return question


# ``bare_genitives``: apostrophes typed without ("whats my husbands name", "sons job?"): a relation word
# with an "s" right before one more word that ends the question is its possessive, unless the question
# has an auxiliary making it a plural subject ("Where do my sisters live?", "What are my sons called?")
_BARE_GENITIVE = _Lazy(r"(?i)\b([a-z]+s)\s+([a-z]+)(?=\s*(?:[?.!]\s*)?$)")
_BARE_WHATS = _Lazy(r"(?i)^(\W*)(what|where|who|when|how)s\b")
_PLURAL_AUXILIARY = _Lazy(r"(?i)\b(?:do|does|did|are|were|have|has|had|can|could|will|would)\b")


# the relation words ``_RELATIONS`` stems, as written
_RELATION_WORDS_WRITTEN = frozenset(
    "aunt baby babysitter boss boyfriend brother child coach colleague cousin coworker dad daddy daughter "
    "dentist doctor father fiance fiancee flatmate friend girlfriend grandchild granddaughter grandfather "
    "grandma grandmother grandpa grandparent grandson granny housemate husband kid landlady landlord manager "
    "mentor mom mommy mother mum nanny neighbor neighbour nephew niece parent partner roommate sibling sister "
    "son spouse stepdaughter stepson stepmother stepfather teacher teammate tenant therapist uncle wife".split())


def bare_genitives(question: str) -> str:
    """``bare_genitives``: ``question`` with "whats" read "what's" and a relation word written with an
    "s" and no apostrophe before the question's last word ("husbands name?", "my sons job") read as
    its possessive ("husband's name?"): a plural subject would need an auxiliary ("Where do my sisters
    live?") or a verb form ("What are my sons called?"), and then it is left as it is."""
    text = question.replace("\u2019", "'")
    read = _BARE_WHATS.sub(lambda m: m.group(1) + m.group(2) + "'s", text)
    if _PLURAL_AUXILIARY.search(read):
        return question if read == text else read
    found = _BARE_GENITIVE.search(read)
    if found and not found.group(2).lower().endswith(("ed", "ing")):
        word = found.group(1)
        bases = [word[:-1]] + ([word[:-2]] if word.lower().endswith("es") else [])
        for base in [b for b in bases if lexicon.relation_word_terms(b)] + \
                [b for b in bases if b.lower() in _RELATION_WORDS_WRITTEN]:
                read = read[:found.start()] + base + "'s " + found.group(2) + read[found.end():]
                break
    return question if read == text else read


def _support_setup(space: SearchSpace, question: str, settings: dict, features,
                   caller: str, contest: bool = False) -> Callable[..., float]:
    """``support``'s setup, kept per (question, caller, settings, features, contest) in the space's
    per-question cache (``SearchSpace.asked``): the setup reads only those and the space, so the
    same arguments give the same measure. Returns ``measure(record_id, ungated=False)``."""
    cache = space.asked("support_setups")
    for asked_caller, asked_settings, asked_features, asked_contest, found in cache.get(question, ()):
        if asked_caller == caller and asked_settings == settings and asked_features == features \
                and asked_contest == contest:
            return found
    found = _set_up_support(space, question, settings, features, caller, contest)
    # the settings copied: a caller changing its dict afterwards does not find this setup
    cache.setdefault(question, []).append((caller, dict(settings), features, contest, found))
    return found


def _set_up_support(space: SearchSpace, question: str, settings: dict, features,
                    caller: str, contest: bool = False) -> Callable[..., float]:
    question = _idiom_read(question, features)
    if features("doing_now") and features("occupation_reading"):
        question = doing_now_read(question)   # "What's our eldest doing now?" asks what they do
    occupation = asked_occupation(question) if features("occupation_reading") and not contest else frozenset()
    if occupation:   # "What does my uncle do?" asks his work: "... do work job"
        question = occupation_question(question)
    required, speakers = (subject_terms(space, question, caller, persons_only=features("person_possessors"),
                                        relations_too=features("relation_subjects"),
                                        roles_out=features("role_possessors"),
                                        whole_words=features("kinship_model"))
                          if features("subject_attribution") else ([], []))
    if features("named_subjects"):
        # the people the question names that the scope knows are subjects, like a relation: a
        # record must hold them, and (``subject_gate_only``) they are not what is asked
        required = sorted(set(required) | (asked_persons(space, question, caller, features("statement_persons"))
                                           - set(speakers)))
    anyone: frozenset[str] = frozenset()
    referred: frozenset[str] = frozenset()   # the one person a turn may name by she/he
    if features("turn_persons"):
        # the people the scope's conversations name as someone's relation ("My partner Hannah ..."):
        # subjects like the ones facts name (``turn_persons``); several are alternatives ("Who became
        # a parent first, Rachel or Alex?" is answered by a record about either)
        people = turn_persons(space, question, caller) - set(speakers) - set(required)
        if len(people) == 1:
            required = sorted(set(required) | people)
            referred = frozenset(people)
        else:
            anyone = frozenset(people)
    if features("occupation_subjects") and occupation:   # "What does Ben do for work?": Ben's, whoever he is
        required = sorted(set(required) | (occupation_doer(question, caller) - set(speakers)))
    asked_name = yes_no_name(question) if features("yes_no_names") else frozenset()
    if asked_name:   # ``yes_no_names``: "Is my sister named Rosa?" asks the name, Rosa is no subject
        required = [t for t in required if t not in asked_name]
    terms, names, entity_weight, keys, key_weight = _coverage_terms(question, caller, settings)
    if features("yes_no_objects") and key_weight > 0:
        keys = keys | (yes_no_object(question) - set(tokenize(caller)))
    kinship = features("kinship_model")
    grouped_kin = _kin_groups(space, question) if kinship else {}
    others = other_value_reader(space, question, features)   # ``other_values``
    if features("unseen_modifier_abstains") and unseen_modifier(space, question, caller, features("yes_no_objects"),
                                                                frozenset(grouped_kin)
                                                                | kinds_known(space, question, features)
                                                                | (asked_kin_group(question) if features("kin_group")
                                                                   else frozenset())
                                                                | other_values_known(question, others)):
        return lambda record_id, ungated=False: 0.0
    weights = _term_weights(space, terms, names, entity_weight, keys, key_weight)
    form_weight = settings.get("question_form_weight", 1.0)
    if form_weight != 1.0:   # the "many" of "how many" weighs that share of a term (0: none)
        form = question_form_terms(question)
        if form and set(weights) - form:
            weights = {t: w * form_weight if t in form else w for t, w in weights.items()
                       if form_weight > 0 or t not in form}   # 0: not a term at all
    forms = features("irregular_forms")
    if forms:
        weights = _based_weights(space, weights)
        required = sorted({base_term(t) for t in required})
    links = person_links(space, required, caller) if features("relation_names") and required else {}
    if features("relation_names") and required and not asked_name:
        # (a yes/no question on a name does not state it: "Is my sister named Rosa?")
        links = _asked_links(links, question, caller, required)
    if features("relation_synonyms") and required:
        links = _synonym_links(space, links, required, caller, features("relation_names"),
                               groups=features("relation_lexicon"))
    if features("speaker_relation_names") and speakers and required:
        # "When is Lucia's son's wedding?": the name Lucia's own turns give her son ("my son Pablo")
        # holds him, as a fact's "My son Pablo" does for the caller's son (``relation_names``)
        said = speaker_relation_links(space, speakers, [t for t in required if t in _RELATIONS])
        links = {**links, **{t: links.get(t, frozenset()) | names for t, names in said.items()}}
    if features("kin_group"):
        # "Who in my family is a nurse?": the family is a subject held by any relation of it, or a name
        # the scope gives one ("Our Niamh teaches ..." with "My sister Niamh ...")
        family = asked_kin_group(question)
        if family:
            required = sorted(set(required) | family)
            links = {**links, **kin_links(space, family, caller)}
    if features("colloquial_relations"):
        # "our eldest child": which child is asked is a subject too, held by the word or the name the
        # scope gives it ("Our eldest, Sigrid, ...")
        qualifiers = colloquial_qualifiers(question)
        if qualifiers:
            required = sorted(set(required) | qualifiers)
            links = {**links, **colloquial_links(space, qualifiers)}
    mine = caller_speaker(space, question, caller) if features("caller_turns") and not speakers else frozenset()
    time_weight = settings.get("unseen_time_weight", 1.0)
    if time_weight != 1.0:
        scaled = {t: w * time_weight for t, w in weights.items() if t in _WHEN_TERMS and not space.index.df(t)}
        if len(scaled) < len(weights):
            weights.update(scaled)
    event = False
    if features("subject_gate_only") and (required or speakers):
        subjects = set(required) | set(speakers)
        asked_only = {t: w for t, w in weights.items() if _folded(t) not in subjects}
        if sum(asked_only.values()) > 0:   # "Who is my manager?" asks for the subject itself
            weights = asked_only
        elif features("event_questions") and _ASKS_EVENT.match(question):
            # "What did my dad do last week?": an event of the subject, what a record of it said
            # then (the period is the query's frame) states, not a word of the question
            event = True
        elif features("subject_only_abstains") and _ASKS_WHAT_DONE.match(question):
            # "What does my wife do?": asks something of the subject that no word names, and a
            # record sharing only the subject ("My wife Maria's birthday ...") does not state it
            return lambda record_id, ungated=False: 0.0
    share = _share_of(weights)
    kinds = class_kinds(question) if features("class_words") else {}
    if kinds:   # ``class_words``: "My cat Luna ..." holds the "pets" of "Do I have any pets?"
        share_of_held = share
        share = lambda held: share_of_held(_with_classes(held, kinds))  # noqa: E731
    if forms:
        share_of_terms = share
        share = lambda held: share_of_terms(_with_bases(held))  # noqa: E731
    if features("answer_types"):
        share = _typed_share(share, weights, question, caller, forms)
    ages = features("age_answers") and bool(_ASKS_AGE.match(question.replace("\u2019", "'")))
    if ages:   # ``age_answers``: "My grandson Léo is 7" holds the "old" of "How old is my grandson?"
        share_of_aged = share
        share = lambda held: share_of_aged(held | _OLD_TERMS)  # noqa: E731
    typed = asked_value(question) if features("typed_answers") else None
    typed = typed if typed in CONFIDENT_VALUES else None
    units = features("value_units")
    attribute = asked_attribute_read(question, features) if features("asked_attributes") else None
    # the thing must be held where a value stands for the attribute's word ("green" holds "colour", by
    # the lexicon; "800 pounds" a price): else the value alone, of anything, would carry the answer. A
    # place or a date is about the thing by coverage and the subject tests ("You work nights at the
    # hospital" said to Felipe, "going to Crete" for the June trip)
    attribute_of = attribute_things_read(question, caller, forms, attribute) if attribute else frozenset()
    if attribute and _ATTRIBUTE_TERMS[attribute]:
        share = _attribute_share(share, weights, _ATTRIBUTE_TERMS[attribute], forms)
    if typed:   # ``typed_answers``: "The station is 2 km away" holds the "far" of "How far is the station?"
        share_of_typed = share
        share = lambda held: share_of_typed(held | _FORM_WORDS[typed])  # noqa: E731
    favourite = _asked_favourite(question, forms) if features("favourite_objects") else frozenset()
    compound = _asked_compound(question, forms) if features("compound_heads") else None
    whole = _generic_compound(compound) if compound and features("whole_attributes") else None
    other_head = _asked_head_compound(question, forms) if features("whole_attributes") and not compound else None
    number = features("number_answers") and bool(_ASKS_NUMBER.search(question.replace("\u2019", "'")))
    if features("when_only_abstains"):
        share = _beyond_when(share, weights, _scene_terms(question), forms)
    share_in = _lexicon_share(share, space, question, features, forms, weights)
    kinds_of = kind_reader(space, question, features, forms)   # ``kind_members``
    heads = unseen_head_holders(space, question, caller, features, forms)   # ``unseen_heads``
    errands = errand_means(question, features)   # ``errand_means``
    share_in = _share_adding(share_in, kinds_of)
    share_in = _share_adding(share_in, others)   # ``other_values``: "Tomasz teaches violin" holds "plumber"
    if features("compound_senses"):   # "We walked along the river bank" holds no "bank" of "Which bank ...?"
        share_in = _sense_share(share_in, space, question)
    if occupation and set(weights) - occupation - _WHEN_TERMS - _NOW_TERMS:
        occupation = frozenset()   # the work is not what is asked: "What happened to Maria's job?"
    if occupation:   # ``occupation_reading``: "My uncle teaches geography" holds the "do"/"job" asked
        share_in = _occupation_share(share_in, space, occupation)
    if features("age_search") and features("age_subjects") and asked_age_subject(question, caller) is not None:
        share_in = _age_share(share_in, space)   # ``age_search``: "I turned 61" holds the "old" asked
    if features("agent_nouns"):   # "Who in my family is a teacher?": "Our Niamh teaches ..." holds it
        share_in = _agent_share(share_in, weights)
    if features("asserted_support"):
        covers = lambda record_id: share_in(asserted_terms(space, record_id), record_id)  # noqa: E731
    else:
        covers = lambda record_id: share_in(space.term_set(record_id), record_id)  # noqa: E731
    asked = frozenset(tokenize(question))
    if forms:
        asked = _with_forms(asked)
    linked = frozenset().union(*links.values()) if links else frozenset()
    if features("relation_synonyms"):   # "Which neighbour feeds our cat?" / "Our neighbor Tom ..."
        linked |= frozenset().union(*(_RELATION_SYNONYMS.get(t, frozenset()) for t in asked))
    if features("relation_lexicon"):   # "my spouse" / "My wife Hélène ...": relation words only, so the
        # "GP" of "My brother's GP is Dr Kahn" is not read as a name the question asks
        groups = lexicon.relation_groups()
        grouped = frozenset().union(*(groups.get(t, frozenset()) for t in asked)) & _RELATIONS
        # the relation words the question holds only through the lexicon
        grouped_only = grouped - asked - frozenset().union(*(_RELATION_SYNONYMS.get(t, frozenset()) for t in asked))
        linked |= grouped
        linked -= frozenset().union(*(groups.get(t, frozenset()) for t in required)) - _RELATIONS - asked
    else:
        grouped_only = frozenset()
    relations = features("relation_subjects")
    pronouns = features("dialogue_pronouns") and bool(speakers)
    negatives = features("negative_scope")
    negative_objects = features("negative_objects")
    statement_persons = features("statement_persons")
    together = features("speaker_with_relation")
    named = features("named_subjects")
    negated_openings = features("negated_openings")
    owner_attribute = features("owner_attributes") and _asks_owner_attribute(question)
    sentences = pronouns and features("sentence_attribution")
    clauses = sentences and features("pronoun_scope")
    own = frozenset(tokenize(_folded(caller))) | _OWNER_WORDS
    asked_folded = frozenset(_folded(t) for t in asked) | linked
    things, quantity = _asked_predicate(question, forms) if features("predicate_required") else (frozenset(), False)
    owned = _owned_things(question, caller, forms) if features("owned_subjects") else frozenset()
    if owned and attribute:   # "my time in the Bath half" asks an attribute of mine, no thing I own
        owned = owned - _ATTRIBUTE_TERMS[attribute]
    # ``kinship_model``: "What's my dog called?" asks the dog's name, which "My budgie is called Kiwi" does
    # not give: the thing asked, in its own words, its group's ("my bird": budgie) or the thesaurus'
    named_things = _named_things(question, caller, forms) if kinship else frozenset()
    if named_things:
        named_things = named_things | frozenset().union(*(grouped_kin.get(t, frozenset()) for t in named_things)) \
            | frozenset(lexicon.synonym_terms(lexicon.asked_synonyms(named_things)))
        owned = owned | named_things
    said_of, said = yes_no_predicate(question, caller, forms) if features("yes_no_predicates") else \
        (frozenset(), frozenset())
    naming = (features("relation_name_answers") and bool(required) and bool(weights)
              and set(weights) <= _NAME_TERMS | asked_name)
    copular = features("relation_is_name")
    qualified = features("qualified_relations")
    where = features("place_answers") and bool(_ASKS_WHERE.match(question))

    replies = sentences and features("reply_answers")
    persons = features("turn_persons")
    # ``caller_clauses``: a question about the caller alone is supported by a turn's pieces about them
    callers = sorted(mine) if mine and not required and features("caller_clauses") else []
    # ``kinship_model``: relations named side by side ("my mum and dad") are held by the general word
    # of their lexicon group ("My parents live in Toruń"), as one of them is
    kin = frozenset().union(*(_relation_others(t, True) for t in speakers if t in _RELATIONS)) \
        if kinship and speakers else frozenset()

    idioms = features("relation_idioms")
    # ``colloquial_relations``: read only in the records holding one of the words
    colloquial = colloquial_records(space) if features("colloquial_relations") else frozenset()
    # ``turn_relations``: the caller's relations ("my brother"), when the caller speaks in the scope
    own_relations = asked_own_relations(question) if features("turn_relations") and caller and not \
        _speaker_terms(caller).isdisjoint(_folded(t) for t in space.speakers()) else frozenset()
    if own_relations:
        own_relations = own_relations | frozenset().union(*(_relation_others(t, features("relation_lexicon"))
                                                             for t in own_relations))
    aged = asked_age_subject(question, caller) if features("age_subjects") else None
    light = asked_light_act(question, forms) if features("light_acts") else None
    name_of = asked_name_subject(question, caller) if features("name_subjects") else None
    name_places = name_of is not None and not asks_possessed_name(question)
    thing_named = None   # ``thing_names``: the thing whose name is asked, no relation or person
    if features("thing_names") and features("name_subjects"):
        thing_named = asked_called_subject(question) if name_of is None else name_of
        if not thing_named or thing_named & (_RELATIONS | set(required) | set(speakers) | set(links)):
            thing_named = None
    possessed = features("possessed_names") and named
    we_turns = features("we_turns") and features("turn_persons")

    phrased = thing_phrase_holders(space, features, attribute_of) if attribute else None   # ``thing_phrases``
    # what the as-asked and the ungated reading of one record share, worked out once for both
    states_asked: dict[str, bool] = {}
    covered: dict[str, float] = {}

    def states_what_is_asked(record_id: str) -> bool:
        found = states_asked.get(record_id)
        if found is None:
            found = states_asked[record_id] = not (
                # ``typed_answers``: "Fewer bruises so far" states no distance, of anyone
                (typed and not states_value_read(typed, space.records[record_id]["statement"], units)
                 and not (kinds_of and lexicon.states_unit(typed, space.records[record_id]["statement"])))
                # ``asked_attributes``: "I own a 2017 Ford Transit van" states no colour
                or (attribute and not answers_attribute(
                    space, record_id, attribute,   # ``thing_phrases``: "a month for the flat" is the rent
                    frozenset() if phrased is not None and phrased(record_id) else attribute_of, question, forms)))
        return found

    def covers_once(record_id: str) -> float:
        found = covered.get(record_id)
        if found is None:
            found = covered[record_id] = covers(record_id)
        return found

    def measure(record_id: str, ungated: bool = False) -> float:
        # Every test below up to ``naming`` only returns 0.0 (no test has another effect: what they
        # keep are caches of what they read), so the answer is 0.0 when any of them fails, in any
        # order: the cheap subject tests run first, what the record states of the question's type or
        # attribute (a few patterns over the statement, ``states_what_is_asked``) last
        if ungated:   # ``stated_contest``: what the record states of the question, whoever it is about
            return covers_once(record_id) if states_what_is_asked(record_id) else 0.0
        if required or speakers:
            held = _held_terms(space, record_id)
            by_idiom = idiom_held(space, record_id) if idioms else frozenset()
            if by_idiom:   # ``relation_idioms``: "My other half Jannik ..." holds the spouse/partner
                held = held | by_idiom
            if record_id in colloquial:   # ``colloquial_relations``: "Our lad says ..." holds the child
                held = held | colloquial_held(space, record_id)
            if forms:
                held = _with_bases(held)
            if not all(term in held or not links.get(term, frozenset()).isdisjoint(held)
                       or (term in referred and term in _antecedent_terms(space, record_id))
                       or (we_turns and term in referred and said_as_we(space, record_id, term, speakers))
                       for term in required):
                return 0.0
            if speakers and held.isdisjoint(speakers) and held.isdisjoint(kin) \
                    and not (pronouns and _addressed(space, record_id, speakers)):
                return 0.0
        if own_relations and others_relation_turn(space, record_id, _speaker_terms(caller), own_relations):
            return 0.0   # ``turn_relations``: Gwen's "My brother Huw ..." is not the caller's brother
        if anyone and anyone.isdisjoint(_held_terms(space, record_id)):
            return 0.0   # ``turn_persons``: about none of the people the question names
        if relations and not _about_relation_asked(space, record_id, asked | linked, together):
            return 0.0
        if relations and record_id in colloquial and not colloquial_about(space, record_id, asked | linked):
            return 0.0   # ``colloquial_relations``: "Our eldest, Sigrid, is a nurse" is not "Where do I work?"
        if grouped_only and _others_relation(space, record_id, grouped_only, own):
            return 0.0   # ``relation_lexicon``: "Élodie's husband Karim" is no "partner" of mine
        if named:
            person = record_person(space, record_id, own, negated_openings, statement_persons)
            if person and person.isdisjoint(asked_folded):
                return 0.0
        if possessed and not possessed_person(space, record_id, own, caller) <= asked_folded:
            return 0.0   # ``possessed_names``: "Our Ailsa's a physio" is Ailsa's job, not the owner's
        if owner_attribute and _states_other_thing(space.records[record_id]["statement"], asked):
            return 0.0
        if pronouns and not _speaks_about(space, record_id, speakers):
            return 0.0
        if mine and space.records[record_id]["kind"] == "episode" and not _speaks_about(space, record_id, mine):
            return 0.0
        if negatives and space.records[record_id]["kind"] == "negative" and not negates(
                space.records[record_id], asked, negative_objects):
            return 0.0
        if things or owned:
            stated = asserted_terms(space, record_id) if features("asserted_support") else space.term_set(record_id)
            stated = _with_bases(stated) if forms else stated
            stated = stated | kinds_of(record_id) if kinds_of else stated   # ``kind_members``: a Maine Coon is a cat
            stated = stated | phrased(record_id) if phrased else stated   # ``thing_phrases``: "a month for the flat"
            if things and stated.isdisjoint(things) and not (quantity and _QUANTITY.search(
                    space.records[record_id]["statement"])):
                return 0.0   # ``predicate_required``: holds the thing asked about, not what is asked of it
            if owned and stated.isdisjoint(owned) and _OWNER_FIRST_PERSON.search(
                    space.records[record_id]["statement"].replace("\u2019", "'")):
                return 0.0   # ``owned_subjects``: "I'm allergic to peanuts" is not about "my cat"
            if named_things and stated.isdisjoint(named_things) and _states_other_owned(
                    space.records[record_id]["statement"], named_things):
                return 0.0   # ``kinship_model``: "My budgie is called Kiwi" is not about "my dog"
        if favourite and _states_other_favourite(space, record_id, favourite, forms):
            return 0.0   # ``favourite_objects``: "favourite author" does not answer "my favourite film"
        if compound and _modifies_other_head(space, record_id, compound, forms):
            return 0.0   # ``compound_heads``: "my blood thinner" is no "blood type"
        if other_head and _modifies_other_head(space, record_id, other_head, forms):
            return 0.0   # ``whole_attributes``: "The chess club meets ..." is no "chess rating"
        if whole and not _holds_compound(space, record_id, whole, forms):
            return 0.0   # ``whole_attributes``: "type 2 diabetes" holds no "blood type", "gave blood" none
        if number and not _states_number(space.records[record_id]["statement"]):
            return 0.0   # ``number_answers``: "a Fairphone 4" names a model, states no phone number
        if ages and not _STATES_AGE.search(space.records[record_id]["statement"]):
            return 0.0   # ``age_answers``: "my old copy" states no age
        if aged is not None and not states_age_of(space.records[record_id]["statement"], aged, own,
                                                  _first_person_of(space, record_id, own), links):
            return 0.0   # ``age_subjects``: "I am 41" is not the dog's age, "My dog is a dachshund" none
        if light and not states_light_act(space.records[record_id]["statement"], light, forms):
            return 0.0   # ``light_acts``: "the ferry to Mallorca costs …" states no going there
        if name_of is not None and not states_name_of(space.records[record_id]["statement"], name_of, name_places):
            return 0.0   # ``name_subjects``: "My name is Moira" is not the boat's name, "My collie ..." none
        if thing_named is not None and not names_no_person(space, record_id, thing_named, name_places):
            return 0.0   # ``thing_names``: "Jorge and I ... a spaniel puppy" names no puppy
        if where and not states_place(space.records[record_id]["statement"]):
            return 0.0   # ``place_answers``: "My cat Luna hates the new apartment" says nowhere where
        if said and not (asked_name and said <= asked_name):
            stated = asserted_terms(space, record_id) if features("asserted_support") else space.term_set(record_id)
            stated = _with_bases(stated) if forms else stated
            stated = stated | others(record_id) if others else stated   # ``other_values``: another value said
            if stated.isdisjoint(said) or not said_of <= stated:
                return 0.0   # ``yes_no_predicates``: what is asked is not stated of the subject asked about
        if (typed or attribute) and not states_what_is_asked(record_id):
            return 0.0
        if heads is not None and not heads(record_id):
            return 0.0   # ``unseen_heads``: "Flying to Lisbon on the 3rd" names no airline
        if errands and not _states_means(lexicon.without_errands(space.records[record_id]["statement"]), question):
            return 0.0   # ``errand_means``: "I walk the dog before work" is no way of getting to work
        if event:   # ``event_questions``: what a record of the subject, said then, tells
            return 1.0 if space.records[record_id]["kind"] == "episode" else 0.0
        if naming and _names_relation(space, record_id, caller, required, links, copular, kin=bool(kinship),
                                      qualified=qualified):
            return 1.0   # ``relation_name_answers``: "My sister Maria ..." answers "my sister's name"
        if sentences:
            elsewhere = (person_clauses_about if clauses and persons and _names_person_subject(space, record_id)
                         else _clauses_about if clauses else _sentences_about)(space, record_id, speakers)
            asked_of = _asked_before(space, record_id, speakers) if replies else frozenset()
            if elsewhere or asked_of:
                stated = asserted_terms(space, record_id) if features("asserted_support") else space.term_set(record_id)
                return share_in((stated - (elsewhere or frozenset())) | asked_of, record_id)
        if callers:
            elsewhere = caller_clauses_about(space, record_id, callers)
            if elsewhere:
                stated = asserted_terms(space, record_id) if features("asserted_support") else space.term_set(record_id)
                return share_in(stated - elsewhere, record_id)
        return covers_once(record_id)
    return measure


# ``planner.question_form_weight``: the quantity a "how" asks for: "How many turtles ...", "How long has ..."
_QUESTION_FORM = _Lazy(r"(?i)\bhow\s+(many|much|long|often)\b")


def question_form_terms(question: str) -> frozenset[str]:
    """``planner.question_form_weight``: the terms of the words that shape a question rather than
    name what it asks about — the quantity a "how" asks for ("How many turtles does Nate have?" is
    answered by "I got them a new friend, that makes three", which says no "many") — less any term
    the rest of the question holds as well. A record need not hold them: as a term, the rare "many"
    weighed more than "turtles", and a turn saying "so many days" outweighed every turn about the
    turtles. ("What kind of", "likely" were measured too: neutral on LoCoMo dev, left out.)"""
    text = question.replace("\u2019", "'")
    words = [word for hit in _QUESTION_FORM.finditer(text) for word in hit.groups() if word]
    if not words:
        return frozenset()
    rest = set(tokenize(_QUESTION_FORM.sub(" ", text)))
    return frozenset(tokenize(" ".join(words))) - rest


# ``favourite_objects``: "my favourite film" asks for a film; a record stating a favourite of another
# kind ("The user's favourite author is Jean Giono") states something else. A few kinds go by two names.
_FAVOURITE = r"(?:favourite|favorite|fave|preferred)\s+([^\W\d_][\w-]*(?:\s+[^\W\d_][\w-]*){0,2})"
_ASKS_FAVOURITE = _Lazy(r"(?i)\b(?:my|our|your|his|her|their|[^\W\d_][\w-]*'s)\s+" + _FAVOURITE)
_STATES_FAVOURITE = _Lazy(r"(?i)\b" + _FAVOURITE)
_STATES_LIKING = _Lazy(r"(?i)\b(?:favou?rites?|fave|best|prefers?|preferred|loves?|loved|adores?|likes?|liked|"
                            r"enjoys?|enjoyed|fan)\b")
_PHRASE_ENDS = frozenset("of besides except for from in on at to with about by like that which who whom or and "
                         "than since during".split())
_FAVOURITE_KINDS_TEXT = ("author writer novelist", "film movie", "colour color", "song tune track", "book novel",
                         "band group", "meal dish food", "sport game", "tv television show series",
                         "singer musician artist")
_FAVOURITE_KINDS = [frozenset(terms) for terms in (
    ("author", "writer", "novelist"),
    ("film", "movi"),
    ("colour", "color"),
    ("song", "tune", "track"),
    ("book", "novel"),
    ("band", "group"),
    ("meal", "dish", "food"),
    ("sport", "game"),
    ("tv", "televis", "show", "seri"),
    ("singer", "musician", "artist"),
)]


def _favourite_kinds(words: str, forms: bool) -> frozenset[str]:
    """The terms of the head of the words after "favourite" (its last word before a stop word or
    a preposition: "movie trilogy" asks a trilogy, "film of all time" a film, "dairy-free treats
    besides ..." treats), with its other names."""
    head = ""
    for word in words.split():
        if not tokenize(word) or word.lower() in _PHRASE_ENDS:
            break
        head = word
    terms = frozenset(base_term(t) if forms else t for t in tokenize(head))
    return terms.union(*(kinds for kinds in _FAVOURITE_KINDS if kinds & terms))


def _asked_favourite(question: str, forms: bool) -> frozenset[str]:
    """``favourite_objects``: the kind a question asks a favourite of ("What is my favourite film?":
    film, movie), none when it asks none."""
    found = _ASKS_FAVOURITE.search(question.replace("\u2019", "'"))
    return _favourite_kinds(found.group(1), forms) if found else frozenset()


def _states_other_favourite(space: SearchSpace, record_id: str, asked: frozenset[str], forms: bool) -> bool:
    """Whether a record states no liking at all (a preference record does by its kind), or only
    favourites of other kinds than the one asked while holding no word of it (its aliases count:
    "favorite writer" answers "my favourite writer")."""
    text = space.records[record_id]["statement"].replace("\u2019", "'")
    if space.records[record_id]["kind"] != "preference" and not _STATES_LIKING.search(text):
        return True   # "I'll lend you my old copy with the film photos" states no favourite at all
    stated = _STATES_FAVOURITE.findall(text)
    if not stated or any(_favourite_kinds(words, forms) & asked for words in stated):
        return False   # a liking naming no favourite ("It's one of my favorites!") may be of the kind asked
    held = space.term_set(record_id)
    return (_with_bases(held) if forms else held).isdisjoint(asked)


# ``number_answers``: "What's my home phone number?" asks a number; a record states one by the word
# ("My lucky number is seven", "my number ends in 4421") or by a numeral standing alone ("call me on
# 04 78 12 34 56", "I live at 12 rue Dumenge"), not by one ending a name ("a Fairphone 4", "an iPhone 15")
_ASKS_NUMBER = _Lazy(r"(?i)\b(?:my|our|your|his|her|their|[^\W\d_][\w-]*'s)\s+(?:[^\W\d_][\w-]*\s+){0,2}"
                          r"number\s*[?.!]*\s*$")
_NUMBER_WORD = _Lazy(r"(?i)\b(?:number|numbers|no\.|num)\b|#\s*\d")
_NUMERAL = _Lazy(r"(?<![\w-])(\+?\d[\d\s./-]*)")


def _states_number(statement: str) -> bool:
    if _NUMBER_WORD.search(statement):
        return True
    for found in _NUMERAL.finditer(statement):
        before = statement[:found.start()].rstrip().split()
        if not before or not any(c.isupper() for c in before[-1]) or before[-1].endswith((":", ",")):
            return True   # not the end of a name ("Fairphone 4")
    return False


# ``age_answers``: "How old is Didier?" asks an age; a record states one by a number, a birth or a
# birthday ("My grandson Léo is 7", "My mother was born in 1931", "turned 40", "7 years"), not by the
# adjective ("my old copy") nor by a number said of something else ("All thirteen, and I regret nothing")
_ASKS_AGE = _Lazy(r"(?i)^\W*how\s+old\s+(?:is|am|are|was|were|will|would)\b")
_AGE_NUMBER = (r"(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
               r"sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)")
_STATES_AGE = _Lazy(r"(?i)\b(?:born|birthdays?)\b|(?:\b(?:is|am|are|was|were|turned|turns|turning|turn|aged?|"
                         r"age\s+of)|'s|'m)\s+(?:(?:now|just|only|almost|nearly|over|about|already)\s+)?"
                         + _AGE_NUMBER + r"\b|\b" + _AGE_NUMBER + r"[\s-]+(?:years?|yrs?|months?)\b")
_OLD_TERMS_TEXT = "old"
_OLD_TERMS = frozenset(("old",))


# ``age_subjects`` (issue 13, session 9): whose age a question asks ("How old is my dog Krümel?",
# "What age is my rabbit?", "What is my dog's age?", "How old am I?"), and whose age a record states
# ("I am 41", "The user is 35 years old", "My cat Pepper turned twelve"): the last word before the verb
_ASKS_AGE_OF = _Lazy(r"(?i)^\W*(?:how\s+old\s+(?:is|are|was|were|will\s+be)\s+(?P<old>.+?)|what\s+age\s+(?:is|are|was|"
                     r"were)\s+(?P<age>.+?)|what(?:'s|\s+is|\s+was)\s+(?P<of>.+?)(?:'s|s')\s+age)(?:\s+(?:now|today|"
                     r"these\s+days|this\s+year))?\s*[?.!]*\s*$")
_ASKS_OWN_AGE = _Lazy(r"(?i)^\W*(?:how\s+old\s+(?:am|was)\s+i|how\s+old\s+(?:will|would)\s+i\s+be|what\s+age\s+(?:am|was|will\s+be)\s+i"
                     r"|what(?:'s|\s+is|\s+was)\s+my\s+age)\b")
# where the subject of an age question ends: "How old was my dog in 2020?" asks the dog's age then
_AGE_SUBJECT_END = _Lazy(r"(?i)\s+(?:in|on|at|during|before|after|when|by|last|this|next|back)\b")
_AGE_CLAIM = _Lazy(r"(?i)\b([^\W\d_][\w-]*)(?:\s+(?:who|which|that))?(?:\s+(?:is|am|are|was|were|turned|turns|"
                   r"turning|will\s+be)|'s|'m)\s+(?:(?:now|just|only|almost|nearly|over|about|already)\s+)?"
                   + _AGE_NUMBER + r"\b(?!\s*(?:%|percent|km|kms|miles?|minutes?|mins?|hours?|euros?|pounds?|dollars?|kg|"
                   r"kilos?|o'clock|am\b|pm\b|[:.]\d))")
# whose birth a statement tells: "I was born in Leeds" is the owner's (``states_age_of``), never a pet's
_BORN_CLAIM = _Lazy(r"(?i)\b([^\W\d_][\w-]*)\s+(?:was|were|'s\s+been)\s+born\b")
_FIRST_PERSON_CLAIM_TEXT = "i user"


def asked_age_subject(question: str, caller: str = "") -> frozenset[str] | None:
    """``age_subjects``: the terms of whose age a question asks (empty for the caller's own: "How old
    am I?"), None when it asks no age."""
    text = _folded(question.replace("\u2019", "'"))
    if _ASKS_OWN_AGE.match(text):
        return frozenset()
    found = _ASKS_AGE_OF.match(text)
    if not found:
        return None
    subject = _AGE_SUBJECT_END.split(found.group("old") or found.group("age") or found.group("of"), 1)[0]
    own = frozenset(tokenize(_folded(caller))) | _OWNER_WORDS
    terms = frozenset(tokenize(subject)) - own
    return terms if terms else frozenset()


# ``age_search`` (issue 13, session 10, kin10): an age question finds the statements of an age, which
# share no word with it ("How old am I?" / "I turned 61 in March", "I'm 67." kept under user.age): the
# words an age is told with, and the key's "age"
_AGE_SEARCH_TEXT = "age aged old turned turn turns birthday born years"
_AGE_SEARCH = ("age", "age", "old", "turn", "turn", "turn", "birthday", "born", "year")


_AGE_ASKED_TEXT = "old age"
_AGE_ASKED = frozenset(("old", "age"))


def _age_share(share_in: Callable[[frozenset[str], str], float],
               space: SearchSpace) -> Callable[[frozenset[str], str], float]:
    """``age_search``: ``share_in`` with the "old"/"age" of an age question held by a record stating an
    age (``_STATES_AGE``: "I turned 61 in March", "I'm 67."); whose age it is, ``states_age_of`` decides."""
    def shared(held: frozenset[str], record_id: str) -> float:
        if _STATES_AGE.search(space.records[record_id]["statement"].replace("\u2019", "'")):
            held = held | _AGE_ASKED
        return share_in(held, record_id)
    return shared


def age_candidates(space: SearchSpace, question: str, caller: str, settings: dict, covers: Callable,
                   found: list, steps: list) -> list:
    """``age_search``: for a question asking an age (``asked_age_subject``), the records a search for
    the words an age is told with finds, after every match (what was found, and its order, is
    unchanged), covering the question with its "old"/"age" held when they state an age; whose age
    they state stays ``age_subjects``' business in the decision."""
    if asked_age_subject(question, caller) is None:
        return []
    terms = sorted(set(_AGE_SEARCH))
    hits = space.search(terms, settings["candidates_per_search"])
    steps.append({"action": "search", "kind": "age", "terms": terms, "hits": len(hits)})
    seen = {c.record_id for c in found}
    share = _share_of(_term_weights(space, *_coverage_terms(question, caller, settings)))

    def coverage(record_id: str) -> float:
        if _STATES_AGE.search(space.records[record_id]["statement"].replace("\u2019", "'")):
            return max(covers(record_id), share(space.term_set(record_id) | _AGE_ASKED))
        return covers(record_id)
    return [Candidate(rid, 0.0, 0.0, coverage(rid)) for rid, _ in hits if rid not in seen]


# ``occupation_search``: the words a job is told with when no job word is said ("I teach piano from home",
# "runs a small hostel", "started at the clinic"; ``_STATES_OCCUPATION``), searched beside the job lexicon
_OCCUPATION_SEARCH_TEXT = "work works teach teaches lecture lectures run runs own owns manage manages started joined"
_OCCUPATION_SEARCH = frozenset(("work", "teach", "lectur", "run", "own", "manag", "start", "join"))


def occupation_candidates(space: SearchSpace, question: str, caller: str, settings: dict, covers: Callable,
                          found: list, steps: list) -> list:
    """``occupation_search``: for a question asking someone's work (``asked_occupation``: "What do I do
    for work?") that names no person or relation to search by, the records a search for the words a job is told with (``_OCCUPATION_SEARCH``, the job
    lexicon's members) finds, after every match (what was found, and its order, is unchanged),
    covering the question's work words when they state an occupation (``states_occupation``); whose
    work it is stays the subject tests' business in the decision."""
    if not _occupation_searched(question):
        return []
    job = lexicon.categories().get("job")
    terms = sorted(_OCCUPATION_SEARCH | (frozenset().union(*job.members) if job is not None else frozenset()))
    hits = space.search(terms, settings["candidates_per_search"])
    steps.append({"action": "search", "kind": "occupation", "hits": len(hits)})
    seen = {c.record_id for c in found}
    return [Candidate(rid, 0.0, 0.0, covers(rid)) for rid, _ in hits if rid not in seen]


def _agent_share(share_in: Callable[[frozenset[str], str], float],
                 weights: dict[str, float]) -> Callable[[frozenset[str], str], float]:
    """``agent_nouns``: ``share_in`` with a job of the lexicon asked by its agent noun ("teacher",
    "driver", "baker") held by a record holding the job's verb ("teaches", "drives", "bakes")."""
    nouns = {t: verbs for t, verbs in agent_nouns_of(" ".join(weights)).items() if t in weights}
    if not nouns:
        return share_in
    return lambda held, record_id: share_in(held | {t for t, verbs in nouns.items() if not held.isdisjoint(verbs)},
                                            record_id)


def held_coverage(space: SearchSpace, covers: Callable[[str], float], question: str, settings: dict, caller: str,
                  extra: Callable[[str, frozenset[str]], frozenset[str]]) -> Callable[[str], float]:
    """Coverage with the question's terms a record holds in other words (``extra(record_id, its terms)``:
    ``kin_group``'s family held by a relation, ``agent_nouns``' teacher by "teaches"), as the support
    test reads them; ``covers`` itself for a record holding none that way."""
    share = _share_of(_term_weights(space, *_coverage_terms(question, caller, settings)))

    def covered(record_id: str) -> float:
        found = covers(record_id)
        if found >= 1.0:
            return found
        held = space.term_set(record_id)
        more = extra(record_id, held)
        return max(found, share(held | more)) if more else found
    return covered


def agent_nouns_of(question: str) -> dict[str, tuple[str, str]]:
    """``agent_nouns``: the jobs of the lexicon a question asks by an agent noun -> the terms of the
    job's verb ("teacher": teach, "driver": drive)."""
    nouns = [t for t in tokenize(question) if t.endswith(("er", "or")) and len(t) > 4]
    if not nouns:
        return {}
    jobs = _job_terms()
    return {t: (t[:-2], t[:-1]) for t in nouns if t in jobs}


@lru_cache(maxsize=1)
def _job_terms() -> frozenset[str]:
    """The one-term members of the job lexicon ("teacher", "driver")."""
    job = lexicon.categories().get("job")
    return frozenset(t for member in job.members if len(member) == 1 for t in member) if job is not None else frozenset()


def _occupation_searched(question: str) -> bool:
    """``occupation_search``: whether a question asks someone's work with no name or relation of its
    own to find the records by ("What do I do for work?"; "What does Tariq work as?" finds Tariq's
    records by his name, "What does my sister do?" hers by the sister and the names linked to her)."""
    return bool(asked_occupation(question)) and not name_terms(question) \
        and _RELATIONS.isdisjoint(tokenize(question))


def occupation_coverage(space: SearchSpace, covers: Callable[[str], float], question: str, settings: dict,
                        caller: str) -> Callable[[str], float]:
    """``occupation_search``: coverage with the work words of a question asking someone's work (with no
    name or relation to search by, ``_occupation_searched``) held by a record stating an occupation (``states_occupation``: "I teach piano from home"), as the support
    test reads it (``occupation_reading``); ``covers`` itself for any other question."""
    if not _occupation_searched(question):
        return covers
    asked = asked_occupation(question)
    share = _share_of(_term_weights(space, *_coverage_terms(occupation_question(question), caller, settings)))

    def covered(record_id: str) -> float:
        found = covers(record_id)
        if found < 1.0 and states_occupation(space.records[record_id]["statement"], roles=True):
            return max(found, share(space.term_set(record_id) | _OCCUPATION | asked))
        return found
    return covered


def states_age_of(statement: str, subject: frozenset[str], own: frozenset[str], first: frozenset[str],
                  links: dict[str, frozenset[str]]) -> bool:
    """``age_subjects``: whether a statement states the age of ``subject`` (``asked_age_subject``).
    It must state an age (``_STATES_AGE``); an age said in the first person ("I am 41", "The user is
    35") is of ``first`` (the owner's terms, a turn's speaker's), never of a pet or another person
    the owner names; an age said of a name or thing is of the subject when that is the subject's
    or the statement holds the subject ("My cat Pepper turned twelve" for "my cat")."""
    text = _folded(statement.replace("\u2019", "'"))
    if not _STATES_AGE.search(text):
        return False
    claims = [word.lower() for word in _AGE_CLAIM.findall(text) + _BORN_CLAIM.findall(text)]
    if not claims:
        return True   # "born in 2019", "his birthday": whose it is stays the subject tests' business
    firsts = [word for word in claims if word in ("i", "user") or set(tokenize(word)) <= own and tokenize(word)]
    if not subject:   # the owner's age: a first-person claim
        return bool(firsts)
    wanted = subject | frozenset().union(*(links.get(t, frozenset()) for t in subject))
    if firsts and not wanted.isdisjoint(first):
        return True   # a speaker's "I'm 30" is their age
    if len(firsts) == len(claims):
        return False   # only the owner's age: "I am 41" for "my dog"
    return not wanted.isdisjoint(tokenize(text))


# ``name_subjects`` (issue 13, session 10, kin10): whose name a question asks ("What is my boat's
# name?", "What's my granddaughter called?", "What is the name of Dario's wife?", "What is my name?"),
# and whether a record names them: the owner's "My name is Moira" names the owner only, and a record
# about the thing that names nothing ("My collie sleeps by the stove") does not name it
_ASKS_NAME_OF = _Lazy(r"(?i)^\W*what(?:'s|\s+is|\s+was|\s+are|\s+were)\s+(?:(?P<of>.+?)(?:'s|s')\s+(?:\w+\s+)?names?"
                      r"|the\s+(?:\w+\s+)?names?\s+of\s+(?P<the>.+?)|(?P<called>.+?)\s+(?:called|named))\s*[?.!]*\s*$")
_ASKS_OWN_NAME = _Lazy(r"(?i)^\W*what(?:'s|\s+is|\s+was)\s+(?:my|the\s+user's)\s+(?:\w+\s+)?name\s*[?.!]*\s*$")
# the owner's own name stated: "My name is Moira", "The user's full name is ...", "I'm called Mo"
_OWNER_NAME_CLAIM = _Lazy(r"(?i)\b(?:my|(?:the\s+)?user's)\s+(?:\w+\s+)?name\s+(?:is|was|'s)\b(?:\s+(?-i:[A-ZÀ-ÖØ-Þ])[\w'-]*)*"
                          r"|\b(?:i'm|i\s+am|(?:the\s+)?user\s+is|i\s+go)\s+(?:called|named|by)\b(?:\s+(?-i:[A-ZÀ-ÖØ-Þ])[\w'-]*)*")
_STATES_NAMING = _Lazy(r"(?i)\b(?:called|named|calls|call\s+(?:him|her|it|them)|names?\s+(?:is|was|are|'s))\b")
# the kinds of a name a question may ask ("my full name", "her maiden name"): no subject
_NAME_KINDS_TEXT = "full first last middle real maiden nick sur given family birth pet"
_NAME_KINDS = frozenset(("full", "first", "last", "middl", "real", "maiden", "nick", "sur", "given", "famili", "birth",
                         "pet"))
_PLACE_BEFORE_TEXT = "in at on near from to into onto by across around outside inside past via"
_PLACE_BEFORE = frozenset(_PLACE_BEFORE_TEXT.split())
_WED_TEXT = "married engaged wed wedded"
_WED = frozenset(_WED_TEXT.split())
_NAME_OPENERS = frozenset(("i", "my", "our", "the", "a", "an", "we", "he", "she", "they", "it", "this", "that",
                           "these", "those", "his", "her", "their", "your", "you", "yes", "no", "oh", "so", "and",
                           "but", "well", "also", "then", "there", "here", "what", "when", "where", "who"))


def asked_name_subject(question: str, caller: str = "") -> frozenset[str] | None:
    """``name_subjects``: the terms of whose (or what's) name a question asks, empty for the caller's
    own ("What is my name?"), None when it asks no name."""
    text = _folded(question.replace("\u2019", "'"))
    if _ASKS_OWN_NAME.match(text):
        return frozenset()
    found = _ASKS_NAME_OF.match(text)
    if not found:
        return None
    subject = found.group("of") or found.group("the") or found.group("called")
    own = frozenset(tokenize(_folded(caller))) | _OWNER_WORDS
    return frozenset(tokenize(subject)) - own - _NAME_KINDS


def asks_possessed_name(question: str) -> bool:
    """``name_subjects``: whether a name question asks the name of someone's thing or person ("my
    boat", "Dario's wife"), which a place said after a preposition is not ("moored at Kessock"), as
    against a place or thing asked otherwise ("the restaurant I went to", whose name "went to Nobu" is)."""
    found = _ASKS_NAME_OF.match(_folded(question.replace("\u2019", "'")))
    subject = (found.group("of") or found.group("the") or found.group("called")) if found else ""
    return bool(_OWNING_WORDS.search(subject)) or bool(found and found.group("of"))


# ``thing_names``: "What did Lucia call the new puppy?", "What do we call our boat?": the name given a thing
_ASKS_CALLED = _Lazy(r"(?i)^\W*what\s+(?:did|do|does|will|are|were|is|have|has)\s+\S.*?\s+(?:call|calling|name|naming)\s+"
                     r"(?:the|their|our|his|her|my|its|that|this)\s+(.+?)\s*[?.!]*\s*$")


def asked_called_subject(question: str) -> frozenset[str] | None:
    """``thing_names``: the terms of the thing a question asks someone's name for ("What did Lucia
    call the new puppy?": new, puppi), None when it asks none."""
    found = _ASKS_CALLED.match(question.replace("\u2019", "'"))
    return frozenset(tokenize(found.group(1))) - _NAME_KINDS if found else None


def names_no_person(space: SearchSpace, record_id: str, subject: frozenset[str], places: bool) -> bool:
    """``thing_names``: whether a record can state the name of a thing (``subject`` holds no relation)
    by something other than the name of a person the scope knows: a naming word ("The pup's called
    Canela"), or a capitalized word (as ``states_name_of`` reads them) that is no speaker's name and
    no name a turn or fact gives someone's relation. "Jorge and I have put our names down for a
    spaniel puppy", with Lucia's "my husband Jorge", names no puppy."""
    text = _OWNER_NAME_CLAIM.sub(" ", space.records[record_id]["statement"].replace("\u2019", "'"))
    if _STATES_NAMING.search(text):
        return True
    speakers = frozenset(t for name in space.speakers() for t in _speaker_terms(name))
    words = [word.strip(",.;:!?()\"") for word in text.split()]
    for at, word in enumerate(words):
        terms = set(tokenize(_folded(word.removesuffix("'s")))) - _WHEN_TERMS
        if not word[:1].isupper() or not terms or (at == 0 and word.strip("'").lower() in _NAME_OPENERS):
            continue
        if at and not places and words[at - 1].lower() in _PLACE_BEFORE:
            continue
        if terms & speakers or any(relation_owners(space, t) or person_links(space, [t]) for t in terms):
            continue   # a person's name, not the thing's
        return True
    return False


def states_name_of(statement: str, subject: frozenset[str], places: bool = False) -> bool:
    """``name_subjects``: whether a statement can state the name ``asked_name_subject`` asks. The
    owner's name (``subject`` empty) only by the owner's claim ("My name is Moira Fraser."); anyone
    else's or anything's by a naming word (called, named, "her name is") or a capitalized word that
    is not a place after a preposition ("My niece Isla ...", "Isla is my niece"; with ``places``, one
    after a preposition too: "went to Nobu"), the owner's claim left out: "My name is Moira" names no
    boat. Whose name it is stays the subject tests' business."""
    text = statement.replace("\u2019", "'")
    if not subject:
        return bool(_OWNER_NAME_CLAIM.search(text))
    rest = _OWNER_NAME_CLAIM.sub(" ", text)
    if _STATES_NAMING.search(rest):
        return True
    words = [word.strip(",.;:!?()\"") for word in rest.split()]
    for at, word in enumerate(words):
        if not word[:1].isupper() or not set(tokenize(word)) - _WHEN_TERMS:
            continue
        if at == 0:
            if word.strip("'").lower() not in _NAME_OPENERS:
                return True
            continue
        before = words[at - 1].lower()
        # a place after a preposition ("moored at Kessock", "moved to Toronto"), but "married to Agnieszka"
        if places or before not in _PLACE_BEFORE or (before == "to" and at > 1 and words[at - 2].lower() in _WED):
            return True
    return False


# ``typed_answers``: what a question asks for, read from how it is put — a distance ("how far"), a
# frequency ("how often"), an amount ("how much"), a duration ("how long"), a clock time ("what time"),
# a date ("when"), a person ("who"), a place ("where"), an age ("how old"), a number ("my phone number")
# — and whether a record states a value of that kind. The readings of ``place_answers``, ``age_answers``
# and ``number_answers`` are three of them; those keys still decide their own support.
_COUNT = (r"(?:\d[\d.,]*|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
          r"thirty|forty|fifty|sixty|hundred|thousand|half|a\s+few|few|several|a\s+couple\s+of|couple\s+of)")
# a count before its unit: digits may touch it ("5km"), a word may not ("a" + "m" is "am": "I am 29
# years old" states no distance, "I am" no duration)
_COUNT_UNIT = r"(?:\d[\d.,]*[\s-]*|(?:" + _COUNT[len("(?:\\d[\\d.,]*|"):] + r"[\s-]+)"
_ASKED_VALUES = (
    ("distance", _Lazy(r"(?i)^\W*how\s+far\b")),
    # "how many times" counts events, which a record need not state as a frequency: not read here
    ("frequency", _Lazy(r"(?i)^\W*how\s+(?:often|frequently|regularly)\b")),
    ("amount", _Lazy(r"(?i)^\W*how\s+much\b|^\W*what\s+(?:does|do|did|will|would)\b[^?]*\bcost\s*[?.!]*\s*$|"
                          r"^\W*what(?:'s|\s+is|\s+was|\s+are|\s+were)\s+(?:the\s+)?(?:price|cost|fee|rent|fare)s?\b")),
    ("duration", _Lazy(r"(?i)^\W*how\s+long\b")),
    ("clock", _Lazy(r"(?i)^\W*(?:at\s+)?what\s+time\b")),
    ("age", _ASKS_AGE),
    ("place", _ASKS_WHERE),
    ("date", _Lazy(r"(?i)^\W*(?:when\b|(?:on\s+)?what\s+(?:day|date|year|month)\b)")),
    ("person", _Lazy(r"(?i)^\W*(?:who|whom)\b")),
)
# the word of the question's form that a stated value stands for ("far" in "How far is the station?":
# "The station is 2 km away" holds it), as "old" for an age
# (written out as terms: a table stemmed at import costs every `memory query` process; tests hold each
# to the terms of its text)
_FORM_WORDS_TEXT = {"distance": "far", "frequency": "often frequently", "amount": "much", "duration": "long",
                    "clock": "time"}
_FORM_WORDS = {"distance": frozenset(("far",)), "frequency": frozenset(("often", "frequent")),
               "amount": frozenset(("much",)), "duration": frozenset(("long",)), "clock": frozenset(("time",))}
_STATED_VALUES = {
    "distance": _Lazy(r"(?i)\b" + _COUNT_UNIT + r"(?:km|kms|kilomet(?:re|er)s?|mi|miles?|metres?|meters?|m|yards?|"
                           r"feet|foot|ft|blocks?|steps|stops)\b|\b" + _COUNT_UNIT + r"(?:minutes?|mins?|hours?|hrs?)"
                           r"['\u2019]?\s+(?:walk|drive|ride|away|by\s+\w+|on\s+foot|from)\b|\b(?:next\s+door|"
                           r"around\s+the\s+corner|down\s+the\s+road|across\s+the\s+(?:street|road)|not\s+far|far\s+away|"
                           r"a\s+long\s+way|nearby|close\s+by|(?:within\s+)?walking\s+distance)\b"),
    "frequency": _Lazy(r"(?i)\b(?:every|each|per)\s+(?:\w+\s+)?\w|\b(?:once|twice|thrice)\b|\b" + _COUNT +
                            r"\s+times\b|\b(?:daily|nightly|weekly|fortnightly|monthly|quarterly|yearly|annually|"
                            r"hourly|always|usually|often|regularly|rarely|seldom|sometimes|occasionally|never|"
                            r"(?:mon|tues|wednes|thurs|fri|satur|sun)days|weekends|mornings|evenings|nights)\b|"
                            r"\bnow\s+and\s+(?:then|again)\b|\bfrom\s+time\s+to\s+time\b|\ba\s+(?:day|week|month|year)\b"),
    "amount": _Lazy(r"(?i)[$€£¥]|\b(?:euros?|eur|dollars?|usd|pounds?|gbp|francs?|cents?|pence|bucks|quid|"
                         r"free|nothing|kg|kilos?|kilograms?|grams?|g|lbs?|litres?|liters?|cups?|glasses|bottles?|"
                         r"percent|dozen|half|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
                         r"twenty|thirty|forty|fifty|hundred|thousand|million)\b|(?<![\w-])\d(?![\d-]*\s*(?:st|nd|rd|"
                         r"th)\b)"),
    "duration": _Lazy(r"(?i)\b" + _COUNT_UNIT + r"(?:seconds?|minutes?|mins?|hours?|hrs?|days?|nights?|weeks?|"
                           r"fortnights?|months?|years?|decades?|km|kilomet(?:re|er)s?|miles?|metres?|meters?|m|"
                           r"feet|foot|ft|pages?|episodes?)\b|\b(?:since|ages|overnight|all\s+(?:day|night|week))\b"),
    "clock": _Lazy(r"(?i)\b\d{1,2}(?:[:.h]\d\d)\b|\b\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.|o'clock|h)(?!\w)|\b(?:noon|"
                        r"midday|midnight|dawn|dusk|sunrise|sunset|morning|mornings|afternoon|afternoons|evening|"
                        r"evenings|night|nights|tonight|early|late|lunchtime|bedtime|breakfast|lunch|dinner)\b|"
                        r"\b(?:half\s+past|quarter\s+(?:past|to))\b"),
    "date": _Lazy(_STATES_TIME.pattern + r"|\b(?:19|20)\d\d\b|\b\d{1,2}(?:st|nd|rd|th)\b|\bago\b|"
                       r"\b(?:last|next|this)\s+\w+"),
    "person": _Lazy(r"(?<=\s)(?:[A-Z][\w'\u2019-]+)|\b(?:I|me|we|us|he|him|she|they|them)\b|(?i:\b(?:my|our|his|her|"
                         r"their)\s+\w+)"),
}
# a word of place before a time or in an idiom: no place ("at Christmas", "in May", "at least", "in time")
_NOT_PLACES = _Lazy(r"(?i)\b(?:in|at|on|by|around|within|past|from|to|until|till)\s+(?:the\s+)?(?:"
                         + _STATES_TIME.pattern[len("(?i)"):] + r"|christmas|easter|new\s+year|night|nights|dawn|dusk|"
                         r"\d{1,2}(?::\d\d)?|\d{4}|(?:the\s+)?(?:moment|end|start|beginning|time|times|least|most|"
                         r"first|last|once|all|then|now|length|random|times|worst|best|latest|earliest))\b"
                         r"|\bto\s+[^\W\d_]+\s+(?:him|her|me|them|us|you|it)\b")   # "to teach him": a verb
_YEAR_ONLY = _Lazy(r"(?i)\b(?:in|since|until|till|by|of|from)\s+(?:[^\W\d_]+\s+)?(?:19|20)\d\d\b")
# the kinds whose reading is sure enough that a record stating no value of them does not answer
# (``typed_answers``); the others only order the evidence (``typed_evidence_order``)
CONFIDENT_VALUES = frozenset({"distance", "frequency", "amount", "clock"})


def asked_value(question: str) -> str | None:
    """The kind of value a question asks for (``_ASKED_VALUES``: "How far do I walk each day?" ->
    distance), "number" for one ending "my … number", None when its form says none ("What car do I
    drive?": its head noun says, ``answer_type``)."""
    text = question.replace("\u2019", "'")
    for kind, asks in _ASKED_VALUES:
        if asks.match(text):
            return kind
    return "number" if _ASKS_NUMBER.search(text) else None


@lru_cache(maxsize=8192)
def states_value(kind: str, statement: str) -> bool:
    """Whether a statement states a value of ``kind`` (``asked_value``): "I swim twice a week" a
    frequency, "The station is 2 km away" a distance, "costs too much" no amount, "so far" no
    distance, "in 2024" no amount. (Kept per statement: the support test asks it of every
    candidate of every question asking a value, ~50 us of patterns each time.)"""
    text = statement.replace("\u2019", "'")
    if kind == "place":   # "at Christmas", "on Friday", "at least" say when or how, not where
        return states_place(_NOT_PLACES.sub(" ", text))
    if kind == "age":
        return bool(_STATES_AGE.search(text))
    if kind == "number":
        return _states_number(text)
    if kind == "amount":
        text = _YEAR_ONLY.sub(" ", text)
    stated = _STATED_VALUES.get(kind)
    return True if stated is None else bool(stated.search(text))


# ``value_units``: a distance counted in the lengths or laps of a pool or a track ("I swim 40 lengths")
_COUNTED_DISTANCE = _Lazy(r"(?i)\b" + _COUNT_UNIT + r"(?:lengths|laps|lap|length|circuits|rounds|loops)\b")


def states_value_read(kind: str, statement: str, units: bool) -> bool:
    """``states_value``, and with ``units`` (``value_units``) a distance counted in lengths or laps."""
    if states_value(kind, statement):
        return True
    return units and kind == "distance" and bool(_COUNTED_DISTANCE.search(statement.replace("\u2019", "'")))


# ``asked_attributes``: a question asking an ATTRIBUTE of a THING — its colour ("What colour is my
# van?"), its price (a "how much" question: "How much did I pay for the Transit?"), when it is, as a
# schedule ("When is the quiz night?", "When does the rowing club train?": present or future, which
# the record's own date does not say), where it is ("Where is the farmers' market?"), someone's time in
# a race ("What was Marek's time in the half marathon?") — is answered only by a record that states the
# attribute beyond the thing's own words: the attribute's word, or a value of its type (a colour of the
# lexicon, an amount that is no year, model, distance or duration where a price is asked, a date, day,
# season, time of day or routine, a place, a duration or a clock time); where a value stands for the
# attribute's word (colour, price, race time) the record must also be about the thing (hold a term of
# it, or be keyed by one). "I own a 2017 Ford Transit van" names the van and states no
# colour and no price; "I'm going to the quiz night with Ada" states no date ("night" is the thing's).
_ASKED_ATTRIBUTES = (
    ("colour", _Lazy(r"(?i)^\W*(?:what|which)\s+colou?rs?\b|^\W*what(?:'s|\s+is|\s+was|\s+are|\s+were)\s+the\s+"
                     r"colou?rs?\s+of\b")),
    ("schedule", _Lazy(r"(?i)^\W*(?:when(?:'s|\s+is|\s+are|\s+does|\s+do|\s+will)|(?:on\s+|in\s+)?what\s+(?:day|date|"
                       r"year|month)\s+(?:is|are|was|were|does|do|will))\b")),
    ("place", _ASKS_WHERE),
    ("race_time", _Lazy(r"(?i)^\W*what(?:'s|\s+is|\s+was|\s+were)\s+(?:my|our|your|his|her|their|[^\W\d_][\w-]*'s)"
                        r"\s+(?:finishing\s+|final\s+|best\s+|race\s+)?time\s+(?:in|at|for|on)\b")),
)
# (an amount by its value only: "costs too much" states none)
_ATTRIBUTE_WORDS = {"colour": _Lazy(r"(?i)\bcolou?rs?\b")}
# the terms of the attribute's word, which a record stating a value of it holds ("I ran the Bath half
# in 1:58" holds the "time" of "What was my time in the Bath half?"), written out as ``tokenize`` gives them
_ATTRIBUTE_TERMS_TEXT = {"colour": "colour color", "amount": "price cost", "race_time": "time"}
_ATTRIBUTE_TERMS = {"colour": frozenset(("colour", "color")), "amount": frozenset(("price", "cost")),
                    "race_time": frozenset(("time",)), "schedule": frozenset(), "place": frozenset(),
                    "amount_of": frozenset(("price", "cost")), "means": frozenset()}
# ``race_acts`` (issue 13, session 10, kin10): "What time did Kemal run the marathon in?" asks a race time
# by the act of the race, which a record stating the time says otherwise ("I finished the Istanbul
# marathon in 3:38", "came in at 1:52"): the time and the acts a race is done with are held by it
_ASKS_RACE_ACT = _Lazy(r"(?i)^\W*(?:in\s+)?what\s+time\s+(?:did|does|do|will)\s+\S.*?\s+(?:run|do|finish|complete|race|"
                       r"walk|swim|ride|cycle)\s+(?:the|a|an|my|our|his|her|their|[^\W\d_][\w-]*'s)\b.*?\s+in\s*[?.!]*\s*$")
_RACE_ACT_TEXT = "time run ran finish finished complete completed race walk swim ride cycle"
_RACE_ACT = frozenset(("complet", "cycl", "finish", "race", "ran", "ride", "run", "swim", "time", "walk"))
_ATTRIBUTE_TERMS["race_act"] = _RACE_ACT
# a time said by what it comes before or after ("after work", "before bed", "until the loan is settled"),
# by a season or a holiday ("in spring", "at Christmas"), by how long from now ("in two weeks", "soon"),
# or by a bare hour after a preposition ("at 8", "by 10.30")
_ROUTINE_TIME = _Lazy(r"(?i)\b(?:after|before|until|till|during)\s+[^\W\d_]|\b(?:spring|summer|autumn|winter|"
                      r"christmas|easter|new\s+year|soon|shortly)\b|\bin\s+(?:the\s+)?fall\b|\b(?:in|within)\s+"
                      r"(?:about\s+|around\s+)?" + _COUNT + r"\s+(?:minutes?|hours?|days?|weeks?|fortnights?|months?|"
                      r"years?)\b|\b(?:at|by|from|around|about)\s+"
                      r"(?:about\s+|around\s+)?\d{1,2}(?:[.:]\d\d)?\b(?![.,]?\d|\s*(?:%|percent|km|kms|miles?|"
                      r"metres?|meters?|kg|kilos?|years?|euros?|pounds?|dollars?))")
# a second question joined to the first ("When is Sofia starting, and who is her buddy?"): no one attribute
_SECOND_QUESTION = _Lazy(r"(?i)(?:,|\band\b|\bor\b)\s*(?:and\s+)?(?:who|whom|what|where|when|which|how|why)\b")
_RACE_TIME = _Lazy(r"(?i)\b\d{1,2}(?::\d\d){1,2}\b|\b\d+\s*h\s*\d+|\b" + _COUNT +
                   r"[\s-]*(?:seconds?|secs?|minutes?|mins?|hours?|hrs?)\b")
# a question asking a price ("How much did the Transit cost?", "How much is the flat?"), not a quantity
# of something ("How much sleep do I get?", which a duration answers)
_HOW_MUCH = _Lazy(r"(?i)^\W*how\s+much\s+([^\W\d_]+)")
_PRICE_WORDS = _Lazy(r"(?i)\b(?:price|cost|costs|fee|fees|rent|fare|pay|paid|spend|spent|worth|charge|charged)\b")


# a numeral ending a name is a model, no amount ("a Pixel 8", "an iPhone 15"; not "EUR 600", "£600")
_MODEL_NUMBER = _Lazy(r"\b((?!(?i:eur|usd|gbp|chf)\b)[A-Za-z][\w-]*[A-Z][\w-]*\s+|[A-Z][\w-]*\s+)\d+\b(?![.,]\d|\s*(?i:"
                      r"euros?|eur|dollars?|usd|pounds?|gbp|francs?|quid|bucks|k\b|grand))")


def _asks_price(question: str) -> bool:
    """Whether a question asks a price: "how much" before a verb ("How much is the flat?") or money,
    or a word of paying; "How much time do I spend on email?" asks a quantity of time."""
    found = _HOW_MUCH.match(question)
    if found:
        return found.group(1).lower() in _AUXILIARIES | {"money", "cash"}
    return bool(_PRICE_WORDS.search(question))
# a number that is no amount: a year ("a 2017 Ford"), a distance or a duration ("450 km on a charge")
_NOT_AMOUNTS = _Lazy(r"(?i)(?<![$€£¥\d])\b(?:19|20)\d\d\b(?!\s*(?:euros?|eur|dollars?|usd|pounds?|gbp|francs?|quid|"
                     r"bucks))|\b" + _COUNT_UNIT + r"(?:km|kms|kilomet(?:re|er)s?|mi|miles?|metres?|meters?|m|yards?|"
                     r"feet|ft|seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|lengths?|laps?)\b")


# a place adverb that names no place ("I left my coat somewhere"), and what stays of a phrase whose
# words a question holds: its determiner and preposition ("at the farmers' market" for "Where is the
# farmers' market?" says where I buy eggs, not where the market is)
_PLACE_WORD = (r"(?!\b(?:in|at|on|near|from|to|into|by|with|behind|beside|outside|inside|across|around|along|"
               r"opposite|between|under|above|next|close)\b)")
_NO_PLACE = _Lazy(r"(?i)^(?:" + _PLACE_WORD + r".)*\b(?:somewhere|anywhere|everywhere|elsewhere)\b(?:"
                  + _PLACE_WORD + r".)*$")
_LEADING_WORDS = frozenset("the a an my our your his her their this that these those in at on near from to into "
                           "onto by with behind beside outside inside across around along opposite between off "
                           "under above of for".split())


# a place a question names by name after a preposition of place ("in Berlin", "at the Olympia")
_QUESTION_PLACE = _Lazy(r"(?i)\b(?:in|at|near|from|to|into|inside|outside|around)\s+(?:the\s+)?(?-i:[A-Z])[\w'-]*"
                        r"(?:\s+(?-i:[A-Z])[\w'-]*)*")


@lru_cache(maxsize=256)
def _question_own_terms(question: str) -> frozenset[str]:
    """``_without_asked_words``: the question's terms but a place it names, once per question."""
    return frozenset(tokenize(_QUESTION_PLACE.sub(" ", question)))


@lru_cache(maxsize=16384)
def _word_terms(word: str) -> frozenset[str]:
    """The terms of one word of a statement (``_without_asked_words`` reads every word of every
    candidate, question after question)."""
    return frozenset(tokenize(word))


def _without_asked_words(statement: str, question: str) -> str:
    """``statement`` without the question's own words, nor the determiners and prepositions that led
    only to them: what it says beyond the thing asked about. A place the question names ("Where
    does Alice live in Berlin?") is no word of the thing: "lives in Berlin" still states it."""
    own = _question_own_terms(question)
    if not own:
        return statement
    words = statement.split()
    dropped = [not _word_terms(word).isdisjoint(own) for word in words]
    for at in range(len(words) - 2, -1, -1):
        if not dropped[at] and dropped[at + 1] and words[at].lower().strip(",;:") in _LEADING_WORDS:
            dropped[at] = True
    # a dropped run leaves a comma, so that what it separated is not read as one phrase ("to Greece it")
    kept = [word if not out else "," for word, out in zip(words, dropped)]
    return " ".join(word for at, word in enumerate(kept) if word != "," or at == 0 or kept[at - 1] != ",")


def asked_attribute(question: str) -> str | None:
    """``asked_attributes``: the attribute a question asks of a thing ("What colour is my van?":
    colour; "How much did I pay for the Transit?": amount; "When is the quiz night?": schedule;
    "What was Marek's time in the half marathon?": race_time), None when it asks none of them."""
    text = question.replace("\u2019", "'")
    if _SECOND_QUESTION.search(text):
        return None
    for kind, asks in _ASKED_ATTRIBUTES:
        if asks.match(text):
            return kind
    return "amount" if asked_value(text) == "amount" else None


@lru_cache(maxsize=8192)
def states_attribute(kind: str, statement: str, question: str = "") -> bool:
    """Whether a statement states the attribute ``kind`` (``asked_attribute``) beyond the question's
    own words: its word ("The van's colour ..."), or a value of its type — a colour of the lexicon in
    a clause negating nothing ("a green Dawes"), an amount that is no year nor distance ("800
    pounds"), a date, day, time of day or routine ("on 12 December", "after work"), a race time
    ("in 48 minutes", "1:58")."""
    text = statement.replace("\u2019", "'")
    words = _ATTRIBUTE_WORDS.get(kind)
    if words is not None and words.search(text):
        return True
    text = _without_asked_words(text, question)   # "the quiz night" states no time of day
    if kind == "place":
        return not _NO_PLACE.search(text) and states_place(_NOT_PLACES.sub(" ", text))
    if kind == "colour":
        colour = lexicon.categories().get("colour")
        stated = lexicon.positive_terms(text)
        return colour is not None and any(member <= stated for member in colour.members)
    if kind == "amount":   # a distance or a duration prices nothing; it may be the quantity asked
        return states_value("amount", _NOT_AMOUNTS.sub(" ", _MODEL_NUMBER.sub(r"\1", text)) if _asks_price(question)
                                      else text)
    if kind == "schedule":
        return (states_value("date", text) or states_value("clock", text) or states_value("frequency", text)
                or bool(_ROUTINE_TIME.search(text)))
    if kind in ("race_time", "race_act"):
        return bool(_RACE_TIME.search(text))
    if kind == "amount_of":   # ``amount_things``: "a two-bedroom flat" states no amount
        return states_attribute("amount", _COUNTED_THING.sub(" ", statement), question)
    if kind == "means":
        return _states_means(statement, question)
    return True


def attribute_things(question: str, caller: str = "", forms: bool = True) -> frozenset[str]:
    """``asked_attributes``: the terms of the thing whose attribute a question asks (its key nouns
    and names: "my van", "the Transit", "Marek", "the half marathon"), none when it names none."""
    terms = [*key_terms(question, caller), *name_terms(question)]
    return frozenset(base_term(t) if forms else t for t in terms)


def _attribute_share(share: Callable, weights: dict[str, float], words: frozenset[str],
                     forms: bool) -> Callable[[frozenset[str]], float]:
    """``share``, with the attribute's word held by a record that holds some other term of the
    question (only a record stating the attribute is measured: ``answers_attribute``): "I ran the
    Bath half in 1:58" holds the "time" of "What was my time in the Bath half?", and "My bike is a
    green Dawes" holds no "colour" for "What colour is my van?", sharing nothing else with it."""
    rest = frozenset(weights) - words

    def attributed(held: frozenset[str]) -> float:
        terms = _with_bases(held) if forms else held
        return share(held | words) if not rest.isdisjoint(terms) else share(held)
    return attributed


def answers_attribute(space: SearchSpace, record_id: str, kind: str, things: frozenset[str], question: str,
                      forms: bool) -> bool:
    """``asked_attributes``: whether a record is about the thing asked (holds a term of it, or is
    keyed by one) and states the attribute asked (``states_attribute``)."""
    return record_answers_attribute(space.records[record_id], kind, things, question, forms,
                                    space.term_set(record_id))


def record_answers_attribute(record: dict, kind: str, things: frozenset[str], question: str, forms: bool,
                             held: frozenset[str] | None = None) -> bool:
    """``answers_attribute`` of a record itself (``held``: its terms, when known)."""
    if record["kind"] == "negative":   # "Ben does not own a car" bounds every attribute of the car
        return True
    if things:
        held = frozenset(tokenize(record["statement"])) if held is None else held
        held = held | frozenset(tokenize((record.get("memory_key") or "").replace(".", " ").replace("_", " ")))
        held = _with_bases(held) if forms else held
        if held.isdisjoint(things):
            return False
    return states_attribute(kind, record["statement"], question)


def asked_attribute_things(question: str, caller: str = "", forms: bool = True) -> frozenset[str]:
    """The thing terms a record must hold to answer the attribute a question asks (none for a place
    or a date, which coverage and the subject tests tie to the thing)."""
    kind = asked_attribute(question)
    return attribute_things(question, caller, forms) if kind and _ATTRIBUTE_TERMS[kind] else frozenset()



# ``means_answers``: "How do I get to work?", "How does Ana travel into town?", "How do you commute?" ask the
# MEANS of a journey, which a record states by a means of the lexicon's transport class in a clause that
# negates nothing ("I cycle to the clinic", "by tram", "I take the metro"): a record about work that
# states no means (a shift, a job) does not answer. Whose journey it is stays the subject tests'.
_ASKS_MEANS = _Lazy(r"(?i)^\W*how\s+(?:do|does|did|will|would|can|could|should|is|are|am|was|were)\s+"
                    r"(?:[^\W\d_][\w'-]*\s+){1,3}?(?:get|gets|getting|go|goes|going|travel|travels|travelling|"
                    r"traveling|come|comes|coming|head|heads|commute|commutes|commuting)\b(?:\s+(?:to|into|in|home|"
                    r"around|there|back|about)\b|\s*[?.!]?\s*$)")
# ``amount_things``: "What was my rent in 2025?", "What's my monthly salary?" ask an amount, of the thing
# named last (a word of the lexicon's "amounts": rent, salary, fees, bill ...; not "my tax code")
_ASKS_AMOUNT_OF = _Lazy(r"(?i)^\W*what(?:'s|\s+is|\s+was|\s+are|\s+were|\s+will\s+be)\s+(?:my|our|your|his|her|"
                        r"their|the|[^\W\d_][\w-]*'s)\s+((?:[^\W\d_][\w-]*\s+){0,2}?[^\W\d_][\w-]*)\s*(?:$|[?.!,]|"
                        r"\s(?:in|for|on|at|last|this|next|now|these|nowadays|back|when|before|after|per|each|every|"
                        r"from|to|with|during|since|right)\b)")
# a count joined to what it counts ("a two-bedroom flat", "a 3-year lease") is no amount of money
_COUNTED_THING = _Lazy(r"(?i)\b(?:\d+|" + _COUNT + r")-(?!euros?\b|pounds?\b|dollars?\b)[^\W\d_][\w-]*")


def asked_attribute_read(question: str, features) -> str | None:
    """``asked_attribute``, and with ``means_answers`` the means of a journey ("means"), with
    ``amount_things`` an amount of a named thing ("amount_of": "What was my rent in 2025?", and every
    amount ``asked_attribute`` reads, so that it is tied to the thing it is the amount of)."""
    kind = asked_attribute(question)
    text = question.replace("\u2019", "'")
    if kind is None and features("race_acts") and _ASKS_RACE_ACT.match(text) and not _SECOND_QUESTION.search(text):
        return "race_act"
    if kind is None and features("means_answers") and _ASKS_MEANS.match(text) and not _SECOND_QUESTION.search(text):
        return "means"
    if features("amount_things"):
        if kind == "amount":
            return "amount_of"
        found = _ASKS_AMOUNT_OF.match(text) if kind is None else None
        if found and not _SECOND_QUESTION.search(text) and \
                frozenset(tokenize(found.group(1).split()[-1])) & (lexicon.amount_terms() | _ATTRIBUTE_TERMS["amount"]):
            return "amount_of"
    return kind


def attribute_things_read(question: str, caller: str, forms: bool, kind: str) -> frozenset[str]:
    """``asked_attribute_things`` of the kind ``asked_attribute_read`` gives: for an amount of a named
    thing, also the words of the question naming a thing whose value is an amount ("How much RENT did
    I pay?") and the one-word phrases of their thesaurus groups ("salary": earnings, income, wage)."""
    if kind != "amount_of":
        return asked_attribute_things(question, caller, forms) if kind in _ATTRIBUTE_TERMS else frozenset()
    # (the attribute's own words, price and cost, name no thing: "the price of my boat" is the boat's)
    named = frozenset(tokenize(question)) & lexicon.amount_terms() - _ATTRIBUTE_TERMS["amount"]
    others = frozenset(t for _, phrases, written in lexicon.asked_synonyms(named) for phrase in phrases
                       if phrase in written and len(phrase) == 1 for t in phrase)
    things = attribute_things(question, caller, False) | named | others
    return frozenset(base_term(t) for t in things) if forms else things


def _states_means(statement: str, question: str) -> bool:
    """``means_answers``: a means of the lexicon's transport class, beyond the question's own words, in
    a clause that negates nothing."""
    transport = lexicon.categories().get("transport")
    if transport is None:
        return True
    stated = lexicon.positive_terms(_without_asked_words(statement.replace("\u2019", "'"), question))
    job = lexicon.categories().get("job")
    # a means named in a job ("works as a bus driver", "a taxi driver") is the job's, no journey's
    jobs = frozenset().union(*(member for member in job.members if len(member) > 1 and member <= stated)) \
        if job is not None else frozenset()
    return any(member <= stated and not member <= jobs for member in transport.members)


# ``typed_evidence_order``: the verb a question asks who did ("Who proposed the book?": proposed), or
# what its subject is doing ("What is the book club reading at the moment?": reading)
_AUXILIARIES = frozenset("is are was were be been do does did has have had will would can could should shall "
                         "may might must".split())
_ASKS_WHO_DID = _Lazy(r"(?i)^\W*who\s+([^\W\d_][\w-]*)\b")
_ASKS_DOING = _Lazy(r"(?i)^\W*what\s+(?:is|are|was|were)\s+(?:the\s+|my\s+|our\s+|your\s+|his\s+|her\s+|their\s+|"
                         r"[^\W\d_][\w-]*'s\s+)?(?:[^\W\d_][\w-]*\s+){0,3}?([^\W\d_][\w-]*ing)\s*(?:$|[?.!]|"
                         r"(?:at|on|in|this|these|now|right|today|tonight|lately|currently|for|to|with|about)\b)")


def asked_verb(question: str) -> str | None:
    """The term of the verb a question asks of its subject ("Who proposed …?": propos; "What is the
    choir singing this season?": sing), or None."""
    text = question.replace("\u2019", "'")
    found = _ASKS_WHO_DID.match(text)
    if found and found.group(1).lower() not in _AUXILIARIES:
        word = found.group(1)
    else:
        found = _ASKS_DOING.match(text)
        if not found:
            return None
        word = found.group(1)
    terms = tokenize(word)
    return terms[0] if len(terms) == 1 else None


def _head_held(head: str, statement: str, key: str, scoped: bool = False) -> bool:
    """``head_members``: whether a record holds the head noun of "what/which X" by a member of its
    lexicon category ("a Toyota Prius" is a car) or by its key ("user.work_car")."""
    if head in tokenize(key.replace(".", " ").replace("_", " ")):
        return True
    category = lexicon.categories().get(head)
    if category is None:
        return False
    stated = lexicon.positive_terms(statement, scoped)   # ``negation_scope``: "coeliac and avoids gluten"
    return any(member <= stated for member in category.members)


def answers_asked(question: str, forms: bool = True, members: bool = False) -> Callable[..., bool] | None:
    """``typed_evidence_order``: statement -> whether it answers what the question asks, as its form
    reads: it states a value of the kind asked (``asked_value``), holds the kind of thing named after
    a leading what/which (``answer_type``: "What car do I drive now?" / "My car is a …") and the verb
    asked of the subject (``asked_verb``: "Who proposed …?" / "… I proposed it"). None when the
    question's form reads none of them."""
    kind = asked_value(question)
    head = answer_type(question) if kind is None else None   # "what time": the kind says
    verb = asked_verb(question)
    word = head   # the head's own term, as the lexicon and keys hold it
    if forms:
        head = base_term(head) if head else head
        verb = base_term(verb) if verb else verb
    if kind is None and head is None and verb is None:
        return None

    def answers(statement: str, key: str = "") -> bool:
        """``key``: the record's memory_key, read with ``members`` (``head_members``)."""
        if kind is not None and not states_value(kind, statement):
            return False
        if head is None and verb is None:
            return True
        held = frozenset(tokenize(statement))
        held = _with_bases(held) if forms else held
        has_head = head is None or head in held or (members and _head_held(word, statement, key))
        return has_head and (verb is None or verb in held)
    return answers


def asked_head_holders(space: SearchSpace, question: str, caller: str = "", forms: bool = True,
                       scoped: bool = False) -> Callable[[str], bool] | None:
    """``features.asked_head``: of a what/which question asking a kind of thing by its head noun
    ("What shift did I work on Friday?", "What position did I play?"; ``answer_type``, not an
    attribute or a word saying when) and naming no other thing (``key_terms``, names), record_id ->
    whether a record may state a value of that kind: it holds the head (in any form), a member of its
    lexicon category or class ("a Toyota Prius" is a car, football a sport), is keyed by it, or names
    a value (a capitalized word past the first saying no time: "I support Legia Warsaw" for "Which
    team do I support?"). A record sharing only the question's verb and naming nothing ("Worked
    overtime again", "… a nap before work") names no shift. None when the question is not of that
    form (nothing is read)."""
    word = answer_type(question)
    if word is None or asked_value(question) is not None or word in _ATTRIBUTES or word in _WHEN_TERMS:
        return None
    head = base_term(word) if forms else word
    things = {base_term(t) if forms else t for t in (*key_terms(question, caller), *name_terms(question))} - {head}
    if things:
        return None   # "Which airline did Caroline fly?": the record holding the thing answers by it
    kinds = class_kinds(question)
    # "Which city is my son in?": what is asked is a preposition's object, a name after one answers
    after_preposition = bool(_ENDS_PREPOSITION.search(question))

    def holds(record_id: str) -> bool:
        record = space.records[record_id]
        held = space.term_set(record_id)
        held = _with_bases(held) if forms else held
        if head in held:
            # "the university pool" is a pool
            return not _only_modifies(record["statement"], head, forms)
        if head in _with_classes(held, kinds) or any(_derived(t, head) for t in held) \
                or _head_held(word, record["statement"], record.get("memory_key") or "", scoped):
            return True
        # "I support Legia Warsaw": a named value, of a kind the lexicon need not know
        return bool(_NAMES_A_VALUE.search(record["statement"], 1)) and _names_value(record["statement"],
                                                                                       after_preposition)
    return holds


_WORDS_AND_MARKS = _Lazy(r"[\w'-]+|[^\w\s]")


def _only_modifies(statement: str, head: str, forms: bool) -> bool:
    """``asked_head``: whether every time a statement says the head it qualifies the noun after it
    ("I swim at the university pool" for "Which university do I work at?", "the car park" for "What
    car …?"): the next word is a content word, not a preposition, a stop word or the clause's end."""
    words = _WORDS_AND_MARKS.findall(statement)
    seen = False
    for at, word in enumerate(words):
        if not word[:3].lower() == head[:3]:
            continue   # (a word of another stem: not tokenized)
        terms = tokenize(word)
        if not terms or (base_term(terms[0]) if forms else terms[0]) != head:
            continue
        seen = True
        after = words[at + 1] if at + 1 < len(words) else ""
        if not after[:1].isalnum() or not tokenize(after) or after.lower() in _PREPOSITION_WORDS \
                or set(tokenize(after)) <= _WHEN_TERMS:
            return False
    return seen


_NAMES_A_VALUE = _Lazy(r"\s[A-Z]")
_PREPOSITIONS_TEXT = "at in on from to near with for of by into onto"
_PREPOSITION_WORDS = frozenset(_PREPOSITIONS_TEXT.split())
_ENDS_PREPOSITION = _Lazy(r"(?i)\b(?:%s)\s*[?.!]*\s*$" % "|".join(_PREPOSITIONS_TEXT.split()))


def _names_value(statement: str, after_preposition: bool) -> bool:
    """``asked_head``: whether a statement names a value by a capitalized word past the first that
    says no time, as a verb's object ("I support Legia Warsaw") or, when the question asks a
    preposition's object (``after_preposition``), after one ("Our house is in Morningside"); "I work
    as a nurse … at St Luke's" names where, not a shift."""
    words = statement.split()
    for at in range(1, len(words)):
        word = words[at]
        if not word[:1].isupper() or set(tokenize(word)) <= _WHEN_TERMS:
            continue
        before = {w.strip(",.;:!?").lower() for w in words[max(0, at - 3):at]}
        if after_preposition or before.isdisjoint(_PREPOSITION_WORDS):
            return True
    return False


def _derived(term: str, head: str) -> bool:
    """Whether ``term`` is a word derived from the head's stem ("pharmacist" of pharmacy, "lecturer"
    of lecture): it starts with all of the stem but its last letter, five letters at least."""
    stem = head[:-1] if len(head) > 5 else head
    return len(stem) >= 5 and term != head and term.startswith(stem)


# ``relation_name_answers``: the terms of a question asking what someone is called
_NAME_TERMS_TEXT = "name names named called call"
_NAME_TERMS = frozenset(("name", "call"))


def _names_relation(space: SearchSpace, record_id: str, caller: str, required: list[str],
                    links: dict[str, frozenset[str]], copular: bool = False, kin: bool = False,
                    qualified: bool = False) -> bool:
    """Whether the record gives a name to a relation the question asks about ("My sister Maria is
    visiting" for "What is my sister's name?"), in a fact or a conversation turn. ``copular``
    (``relation_is_name``): also "The user's wife is Hélène.", "I'm married to Agnieszka.".
    ``kin`` (``kinship_model``): also a word of a relation's lexicon group ("teenagers") and the
    names after a count the owner has ("I have two teenagers, Kuba ... and Lena": ``_kin_names``)."""
    asked = {term: {term} | set(links.get(term, frozenset())) for term in required}
    pairs = _relation_names(space.records[record_id]["statement"], caller)
    if copular:
        pairs = pairs | _copular_names(space.records[record_id]["statement"], caller)
    if kin:
        pairs = pairs | _kin_names(space.records[record_id]["statement"], caller)
    if qualified:   # ``qualified_relations``: "Our first grandchild, Osian, ..."
        pairs = pairs | qualified_relation_names(space.records[record_id]["statement"], caller)
    return any(relation in words for relation, _name in pairs for words in asked.values())


# ``predicate_required``: a question saying what it asks of a possessed thing by one word after it and
# a preposition, "What is my dog allergic to?", "Who is our cat scared of?" (not a compound noun, "What
# is Caroline's relationship status?"); "How old is my car?"
_POSSESSOR = r"(?:my|our|your|his|her|their|[^\W\d_][\w-]*'s)"
_COPULAR_PREDICATE = _Lazy(rf"(?i)^\s*(?:what|who|which\s+\w+)\s+(?:is|are|was|were)\s+{_POSSESSOR}\s+"
                                r"([^\W\d_][\w-]*)\s+([^\W\d_][\w-]*)\s+(?:to|of|about|with|for|by|in|at|on)"
                                r"\s*[?.!]*\s*$")
_HOW_PREDICATE = _Lazy(rf"(?i)^\s*how\s+([^\W\d_][\w-]*)\s+(?:is|are|was|were)\s+{_POSSESSOR}\s+"
                            r"([^\W\d_][\w-]*)\s*[?.!]*\s*$")
# what answers a "how <adjective>" question without the adjective: a number or a unit ("takes an hour")
_QUANTITY = _Lazy(r"(?i)\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|"
                       r"thirty|forty|fifty|hundred|thousand|dozen|half|couple|few|several|"
                       r"(?:second|minute|hour|day|week|fortnight|month|year|decade|mile|kilometre|kilometer|km|"
                       r"metre|meter|foot|feet|inch|pound|kilo|kg|euro|dollar)s?)\b")


def _asked_predicate(question: str, forms: bool) -> tuple[frozenset[str], bool]:
    """``predicate_required``: the term a question asks of a possessed thing by one word after it
    ("What is my dog allergic to?": allergic; "How old is my car?": old), and whether a number
    answers it without the word (a "how" question). None when the word is an attribute (the dog's
    name: ``answer_types``) or a relation. A record holding the thing but not the predicate states
    something else about it ("My dog is a beagle named Biscuit")."""
    text = question.replace("\u2019", "'")
    found = _COPULAR_PREDICATE.match(text)
    quantity = False
    if found:
        thing, word = found.group(1), found.group(2)
    else:
        found = _HOW_PREDICATE.match(text)
        if not found:
            return frozenset(), False
        word, thing, quantity = found.group(1), found.group(2), True
    terms, things = tokenize(word), tokenize(thing)
    if len(terms) != 1 or not things or terms[0] in _ATTRIBUTES | _RELATIONS or word.lower() in _NOT_PREDICATES:
        return frozenset(), False
    return frozenset({base_term(terms[0]) if forms else terms[0]}), quantity


# ``yes_no_predicates``: "Is my cat a beagle?", "Is Jordan a nurse?", "Was Sam's car blue?": the subject
# (one word after a possessive, or a name) and what is said of it, up to a preposition
_YES_NO_COPULA = _Lazy(r"^\W*(?:[Ii]s|[Aa]re|[Ww]as|[Ww]ere)\s+(?:(?:[Mm]y|[Oo]ur|[Yy]our|[Hh]is|[Hh]er|[Tt]heir|"
                            r"[^\W\d_][\w-]*'s)\s+(?P<thing>[^\W\d_][\w-]*)|(?P<name>[A-Z][\w-]*))\s+"
                            r"(?:(?:still|really|also|now|actually)\s+)?(?:(?:a|an|the)\s+)?(?P<said>[^?.!]+?)[?.!]*\s*$")
_PREDICATE_END = _Lazy(r"(?i)\b(?:to|at|in|on|for|from|with|of|about|by|after|before|during|since|until|"
                            r"than|like|or|and|now|today|anymore|still)\b|[,;:]")
_OWNING_WORDS = _Lazy(r"(?i)\b(?:my|our|your|his|her|their|mine|ours|yours)\b|'s\b")


def yes_no_predicate(question: str, caller: str, forms: bool) -> tuple[frozenset[str], frozenset[str]]:
    """``yes_no_predicates``: of a yes/no question saying something of a subject ("Is my cat a
    beagle?"), the subject's term (cat; none for a relation or the caller, which the subject
    tests hold) and the head of what is said of it (beagle: the last word before a preposition,
    "allergic" in "allergic to cats"). A record stating the predicate of another subject ("My
    dog Biscuit is a beagle") or the subject without it ("We also have a cat named Pepper")
    does not answer. None when what is said names an owner ("Is Jordan my partner?")."""
    text = question.replace("\u2019", "'")
    found = _YES_NO_COPULA.match(text)
    if not found or _OWNING_WORDS.search(found.group("said")):
        return frozenset(), frozenset()
    said = found.group("said")
    cut = _PREDICATE_END.search(said)
    heads = tokenize(said[:cut.start()] if cut else said)
    own = set(tokenize(_folded(caller))) | _OWNER_WORDS
    subject = tokenize(_folded(found.group("thing") or found.group("name")))
    if not heads or heads[-1] in own or heads[-1] in _WHEN_TERMS or heads[-1] in _INDEFINITES \
            or not subject or set(subject) <= _WHEN_TERMS:
        return frozenset(), frozenset()   # "Is Wednesday afternoon free ...?" says when, of no subject
    base = (lambda t: base_term(t)) if forms else (lambda t: t)
    subjects = frozenset(base(t) for t in subject if t not in own and t not in _RELATIONS and t not in _TIME_WORDS)
    return subjects, frozenset({base(heads[-1])})


# words after the thing that ask no predicate of it ("What is my dog's name?" never gets here)
_NOT_PREDICATES = frozenset({"now", "today", "then", "currently", "called", "named", "like", "doing"})


def _owned_things(question: str, caller: str, forms: bool) -> frozenset[str]:
    """``owned_subjects``: the things a question asks about as the owner's ("my cat", "our car"),
    not relations, attributes, a word qualifying an attribute ("my shoe size") or the owner's own
    words; a record in the first person about the owner without naming them is not about them."""
    own = set(tokenize(_folded(caller))) | _OWNER_WORDS
    found = set()
    text = question.replace("\u2019", "'")
    for hit in _OWNED_THING.finditer(text):
        thing, after = hit.group(1), tokenize(" ".join(text[hit.end():].split()[:1]))
        if after and after[0] in _ATTRIBUTES:
            continue   # "my shoe size" is an attribute of the owner, which "I'm a size 46" states
        terms = tokenize(thing)
        if len(terms) == 1 and terms[0] not in _RELATIONS | _ATTRIBUTES | own and thing.lower() not in (
                "favourite", "favorite", "full", "first", "last", "middle", "home", "real", "own"):
            found.add(base_term(terms[0]) if forms else terms[0])
    return frozenset(found)


_OF_OWNED = _Lazy(r"(?i)\bthe\s+([^\W\d_][\w-]*)\s+of\s+(?:my|our|your|his|her|their|[^\W_][\w-]*'s)\s+"
                       r"([^\W\d_][\w-]*)")
_PREPOSITION_BEFORE = _Lazy(r"(?i)\b(?:to|at|in|on|for|from|with|during|after|before|into|near|by|since|until|"
                                 r"around|over|under|through|without|within|across|towards?|behind|beside|inside|"
                                 r"outside)\s*$")
# "-ly" words that are nouns, not adverbs (an adverb ends the noun phrase: "my yoga class usually start")
_LY_NOUNS = frozenset({"family", "fly", "reply", "supply", "ally", "belly", "jelly", "rally", "assembly", "lily"})


def unseen_modifier(space: SearchSpace, question: str, caller: str = "", objects: bool = False,
                    known: frozenset[str] = frozenset()) -> bool:
    """Whether the thing a question asks about is qualified by a word the scope never saw, right
    before a word it did see: "When does my visa expire?" (visa, expire), "When does the chess
    club meet?" (chess, club), "my credit card PIN", "the name of my boat" (boat, name). The scope
    then knows only other things of that name — the book club, the debit card — and no record
    supports an answer. A single unseen noun with nothing seen after it ("Mum's recovery")
    only weighs (``planner.unseen_key_weight``); prepositional phrases set the scene and are not
    read; nor are names, relations, the caller, words that say when, adjectives by their ending
    ("a temporary job", measured on LoCoMo: they were most of what it blocked wrongly), or
    anything after an "-ly" adverb ("my yoga class usually starts"). ``known``: words the scope
    holds in other words (``kinship_model``: "my bird" in a scope that knows "my budgie")."""
    text = question.replace("\u2019", "'")
    skip = set(tokenize(caller)) | _OWNER_WORDS | _RELATIONS | _WHEN_TERMS | known
    aux_first = _AUX_FIRST.match(text) is not None
    pairs = [(owned, thing) for thing, owned in _OF_OWNED.findall(text)]
    for words in _noun_phrases(text):
        if aux_first and text.rstrip(" ?.!").endswith(words[-1]):
            words = words[:-1]   # "when does the chess club meet?": the last word is the verb
        pairs += list(zip(words[:1], words[1:2]))   # the modifier and the noun it qualifies
    if objects:   # ``yes_no_objects``: "Do I have type 2 diabetes?" (2, diabetes) beside "type 1 diabetes"
        words = yes_no_object_words(text)
        pairs += list(zip(words, words[1:]))
    for first, then in pairs:
        modifier, head = tokenize(first), tokenize(then)
        if (first[:1].isupper() or not modifier or set(modifier) & skip or first.lower().endswith(_ADJECTIVE_ENDINGS)
                or any(space.index.df(t) for t in modifier)):
            continue
        if any(space.index.df(t) for t in head):
            return True
    return False


# an adjective qualifies the same thing (a temporary job is a job, a political leaning a leaning);
# a noun before a noun names another kind of it (a chess club is not a book club)
_ADJECTIVE_ENDINGS = ("al", "ous", "ary", "ive", "ent", "ant", "ic", "ful", "less", "able", "ible", "ish")


def _noun_phrases(text: str) -> list[list[str]]:
    """The words after each determiner or possessive (``_KEY_PHRASE``), up to three, cut at a stop
    word, a punctuation mark or an "-ly" adverb; none inside a prepositional phrase."""
    phrases = []
    for hit in _KEY_PHRASE.finditer(text):
        if _PREPOSITION_BEFORE.search(text[:hit.start()]):
            continue
        words = []
        for word in hit.group(1).split()[:3]:
            bare = word.strip("?.!,;:")
            if bare.endswith("'s"):
                bare = bare[:-2]
            if not tokenize(bare) or (bare.lower().endswith("ly") and bare.lower() not in _LY_NOUNS):
                break
            words.append(bare)
            if word.strip("?.!,;:") != word:
                break
        if words:
            phrases.append(words)
    return phrases


def thing_terms(question: str, caller: str = "") -> frozenset[str]:
    """What a question is about, for citing evidence (``decision.evidence_ratio``): the names it
    gives and the first noun of each of its noun phrases ("grandma's lasagne", "my driving
    licence"), not relations, the caller, words that say when or attributes ("name")."""
    text = question.replace("\u2019", "'")
    firsts = tokenize(" ".join(words[0] for words in _noun_phrases(text)))
    own = set(tokenize(caller)) | _OWNER_WORDS
    found = set(name_terms(question)) | set(firsts)
    return frozenset(t for t in found if t not in own and t not in _RELATIONS and t not in _WHEN_TERMS
                     and t not in _ATTRIBUTES)


def _addressed(space: SearchSpace, record_id: str, speakers: list[str]) -> bool:
    """A conversation turn about a named speaker without naming them: said to them, "you" and no
    "I" ("You work nights at the hospital" said to Felipe). A turn saying both ("so proud of you,
    I ...") is its own speaker's as well, and does not pass the gate for the other one."""
    cache = space.memo("says_only_you")   # the record's own part, kept: asked of every candidate
    says_you = cache.get(record_id)
    if says_you is None:
        record = space.records[record_id]
        text = record["statement"].replace("\u2019", "'")
        says_you = cache[record_id] = (record["kind"] == "episode" and not _FIRST_PERSON_WORDS.search(text)
                                       and bool(_SECOND_PERSON_WORDS.search(text)))
    return says_you and _speaks_about(space, record_id, speakers)


# ``yes_no_objects``: a yes/no question's bare object, closing it after its subject and verb ("Can I
# take amoxicillin?", "Does Jordan play guitar?"; not "Does Abel smoke?", whose last word is the verb)
_YES_NO_OBJECT = _Lazy(r"(?i)^\W*(?:can|could|do|does|did|should|shall|would|will|may|might|must)\s+"
                            r"(?:i|we|you|he|she|they|[^\W\d_][\w-]*)\s+(?:(?:still|ever|also|really|usually)\s+)?"
                            r"([^\W\d_][\w-]*)\s+((?:[^\W_][\w'-]*\s*){1,3})[?.!]*\s*$")
# verbs whose complement says what the subject is or becomes, not a thing it acts on
_LINKING_VERBS = frozenset("be become get feel seem look sound stay remain appear grow turn".split())


def yes_no_object_words(question: str) -> list[str]:
    """The words of a yes/no question's bare object (``_YES_NO_OBJECT``), none after a linking verb."""
    found = _YES_NO_OBJECT.match(question.replace("\u2019", "'"))
    if not found or found.group(1).lower() in _LINKING_VERBS:
        return []
    return found.group(2).split()


def yes_no_object(question: str) -> frozenset[str]:
    """The terms of a yes/no question's bare object (``_YES_NO_OBJECT``): a noun it asks about like
    a determiner's (``key_terms``), so a medicine the scope never saw weighs as an unseen key noun
    and "I take insulin every morning" shares only the verb with "Can I take amoxicillin?"."""
    found = _YES_NO_OBJECT.match(question.replace("\u2019", "'"))
    if not found or found.group(1).lower() in _LINKING_VERBS:
        return frozenset()   # "Would Caroline be considered religious?": says what she is, names no thing
    return frozenset(t for t in tokenize(found.group(2)) if t not in _TIME_WORDS and t not in _WHEN_NOUNS
                     and t not in _RELATIONS and t not in _INDEFINITES)


# words that say how often, which set the scene as the words that say when do ("every morning")
_HOW_OFTEN_TEXT = "every each daily weekly monthly yearly nightly usually often always sometimes regularly"
_HOW_OFTEN = frozenset(("everi", "daili", "week", "month", "year", "night", "usual", "often", "alway", "sometim",
                        "regular"))


# ``when_only_abstains``: a phrase that sets when ("in the morning", "every morning", "on Fridays")
_SCENE = _Lazy(r"(?i)\b(?:in|on|at|during|every|each|through|throughout|after|before|by|until)\s+"
                    r"(?:(?:the|a|an)\s+)?((?:[^\W\d_][\w-]*\s*){1,2})")
_DATED = _Lazy(r"\s*(?:of\s+)?(?:\d|(?:19|20)\d\d)")


def _scene_terms(question: str) -> frozenset[str]:
    """The terms of the words that say when or how often in a phrase setting a recurring scene ("in
    the morning", "every Tuesday", "on Fridays"), not a time the question asks about ("Is Wednesday
    afternoon free?"), a dated period ("in summer 2021", "last summer": an event then is asked) nor
    a month named without "every" ("Where am I travelling in March?" asks about the trip then)."""
    found = set(tokenize(question)) & _HOW_OFTEN
    for hit in _SCENE.finditer(question):
        if not _DATED.match(question, hit.end(1)):
            terms = set(tokenize(hit.group(1))) & _WHEN_TERMS
            if not _EVERY.match(hit.group(0)):
                terms -= _MONTH_TERMS
            found |= terms
    return frozenset(found)


_EVERY = _Lazy(r"(?i)(?:every|each)\b")
_MONTH_TERMS_TEXT = _TIME_WORDS_TEXT.split(" Monday")[0]
_MONTH_TERMS = frozenset(("januari", "februari", "march", "april", "may", "june", "juli", "august", "septemb",
                          "octob", "novemb", "decemb", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept",
                          "oct", "nov", "dec"))


def _beyond_when(share: Callable, weights: dict[str, float], scene: frozenset[str],
                 forms: bool) -> Callable[[frozenset[str]], float]:
    """``when_only_abstains``: ``share``, except that a record holding none of the question's terms
    but the words setting when or how often (``_scene_terms``: "in the morning", "every") supports
    nothing — it shares the scene, not what is asked ("What do I drink in the morning?" / "I take
    insulin every morning"). A question asking nothing but when keeps its share."""
    asked = frozenset(t for t in weights if t not in scene)
    if not asked or len(asked) == len(weights):
        return share

    def beyond(held: frozenset[str]) -> float:
        terms = _with_bases(held) if forms else held
        return 0.0 if asked.isdisjoint(terms) else share(held)
    return beyond


# determiners and possessives before the noun a question asks about ("my visa", "the school bus",
# "which airline", "Mira's cat"); auxiliaries that put the main verb last ("when does my visa expire?")
_KEY_PHRASE = _Lazy(r"(?i)\b(?:my|our|your|his|her|their|the|a|an|which|what|whose|"
                         r"(?!(?:what|that|it|who|where|there|here|he|she|let|how|when)'s)[^\W_][\w-]*'s)\s+"
                         r"(?=((?:[^\W\d_][\w'-]*[?.!,;:]*\s*){1,3}))")
# a bare object closing the question ("Am I allergic to wasp stings?")
_LAST_OBJECT = _Lazy(r"(?i)\b(?:to|for|with|about|of|on|at|in)\s+(?=((?:[^\W\d_][\w'-]*\s*){1,2}[?.!]*\s*$))")
_AUX_FIRST = _Lazy(r"(?i)^\s*(?:\w+\s+){0,2}?(?:do|does|did)\b")


def key_terms(question: str, caller: str = "") -> list[str]:
    """The terms of the nouns a question asks about: up to three words after a determiner or a
    possessive, cut at the first stop word; in "when does my visa expire?" the last word is the
    verb, not the noun. Not the caller's name, not relations (``subject_terms`` handles those)."""
    text = question.replace("\u2019", "'")
    aux = _AUX_FIRST.match(text)
    found: list[str] = []
    hits = list(_KEY_PHRASE.finditer(text))
    last = _LAST_OBJECT.search(text)
    if last and not any(h.start() <= last.start(1) < h.end() + len(h.group(1)) for h in hits):
        hits.append(last)
    for hit in hits:
        words = []
        for word in hit.group(1).split():
            bare = word.strip("?.!,;:")
            if not tokenize(bare):
                break
            words.append(bare)
            if bare != word:
                break
        # the noun right after the determiner; the rest of the phrase only when it ends the
        # question and no auxiliary puts a verb there ("my blood type?" but not "my visa expire?")
        right_after_aux = aux is not None and not text[aux.end():hit.start()].strip()
        ends_question = bool(words) and text.rstrip(" ?.!").endswith(words[-1])
        if not ends_question or right_after_aux or hit.group(0).split()[0].lower() in ("which", "what", "whose"):
            words = words[:1]
        found += tokenize(" ".join(words))
    own = set(tokenize(caller)) | _OWNER_WORDS
    return [t for t in dict.fromkeys(found)
            if t not in own and t not in _RELATIONS and t not in _TIME_WORDS and t not in _WHEN_NOUNS
            and t not in _ATTRIBUTES]


# what a question asks *for* about a thing, whose value a record states without the word ("Sam has
# a greyhound called Dash" answers "what's my dog's name?"): the thing is the key, not these
_ATTRIBUTES_TEXT = "name names called named type kind sort colour color number size age price cost address amount"
_ATTRIBUTES = frozenset(("name", "call", "type", "kind", "sort", "colour", "color", "number", "size", "age", "price",
                         "cost", "address", "amount"))
# ``owner_attributes``: "my name", "my age", "my favourite colour" ask an attribute of the owner
_OWNER_ATTRIBUTE = _Lazy(r"(?i)\b(?:my|our)\s+(?:(?:favourite|favorite|full|first|last|middle|home|real)\s+)?"
                              r"(?:%s)\b(?!')" % "|".join(_ATTRIBUTES_TEXT.split()))


# ``compound_heads``: "What is my blood type?" asks the type (the head noun) of blood (its modifier); a
# record using the modifier before another noun ("my blood thinner") and never saying the head is about
# that other thing. The head is an attribute word (``_ATTRIBUTES``) or "group"; a few go by two names.
_ASKED_COMPOUND = _Lazy(r"(?i)\b(?:my|our|your|his|her|their)\s+([^\W\d_][\w-]*)\s+(%s|group)\s*[?.!]*\s*$"
                             % "|".join(_ATTRIBUTES_TEXT.split()))
_HEAD_KINDS_TEXT = ("type group kind sort", "colour color", "name called named")
_HEAD_KINDS = [frozenset(terms) for terms in (("type", "group", "kind", "sort"), ("colour", "color"), ("name", "call"))]


def _asked_compound(question: str, forms: bool) -> tuple[str, frozenset[str]] | None:
    """``compound_heads``: of a question ending "my <modifier> <head>" ("my blood type"), the
    modifier's term and the head's terms (with their other names: type, group)."""
    found = _ASKED_COMPOUND.search(question.replace("\u2019", "'"))
    if not found:
        return None
    modifier, head = tokenize(found.group(1)), tokenize(found.group(2))
    if len(modifier) != 1 or not head:
        return None
    heads = frozenset(head).union(*(kinds for kinds in _HEAD_KINDS if kinds & set(head)))
    if forms:
        return base_term(modifier[0]), frozenset(base_term(t) for t in heads)
    return modifier[0], heads


def _modifies_other_head(space: SearchSpace, record_id: str, compound: tuple[str, frozenset[str]],
                         forms: bool) -> bool:
    """Whether a record holds none of the head's words and uses the modifier before another
    lower-case content word ("the cardiologist changed my blood thinner")."""
    modifier, heads = compound
    held = space.term_set(record_id)
    if not (_with_bases(held) if forms else held).isdisjoint(heads):
        return False
    words = re.findall(r"[^\W_][\w'-]*", space.records[record_id]["statement"].replace("\u2019", "'"))
    for word, after in zip(words, words[1:]):
        terms = tokenize(word)
        if terms and (base_term(terms[0]) if forms else terms[0]) == modifier and after.islower() and tokenize(after):
            return True
    return False


# ``irregular_forms``: forms the Snowball stemmer leaves apart from their base word ("went", "goes"
# -> "goe", "bought", "children", "teeth"), each group "base form form"; the table maps each
# form's term to its base's term (tests/test_trust_generalize.py holds it to ``tokenize``)
_IRREGULAR_TEXT = (
    "go goes went gone; buy bought; bring brought; think thought; teach taught; catch caught; "
    "fight fought; seek sought; fly flew flown; win won; grow grew grown; know knew known; "
    "throw threw thrown; blow blew blown; draw drew drawn; swim swam swum; sing sang sung; "
    "ring rang rung; drink drank drunk; begin began begun; run ran; eat ate eaten; take took taken; "
    "give gave given; drive drove driven; ride rode ridden; write wrote written; speak spoke spoken; "
    "break broke broken; choose chose chosen; wake woke woken; steal stole stolen; freeze froze frozen; "
    "forget forgot forgotten; get got gotten; see saw seen; fall fell fallen; wear wore worn; meet met; "
    "lead led; feed fed; lose lost; build built; send sent; spend spent; lend lent; sleep slept; "
    "keep kept; feel felt; mean meant; sit sat; stand stood; understand understood; hold held; "
    "find found; tell told; sell sold; pay paid; say said; make made; hear heard; come came; "
    "become became; hide hid hidden; sink sank sunk; stick stuck; swing swung; hang hung; dig dug; "
    "child children; grandchild grandchildren; man men; woman women; person people; tooth teeth; "
    "foot feet; mouse mice; goose geese; wife wives; knife knives; half halves; shelf shelves; "
    "wolf wolves; calf calves; loaf loaves; thief thieves; scarf scarves")
_IRREGULAR = {
    "ate": "eat", "becam": "becom", "began": "begin", "begun": "begin", "blew": "blow", "blown": "blow",
    "bought": "buy", "broke": "break", "broken": "break", "brought": "bring", "built": "build",
    "calv": "calf", "came": "come", "caught": "catch", "children": "child", "chose": "choos",
    "chosen": "choos", "drank": "drink", "drawn": "draw", "drew": "draw", "driven": "drive",
    "drove": "drive", "drunk": "drink", "dug": "dig", "eaten": "eat", "fallen": "fall", "fed": "feed",
    "feet": "foot", "fell": "fall", "felt": "feel", "flew": "fli", "flown": "fli", "forgot": "forget",
    "forgotten": "forget", "fought": "fight", "found": "find", "froze": "freez", "frozen": "freez",
    "gave": "give", "gees": "goos", "given": "give", "goe": "go", "gone": "go", "got": "get",
    "gotten": "get", "grandchildren": "grandchild", "grew": "grow", "grown": "grow", "halv": "half",
    "heard": "hear", "held": "hold", "hid": "hide", "hidden": "hide", "hung": "hang", "kept": "keep",
    "knew": "know", "knive": "knife", "known": "know", "led": "lead", "lent": "lend", "loav": "loaf",
    "lost": "lose", "made": "make", "meant": "mean", "men": "man", "met": "meet", "mice": "mous",
    "paid": "pay", "peopl": "person", "ran": "run", "rang": "ring", "ridden": "ride", "rode": "ride",
    "rung": "ring", "said": "say", "sang": "sing", "sank": "sink", "sat": "sit", "saw": "see",
    "scarv": "scarf", "seen": "see", "sent": "send", "shelv": "shelf", "slept": "sleep", "sold": "sell",
    "sought": "seek", "spent": "spend", "spoke": "speak", "spoken": "speak", "stole": "steal",
    "stolen": "steal", "stood": "stand", "stuck": "stick", "sung": "sing", "sunk": "sink", "swam": "swim",
    "swum": "swim", "swung": "swing", "taken": "take", "taught": "teach", "teeth": "tooth",
    "thiev": "thief", "thought": "think", "threw": "throw", "thrown": "throw", "told": "tell",
    "took": "take", "understood": "understand", "went": "go", "wive": "wife", "woke": "wake",
    "woken": "wake", "wolv": "wolf", "women": "woman", "won": "win", "wore": "wear", "worn": "wear",
    "written": "write", "wrote": "write"}
_IRREGULAR_FORMS = {base: tuple(sorted(form for form, of in _IRREGULAR.items() if of == base))
                    for base in set(_IRREGULAR.values())}
_IRREGULAR_TERMS = frozenset(_IRREGULAR)


def base_term(term: str) -> str:
    """The term of a word's base form: "went" -> "go", "children" -> "child"; else the term."""
    return _IRREGULAR.get(term, term)


def _with_bases(held: frozenset[str]) -> frozenset[str]:
    """``held`` and the base terms of its irregular forms ("went" also holds "go")."""
    # a question's support test asks this of the same record's terms several times (the gate,
    # each share it is measured by, each setup): kept for the very object asked about (held
    # here, so its id is not reused), which gives the set the same operations built from it
    known = _BASES_OF.get(id(held))
    if known is not None and known[0] is held:
        return known[1]
    forms = held & _IRREGULAR_TERMS
    found = held | {_IRREGULAR[t] for t in forms} if forms else held
    if type(held) is frozenset:   # never changed in place
        if len(_BASES_OF) >= _BASES_KEPT:
            _BASES_OF.clear()
        _BASES_OF[id(held)] = (held, found)
    return found


# ``_with_bases``: id -> (the set, its bases), for the sets most recently asked about
_BASES_OF: dict[int, tuple] = {}
_BASES_KEPT = 8192


def _with_forms(terms: frozenset[str]) -> frozenset[str]:
    """``terms``, their bases and every form of those bases ("go" -> go, goe, went, gone)."""
    bases = {base_term(t) for t in terms}
    return frozenset(terms | bases | {f for b in bases for f in _IRREGULAR_FORMS.get(b, ())})


def _based_weights(space: SearchSpace, weights: dict[str, float]) -> dict[str, float]:
    """The question's weights keyed by base term; a term the scope never saw under its own form
    but saw under another ("go" beside "goes", "went") weighs as that form, not as unseen."""
    based: dict[str, float] = {}
    for term, weight in weights.items():
        base = base_term(term)
        forms = _IRREGULAR_FORMS.get(base)
        if forms and not space.index.df(term):
            seen = [f for f in (base, *forms) if space.index.df(f)]
            if seen:
                weight = min(space.weight(f) for f in seen)
        based[base] = max(weight, based.get(base, 0.0))
    return based


# nouns that say when, not what ("at the end of 2023", "last autumn", "the next morning")
_WHEN_NOUNS_TEXT = ("end start beginning middle last next first time day days week weeks weekend month months year "
                    "years morning afternoon evening night today tomorrow yesterday spring summer autumn fall winter "
                    "season moment now mid early late")
_WHEN_NOUNS = frozenset(("end", "start", "begin", "middl", "last", "next", "first", "time", "day", "week", "weekend",
                         "month", "year", "morn", "afternoon", "evening", "night", "today", "tomorrow", "yesterday",
                         "spring", "summer", "autumn", "fall", "winter", "season", "moment", "now", "mid", "earli",
                         "late"))
# every term that says when (``planner.unseen_time_weight``): "who is my manager now?"
_WHEN_TERMS = _WHEN_NOUNS | _TIME_WORDS
WHEN_TERMS = _WHEN_TERMS   # ``decision.follow_turns``: they name no thing a later turn may call off

# ``turn_supersession``: the terms a turn calling something off holds (``decision._CANCELS``): one of
# these, or "chang" with "mind" or "plan" ("changed my mind", "change of plans"); "plan" or "mind"
# alone would list every turn about planning (~60k of 100k turns in the perf stores), each parsed
_CALLING_OFF_TEXT = "cancel call instead longer anymore fell scrapped happening"
_CHANGING_TEXT = "changed"
_CHANGED_TEXT = "mind plans"


def turns_calling_off(space: SearchSpace) -> list[dict]:
    """The scope's conversation turns that may call off an earlier turn (``decision._CANCELS``
    reads which do), found once per view through the index's holders of the words that say so:
    only those turns are parsed. A memo carried across appended records (``carried_memo``)
    holds the list as it was and the records appended since: only those are read."""
    memo = space.memo("turns_calling_off")
    if "found" not in memo:
        carried = memo.get("from")
        if carried is not None:
            found, appended = carried
            try:
                new = [space.records[rid] for rid in appended if _may_call_off(space, rid)]
            except KeyError:      # a record the index does not hold: the whole list read again
                new = None
            if new is not None:
                memo["found"] = sorted(found + new, key=itemgetter("id")) if new else found
                return memo["found"]
        marks = getattr(space.records, "marks_calling_off", None)
        if marks is not None and not marks():   # the view marks no turn: no holder says so
            memo["found"] = []
            return memo["found"]
        holders = space.index.holders
        ids = {rid for term in _CALLING_OFF_TERMS for rid in holders(term)}
        changing = {rid for term in _CHANGING_TERMS for rid in holders(term)}
        if changing:
            ids |= changing & {rid for term in _CHANGED_TERMS for rid in holders(term)}
        says = _says_calling_off(space)
        memo["found"] = [space.records[rid] for rid in sorted(ids) if rid in space.records and says(rid)]
    return memo["found"]


# the terms of the three texts above, written out (tests hold them to ``tokenize``)
_CALLING_OFF_TERMS = ("cancel", "call", "instead", "longer", "anymor", "fell", "scrap", "happen")
_CHANGING_TERMS = frozenset(("chang",))
_CHANGED_TERMS = frozenset(("mind", "plan"))


def _says_calling_off(space: SearchSpace) -> Callable[[str], bool]:
    """record id -> whether it is a conversation turn whose statement says something is called off
    (``decision._CANCELS``): a store's current view marked each as it read it (no parse)."""
    marked = getattr(space.records, "calls_off", None)
    if marked is not None:
        return marked
    from .decision import _CANCELS

    def says(record_id: str) -> bool:
        record = space.records[record_id]
        return record["kind"] == "episode" and _CANCELS.search(record["statement"]) is not None
    return says


def _may_call_off(space: SearchSpace, record_id: str) -> bool:
    """Whether ``turns_calling_off`` lists the record: a holder of one of its words (as the
    index's holders name them), a conversation turn that says so."""
    if record_id not in space.records:
        return False
    terms = space.term_set(record_id)
    holds = not terms.isdisjoint(_CALLING_OFF_TERMS) or (
        not terms.isdisjoint(_CHANGING_TERMS) and not terms.isdisjoint(_CHANGED_TERMS))
    return holds and _says_calling_off(space)(record_id)


# a sentence that opens with a relation's possessive: "My brother's ...", "Tara's son ...", "My friend Ada ...",
# "The landlord's ...", also after a short time phrase: "On Sundays my dad ...", "Every morning, our neighbour ..."
_RELATION_OPENING = _Lazy(r"^\W*(?:(?:[Oo]n|[Ii]n|[Aa]t|[Ee]very|[Ee]ach|[Ss]ince|[Dd]uring|[Aa]fter|[Bb]efore|"
                               r"[Mm]ost|[Ll]ast|[Nn]ext)\s+[\w-]+(?:\s+[\w-]+)?,?\s+)?"
                               r"(?:(?:[Tt]he\s+user's|[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir|[Tt]he|[^\W_][\w-]*'s)\s+)([^\W_][\w-]*)(?:'s)?"
                               r"(?:,?\s+([A-ZÀ-ÖØ-Þ][\w-]*))?")


def record_relations(space: SearchSpace, record_id: str) -> tuple[frozenset[str], frozenset[str]]:
    """The relation a record's first sentence is about and the name it gives them ("My brother's
    shoe size is 44" -> brother; "Olu's daughter Lena was born ..." -> daughter, lena), or none."""
    cache = space.memo("record_relations")
    found = cache.get(record_id)
    if found is None:
        statement = space.records[record_id]["statement"].replace("\u2019", "'")
        first = _SENTENCE_END.split(statement.strip(), 1)[0]
        opening = _RELATION_OPENING.match(first)
        relation = frozenset(set(tokenize(opening.group(1))) & _RELATIONS) if opening else frozenset()
        named = frozenset(tokenize(opening.group(2) or "")) if opening and relation else frozenset()
        found = cache[record_id] = (relation, named)
    return found


# a fact that opens with someone's name and a verb: "Karim plays padel every Thursday."
_NAMED_OPENING = _Lazy(r"^\W*([A-ZÀ-ÖØ-Þ][\w-]+)\s+(?:[a-z][\w-]*s|has|is|was|does|did|can|will|had)\b")
# ``negated_openings``: the same opening with a negation or a frequency word before the verb ("Tom
# doesn't eat meat", "Marta never drinks coffee", "Leo does not smoke")
_NAMED_NEGATED_OPENING = _Lazy(r"^\W*([A-ZÀ-ÖØ-Þ][\w-]+)\s+(?:doesn't|does\s+not|don't|didn't|did\s+not|isn't|"
                                    r"wasn't|hasn't|hadn't|can't|cannot|won't|never|no\s+longer|always|often|"
                                    r"usually|rarely|seldom|still|only)\s+[a-z]")
_NOT_NAMES = frozenset({"the", "a", "an", "this", "that", "these", "those", "my", "our", "her", "his", "their",
                        "it", "he", "she", "they", "we", "i", "you", "there", "here", "what", "who"})


def record_person(space: SearchSpace, record_id: str, own: frozenset, negated: bool = False,
                  statements: bool = False) -> frozenset[str]:
    """The person a stated fact is about when it is not the scope's owner: it opens with a name
    and a verb ("Karim plays padel every Thursday evening") and its first sentence names neither
    the owner nor "I"/"my". Conversation turns are left to ``dialogue_pronouns``; with
    ``statements`` (``features.statement_persons``) an episode that is no turn (``_is_turn``: the
    user's statement kept without a memory_key) is read as a fact."""
    cache = space.memo("record_person")
    key = (record_id, own, negated, statements)
    found = cache.get(key)
    if found is None:
        record = space.records[record_id]
        found = frozenset()
        if record["kind"] != "episode" or (statements and not _is_turn(record)):
            first = _SENTENCE_END.split(record["statement"].replace("\u2019", "'").strip(), 1)[0]
            opening = _NAMED_OPENING.match(first) or (negated and _NAMED_NEGATED_OPENING.match(first))
            if opening and opening.group(1).lower() not in _NOT_NAMES:
                name = frozenset(tokenize(_folded(opening.group(1))))
                mentioned = set(tokenize(_folded(first)))
                if name and not name & (own | _TIME_WORDS) and not mentioned & own \
                        and not _FIRST_PERSON_WORDS.search(first):
                    found = name
        cache[key] = found
    return found


# ``possessed_names`` (issue 13, session 10, kin10): a record opening with a possessive and a name the
# scope gives as someone's relation ("Our Ailsa's a physio in Dundee." beside "My sister Ailsa ...")
# is about that person, not the owner
_POSSESSED_OPENING = _Lazy(r"^\W*(?:[Mm]y|[Oo]ur|[Tt]he\s+user's)\s+([A-ZÀ-ÖØ-Þ][\w-]+)(?:'s)?\b")


def possessed_person(space: SearchSpace, record_id: str, own: frozenset, caller: str) -> frozenset[str]:
    """``possessed_names``: the person a record is about when its first sentence opens with my/our and
    a name ("Our Ailsa's a physio", "My Tadhg moved to Toronto") that a fact of the scope gives as
    someone's relation or a person (``_person_term``); a brand or a thing ("My Honda is red") the
    scope names as no person, a relation's word in capitals ("My Mum", "The user's GP") or an acronym
    is no one."""
    cache = space.memo("possessed_person")
    key = (record_id, own, caller)
    found = cache.get(key)
    if found is None:
        found = frozenset()
        opening = _POSSESSED_OPENING.match(space.records[record_id]["statement"].replace("\u2019", "'"))
        if opening and not opening.group(1).isupper():   # an acronym ("My GP") is no given name
            name = frozenset(tokenize(_folded(opening.group(1))))
            if len(name) == 1 and not name & (own | _RELATIONS | _TIME_WORDS) \
                    and not name & frozenset(lexicon.relation_groups()) \
                    and _person_term(space, next(iter(name)), own, caller, True):
                found = name
        cache[key] = found
    return found


# how many facts holding a name are read to tell whether the scope knows it as a person
_PERSON_PROBE = 50


def asked_persons(space: SearchSpace, question: str, caller: str = "", statements: bool = False) -> set[str]:
    """The people a question names that the scope knows as people other than its owner: a name
    some fact gives a relation ("The user's son Leo ...", "My sister Anna ...") or opens with
    ("Karim plays padel ..."). A record that does not hold the name does not state their fact:
    "Is Leo allergic to penicillin?" is not answered by "The user is allergic to penicillin."
    Only the facts holding the name are read (conversation turns are left to the speaker tests).

    ``statements`` (``features.statement_persons``): also the user's statements kept as episodes
    without a speaker ("Jordan works as a software engineer." added without a memory_key), and a
    name a fact gives a relation anywhere in it ("My partner is called Jordan.", ``_relation_names``)."""
    # the same for each setup of the support test of one question (its records and index as they
    # are: their sizes in the key, for a caller that changes them and asks again)
    cache = space.asked("asked_persons")
    key = (question, caller, statements, len(space.records), len(space.index))
    known = cache.get(key)
    if known is None:
        known = cache[key] = frozenset(_asked_persons(space, question, caller, statements))
    return set(known)


def _asked_persons(space: SearchSpace, question: str, caller: str, statements: bool) -> set[str]:
    own = frozenset(tokenize(_folded(caller))) | _OWNER_WORDS
    text = question.replace("\u2019", "'")   # as the index holds it: "Élodie" is "élodi" there, not "elodi"
    found: set[str] = set()
    for word in re.findall(r"\b[A-ZÀ-ÖØ-Þ][\w-]+", text):
        for term in tokenize(word):
            if term in own or _folded(term) in own or term in _TIME_WORDS or term in found or not 0 < space.index.df(term) <= _PERSON_PROBE:
                continue
            if _person_term(space, term, own, caller, statements):
                found.add(term)
    return found


def _person_term(space: SearchSpace, term: str, own: frozenset, caller: str, statements: bool) -> bool:
    """``asked_persons``: whether a fact holding ``term`` gives it as a person's name (kept per
    term with the space's memos while its index and records are the same: the scope's names come
    back in question after question, and each probe reads the facts holding it)."""
    memo = space.memo("person_terms")
    key, state = (term, caller, statements), (len(space.records), len(space.index))
    kept = memo.get(key)    # (the index it was read from, the sizes, the answer)
    if kept is not None and kept[0]() is space.index and kept[1] == state:
        return kept[2]
    known = False
    for record_id in space.index.scores([term]):
        record = space.records.get(record_id) if record_id in space.records else None
        if record is None or (record["kind"] == "episode" and (not statements or _is_turn(record))):
            continue
        if term in record_relations(space, record_id)[1] \
                or term in record_person(space, record_id, own, statements=statements) \
                or (statements and any(term == name for _, name in _relation_names(record["statement"], caller))):
            known = True
            break
    try:
        memo[key] = (weakref.ref(space.index), state, known)
    except TypeError:   # an index that takes no weak reference: not kept
        pass
    return known


def _is_turn(record: dict) -> bool:
    """A conversation turn (a speaker or a session said it), not a statement kept as an episode."""
    source = record.get("source") or {}
    return source.get("type") == "conversation" or bool(source.get("speaker")) or bool(source.get("session"))


# ``relation_names``: how a fact names the owner's relation: "my brother Luca", "my brother, Luca",
# "my brother is called Luca", "Luca is my brother", "Luca, my brother, ..." (the owner: my, our, the
# user's, the caller's name's)
_LINK_NAME = r"([A-ZÀ-ÖØ-Þ][\w-]*)"
_LINK_RELATION = r"([a-z][\w-]*)"


@lru_cache(maxsize=256)
def _link_patterns(caller: str) -> tuple[re.Pattern, re.Pattern]:
    owner = r"(?:[Mm]y|[Oo]ur|[Tt]he\s+user's" + (rf"|(?i:{re.escape(caller)})'s" if caller else "") + ")"
    relation_first = re.compile(rf"\b{owner}\s+{_LINK_RELATION}(?:,\s*|\s+)"
                                rf"(?:(?:(?:is|was)\s+)?(?:called|named)\s+)?{_LINK_NAME}")
    name_first = re.compile(rf"\b{_LINK_NAME},?\s+(?:(?:is|was)\s+)?{owner}\s+{_LINK_RELATION}\b")
    return relation_first, name_first


def _relation_names(statement: str, caller: str) -> set[tuple[str, str]]:
    """The (relation, name) pairs a fact states of the owner's relations, as folded terms."""
    text = statement.replace("\u2019", "'")
    relation_first, name_first = _link_patterns(caller)
    pairs = [(m.group(1), m.group(2)) for m in relation_first.finditer(text)]
    pairs += [(m.group(2), m.group(1)) for m in name_first.finditer(text)]
    found = set()
    for relation, name in pairs:
        if name.lower() in _NOT_NAMES:
            continue
        relations, names = set(tokenize(relation)) & _RELATIONS, tokenize(_folded(name))
        if len(relations) == 1 and len(names) == 1 and names[0] not in _TIME_WORDS:
            found.add((next(iter(relations)), names[0]))
    return found


# ``kinship_model``: "I have two teenagers, Kuba who is 16 and Lena ...", "We've got a budgie called Kiwi",
# "The user has a son, Arjun, ..."
_HAS_COUNTED = _Lazy(r"(?i)\b(?:i|we|(?:the\s+)?user)\s+(?:have|has|'ve|’ve)(?:\s+got)?\s+(?:a|an|one|two|three|four|"
                     r"five|six|\d+)\s+([a-z][\w-]*)(?:,\s*|\s+(?:called|named)\s+|\s*[:(]\s*)" + r"(?-i:([A-ZÀ-ÖØ-Þ][\w-]*))")


def _kin_names(statement: str, caller: str) -> set[tuple[str, str]]:
    """``kinship_model``: the (relation, name) pairs a fact states with a word of a relation's lexicon
    group ("my teenagers, Kuba ...", "my budgie Kiwi") or after a count the owner has ("I have two
    teenagers, Kuba ..."): folded terms, as ``_relation_names`` gives them."""
    text = statement.replace("\u2019", "'")
    relation_first, name_first = _link_patterns(caller)
    pairs = [(m.group(1), m.group(2)) for m in relation_first.finditer(text)]
    pairs += [(m.group(2), m.group(1)) for m in name_first.finditer(text)]
    pairs += [(m.group(1), m.group(2)) for m in _HAS_COUNTED.finditer(text)]
    grouped = lexicon.relation_groups()
    found = set()
    for relation, name in pairs:
        if name.lower() in _NOT_NAMES:
            continue
        relations, names = set(tokenize(relation)) & (_RELATIONS | set(grouped)), tokenize(_folded(name))
        if len(relations) == 1 and len(names) == 1 and names[0] not in _TIME_WORDS:
            found.add((next(iter(relations)), names[0]))
    return found


# ``qualified_relations``: the owner's relation named with one word qualifying it between the owner and
# the relation ("Our first grandchild, Osian, ...", "my late husband Brian", "my little sister Ana")
@lru_cache(maxsize=64)
def _qualified_link(caller: str) -> re.Pattern:
    owner = r"(?:[Mm]y|[Oo]ur|[Tt]he\s+user's" + (rf"|(?i:{re.escape(caller)})'s" if caller else "") + ")"
    return re.compile(rf"\b{owner}\s+[a-z][\w-]*\s+{_LINK_RELATION}(?:,\s*|\s+)"
                      rf"(?:(?:(?:is|was)\s+)?(?:called|named)\s+)?{_LINK_NAME}")


def qualified_relation_names(statement: str, caller: str) -> set[tuple[str, str]]:
    """``qualified_relations``: the (relation, name) pairs a record states of the owner's relations
    named with a qualifying word ("Our first grandchild, Osian, was born ...": grandchild, osian), as
    ``_relation_names`` gives the plain ones; a relation word of the lexicon's groups counts too."""
    text = statement.replace("\u2019", "'")
    relations = _RELATIONS | set(lexicon.relation_groups())
    found = set()
    for hit in _qualified_link(caller).finditer(text):
        relation, names = set(tokenize(hit.group(1))) & relations, tokenize(_folded(hit.group(2)))
        if hit.group(2).lower() not in _NOT_NAMES and len(relation) == 1 and len(names) == 1 \
                and names[0] not in _TIME_WORDS:
            found.add((next(iter(relation)), names[0]))
    return found


def _asked_links(links: dict[str, frozenset[str]], question: str, caller: str,
                 required: list[str]) -> dict[str, frozenset[str]]:
    """``links`` and the ones the question states itself: "my partner Sam's birthday" says Sam is
    the partner, so a record holding either name of them is about them."""
    found = dict(links)
    for relation, name in _relation_names(question, caller):
        if relation in required:
            found[relation] = found.get(relation, frozenset()) | {name}
        if name in required:
            found[name] = found.get(name, frozenset()) | {relation}
    return found


# ``relation_synonyms``: the words of one relation ("mum" is "mother"; groups of ``_RELATIONS`` terms)
_RELATION_SYNONYMS_TEXT = ("mother mum mom mommy; father dad daddy; grandmother grandma granny; grandfather grandpa; "
                           "child children kid kids; neighbour neighbor; colleague coworker; boss manager; "
                           "roommate flatmate housemate; fiance fiancee")
_RELATION_SYNONYM_GROUPS = (
    frozenset({"mother", "mum", "mom", "mommi"}), frozenset({"father", "dad", "daddi"}),
    frozenset({"grandmoth", "grandma", "granni"}), frozenset({"grandfath", "grandpa"}),
    frozenset({"child", "children", "kid"}), frozenset({"neighbour", "neighbor"}), frozenset({"colleagu", "cowork"}),
    frozenset({"boss", "manag"}), frozenset({"roommat", "flatmat", "housem"}), frozenset({"fianc", "fiance"}))
_RELATION_SYNONYMS = {term: group - {term} for group in _RELATION_SYNONYM_GROUPS for term in group}


# a record opening with another person's relation: "Élodie's husband Karim ..."
_OTHERS_RELATION = _Lazy(r"^\W*([^\W\d_][\w-]*)'s\s+([a-z][\w-]*)")


def _others_relation(space: SearchSpace, record_id: str, relations: frozenset[str], own: frozenset[str]) -> bool:
    """``relation_lexicon``: whether a record opens with someone else's relation named by one of
    ``relations`` ("Élodie's husband Karim might want it"): a word the lexicon adds for "my partner"
    is the owner's relation, not Élodie's."""
    found = _OTHERS_RELATION.match(space.records[record_id]["statement"].replace("\u2019", "'"))
    if not found or not found.group(1)[0].isupper():
        return False
    possessor = set(tokenize(_folded(found.group(1))))
    return bool(possessor) and not possessor & own and not set(tokenize(found.group(2))).isdisjoint(relations)


def _relation_others(term: str, lexicon_groups: bool = False) -> frozenset[str]:
    """The other words of a relation (``_RELATION_SYNONYMS``) and, with ``relation_lexicon``, those
    of its lexicon group (``retrieval.lexicon.relation_groups``: "my spouse" is "my wife", "my
    doctor" "my GP", "my kids" "my son")."""
    others = _RELATION_SYNONYMS.get(term, frozenset())
    return others | lexicon.relation_groups().get(term, frozenset()) if lexicon_groups else others


def _synonym_links(space: SearchSpace, links: dict[str, frozenset[str]], required: list[str], caller: str,
                   names: bool, groups: bool = False) -> dict[str, frozenset[str]]:
    """``links`` and, for a relation asked, its other words ("my mum": mother, mom) and, with
    ``relation_names``, the names the scope gives the relation under those words. ``groups``
    (``relation_lexicon``): the words of its lexicon group too (``_relation_others``)."""
    found = dict(links)
    for term in required:
        others = _relation_others(term, groups)
        if not others:
            continue
        named = person_links(space, sorted(others), caller) if names else {}
        found[term] = found.get(term, frozenset()) | others | frozenset().union(*named.values())
    return found


def person_links(space: SearchSpace, subjects: list[str], caller: str = "") -> dict[str, frozenset[str]]:
    """subject term -> the other terms that name the same person in this scope: the name of a
    relation the question asks about ("Where does my brother work?" with "My brother is called
    Luca": brother -> luca), or the relation of a name ("When is Sam's birthday?" with "My
    partner Sam ...": sam -> partner). Only the owner's relations; only the facts holding the
    subject are read (at most ``_PERSON_PROBE`` of them), conversation turns are not."""
    own = frozenset(tokenize(_folded(caller))) | _OWNER_WORDS
    cache = space.memo("relation_names")
    found: dict[str, frozenset[str]] = {}
    for term in subjects:
        if not 0 < space.index.df(term) <= _PERSON_PROBE:
            continue
        linked: set[str] = set()
        for record_id in space.index.scores([term]):
            record = space.records.get(record_id) if record_id in space.records else None
            if record is None or record["kind"] == "episode":
                continue
            pairs = cache.get((record_id, caller))
            if pairs is None:
                pairs = cache[(record_id, caller)] = _relation_names(record["statement"], caller)
            linked |= {name for relation, name in pairs if relation == term}
            linked |= {relation for relation, name in pairs if name == term}
        if linked - own - {term}:
            found[term] = frozenset(linked - own - {term})
    return found


def asked_relation_names(space: SearchSpace, question: str, caller: str = "") -> dict[str, frozenset[str]]:
    """``linked_names``: the owner's relations a question names ("my sister", "my son") -> the names the
    scope's facts give them (``person_links``: "My sister Niamh rang me" gives sister -> niamh)."""
    relations = sorted({t for t in tokenize(" ".join(hit.group(1) for hit in _OWNED_THING.finditer(
        question.replace("\u2019", "'")))) if t in _RELATIONS})
    links = person_links(space, relations, caller) if relations else {}
    return {term: names for term, names in links.items() if term in _RELATIONS}


def linked_coverage(space: SearchSpace, covers: Callable[[str], float], question: str, settings: dict,
                    caller: str, links: dict[str, frozenset[str]]) -> Callable[[str], float]:
    """``linked_names``: coverage with a relation the question asks held by a record holding a name the
    scope gives it ("Our Niamh teaches at the Gaelscoil" holds the "sister" of "What does my sister
    do?"); other records as ``covers`` measures them."""
    share = _share_of(_term_weights(space, *_coverage_terms(question, caller, settings)))
    names = frozenset().union(*links.values())

    def covered(record_id: str) -> float:
        found = covers(record_id)
        held = space.term_set(record_id)
        if held.isdisjoint(names):
            return found
        return max(found, share(held | {term for term, linked in links.items() if not linked.isdisjoint(held)}))
    return covered


def idiom_coverage(space: SearchSpace, covers: Callable[[str], float], question: str, settings: dict,
                   caller: str) -> Callable[[str], float]:
    """``idiom_coverage``: coverage with a relation the question asks ("my boyfriend", "my husband")
    held by a record naming it by an idiom of its group ("My OH Connor drives a taxi": partner,
    spouse; ``idiom_held``), as the support test reads it; ``covers`` itself for a question naming
    no relation."""
    groups = lexicon.relation_groups()
    asked = {t: groups.get(t, frozenset()) | {t} for t in tokenize(question) if t in _RELATIONS}
    if not asked:
        return covers
    share = _share_of(_term_weights(space, *_coverage_terms(question, caller, settings)))

    def covered(record_id: str) -> float:
        found = covers(record_id)
        by_idiom = idiom_held(space, record_id)
        if not by_idiom:
            return found
        held = space.term_set(record_id) | {t for t, words in asked.items() if not words.isdisjoint(by_idiom)}
        return max(found, share(held))
    return covered


def colloquial_coverage(space: SearchSpace, covers: Callable[[str], float], question: str, settings: dict,
                        caller: str) -> Callable[[str], float]:
    """``colloquial_relations``: coverage with a relation the question asks ("my son", "our eldest
    child") held by a record naming it by a colloquial word ("Our lad ...": son; "Our eldest, Sigrid,
    ...": child; ``colloquial_held``), as the support test reads it; ``covers`` itself for a question
    naming no relation."""
    groups = lexicon.relation_groups()
    asked = {t: groups.get(t, frozenset()) | {t} for t in tokenize(question) if t in _RELATIONS}
    if not asked:
        return covers
    share = _share_of(_term_weights(space, *_coverage_terms(question, caller, settings)))

    holding = colloquial_records(space)

    def covered(record_id: str) -> float:
        found = covers(record_id)
        held = colloquial_held(space, record_id) if record_id in holding else frozenset()
        if not held:
            return found
        return max(found, share(space.term_set(record_id)
                                | {t for t, words in asked.items() if not words.isdisjoint(held)}))
    return covered


def linked_candidates(space: SearchSpace, terms: list[str], links: dict[str, frozenset[str]], limit: int,
                      covers: Callable[[str], float], found: list, steps: list) -> list:
    """``linked_names``: the records a search for the question with its relations' names in their place
    finds ("Tadhg moved to Toronto" for "Where does my son live?" with "My son Tadhg ..."), after every
    match (what was found, and its order, is unchanged)."""
    names = sorted(frozenset().union(*links.values()))
    tokens = [t for t in terms if t not in links] + names
    hits = space.search(tokens, limit)
    steps.append({"action": "search", "kind": "linked_names", "terms": tokens, "hits": len(hits)})
    seen = {c.record_id for c in found}
    return [Candidate(rid, 0.0, 0.0, covers(rid)) for rid, _ in hits if rid not in seen]


def caller_speaker(space: SearchSpace, question: str, caller: str) -> frozenset[str]:
    """The caller's terms when a first-person question ("Where do I work?") is asked by a speaker of
    the scope's conversations (``caller_turns``): their own turns, and turns saying "you" to them,
    are about them; another speaker's "I still work nights" is not. Else none."""
    terms = _speaker_terms(caller) if caller else frozenset()
    if not terms or not _FIRST_PERSON_WORDS.search(question.replace("\u2019", "'")):
        return frozenset()
    return terms if not terms.isdisjoint(_folded(t) for t in space.speakers()) else frozenset()


# ``answer_types``: "What make is ...", "Which airline did ...": the word after a leading what/which,
# before the verb, names the kind of value asked for, which a record states without it
_ANSWER_TYPE = _Lazy(r"(?i)^\W*(?:what|which)\s+([^\W\d_][\w-]*)\s+(?:is|are|was|were|do|does|did|has|have|"
                          r"had|can|could|will|would|should)\b")


def answer_type(question: str) -> str | None:
    """The term of the kind of value a question asks for ("What make is my car?" -> make), or None."""
    found = _ANSWER_TYPE.match(question.replace("\u2019", "'"))
    terms = tokenize(found.group(1)) if found else []
    return terms[0] if len(terms) == 1 else None


def _typed_share(share: Callable, weights: dict[str, float], question: str, caller: str,
                 forms: bool) -> Callable[[frozenset[str]], float]:
    """``share``, except that a record holding every other weighted term of the question, among
    them a thing it is asked about (a key noun or a name: "my car", "to Tokyo"), fully supports
    it without the kind of value asked for ("Pat drives a Volvo XC40" answers "What make is my
    car?"). A record holding only the question's verb ("What medication do I take?" / "I take
    the bus") is not helped: the question names no thing it holds."""
    kind = answer_type(question)
    if kind is None:
        return share
    kind = base_term(kind) if forms else kind
    rest = frozenset(weights) - {kind}
    things = {base_term(t) if forms else t for t in (*key_terms(question, caller), *name_terms(question))}
    if kind not in weights or not rest & things:
        return share

    def typed(held: frozenset[str]) -> float:
        terms = _with_bases(held) if forms else held
        return 1.0 if kind not in terms and rest <= terms else share(held)
    return typed


def _about_relation_asked(space: SearchSpace, record_id: str, asked: frozenset, together: bool = False) -> bool:
    """``relation_subjects``: whether a record opening with a relation ("My brother's shoe size ...")
    is about what the question asks: it names that relation or the relation's name. With
    ``together`` (``features.speaker_with_relation``), a record opening with the relation and the
    speaker together ("My kids and I went camping at the beach") is the speaker's too: it answers
    "Where did Melanie camp?" without the kids being asked."""
    relation, named = record_relations(space, record_id)
    if relation <= asked or not named.isdisjoint(asked):
        return True
    return together and _WITH_SPEAKER.match(space.records[record_id]["statement"].replace("\u2019", "'")) is not None


# ``speaker_with_relation``: "My kids and I ...", "My wife and me ...", "Me and my brother ..."
_WITH_SPEAKER = _Lazy(r"(?i)^\W*(?:(?:my|our)\s+[^\W_][\w-]*(?:\s+[A-Z][\w-]*)?\s+(?:and|&)\s+(?:i|me|myself)\b"
                           r"|(?:i|me)\s+(?:and|&)\s+(?:my|our)\s+[^\W_][\w-]*)")


_NEGATION = _Lazy(r"(?i)(?:\bnot|n't|\bnever|\bno longer)\s+([^\W_][\w-]*)([^.!?;]*)")


def negates(record: dict, asked: frozenset, objects: bool = False) -> bool:
    """Whether a negative record is about what the question asks: the question names what it
    negates ("does not eat meat" / "meat", a negative trigger), or the record negates a verb with
    no object and the question holds the verb ("does not smoke" / "does Abel smoke?").

    ``objects`` (``features.negative_objects``): the question names the whole of one thing it
    negates (``_negated_objects``), not a word of it: "I don't like horror films" is about horror
    films, and does not say what films "What kind of films do I like?" asks for."""
    found = _NEGATION.search(record["statement"].replace("\u2019", "'"))
    triggers = set(tokenize(" ".join(record.get("negative_triggers") or [])))
    if triggers & asked:
        return True
    if found is None:
        return True  # no negation to read: leave it to coverage
    verb, rest = set(tokenize(found.group(1))), set(tokenize(found.group(2)))
    if rest and objects:
        things = _negated_objects(found.group(2))
        if things:
            return any(thing <= asked for thing in things)
    if rest:
        return bool(rest & asked)
    return bool(verb & asked)


# ``negative_objects``: where the object a negation names ends (a preposition, a reason, a time) and
# how its alternatives are listed ("wine or beer at weekends" -> wine; beer)
_OBJECT_END = _Lazy(r"(?i)\b(?:to|at|in|on|for|from|with|after|before|during|since|until|because|as|when|if|"
                         r"so|but|any|anymore|ever|again|even|unless|while)\b|[,:;(]")
_OBJECT_ALTERNATIVES = _Lazy(r"(?i)\b(?:and|or|nor)\b|/")


def _negated_objects(rest: str) -> list[frozenset[str]]:
    """The things a negation names after its verb, each as its terms: "horror films" -> {horror,
    film}; "wine or beer at weekends" -> {wine}, {beer}; none when it names nothing ("at night")."""
    cut = _OBJECT_END.search(rest)
    phrase = rest[:cut.start()] if cut else rest
    return [frozenset(terms) for part in _OBJECT_ALTERNATIVES.split(phrase) if (terms := tokenize(part))]


_FIRST_PERSON_WORDS = _Lazy(r"(?i)\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself)\b")
_SECOND_PERSON_WORDS = _Lazy(r"(?i)\b(?:you|you're|you've|you'd|you'll|your|yours|yourself)\b")


def _session_speakers(space: SearchSpace) -> dict[str, frozenset[str]]:
    found = space._memo.get("session_speakers")
    if found is None and hasattr(space.records, "session_speakers"):
        # a store's current view: from its columns, each session when asked (no record parsed)
        found = space._memo["session_speakers"] = space.records.session_speakers()
    if found is None:
        grouped: dict[str, set[str]] = {}
        for record in space.records.values():
            source = record.get("source") or {}
            if source.get("session") and source.get("speaker"):
                grouped.setdefault(source["session"], set()).add(source["speaker"])
        found = space._memo["session_speakers"] = {k: frozenset(v) for k, v in grouped.items()}
    return found


def _turn_speaker(record: dict) -> str | None:
    """The speaker of a conversation turn, or None for any other record."""
    speaker = (record.get("source") or {}).get("speaker")
    return speaker if record["kind"] == "episode" and speaker else None


def _turn_text(space: SearchSpace, record: dict, speaker: str) -> tuple[str, frozenset]:
    """A turn's statement, folded, and the other speakers of its session."""
    session = (record.get("source") or {}).get("session")
    others = _session_speakers(space).get(session, frozenset()) - {speaker}
    return _folded(record["statement"].replace("\u2019", "'")), others


def _speaks_about(space: SearchSpace, record_id: str, speakers: list[str]) -> bool:
    """Whether a conversation turn is about one of the named speakers (their terms): its own
    speaker when it speaks in the first person or about no one in particular, the other speaker
    when it says "you", and anyone it names other than by addressing them ("Jon, ...")."""
    record = space.records[record_id]
    speaker = _turn_speaker(record)
    if speaker is None:
        return True
    cache = space.memo("speaks_about")
    about = cache.get(record_id)
    if about is None:
        text, others = _turn_text(space, record, speaker)
        names = _about_names(text, speaker, others)
        about = cache[record_id] = frozenset(t for name in names for t in _speaker_terms(name))
    return not about.isdisjoint(speakers)


@lru_cache(maxsize=4096)
def _word_pattern(word: str) -> re.Pattern:
    """A speaker's name word, folded, as a whole word in any case: compiled once per word (the
    subject tests look for each session speaker's words in every sentence of every candidate)."""
    return re.compile(rf"(?i)\b{re.escape(_folded(word))}\b")


def _about_names(text: str, speaker: str, others: frozenset) -> set[str]:
    """Whom a turn (or one of its sentences) is about, by its speaker and the session's others."""
    names: set[str] = set()
    # an ASCII word absent from an ASCII text in any case is not there as a whole word either:
    # most words of a session's speakers are not in most sentences (patterns run only on the rest)
    lowered = text.lower() if text.isascii() else None
    for other in others | {speaker}:
        for word in other.split():
            if lowered is not None and word.isascii() and word.lower() not in lowered:
                continue
            for hit in _word_pattern(word).finditer(text):
                if not _addressing(text[:hit.start()].rstrip(), text[hit.end():].lstrip()):
                    names.add(other)
    return _about_named(text, speaker, others, names)


def _about_named(text: str, speaker: str, others: frozenset, names: set[str]) -> set[str]:
    """``_about_names`` from ``names``, the speakers it names other than by addressing them."""
    first, second = bool(_FIRST_PERSON_WORDS.search(text)), bool(_SECOND_PERSON_WORDS.search(text))
    if first or not (second or names):
        names.add(speaker)
    if second:
        names |= others
    return names


def _addressing(before: str, after: str) -> bool:
    """A name said to someone: closed by punctuation, and opening its sentence or after a
    greeting or an interjection of a word or two ("Hey Jon,", "Woohoo Melanie!", "Yep, Melanie!")."""
    if after and after[0] not in ",.!?":
        return False
    if not before or before[-1] in ",.!?":
        return True
    opening = re.split(r"[.!?]\s", before)[-1]
    return len(opening.split()) <= 2 and "," not in opening.rstrip(",")


def _sentences_about(space: SearchSpace, record_id: str, speakers: list[str]) -> frozenset[str] | None:
    """``sentence_attribution``: the terms of a turn's statement that are *not* in a sentence
    about the named speakers ("Yeah, you're right, Caroline. Especially after the accident, I've
    thought a lot about my family" is Melanie's accident, not Caroline's), or None for a record
    that is not a conversation turn. Terms that are not in the statement (its date, its speaker)
    are never among them."""
    return _terms_elsewhere(space, record_id, speakers, "sentences_about", _sentence_parts)


def _sentence_parts(sentence: str, speaker: str, others: list[str]):
    names = _about_names(sentence, speaker, others)
    yield frozenset(t for name in names for t in _speaker_terms(name)), frozenset(tokenize(sentence))


def _terms_elsewhere(space: SearchSpace, record_id: str, speakers: list[str], memo: str, split) -> frozenset[str] | None:
    """The terms of a turn's statement in no part about ``speakers``: ``split(sentence, speaker,
    others)`` gives each sentence's parts as (terms of whom it is about, its terms), kept per
    record in ``space.memo(memo)``; None for a record that is not a conversation turn."""
    record = space.records[record_id]
    speaker = _turn_speaker(record)
    if speaker is None:
        return None
    cache = space.memo(memo)
    parts = cache.get(record_id)
    if parts is None:
        text, others = _turn_text(space, record, speaker)
        parts = cache[record_id] = tuple(part for sentence in re.split(r"(?<=[.!?])\s+", text)
                                         for part in split(sentence, speaker, others))
    # asked of every turn among the candidates, with the same speakers for a question's every
    # setup of the support test: the answer is kept per record and speakers (built as it was)
    answers = space.memo(memo + ":elsewhere")
    key = (record_id, *speakers)
    found = answers.get(key)
    if found is None:
        about = frozenset().union(*(terms for who, terms in parts if not who.isdisjoint(speakers)))
        found = answers[key] = frozenset().union(*(terms for _, terms in parts)) - about
    return found


# what starts a clause about someone (``pronoun_scope``): a person word, or a word of a name;
# "congrats" is said of the other's news ("Hey Gina, congrats on the clothing store!")
_PERSON_WORD = _Lazy(r"(?i)\b(?:(?P<first>i|i'm|i've|i'd|i'll|me|my|mine|myself)|"
                          r"(?P<second>you|you're|you've|you'd|you'll|your|yours|yourself|congrats|congratulations))\b")


# a greeting before a name ("Hey Caroline, that roadtrip was insane!"): news of the speaker's own follows
_GREETING = _Lazy(r"(?i)\b(?:hey|hi|hello|hiya|yo|morning|evening)\W*$")


def _nicknames(others: frozenset, text: str) -> dict[str, str]:
    """Short names said to a session peer ("That charity race sounds great, Mel!", "Thanks Jo!"):
    a capitalized word said in address (``_addressing``) that begins the first name of exactly one
    of them and is not a whole name -> that peer."""
    found = {}
    if not others:
        return found   # no peer for a word to begin the name of
    beginning = _first_name_starts(others)
    for hit in re.finditer(r"\b([A-Z][a-z]{1,})\b", text):
        word = hit.group(1)
        if beginning is None:   # a peer with no word at all (as before: the first name is asked for)
            owners = [o for o in others if o.split()[0].lower().startswith(word.lower())
                      and o.split()[0].lower() != word.lower()]
        else:
            owners = beginning.get(word.lower(), ())
        if len(owners) == 1 and _addressing(text[:hit.start()].rstrip(), text[hit.end():].lstrip()):
            found[word.lower()] = owners[0]
    return found


@lru_cache(maxsize=1024)
def _first_name_starts(others: frozenset) -> dict[str, list[str]] | None:
    """``_nicknames``' table: each lowered beginning of a peer's first name short of the whole of it
    -> the peers whose first name it begins (a word said in address begins exactly one of them),
    worked out once per set of peers, not per capitalized word of every sentence of every turn.
    None when a peer has no word."""
    found: dict[str, list[str]] = {}
    for other in others:
        words = other.split()
        if not words:
            return None
        first = words[0].lower()
        for end in range(1, len(first)):
            found.setdefault(first[:end], []).append(other)
    return found


def _clause_owners(sentence: str, speaker: str, others: frozenset) -> list[tuple[frozenset, str]]:
    """A sentence cut where someone becomes its subject, each piece with whom it is about
    (``pronoun_scope``): after I/my/me its speaker, after you/your the others ("Your store looks
    great, I remember it": the store is the other's), after a name said about someone that
    person, after a name said to someone (``_addressing``) the addressee ("Wow Mel, that painting's
    amazing"). What comes before the first such word is about whom ``_about_names`` finds for the
    whole sentence — the addressee when the sentence is said to someone, in no first person
    ("That charity race sounds great, Mel!")."""
    nicknames = _nicknames(others, sentence)
    marks: list[tuple[int, int, frozenset]] = []
    addressed: set[str] = set()
    for hit in _PERSON_WORD.finditer(sentence):
        marks.append((hit.start(), hit.end(), frozenset({speaker}) if hit.group("first") else others))
    lowered = sentence.lower() if sentence.isascii() else None   # as in ``_about_names``
    named: set[str] = set()   # ``_about_names``' scan, read from this one: a word of theirs not said to them
    for person in others | {speaker}:
        own = person.split()
        words = {w: person for w in own}
        words.update({nick: owner for nick, owner in nicknames.items() if owner == person})
        for word in words:
            if lowered is not None and word.isascii() and word.lower() not in lowered:
                continue
            for hit in _word_pattern(word).finditer(sentence):
                to = _addressing(sentence[:hit.start()].rstrip(), sentence[hit.end():].lstrip())
                if not to and word in own:
                    named.add(person)
                if to and _GREETING.search(sentence[:hit.start()]):
                    continue   # "Hey Caroline, that roadtrip was insane!": the speaker's news
                if to and person != speaker:
                    addressed.add(person)
                marks.append((hit.start(), hit.end(), frozenset({person})))
    marks.sort(key=lambda mark: mark[0])
    lead = _about_named(sentence, speaker, others, named)
    if addressed and not _FIRST_PERSON_WORDS.search(sentence):
        lead = set(addressed)
    pieces, at, owner = [], 0, frozenset(lead)
    for start, end, who in marks:
        if start < at:
            continue
        pieces.append((owner, sentence[at:start]))
        owner, at = who, start
    pieces.append((owner, sentence[at:]))
    return pieces


def _clauses_about(space: SearchSpace, record_id: str, speakers: list[str]) -> frozenset[str] | None:
    """``pronoun_scope``: like ``_sentences_about`` (the terms of a turn's statement in no piece
    about the named speakers), by the pieces of ``_clause_owners`` rather than whole sentences;
    None for a record that is not a conversation turn."""
    return _terms_elsewhere(space, record_id, speakers, "clauses_about", _clause_parts)


def _clause_parts(sentence: str, speaker: str, others: list[str]):
    asks = sentence.rstrip().endswith("?")   # "Do you have any projects?" states none of them
    for who, piece in _clause_owners(sentence, speaker, others):
        yield (frozenset() if asks else frozenset(t for name in who for t in _speaker_terms(name)),
               frozenset(tokenize(piece)))


# ``turn_persons``: who a conversation names as someone's relation ("My partner Hannah works as a
# tester", "my cousin Leila"), and the words that make a third person the subject of what follows
_THIRD_PERSON = _Lazy(r"(?i)\b(?:he|she|they|he's|she's|they're|he'd|she'd|they'd|he'll|she'll|they'll|"
                      r"they've|his)\b")
_NAME_SUBJECT = _Lazy(r"\b([A-ZÀ-ÖØ-Þ][\w-]+)\s+(?:[a-z][\w-]*(?:s|ed)|has|is|was|does|did|can|will|had|"
                      r"could|would|should|never|always|still|just|also)\b")


def relation_owners(space: SearchSpace, term: str) -> frozenset[str]:
    """``turn_persons``: who names ``term`` as a relation of theirs in a conversation turn ("My
    partner Hannah works as a tester" said by Rhys -> {"Rhys"}), empty when no turn does (facts and
    statements are ``asked_persons``'): then the conversations do not know the name as a person's.
    Only the records holding the term are read (at most ``_PERSON_PROBE``), each term once per space."""
    cache = space.memo("relation_owners")
    found = cache.get(term)
    if found is None:
        owners: set[str] = set()
        if 0 < space.index.df(term) <= _PERSON_PROBE:
            for record_id in space.index.scores([term]):
                record = space.records.get(record_id) if record_id in space.records else None
                speaker = _turn_speaker(record) if record is not None else None   # turns only
                if speaker and any(name == term for _, name in _relation_names(record["statement"], "")):
                    owners.add(speaker)
        found = cache[term] = frozenset(owners)
    return found


# ``we_turns`` (issue 13, session 10, kin10): "we"/"our" in a turn is its speaker and the people the
# speaker names as their own ("We called the baby Mateo" said by Dario, whose turns name "my wife Carmen")
_WE_WORDS = _Lazy(r"(?i)\b(?:we|we're|we've|we'd|we'll|us|our|ours|ourselves)\b")


def said_as_we(space: SearchSpace, record_id: str, term: str, speakers: list[str] | frozenset) -> bool:
    """``we_turns``: whether a turn, said by a speaker the question names, speaks in the first person
    plural of that speaker and ``term``, a person whom that speaker's turns give as their relation
    (``relation_owners``): "What did Dario and Carmen call the baby?" / Dario's "We called the baby
    Mateo"."""
    record = space.records[record_id]
    speaker = _turn_speaker(record)
    if not speaker or _speaker_terms(speaker).isdisjoint(speakers):
        return False
    if not any(_speaker_terms(owner) & _speaker_terms(speaker) for owner in relation_owners(space, term)):
        return False
    return bool(_WE_WORDS.search(record["statement"].replace("\u2019", "'")))


def turn_persons(space: SearchSpace, question: str, caller: str = "") -> set[str]:
    """``turn_persons``: the people a question names that the scope knows as someone's relation,
    in a conversation turn ("What is Hannah's job?" with "My partner Hannah works as a
    software tester" said by the user): subjects a record must hold, as ``asked_persons``' are.
    Not the caller, not a speaker of the scope (the speaker tests' business)."""
    own = frozenset(tokenize(_folded(caller))) | _OWNER_WORDS
    speakers = {_folded(term) for term in space.speakers()}
    found: set[str] = set()
    for word in re.findall(r"\b[A-ZÀ-ÖØ-Þ][\w-]+", question.replace("\u2019", "'")):
        for term in tokenize(word):
            if term in own or _folded(term) in own or _folded(term) in speakers or term in _TIME_WORDS:
                continue
            if relation_owners(space, term):
                found.add(term)
    return found


def _third_person_cuts(space: SearchSpace, piece: str, owner: frozenset, speaker: str, others: frozenset,
                       relatives: bool, pronouns: bool = True) -> list[tuple[frozenset, str]]:
    """``caller_clauses``: a piece of ``_clause_owners`` cut again where a third person becomes its
    subject — "she", "he", "they", "his" (``pronouns``), or a name the scope knows as someone's
    relation followed by a verb ("Hannah works from home on Mondays", "Leila walks her greyhound"):
    what follows is theirs, not the speaker's. ``relatives``: a named relation is also about whoever
    calls them so ("My son Oscar ..." then "Oscar loves dinosaurs" is still the parent's news).
    ``pronouns``: cut at she/he/they too (a pronoun's person is not known, so what follows is no
    named speaker's: only where the question is about the caller alone)."""
    cuts: list[tuple[int, frozenset]] = [(hit.start(), frozenset()) for hit in _THIRD_PERSON.finditer(piece)] \
        if pronouns else []
    people = {_folded(word).lower() for person in others | {speaker} for word in person.split()}
    for hit in _NAME_SUBJECT.finditer(piece):
        word = hit.group(1)
        terms = tokenize(_folded(word))
        if word.lower() in _NOT_NAMES or _folded(word).lower() in people or len(terms) != 1:
            continue
        named_by = relation_owners(space, terms[0])
        if named_by:
            cuts.append((hit.start(1), frozenset({word}) | (named_by - {""} if relatives else frozenset())))
    if not cuts:
        return [(owner, piece)]
    cuts.sort(key=lambda cut: cut[0])
    pieces, at, who = [], 0, owner
    for start, person in cuts:
        pieces.append((who, piece[at:start]))
        who, at = person, start
    pieces.append((who, piece[at:]))
    return pieces


def _third_person_parts(space: SearchSpace, relatives: bool = False, pronouns: bool = True) -> Callable:
    """A ``_terms_elsewhere`` split: ``_clause_parts`` with each piece cut again at a third person
    (``_third_person_cuts``)."""
    def split(sentence: str, speaker: str, others):
        asks = sentence.rstrip().endswith("?")   # "Do you have any projects?" states none of them
        for who, piece in _clause_owners(sentence, speaker, others):
            for owner, part in _third_person_cuts(space, piece, who, speaker, frozenset(others), relatives, pronouns):
                yield (frozenset() if asks else frozenset(t for name in owner for t in _speaker_terms(name)),
                       frozenset(tokenize(part)))
    return split


def caller_clauses_about(space: SearchSpace, record_id: str, caller_terms: list[str]) -> frozenset[str] | None:
    """``caller_clauses``: the terms of a turn's statement in no piece about the caller, the pieces
    cut where someone becomes their subject (``_clause_owners``: I/my is the speaker, you/your the
    other; then ``_third_person_cuts``: she/he/they, a named relation). "I started playing padel,
    you should come along" said to the caller holds the padel in the speaker's piece; "She works
    from home" and "Hannah works from home on Mondays" are someone else's, whoever says them. None
    for a record that is not a conversation turn."""
    return _terms_elsewhere(space, record_id, caller_terms, "caller_clauses_about", _third_person_parts(space))


# a turn opening with a third person's pronoun: "She moved to Chicago."
_PRONOUN_OPENING = _Lazy(r"(?i)^\W*(?:she|he|she's|he's|she'd|he'd|she'll|he'll)\b")


def _antecedent_terms(space: SearchSpace, record_id: str) -> frozenset[str]:
    """``turn_persons``: whom a turn opening with "she"/"he" is about — the terms of the same speaker's
    turn just before it in its session ("... my friend Rachel who recently moved ..." / "She moved to
    Chicago."); empty for any other record."""
    cache = space.memo("antecedent_terms")
    found = cache.get(record_id)
    if found is None:
        found = frozenset()
        record = space.records[record_id]
        speaker = _turn_speaker(record)
        session = (record.get("source") or {}).get("session")
        turns = space.sessions.get(session) if speaker and session else None
        if turns and _PRONOUN_OPENING.search(record["statement"]) and record_id in turns:
            at = turns.index(record_id)
            before = space.records.get(turns[at - 1]) if at > 0 and turns[at - 1] in space.records else None
            if before is not None and _turn_speaker(before) == speaker:
                found = space.term_set(turns[at - 1])
        cache[record_id] = found
    return found


def _names_person_subject(space: SearchSpace, record_id: str) -> bool:
    """``turn_persons``: whether a record names, before a verb, someone the scope gives as a
    relation ("Leila walks ..."): only then are its pieces cut again (``person_clauses_about``)."""
    cache = space.memo("names_person_subject")
    found = cache.get(record_id)
    if found is None:
        statement = _folded(space.records[record_id]["statement"].replace("\u2019", "'"))
        found = cache[record_id] = any(
            hit.group(1).lower() not in _NOT_NAMES and len(terms) == 1 and bool(relation_owners(space, terms[0]))
            for hit in _NAME_SUBJECT.finditer(statement) for terms in [tokenize(hit.group(1))])
    return found


def person_clauses_about(space: SearchSpace, record_id: str, speakers: list[str]) -> frozenset[str] | None:
    """``turn_persons`` with ``pronoun_scope``, for a question naming a speaker: ``_clauses_about``
    with each piece cut again where a person the scope names as someone's relation becomes its
    subject ("Leila walks her greyhound past my flat", Leila being Jon's cousin, is Leila's and
    Jon's greyhound, not the speaker's). None for a record that is not a conversation turn."""
    return _terms_elsewhere(space, record_id, speakers, "person_clauses_about",
                            _third_person_parts(space, relatives=True, pronouns=False))


def _asked_before(space: SearchSpace, record_id: str, speakers: list[str]) -> frozenset[str]:
    """``reply_answers``: the terms of what the turn before asked a turn's speaker, when that
    speaker is one the question names — a reply states what it was asked: "What are your plans for
    the summer?" / "Researching adoption agencies, it's been a dream" are Caroline's plans for the
    summer. The question sentences of the other speaker's turn just before, in the same session,
    said to "you"; empty for any other record."""
    record = space.records[record_id]
    speaker = _turn_speaker(record)
    if speaker is None or _speaker_terms(speaker).isdisjoint(speakers):
        return frozenset()
    cache = space.memo("asked_before")
    asked = cache.get(record_id)
    if asked is None:
        asked = frozenset()
        session = (record.get("source") or {}).get("session")
        turns = space.sessions.get(session) if session else None
        at = turns.index(record_id) if turns and record_id in turns else -1
        if at > 0 and turns[at - 1] in space.records:
            before = space.records[turns[at - 1]]
            if _turn_speaker(before) not in (None, speaker):
                text = _folded(before["statement"].replace("\u2019", "'"))
                questions = [x for x in _SENTENCE_END.split(text) if x.rstrip().endswith("?")
                             and _SECOND_PERSON_WORDS.search(x)]
                asked = frozenset(tokenize(" ".join(questions)))
        cache[record_id] = asked
    return asked


def swapped_questions(space: SearchSpace, question: str, caller: str = "") -> list[str]:
    """``decision.swap_ratio``: the question asked of each other speaker of the scope, when it
    names exactly one ("What did Caroline paint?" -> "What did Melanie paint?"): a question that
    swaps the speakers of a real event is answered far better of the other one. Its name's words
    (whole words, possessive kept) are replaced by the other's first name; none for a question
    naming no speaker, several, or the caller."""
    named = named_speakers(space, question)
    if len(named) != 1:
        return []
    (person,) = named
    if set(tokenize(person)) & set(tokenize(caller)):
        return []
    words = [w for w in person.split() if tokenize(w)]
    pattern = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in words) + r")\b(?:\s+(?:"
                         + "|".join(re.escape(w) for w in words) + r")\b)*")
    if not pattern.search(question):
        return []
    others = sorted(name for name in space.records_by_speaker() if name and name != person)
    return [pattern.sub(other.split()[0], question) for other in others[:3]]


def _held_terms(space: SearchSpace, record_id: str) -> frozenset[str]:
    """What a record holds for the subject test: its terms and its speaker's, folded and not."""
    cache = space.memo("held_terms")
    held = cache.get(record_id)
    if held is None:
        terms = space.term_set(record_id)
        held = cache[record_id] = (terms | {_folded(term) for term in terms}
                                   | _speaker_terms(space.speaker(record_id) or ""))
    return held


def feedback_terms(space: SearchSpace, top_ids: list[str], query_terms: set[str], count: int) -> list[str]:
    """Terms frequent in the first results and rare in the scope (Rocchio-style)."""
    weights: Counter = Counter()
    for record_id in top_ids:
        for term, damped_tf in _damped_tfs(space, record_id):
            if term not in query_terms:
                weights[term] += damped_tf * space.idf(term)
    return [term for term, _ in weights.most_common(count)]


def _damped_tfs(space: SearchSpace, record_id: str) -> tuple[tuple[str, float], ...]:
    """(term, 1 + log tf) for each distinct term of the record, in first-seen order (kept:
    the first results of many queries are the same few records)."""
    cache = space.memo("damped_tfs")
    found = cache.get(record_id)
    if found is None:
        found = cache[record_id] = tuple((term, 1 + math.log(tf))
                                         for term, tf in Counter(space.terms(record_id)).items())
    return found


def coverage(space: SearchSpace, record_id: str, query_terms: list[str], entities: frozenset = frozenset(),
             unseen_entity_weight: float = 1.0) -> float:
    """Share of the question's weight that the record holds.

    Weights are a smoothed idf, log(1 + (N - df + 0.5) / (df + 0.5)), always positive even in
    tiny scopes where BM25's idf degenerates; a term the scope has never seen weighs as much as
    its rarest seen term (df 1): unknown words count against an answer, but do not drown it —
    except a named entity or number the scope has never seen ("Where does Maria live?"), which
    weighs ``unseen_entity_weight`` times as much: it is what the question is about.
    """
    weights = _term_weights(space, query_terms, entities, unseen_entity_weight)
    return _share_of(weights)(space.term_set(record_id))


def _term_weights(space: SearchSpace, query_terms: list[str], entities: frozenset,
                  unseen_entity_weight: float, keys: frozenset = frozenset(),
                  unseen_key_weight: float = 0.0) -> dict[str, float]:
    """Each question term's weight: one per question, not per candidate it is measured on.
    A term the scope never saw weighs as its rarest seen term, times ``unseen_entity_weight``
    for a name and ``unseen_key_weight`` (0: off) for a noun the question asks about
    (``key_terms``): "When does my visa expire?" in a scope that never saw "visa" is not
    answered by "My gym membership expires in May"."""
    weights = {}
    for t in dict.fromkeys(query_terms):   # question order: a set's would follow the hash seed (the sums' last bit)
        boost = 1.0
        if not space.index.df(t):
            if t in entities:
                boost = max(boost, unseen_entity_weight)
            if t in keys and unseen_key_weight > 0:
                boost = max(boost, unseen_key_weight)
        weights[t] = space.weight(t) * boost
    return weights


def _share_of(weights: dict[str, float]) -> Callable[[frozenset[str]], float]:
    """``held -> the share of the question's weight in held``, for one question's weights: a
    query measures it on many candidates, so the total is summed once, not per candidate."""
    total = sum(weights.values())
    if total <= 0:
        return lambda held: 0.0
    items = tuple(weights.items())
    # a list, not a generator: the same floats summed in the same order, without a frame per candidate
    return lambda held: sum([w for t, w in items if t in held]) / total


# ``planner.indefinite_weight``: indefinite pronouns name nothing a record must hold ("Is my dad
# allergic to anything?" is answered by "... allergic to penicillin")
_INDEFINITES_TEXT = ("anything something everything nothing anyone someone everyone nobody anybody somebody "
                     "everybody anywhere somewhere everywhere nowhere sometime anytime whatever whoever")
_INDEFINITES = frozenset(("anyth", "someth", "everyth", "noth", "anyon", "someon", "everyon", "nobodi", "anybodi",
                          "somebodi", "everybodi", "anywher", "somewher", "everywher", "nowher", "sometim", "anytim",
                          "whatev", "whoever"))


def _coverage_terms(question: str, caller: str, settings: dict) -> tuple:
    terms = tokenize(question)
    own = set(tokenize(caller))
    if settings.get("indefinite_weight", 1) == 0:
        own |= _INDEFINITES
    covered_terms = [t for t in terms if t not in own] or terms
    key_weight = settings.get("unseen_key_weight", 0.0)
    keys = frozenset(key_terms(question, caller)) - own if key_weight > 0 else frozenset()
    return (covered_terms, frozenset(name_terms(question)), settings.get("unseen_entity_weight", 1.0),
            keys, key_weight)


def question_coverage(space: SearchSpace, question: str, settings: dict, caller: str = "",
                      forms: bool = False, classes: bool = False, lexicon_features=None) -> Callable[[str], float]:
    """record_id -> coverage of ``question``, as every planner measures it (one rule, so the
    deterministic and the llm planner face the same relevance bar).

    The caller's own name does not count ("What does Ravi take?" asked in scope user:Ravi is
    about the scope); names the scope never saw weigh ``unseen_entity_weight`` times.
    ``lexicon_features`` (the policy's feature test, for ``class_lexicon`` and ``relation_lexicon``):
    a category or relation word is held in other words, as the support test reads it.
    """
    covers = _question_coverage(space, question, settings, caller, forms, classes)
    if not lexicon_features:
        return covers
    weights = _term_weights(space, *_coverage_terms(question, caller, settings))
    extra = lexicon_terms(space, question, lexicon_features("class_lexicon"), lexicon_features("relation_lexicon"),
                          forms, frozenset(base_term(t) for t in weights) if forms else frozenset(weights),
                          synonyms=lexicon_features("everyday_thesaurus"),
                          kinship=lexicon_features("kinship_model"), roles=lexicon_features("member_roles"),
                          settled=lexicon_features("negated_synonyms"),
                          means=lexicon_features("means_answers"),
                          compounds=lexicon_features("whole_compounds"),
                          residence=lexicon_features("place_residence"),
                          scoped=lexicon_features("negation_scope"))
    if extra is None:
        return covers
    kinds = class_kinds(question) if classes else {}
    share = _share_of(_based_weights(space, weights) if forms else weights)

    def covered(record_id: str) -> float:
        held = _with_bases(space.term_set(record_id)) if forms else space.term_set(record_id)
        held = _with_classes(held, kinds) if kinds else held
        return share(held | extra(record_id, held))
    return covered


def _question_coverage(space: SearchSpace, question: str, settings: dict, caller: str,
                       forms: bool, classes: bool) -> Callable[[str], float]:
    weights = _term_weights(space, *_coverage_terms(question, caller, settings))
    kinds = class_kinds(question) if classes else {}
    if kinds:   # ``class_words``
        share_with_classes = _share_of(_based_weights(space, weights) if forms else weights)
        return lambda record_id: share_with_classes(_with_classes(
            _with_bases(space.term_set(record_id)) if forms else space.term_set(record_id), kinds))
    if forms:   # "bought" holds "buy", as the support test reads it (``irregular_forms``)
        share_of_bases = _share_of(_based_weights(space, weights))
        return lambda record_id: share_of_bases(_with_bases(space.term_set(record_id)))
    share = _share_of(weights)
    return lambda record_id: share(space.term_set(record_id))


def _rrf(rankings: list[list[str]], k: int) -> dict[str, float]:
    fused: Counter = Counter()
    for ranking in rankings:
        for rank, record_id in enumerate(ranking, 1):
            fused[record_id] += 1.0 / (k + rank)
    return fused


def _session_bonus(space: SearchSpace, record_ids: list[str], terms: list[str], k: int) -> dict[str, float]:
    """Each record's share of its session's rank among the scope's sessions by BM25 over whole
    sessions (``session_ranking``): 1 / (k + rank). A session that holds the question's terms
    across its turns lifts all of them, the one turn that holds them all or not: the answer
    often sits beside the turn that names the topic (measured against ranking sessions by their
    best turn: benchmarks/reports/retrieval-ablation.md). A record with no session (a fact, a
    preference) is a session of its own: otherwise every conversation turn would outrank every
    fact by the bonus alone in a mixed scope."""
    rank_of = {session: rank for rank, session in enumerate(session_ranking(space, terms, record_ids), 1)}
    bonus = {}
    for record_id in record_ids:
        rank = rank_of.get(_session_of(space, record_id))
        if rank is not None:
            bonus[record_id] = 1.0 / (k + rank)
    return bonus


def _session_of(space: SearchSpace, record_id: str) -> str:
    """The record's session, or its own id when it has none (kept: asked per candidate per query;
    a store's current view answers from its session column, without parsing the record)."""
    cache = space.memo("session_of")
    found = cache.get(record_id)
    if found is None:
        column = getattr(space.records, "column", None)
        session = column("session", record_id) if column is not None \
            else (space.records[record_id].get("source") or {}).get("session")
        found = cache[record_id] = session or record_id
    return found


def _session_counts(space: SearchSpace, term: str) -> Counter:
    """Session -> how many of its turns (of the records the space may return) hold ``term``:
    ``Counter(_session_of(space, rid) for rid in the term's records)``, counted in C over the
    ``session_of`` memo once every record is in it (a common term is held by thousands)."""
    holders_of = getattr(space.index, "holders", None)      # the term's documents, unscored
    holders = holders_of(term) if holders_of is not None else space.index.scores([term])
    if not space._returns_every_indexed_record():
        holders = [rid for rid in holders if rid in space.records]
    cache = space.memo("session_of")
    missing = [rid for rid in holders if rid not in cache]
    column_values = getattr(space.records, "column_values", None)
    if column_values is not None:       # as ``_session_of`` does, by the column, in C
        cache.update(zip(missing, [session or rid for rid, session in
                                   zip(missing, column_values("session", missing))]))
    else:
        for record_id in missing:
            _session_of(space, record_id)
    return Counter(map(cache.__getitem__, holders))


def _term_counts(space: SearchSpace) -> dict[str, Counter]:
    """The ``session_term_counts`` memo (term -> ``_session_counts``); one carried across appended
    records (``carried_memo``) is first extended by them: each appended record holding a term
    counts once more in its session, as its holders would. The extended Counter of a term is made
    when a search first asks for the term (``_ExtendedCounts``), not per write for every term the
    memo held: a write copied the Counters of every common term its records held (thousands of
    sessions each)."""
    carried = space._memo.get("session_term_counts_from")
    if carried is None:
        return space.memo("session_term_counts")
    counts, appended = carried
    plain = dict(counts)                   # the Counters made so far (an ``_ExtendedCounts``'s asked ones)
    pending = {term: waiting for term, waiting in getattr(counts, "pending", {}).items() if term not in plain}
    try:
        for record_id in appended:
            if record_id not in space.records:
                continue
            terms = space.term_set(record_id)
            held = terms.intersection(plain) | terms.intersection(pending)
            if held:
                session = _session_of(space, record_id)
                for term in held:
                    made = plain.pop(term, None)
                    if made is not None:
                        pending[term] = (made, (session,))
                    else:
                        older, sessions = pending[term]
                        pending[term] = (older, sessions + (session,))
        out: dict = _ExtendedCounts(plain, pending)
    except KeyError:           # a record the index does not hold: worked out again when asked
        out = {}
    space._memo["session_term_counts"] = out
    space._memo.pop("session_term_counts_from", None)
    return out


class _ExtendedCounts(dict):
    """``_term_counts`` after appended records: term -> its Counter as a fresh memo holds it. A
    term an appended record holds waits in ``pending`` as (its Counter before, the sessions of
    the appended records holding it, in order) until ``get`` first asks for it, which makes its
    Counter then (the older one copied, each session counted once more) and keeps it. The waiting
    values are never changed, so two readers making one Counter at once make equal ones."""

    __slots__ = ("pending",)

    def __init__(self, made: dict, pending: dict) -> None:
        super().__init__(made)
        self.pending = pending

    def get(self, term, default=None):
        found = dict.get(self, term)
        if found is None:
            waiting = self.pending.get(term)
            if waiting is None:
                return default
            found = Counter(waiting[0])
            for session in waiting[1]:
                found[session] += 1
            self[term] = found
        return found


def session_ranking(space: SearchSpace, terms: list[str], order: list[str], k1: float = 1.2,
                    b: float = 0.75) -> list[str]:
    """The sessions of the records in ``order`` (the fused ranking so far) that hold a question
    term, best first, by BM25 over whole sessions: a term's frequency in a session is the number
    of its turns that hold it (so one long turn that repeats a word does not carry its session),
    a session's length its number of turns, a term's document frequency the number of the
    scope's sessions holding it. A record with no session is a session of one turn. Sessions that
    tie (two facts holding the same question terms) keep the order of their first record in
    ``order``. Which sessions hold a term is read once per view and term (the view's memo); in
    a scope without sessions that is the index's document frequency, and nothing is read."""
    sizes = space.memo("session_sizes")    # session -> its turns, asked per session; "": how many
    if "" not in sizes:
        turns = getattr(space.sessions, "turns", None)      # a store's current view: counted in C
        in_sessions = turns() if turns is not None else sum(map(len, space.sessions.values()))
        sizes[""] = len(space.sessions) + max(len(space.records) - in_sessions, 0)   # sessions, lone records too

    def size_of(session: str) -> int:
        found = sizes.get(session)
        if found is None:
            found = sizes[session] = len(space.sessions[session]) if session in space.sessions else 1
        return found
    n = max(sizes[""], 1)
    average = max(len(space.records) / n, 1.0)
    first_at: dict[str, int] = {}
    for at, record_id in enumerate(order):
        first_at.setdefault(_session_of(space, record_id), at)
    scored = dict.fromkeys(first_at, 0.0)
    counts_of = _term_counts(space)   # term -> {session: its turns holding the term}
    for term in dict.fromkeys(terms):
        if space.sessions:
            counts = counts_of.get(term)
            if counts is None:
                counts = counts_of[term] = _session_counts(space, term)
            df, count_of = len(counts), counts.get
        else:   # every record is a session of its own
            df = space.index.df(term)
            count_of = lambda session, term=term: (  # noqa: E731
                1 if session in space.records and term in space.term_set(session) else 0)
        if not df:
            continue
        idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
        for session in first_at:
            count = count_of(session)
            if count:
                norm = k1 * (1 - b + b * size_of(session) / average)
                scored[session] += idf * count * (k1 + 1) / (count + norm)
    return sorted((s for s in scored if scored[s] > 0), key=lambda session: (-scored[session], first_at[session]))


def dense_ranking(space: SearchSpace, question: str, limit: int, steps: list[dict]) -> list[str]:
    """The records nearest the question by embedding (cosine), best first: what words alone
    miss ("desserts" / "coconut milk ice cream"). Without the dense index, none, and a step
    that says why."""
    if space.dense is None:
        steps.append({"action": "search", "kind": "dense", "hits": 0,
                      "skipped": space.dense_note or "no dense index"})
        return []
    ranking = [rid for rid, _ in space.dense.rank(question, space.records, limit)]
    steps.append({"action": "search", "kind": "dense", "hits": len(ranking)})
    return ranking


# a question that addresses the assistant or the conversation itself ("what did you
# recommend?", "in our last chat"): about what both said, not the caller's own turns
_SHARED_WORDS = _Lazy(r"(?i)\b(?:we|we're|we've|us|our|ours)\b")


def own_turns_ranking(space: SearchSpace, question: str, terms: list[str], caller: str, limit: int) -> list[str]:
    """For a question about the caller ("What did I buy?", "How many bikes do I own?"), the
    question searched over the caller's own turns: what the user said of themselves answers
    it, not the assistant's long replies that reuse its words. The caller's turns are those
    of the speaker named by the scope's key or the owner word ("user", as conversation
    imports name the human side). None for a question that also addresses the other side
    ("you", "our conversation"), in third person, or in a scope without such a speaker."""
    if not _FIRST_PERSON_WORDS.search(question) or _SECOND_PERSON_WORDS.search(question) \
            or _SHARED_WORDS.search(question):
        return []
    owners = {name for name in space.records_by_speaker() if name and (name.lower() in _OWNER_WORDS or name.lower() == caller.lower())}
    return speaker_ranking(space, terms, owners, limit) if owners else []


def question_date_terms(question: str, as_of: str) -> list[str]:
    """The days a question names relative to when it is asked, as date terms ("What did I buy
    10 days ago?" asked on 25 March 2023 -> 15 march 2023 wednesday): with ``date_field`` and
    ``relative_dates``, episodes are indexed under the same words."""
    return tokenize(relative_date_words(question, as_of))


def plan(space: SearchSpace, question: str, settings: dict, features, *, caller: str = "",
         as_of: str | None = None) -> PlanResult:
    """Run the searches and return candidates ranked by fused score.

    ``caller`` is the scope's own key: a question that names its own user ("What does Ravi
    take in the morning?") is about the scope, so that name does not count in coverage.
    ``as_of`` is when the question is asked: ``question_dates`` resolves "last Saturday" from it.
    """
    per_search, k = settings["candidates_per_search"], settings["rrf_k"]
    budget = settings["max_steps"]
    if features("question_idioms"):
        question = without_idioms(question)   # "for a living" searches for work, not "live"
    if features("colloquial_relations"):
        question = lexicon.colloquial_relations(question)[0]   # "our lad" searches for the child
    terms = tokenize(question)
    steps: list[dict] = []
    space.neighbour_weight = settings.get("neighbour_weight", 0.0)  # 0: off
    if not terms:
        return PlanResult([], terms, [{"action": "finish", "why": "the question has no searchable terms"}])

    def search(action: str, tokens: list[str]) -> list[str]:
        hits = space.search(tokens, per_search)
        steps.append({"action": "search", "kind": action, "terms": tokens, "hits": len(hits)})
        return [rid for rid, _ in hits]

    first_hits = space.search(terms, per_search)
    steps.append({"action": "search", "kind": "question", "terms": terms, "hits": len(first_hits)})
    first = [rid for rid, _ in first_hits]
    rankings = [first]
    if features("speaker_search") and len(steps) < budget:
        speakers = named_speakers(space, question)
        if speakers:
            ranking = speaker_ranking(space, terms, speakers, per_search)
            steps.append({"action": "search", "kind": "speaker", "speakers": sorted(speakers), "hits": len(ranking)})
            rankings += [ranking] * int(settings.get("speaker_weight", 1))
    if features("question_dates") and as_of and len(steps) < budget:
        dates = question_date_terms(question, as_of)
        if dates:
            rankings.append(search("dates", terms + dates))
    if features("feedback_expansion") and first and len(steps) < budget:
        extra = feedback_terms(space, first[:3], set(terms), 5)
        if extra:
            rankings.append(search("feedback", terms + extra))
    fused = _rrf(rankings, k)
    own_weight = settings.get("own_turns_weight", 0.0)   # 0: off
    if own_weight > 0 and len(steps) < budget:
        own = own_turns_ranking(space, question, terms, caller, per_search)
        if own:
            steps.append({"action": "search", "kind": "own_turns", "hits": len(own)})
            for rank, record_id in enumerate(own, 1):
                fused[record_id] += own_weight / (k + rank)
    if features("dense_search") and len(steps) < budget:
        weight = settings.get("dense_weight", 1.0)
        for rank, record_id in enumerate(dense_ranking(space, question, per_search, steps), 1):
            fused[record_id] += weight / (k + rank)
    session_weight = settings.get("session_weight", 0.0)   # 0: off
    if session_weight > 0:
        so_far = sorted(fused, key=fused.__getitem__, reverse=True)   # stable: ties in search order
        for record_id, bonus in _session_bonus(space, so_far, terms, k).items():
            fused[record_id] += session_weight * bonus
    scores = dict(first_hits)
    covers = question_coverage(space, question, settings, caller, classes=features("class_words"),
                               lexicon_features=features)
    links = asked_relation_names(space, question, caller) if features("linked_names") and \
        features("relation_names") else {}
    if links:   # ``linked_names``: "Our Niamh teaches ..." holds the "sister" of "my sister" (My sister Niamh)
        covers = linked_coverage(space, covers, question, settings, caller, links)
    if features("idiom_coverage") and features("relation_idioms"):   # "My OH Connor ..." holds "my boyfriend"
        covers = idiom_coverage(space, covers, question, settings, caller)
    if features("colloquial_relations") and scope_says_colloquial(space):   # "Our eldest, Sigrid, ..." holds
        covers = colloquial_coverage(space, covers, question, settings, caller)   # the "child" of "our eldest child"
    if features("occupation_search") and features("occupation_reading"):   # "I teach piano" holds "work"
        covers = occupation_coverage(space, covers, question, settings, caller)
    family = asked_kin_group(question) if features("kin_group") else frozenset()
    if family:   # "Our Niamh teaches ..." (My sister Niamh) holds the "family" of "Who in my family ..."
        kin = frozenset().union(*kin_links(space, family, caller).values())
        covers = held_coverage(space, covers, question, settings, caller,
                               lambda record_id, held: family if not (held.isdisjoint(kin) and
                                                                      not colloquial_held(space, record_id)) else frozenset())
    nouns = agent_nouns_of(question) if features("agent_nouns") else {}
    if nouns:   # "Our Niamh teaches ..." holds the "teacher" of "Who in my family is a teacher?"
        covers = held_coverage(space, covers, question, settings, caller,
                               lambda record_id, held: frozenset(t for t, verbs in nouns.items()
                                                                 if not held.isdisjoint(verbs)))
    candidates = [Candidate(rid, scores.get(rid, 0.0), value, covers(rid)) for rid, value in fused.items()]
    candidates.sort(key=lambda c: (-c.fused, -c.score))
    kinds = class_kinds(question) if features("class_words") else {}
    # ``class_words``: the records naming a kind of the class asked about ("my cat" for "pets"), and with
    # ``class_lexicon`` a member of a category the lexicon knows (``relation_lexicon``: a relation's other
    # words), after every match of the searches: what was found, and its order, is unchanged
    members = set(frozenset().union(*kinds.values())) if kinds else set()
    if features("class_lexicon"):
        members |= set(lexicon.member_terms(lexicon.asked_heads(question) if features("member_roles")
                                            else lexicon.asked_categories(question)))
    if features("relation_lexicon"):   # and the other words of a relation asked ("my doctor": GP, physician)
        groups = lexicon.relation_groups()
        members |= {word for t in terms for word in groups.get(t, ())}
        asked_relations = tuple(t for t in terms if t in _RELATIONS)
        if features("colloquial_relations") and asked_relations:   # and its colloquial words ("my son": "our lad")
            members |= lexicon.colloquial_words(asked_relations)
        family = asked_kin_group(question) if features("kin_group") else frozenset()
        if family:   # "my family": every relation of it, and the names the scope gives them
            members |= set().union(*kin_links(space, family, caller).values())
    if features("everyday_thesaurus"):   # and the other words of an everyday thing asked ("earn": salary, wage)
        members |= set(lexicon.synonym_terms(lexicon.asked_synonyms(terms)))
    if members:
        members = sorted(members)
        hits = space.search(members, per_search)
        steps.append({"action": "search", "kind": "class_kinds", "terms": members, "hits": len(hits)})
        candidates += [Candidate(rid, 0.0, 0.0, covers(rid)) for rid, _ in hits if rid not in fused]
    if links:
        candidates += linked_candidates(space, terms, links, per_search, covers, candidates, steps)
    if features("age_search") and features("age_subjects"):
        candidates += age_candidates(space, question, caller, settings, covers, candidates, steps)
    if features("occupation_search") and features("occupation_reading"):   # "I teach piano" for "my work"
        candidates += occupation_candidates(space, question, caller, settings, covers, candidates, steps)
    steps.append({"action": "take_note", "kept": len(candidates)})
    steps.append({"action": "finish", "searches": sum(1 for s in steps if s["action"] == "search")})
    return PlanResult(candidates, terms, steps)


# ``other_values`` (issue 13, session 11, asked11): a yes/no question asks an attribute of a subject by
# one value of it ("Is Tomasz a plumber?": a job; "Does my son live in Lyon?": where he lives; "Is my
# dad 70?": an age); a record stating the same attribute of the same subject with ANOTHER value
# answers it (the answer being no), as one with the same value does (yes): the value asked is held by
# a record stating a value of the attribute. Only attributes one subject holds one value of at a time:
# where one lives, an age, a member of a 'single' category of the lexicon (a job, a colour, a car's
# make; ``lexicon.single_values``), never a sport or a language one may have several of. Whose
# attribute it is stays the subject tests' business.
_ASKS_RESIDENCE_YES_NO = _Lazy(r"(?i)^\W*(?:do|does|is|are|am)\s+\S.*?\b(?:live|living|based|reside|"
                               r"resides|residing)\s+(?:in|at|near)\s+(?P<place>[^?.!]+?)(?:\s+(?:now|still|anymore|"
                               r"these\s+days|nowadays|currently))?\s*[?.!]*\s*$")
_STATES_RESIDENCE = _Lazy(r"\b(?i:live[sd]?|living|moved|moves|moving|relocated|relocating|emigrated|based|settled|"
                          r"resides?|residing)\b(?:\s+(?i:back|out|over|away|now))?\s+(?i:in|to|at|near)\s+(?:the\s+)?"
                          r"[A-Z]")
_AGE_VALUE = _Lazy(r"(?i)^(?:(?:over|under|about|nearly|almost|only)\s+)?" + _AGE_NUMBER
                   + r"(?:\s+(?:years?|yrs?)(?:\s+old)?)?$")
_WORKS_AS_YES_NO = _Lazy(r"(?i)^\W*(?:do|does|is|are|am)\s+\S.*?\bwork(?:s|ing)?\s+as\s+(?:a|an)\s+"
                         r"(?P<said>[^?.!]+?)\s*[?.!]*\s*$")
# one value excludes another at one time: a question of the past ("Was Ana a nurse?", "Did I use to
# live in Leeds?") is not answered by another value then, which may have held at another moment
_PRESENT_COPULA = _Lazy(r"(?i)^\W*(?:is|are|am)\b")
_VALUE_END = _Lazy(r"(?i)\s+(?:now|still|anymore|any\s+more|these\s+days|nowadays|currently|today)\s*$")
_RESIDENCE_TEXT = "live"


@lru_cache(maxsize=512)
def asked_other_values(question: str) -> tuple[frozenset[str], tuple] | None:
    """``other_values``: of a yes/no question asking an attribute by a value, the terms of the value
    asked (with "live" for where one lives: "moved to Montreal" holds neither) and what a statement of
    another value is read by: ("residence",), ("age",) or ("member", category); None otherwise."""
    text = question.replace("\u2019", "'")
    found = _ASKS_RESIDENCE_YES_NO.match(text)
    if found:
        place = found.group("place")
        if not place[:1].isupper():
            return None   # "Does my son live in a flat?" asks what he lives in, not where
        return frozenset(tokenize(place)) | frozenset(tokenize(_RESIDENCE_TEXT)), ("residence",)
    copula = _YES_NO_COPULA.match(text) if _PRESENT_COPULA.match(text) else None
    found = copula or _WORKS_AS_YES_NO.match(text)
    if not found:
        return None
    said = _VALUE_END.sub("", found.group("said").strip())
    if copula and _AGE_VALUE.match(said):
        return frozenset(tokenize(said)), ("age",)
    values = lexicon.single_values(frozenset(tokenize(said)))
    if len({category.name for category, _ in values}) != 1:
        return None   # none, or values of two attributes ("a red Toyota") read by no one rule here
    return frozenset().union(*(member for _, member in values)), ("member", values[0][0])


def states_other_value(read: tuple, statement: str) -> bool:
    """``other_values``: whether a statement states a value of the attribute ``read`` names, in a
    clause negating nothing (who it is about is the subject tests')."""
    text = statement.replace("\u2019", "'")
    if read[0] == "residence":
        return any(_STATES_RESIDENCE.search(clause) for clause in lexicon.positive_clauses(text))
    if read[0] == "age":
        return bool(_STATES_AGE.search(text))
    category = read[1]
    return lexicon.holds_member(category, lexicon.positive_terms(text)) or (
        category.name == "job" and states_occupation(text))


def other_value_reader(space: SearchSpace, question: str, features) -> Callable[[str], frozenset[str]] | None:
    """``other_values``: record_id -> the terms of the value a yes/no question asks, which a record
    stating another value of the same attribute holds (empty when it states none); None when the
    question asks no such value. Read per record on first use."""
    if not features("other_values"):
        return None
    asked = asked_other_values(question)
    if asked is None:
        return None
    terms, read = asked
    cache = space.memo("other_values")

    def held(record_id: str) -> frozenset[str]:
        found = cache.get((record_id, question))
        if found is None:
            found = cache[(record_id, question)] = terms if states_other_value(
                read, space.records[record_id]["statement"]) else frozenset()
        return found
    return held


def other_values_known(question: str, others: Callable[[str], frozenset[str]] | None) -> frozenset[str]:
    """``other_values``: the value a yes/no question asks is no unseen modifier (a record stating
    another value answers: "Is Marta a dentist?" in a scope that never saw a dentist)."""
    if others is None:
        return frozenset()
    asked = asked_other_values(question)
    return asked[0] if asked else frozenset()


# ``whole_attributes`` (issue 13, session 11, asked11): "my blood type", "my shoe size" ask an attribute
# named by two words, the head a generic word of kinds and measures (type, group, kind, sort, size) that
# records use in other senses ("type 2 diabetes", "the wrong size for the lounge"), the modifier naming
# what it is of; a record holding one of the two without the other ("Gave blood on Friday", "new running
# shoes") does not state the attribute: it answers only holding both ("My blood group is A+", "I'm a
# size 9 in shoes")
_GENERIC_HEADS_TEXT = "type group kind sort size"
_GENERIC_HEADS = frozenset(("type", "group", "kind", "sort", "size"))


def _generic_compound(compound: tuple[str, frozenset[str]]) -> tuple[str, frozenset[str]] | None:
    """``whole_attributes``: the asked compound (``_asked_compound``) when its head is a generic
    word of kinds and measures, else None (a colour, a name, a price have rules of their own)."""
    return compound if compound[1] & _GENERIC_HEADS else None


def _holds_compound(space: SearchSpace, record_id: str, compound: tuple[str, frozenset[str]], forms: bool) -> bool:
    """Whether a record holds the modifier and a word of the head of an asked compound."""
    modifier, heads = compound
    held = space.term_set(record_id)
    held = _with_bases(held) if forms else held
    if held.isdisjoint(heads):
        return False
    # the owner's own measure says the head of the owner without the thing: "I'm a size 46, wide fit"
    return modifier in held or bool(_OWNER_HEAD.search(space.records[record_id]["statement"].replace("\u2019", "'")))


_OWNER_HEAD = _Lazy(r"(?i)\bI(?:'m|\s+am|\s+wear|\s+take)\s+(?:an?\s+)?(?:size|type|group|kind|sort)\b")


# ``place_residence`` (issue 13, session 11, asked11): "Which suburb do we live in now?", "What village
# does my aunt live in?" ask where one lives by a kind of place (suburb, neighbourhood, district, town,
# village: the lexicon's place categories); the verb of living is held by a record naming a place in a
# clause negating nothing ("We moved to Kingston Beach"), as for "Where do we live?" (``kinship_model``)
_RESIDES_VERB = _Lazy(r"(?i)\b(live|lives|living|lived|based|reside|resides|residing)\b")


def asked_residence_verb(question: str, base: Callable[[str], str]) -> frozenset[str]:
    """``place_residence``: the terms of the verb of living a question holds (none without one)."""
    found = _RESIDES_VERB.search(question.replace("\u2019", "'"))
    return frozenset(base(t) for t in tokenize(found.group(1))) if found else frozenset()


# ``whole_attributes``, any head: "What's my chess rating?", "What is my car insurance?" ask the head of a
# modifier the question owns; a record holding none of the head's words that uses the modifier before
# another lower-case word ("The chess club meets ...") is about that other thing (``compound_heads``'
# reading, for a head that is no attribute word, in a question that asks what the thing is)
_ASKED_HEAD_COMPOUND = _Lazy(r"(?i)^\W*(?:what|which)(?:'s|\s+is|\s+are|\s+was|\s+were)\s+(?:my|our|your|his|her|"
                             r"their)\s+([^\W\d_][\w-]*)\s+([^\W\d_][\w-]*)\s*[?.!]*\s*$")


def _asked_head_compound(question: str, forms: bool) -> tuple[str, frozenset[str]] | None:
    """The modifier's term and the head's of "What is my <modifier> <head>?", None otherwise."""
    found = _ASKED_HEAD_COMPOUND.match(question.replace("\u2019", "'"))
    if not found:
        return None
    modifier, head = tokenize(found.group(1)), tokenize(found.group(2))
    if len(modifier) != 1 or len(head) != 1 or head[0] in _NOT_PREDICATES or modifier[0] in _RELATIONS \
            or _STATES_FAVOURITE.match(found.group(1) + " " + found.group(2)) \
            or found.group(1).lower().endswith(_ADJECTIVE_ENDINGS):
        return None   # "my favourite dish" is ``favourite_objects``': an adjective qualifies the same thing
    base = base_term if forms else (lambda t: t)
    # the head in other words of its thesaurus group ("rating": grade) is the head
    heads = frozenset(head) | frozenset(lexicon.synonym_terms(lexicon.asked_synonyms(frozenset(head))))
    return base(modifier[0]), frozenset(base(t) for t in heads)


# ``occupation_subjects`` (issue 13, session 11, asked11): "What does Ben do for work?" asks the work of
# the one it names as the doer, a person whether or not a fact of the scope gives the name a relation:
# a record that does not hold the name ("I work as a civil engineer") states someone else's work
_OCCUPATION_DOER = _Lazy(r"^\W*(?i:what)\s+(?i:does|did|do)\s+([A-Z][\w'-]*)\s+(?i:do)\b")


def occupation_doer(question: str, caller: str) -> frozenset[str]:
    """``occupation_subjects``: the terms of the name a question asking someone's work opens with as
    the doer ("What does Ben do for a living?": ben), none for the caller or no name."""
    found = _OCCUPATION_DOER.match(question.replace("\u2019", "'"))
    if not found:
        return frozenset()
    own = frozenset(tokenize(_folded(caller))) | _OWNER_WORDS
    terms = frozenset(tokenize(_folded(found.group(1)))) - own - _TIME_WORDS
    return terms if terms and not terms & _RELATIONS else frozenset()


# ``indefinite_members`` (issue 13, session 11, asked11): "Do I have a chronic condition?", "Does Jo play a
# sport?" ask whether a member of a lexicon category is held, as "Do I have any chronic conditions?" does:
# the indefinite article before the category word (or before the one word qualifying it) is read as "any"
_INDEFINITE_MEMBER = _Lazy(r"(?i)^\W*(?:do|does|did)\s+(?:i|you|we|he|she|they|(?:my|our|your|his|her|their)\s+"
                           r"[^\W\d_][\w-]*|[^\W\d_][\w'-]*)\s+(?:have|own|play|speak|take|keep|suffer\s+from|get)\s+"
                           r"(an?)\s+([^\W\d_][\w'-]*)(?:\s+([^\W\d_][\w'-]*))?")


def indefinite_read(question: str) -> str | None:
    """``indefinite_members``: a yes/no question's "a"/"an" before a category word of the lexicon (or
    one word before it) read as "any"; None when the question has none."""
    text = question.replace("\u2019", "'")
    found = _INDEFINITE_MEMBER.match(text)
    if not found:
        return None
    known = lexicon.categories()
    for word in (found.group(2), found.group(3)):
        terms = tokenize(word) if word else []
        if len(terms) == 1 and terms[0] in known:
            return text[:found.start(1)] + "any" + text[found.end(1):]
    return None


# ``latest_values`` (issue 13, session 11, asked11): "What's my latest LDL?", "my most recent HbA1c" ask
# the value of a measure stated last: the word says WHICH value (when), names nothing a record must hold,
# and the answer cites the most recent statement first
_LATEST = _Lazy(r"(?i)\b((?:my|our|your|his|her|their|the)\s+)(?:latest|newest|most\s+recent|most\s+up[\s-]to[\s-]date)"
                r"\s+(?=[^\W\d_])")


def latest_read(question: str) -> str | None:
    """``latest_values``: ``question`` without its word asking the latest value ("What's my latest LDL?"
    -> "What's my LDL?"); None when it holds none."""
    text = question.replace("\u2019", "'")
    read = _LATEST.sub(lambda found: found.group(1), text)
    return read if read != text else None


# ``compound_senses`` (issue 13, session 11, asked11): a word of the question that a record says only inside
# a longer phrase the packaged thesaurus writes out ("river bank", "spare time", "blood work", "flat
# white") is that phrase's, another sense: it holds no share of the question ("Which bank do I use?" /
# "We walked along the river bank in Deventer"), unless the question says the phrase too
def _sense_share(share_in: Callable[[frozenset[str], str], float], space: SearchSpace,
                 question: str) -> Callable[[frozenset[str], str], float]:
    """``share_in`` with the question's terms a record holds only inside a written phrase left out."""
    asked_tokens = tokenize(question)
    terms = frozenset(t for t in asked_tokens if lexicon.compound_terms(t)
                      and not lexicon.only_in_compounds(t, asked_tokens))
    if not terms:
        return share_in
    cache = space.memo("compound_senses")

    def shared(held: frozenset[str], record_id: str) -> float:
        found = cache.get((record_id, terms))
        if found is None:
            inside = [t for t in terms if t in held]   # (most measured records hold none: no tokenizing)
            tokens = tokenize(space.records[record_id]["statement"]) if inside else ()
            found = cache[(record_id, terms)] = frozenset(t for t in inside if lexicon.only_in_compounds(t, tokens))
        return share_in(held - found if found else held, record_id)
    return shared

