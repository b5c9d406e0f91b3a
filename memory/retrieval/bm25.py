"""An incremental BM25 Okapi inverted index that scores exactly as rank-bm25.

Contract: for every document holding at least one query token, ``scores``
equals ``rank_bm25.BM25Okapi(corpus, k1=k1, b=b, epsilon=epsilon)
.get_scores(query)`` over the documents currently indexed: idf is
log(N - n + 0.5) - log(n + 0.5), a negative idf is replaced by epsilon times
the mean idf over the whole vocabulary, and a repeated query token counts each
time. Documents holding no query token are left out instead of scored 0. In
tiny corpora the mean idf can be <= 0, so a matching document may score 0 or
less; it is still returned, as rank-bm25 would score it.

Re-adding a document id replaces it and moves it to the end of the insertion
order, which breaks score ties in ``top``. Pure: tokens in, scores out.

Layout, for fast loading: the state is flat parallel int sequences with
offsets (CSR). ``from_state`` adopts them as they are, without building one
Python list per term, and a term's posting is copied into lists only when an
``add`` or ``remove`` first changes it (copy-on-write). A fork appends to the
posting lists it takes from its parent instead of copying them (``fork``).
"""
from __future__ import annotations

import heapq
import math
import threading
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import compress, islice
from operator import itemgetter, neg, sub

STATE_FORMAT = 1
INT_FIELDS = ("doc_offsets", "doc_terms", "posting_offsets", "postings", "tfs")
# Removed documents leave holes in the slot lists; squeeze them out once they
# outnumber the live documents, so a long-lived index does not grow forever.
_MIN_HOLES_TO_COMPACT = 64
# queries whose sums are kept for a later query that extends them (``_recent_prefix``)
_RECENT_QUERIES = 3
# held while a fork takes its parent's tables (``BM25Index.fork``)
_FORK_LOCK = threading.Lock()
# ``_spread``: slots added after the lengths' snapshot looked up one by one, up to this many (or an
# eighth of the snapshot) before a new snapshot is taken
_NORM_TAIL = 4096


class BM25Index:
    """Documents are slots (insertion order); terms are ids into a vocabulary.

    Slots below ``_base_docs`` and term ids below ``_base_terms`` start out in
    the adopted flat arrays; later ones, and any posting changed since, live
    in ``_new_doc_terms`` and ``_post``.

    The per-document and per-term tables (``_ids``, ``_lens``, ``_slot_of``,
    ``_new_doc_terms``, ``_terms``, ``_term_id``) are shared by an index and its
    forks (``fork``): each index reads only its own first ``_n_slots`` slots and
    ``_n_terms`` terms, and only the newest of them (``_tip``) appends to the
    tables in place; any other change copies them first (``_own_tables``).

    Changed postings (``_post``) are shared the same way: a fork takes from its parent the right
    to append to the posting lists the parent could change (``_owned``, ``_appendable``), and
    appends the slots it adds (all above the parent's) in place; any other change copies the
    list first. An index reads a posting list only up to its own slots (``_posting``: a
    ``bisect`` taken at once, in C), so a list a newer fork appends to, even while it is being
    read, reads as it was.
    """

    def __init__(self, *, k1: float = 1.2, b: float = 0.75, epsilon: float = 0.25) -> None:
        self.k1, self.b, self.epsilon = k1, b, epsilon
        self._version = 0
        self._adopt(_empty_state())

    # -- reading -----------------------------------------------------------

    def __len__(self) -> int:
        return self._n_docs

    def __contains__(self, doc_id: object) -> bool:
        slot = self._slot_of.get(doc_id)
        return slot is not None and slot < self._n_slots    # a newer fork's document is not this one's

    @property
    def version(self) -> int:
        """Bumped by every add and remove; derived caches key on it."""
        return self._version

    def doc_ids(self) -> list[str]:
        """Live document ids in insertion order."""
        return [doc_id for doc_id in self._ids[:self._n_slots] if doc_id is not None]

    def terms(self, doc_id: str) -> list[str]:
        """The tokens ``doc_id`` was added with, in order (KeyError if absent)."""
        terms = self._terms
        if doc_id not in self:
            raise KeyError(doc_id)
        return [terms[t] for t in self._doc_term_ids(self._slot_of[doc_id])]

    def df(self, term: str) -> int:
        """How many documents hold ``term``."""
        term_id = self._term_id.get(term)
        return self._df(term_id) if term_id is not None else 0

    def idf(self, term: str) -> float:
        """The idf a query term scores with; an unseen term gets the idf of df 0 (rarest)."""
        term_id = self._term_id.get(term)
        df = self._df(term_id) if term_id is not None else 0
        if df == 0:
            return math.log(self._n_docs + 0.5) - math.log(0.5)
        return self._idf(term, df)

    def scores(self, query_tokens: Iterable[str]) -> dict[str, float]:
        """BM25 score of every document holding at least one query token."""
        ids = self._ids
        return {ids[slot]: score for slot, score in self._slot_scores(query_tokens).items()}

    def scored_slots(self, query_tokens: Iterable[str]) -> tuple[dict[int, float], list, dict]:
        """(``scores`` keyed by slot, in the same order, slot -> id, id -> slot): a caller that
        reads a few of many scores names only those by id. Read only: the dict and the tables
        are this index's own (a fork has its own tables)."""
        return self._slot_scores(query_tokens), self._ids, self._slot_of

    def query_scores(self, query_tokens: Iterable[str]) -> "QueryScores":
        """``scored_slots``'s scores worked out only where they are read (``QueryScores``): a
        caller that needs the best few of many matches scores those that can be among them."""
        return QueryScores(self, tuple(query_tokens))

    def holders(self, term: str) -> list[str]:
        """The ids of the documents holding ``term``, in slot order: ``list(self.scores([term]))``
        up to order, without scoring them (a planner counts a term's documents per session)."""
        term_id = self._term_id.get(term)
        if term_id is None:
            return []
        slots, _, df = self._posting_df(term_id)
        return list(map(self._ids.__getitem__, islice(slots, df)))

    def top(self, query_tokens: Iterable[str], limit: int) -> list[tuple[str, float]]:
        """The ``limit`` best documents, score descending, ties in insertion order."""
        if limit <= 0:
            return []
        by_slot = self._slot_scores(query_tokens)
        # (-score, slot) tuples order natively: no per-item key call
        ranked = heapq.nsmallest(limit, zip(map(neg, by_slot.values()), by_slot.keys()))
        return [(self._ids[slot], -negated) for negated, slot in ranked]

    # -- writing -----------------------------------------------------------

    def add(self, doc_id: str, tokens: Iterable[str]) -> None:
        """Index ``doc_id``; an id already present is replaced."""
        if doc_id in self:
            self.remove(doc_id)
        if not self._tip:
            self._own_tables()
        term_ids = [self._intern(token) for token in tokens]
        slot = self._n_slots
        self._ids.append(doc_id)
        self._lens.append(len(term_ids))
        self._new_doc_terms[slot] = term_ids
        self._slot_of[doc_id] = slot
        self._n_slots, self._n_docs = slot + 1, self._n_docs + 1
        self._distinct_lens.add(len(term_ids))
        self._total_len += len(term_ids)
        for term_id, tf in Counter(term_ids).items():
            slots, tfs = self._appendable_posting(term_id)
            self._shift_df(len(slots), +1)
            slots.append(slot)  # the newest slot is the largest: stays ascending
            tfs.append(tf)
        self._touch()

    def remove(self, doc_id: str) -> None:
        """Drop ``doc_id`` (KeyError if absent)."""
        if doc_id not in self:
            raise KeyError(doc_id)
        if self._shared:
            self._own_tables()       # its entries change in place: no other index may see them
        slot = self._slot_of.pop(doc_id)
        self._n_docs -= 1
        # a slot's length and postings change in place: what was read from them across appends goes
        self._norm_gather, self._tf_shortest = None, {}
        for term_id in set(self._doc_term_ids(slot)):
            slots, tfs = self._mutable_posting(term_id)
            self._shift_df(len(slots), -1)
            at = bisect_left(slots, slot)
            del slots[at], tfs[at]
        self._new_doc_terms.pop(slot, None)
        self._total_len -= self._lens[slot]
        self._ids[slot] = None
        self._lens[slot] = 0
        self._distinct_lens.add(0)
        self._touch()
        holes = self._n_slots - self._n_docs
        if holes >= _MIN_HOLES_TO_COMPACT and holes > self._n_docs:
            self._adopt(self.to_state())

    def fork(self) -> "BM25Index":
        """An independent copy that shares the immutable base arrays: a reader holding this
        index keeps it unchanged while the copy takes new documents. The id and term tables
        are shared too, the copy appending to them (``_tip``: this index reads only its own
        slots and terms of them), so a fork of the newest index costs the changed postings'
        dict, not O(documents); a fork of an older one copies its tables when it first changes."""
        other = BM25Index.__new__(BM25Index)
        with _FORK_LOCK:    # two forks of one index at once: only one may append to its tables
            other.__dict__.update(self.__dict__)
            self._tip, self._shared = False, True
            other._shared = True
            # changed postings are shared: the fork appends to the lists this index could change
            # (O(changed terms), not O(their postings): after many writes they include every
            # common term's), any other change copies; this index changes none of them any more
            other._appendable, other._owned = self._owned | self._appendable, set()
            self._owned, self._appendable = set(), set()
        other._post = dict(self._post)
        other._df_hist = Counter(self._df_hist) if self._df_hist is not None else None
        other._idf_cache, other._idf_floor, other._norm_cache, other._recent = {}, None, None, []
        if "_tf_shortest" in self.__dict__:     # entries are replaced, never changed: a shallow copy
            other._tf_shortest = dict(self._tf_shortest)
        return other

    # -- persistence -------------------------------------------------------

    def to_state(self) -> dict:
        """A dense JSON-friendly snapshot: lists of ints and strings, no holes.

        Documents and terms are renumbered in order; terms left without any
        document are dropped.
        """
        live_slots = [s for s, doc_id in enumerate(self._ids[:self._n_slots]) if doc_id is not None]
        live_terms = [t for t in range(self._n_terms) if self._df(t)]
        new_slot = _dense_map(live_slots, self._n_slots)
        new_term = _dense_map(live_terms, self._n_terms)
        state = _empty_state()
        state["ids"] = [self._ids[s] for s in live_slots]
        state["terms"] = [self._terms[t] for t in live_terms]
        for slot in live_slots:
            _append_run(state, "doc_offsets", "doc_terms", _renumbered(self._doc_term_ids(slot), new_term))
        for term_id in live_terms:
            slots, tfs = self._posting(term_id)
            _append_run(state, "posting_offsets", "postings", _renumbered(slots, new_slot))
            state["tfs"].extend(tfs)
        return state

    @classmethod
    def from_state(cls, state: dict, *, k1: float = 1.2, b: float = 0.75,
                   epsilon: float = 0.25, slot_of: dict | None = None) -> BM25Index:
        """Rebuild from ``to_state`` output (the int fields may be any int
        sequences, e.g. ``array``); ValueError if it is not one.

        The int sequences are kept by reference, not copied (loading is the
        hot path), and never modified: changes go to copy-on-write overlays.
        ``slot_of``: the id -> position dict of ``state["ids"]`` when the caller holds
        one already (the scope's current view over the same ids): shared, not rebuilt, and
        copied before this index first changes it.
        """
        _check_state(state)
        index = cls(k1=k1, b=b, epsilon=epsilon)
        index._adopt(state, slot_of)
        if len(index._slot_of) != len(index._ids) or len(index._term_id) != len(index._terms):
            raise ValueError("BM25 state repeats a document id or a term")
        return index

    # -- internals ---------------------------------------------------------

    def _adopt(self, state: dict, slot_of: dict | None = None) -> None:
        """Take a dense state as the base arrays, with no overlays and fresh caches."""
        self._ids: list[str | None] = list(state["ids"])
        self._slot_of = dict(zip(self._ids, range(len(self._ids)))) if slot_of is None else slot_of
        # a borrowed dict is shared with its lender: copied before this index first changes it
        self._tip, self._shared = slot_of is None, slot_of is not None
        self._borrowed = slot_of is not None    # the lender never adds to it: a copy is exact
        self._terms: list[str] = list(state["terms"])
        self._term_id = dict(zip(self._terms, range(len(self._terms))))
        self._doc_offsets, self._doc_terms = state["doc_offsets"], state["doc_terms"]
        self._posting_offsets = state["posting_offsets"]
        self._postings, self._tfs = state["postings"], state["tfs"]
        self._base_docs, self._base_terms = len(self._ids), len(self._terms)
        # each document's length: saved in the index file (``doc_lengths``) or worked out here
        lengths = state.get("doc_lengths")
        self._lens = lengths if lengths is not None else _run_lengths(self._doc_offsets)
        self._n_slots, self._n_docs, self._n_terms = len(self._ids), len(self._slot_of), len(self._terms)
        # every length a slot has had (for ``_norms``): saved in the index file, or found here
        distinct = state.get("distinct_lengths")
        self._distinct_lens = set(self._lens) if distinct is None else set(distinct)
        self._total_len = len(self._doc_terms)
        self._new_doc_terms: dict[int, list[int]] = {}
        self._post: dict[int, tuple[list[int], list[int]]] = {}
        self._owned: set[int] = set()    # terms of ``_post`` whose lists no fork shares
        # terms of ``_post`` whose lists older indexes share (reading only their own slots of
        # them): this index may append to them, nothing else
        self._appendable: set[int] = set()
        self._df_hist: Counter[int] | None = None  # built when the idf floor is first needed
        self._idf_cache: dict[str, float] = {}
        self._idf_floor: float | None = None
        self._norm_cache: list[float] | None = None
        self._recent: list[tuple[tuple, dict[int, float]]] = []
        # kept across appends (``_spread``, ``_shortest_by_tf``): read from the slots' lengths
        self._norm_gather: tuple | None = None
        self._tf_shortest: dict[str, tuple[int, dict[int, int]]] = {}

    def _own_tables(self) -> None:
        """Copy this index's part of the shared tables (its slots and terms): no other index
        sees them from now on, and this one may change them in place."""
        n, ids = self._n_slots, self._ids[:self._n_slots]
        self._ids, self._lens = ids, self._lens[:n]
        self._slot_of = self._slot_of.copy() if self._borrowed else \
            {doc_id: slot for slot, doc_id in enumerate(ids) if doc_id is not None}
        # list(): the keys taken whole (in C), so a newer fork adding to the dict meanwhile cannot
        # upset it (and no (key, value) tuple per document for the collector to walk)
        new_doc_terms = self._new_doc_terms
        self._new_doc_terms = {slot: new_doc_terms[slot] for slot in list(new_doc_terms) if slot < n}
        self._terms = self._terms[:self._n_terms]
        self._term_id = dict(zip(self._terms, range(self._n_terms)))
        self._distinct_lens = set(self._distinct_lens)
        self._tip, self._shared, self._borrowed = True, False, False

    def _doc_term_ids(self, slot: int) -> Sequence[int]:
        if slot < self._base_docs:
            return self._doc_terms[self._doc_offsets[slot]:self._doc_offsets[slot + 1]]
        return self._new_doc_terms[slot]

    def _posting(self, term_id: int) -> tuple[Sequence[int], Sequence[int]]:
        """(slots ascending, tfs) of a term, without copying an unchanged base posting; a changed
        one as this index holds it (``_bounded_posting``), copied."""
        changed = self._post.get(term_id)
        if changed is not None:
            slots, tfs, df = self._bounded_posting(changed)
            return slots[:df], tfs[:df]
        if term_id >= self._base_terms:
            return (), ()
        start, end = self._posting_offsets[term_id], self._posting_offsets[term_id + 1]
        return self._postings[start:end], self._tfs[start:end]

    def _posting_df(self, term_id: int) -> tuple[Sequence[int], Sequence[int], int]:
        """(slots, tfs, df): the term's first ``df`` slots and tfs are its posting in this index,
        without copying it (the lists may hold a newer fork's slots after them)."""
        changed = self._post.get(term_id)
        if changed is not None:
            return self._bounded_posting(changed)
        if term_id >= self._base_terms:
            return (), (), 0
        start, end = self._posting_offsets[term_id], self._posting_offsets[term_id + 1]
        return self._postings[start:end], self._tfs[start:end], end - start

    def _bounded_posting(self, changed: tuple[list[int], list[int]]) -> tuple[list[int], list[int], int]:
        """A changed posting's lists and how many of their entries are this index's: those below
        its own slots. A newer fork appends its slots (all larger) after them, at any time: the
        count is taken at once (``bisect_left``, in C), and what it appends after is never read."""
        slots, tfs = changed
        return slots, tfs, bisect_left(slots, self._n_slots)

    def _mutable_posting(self, term_id: int) -> tuple[list[int], list[int]]:
        """The term's posting as this index's own lists, to change in place in any way."""
        changed = self._post.get(term_id)
        if changed is None or term_id not in self._owned:
            slots, tfs, df = self._posting_df(term_id)
            changed = self._post[term_id] = (list(islice(slots, df)), list(islice(tfs, df)))
            self._owned.add(term_id)      # this index's own lists now: changed in place
            self._appendable.discard(term_id)
        return changed

    def _appendable_posting(self, term_id: int) -> tuple[list[int], list[int]]:
        """The term's posting as lists this index may append its new slots to: shared with older
        indexes when it took the right to (``fork``), else its own copy (``_mutable_posting``)."""
        changed = self._post.get(term_id)
        if changed is not None and (term_id in self._appendable or term_id in self._owned):
            return changed
        return self._mutable_posting(term_id)

    def _df(self, term_id: int) -> int:
        changed = self._post.get(term_id)
        if changed is not None:
            return bisect_left(changed[0], self._n_slots)
        if term_id >= self._base_terms:
            return 0
        return self._posting_offsets[term_id + 1] - self._posting_offsets[term_id]

    def _slot_scores(self, query_tokens: Iterable[str]) -> dict[int, float]:
        # The arithmetic mirrors rank-bm25 operation by operation, and each
        # document accumulates in query order as there, so the floats agree.
        # The result is shared with the recent-query memo: callers only read it.
        if not self._total_len:
            return {}  # no document holds a token (and avgdl would be 0)
        tokens = tuple(query_tokens)
        done, acc = self._recent_prefix(tokens)
        k1_plus_1, norms = self.k1 + 1, self._norms()
        for token in tokens[done:]:
            term_id = self._term_id.get(token)
            if term_id is None:
                continue
            slots, tfs, df = self._posting_df(term_id)
            if not df:
                continue
            idf = self._idf(token, df)
            get = acc.get
            # the first df entries: a newer fork may append its own after them (``fork``)
            for slot, tf in zip(slots, islice(tfs, df)):
                acc[slot] = get(slot, 0.0) + idf * (tf * k1_plus_1 / (tf + norms[slot]))
        self._recent = [(tokens, acc)] + self._recent[:_RECENT_QUERIES - 1]
        return acc

    def _recent_prefix(self, tokens: tuple) -> tuple[int, dict[int, float]]:
        """(how many leading tokens are already summed, a copy of their sums) from the longest
        recent query that ``tokens`` extends: a planner searches a question, then the question
        plus feedback terms; the sums of the shared tokens are the same floats in the same
        order, so only the new tokens are added. Cleared by every change (``_touch``)."""
        best: tuple = ()
        found: dict[int, float] = {}
        for seen, acc in self._recent:
            if len(best) < len(seen) <= len(tokens) and tokens[:len(seen)] == seen:
                best, found = seen, acc
        return len(best), dict(found)

    def _norms(self) -> list[float]:
        """Per slot, the length part of the BM25 denominator, k1 * ((1 - b) + b * dl / avgdl),
        evaluated exactly as rank-bm25 does; computed once per version of the index."""
        if self._norm_cache is None:
            k1, b, one_minus_b = self.k1, self.b, 1 - self.b
            avgdl = self._total_len / self._n_docs
            # one evaluation per distinct length (a few hundred, kept as documents are added),
            # spread over the slots in C (``_spread``): a write moves avgdl, so a search after it
            # needs every slot's norm again (exact floats: no avgdl kept from before). Lengths of
            # a newer fork sharing the tables are left out (``tuple`` takes them in C)
            lengths = tuple(self._distinct_lens)
            table = [0.0] * (max(lengths, default=0) + 1)
            for length in lengths:
                table[length] = k1 * (one_minus_b + b * length / avgdl)
            self._norm_table = table
            self._norm_cache = self._spread(table)
        return self._norm_cache

    def _spread(self, table: list[float]) -> list[float]:
        """``table[length]`` for each of this index's slots, in slot order. The slots' lengths are
        taken once into an ``itemgetter`` (``_norm_gather``: a snapshot of the first slots'
        lengths, kept across writes, which only append slots) that picks the norms from the table
        in C, ~3x faster than a lookup per slot through ``map``; the slots added since are looked up
        one by one, until they are many enough to take a new snapshot. ``remove`` (a slot's length
        set to 0) and ``_adopt`` drop the snapshot."""
        n, lens = self._n_slots, self._lens
        gather = self.__dict__.get("_norm_gather")
        if gather is None or gather[1] > n or n - gather[1] > max(_NORM_TAIL, gather[1] >> 3):
            gather = self._norm_gather = (itemgetter(*islice(lens, n)) if n > 1 else None, n)
        getter, upto = gather
        norms = list(getter(table)) if getter is not None else list(map(table.__getitem__, islice(lens, upto)))
        if upto < n:
            norms.extend(map(table.__getitem__, islice(lens, upto, n)))
        return norms

    def _bound(self, token: str, slots: Sequence[int], tfs: Sequence[int], df: int) -> float:
        """The largest part a document holding ``token`` adds to a score: the very float the
        scoring loop adds for it, kept with the norms it was worked out from (any change makes new
        ones). The part grows with tf and shrinks with the length (each step of the norm and of the
        part rounds monotonically), so the largest is that of one of the shortest documents holding
        each tf (``_shortest_by_tf``, kept across writes that only append documents): one
        evaluation per distinct tf, not a pass over the posting per write."""
        norms = self._norms()
        memo = self.__dict__.get("_bounds")
        if memo is None or memo[0] is not norms:
            memo = self._bounds = (norms, {})
        best = memo[1].get(token)
        if best is None:
            idf, k1_plus_1, table = self._idf(token, df), self.k1 + 1, self._norm_table
            best = memo[1][token] = max(idf * (tf * k1_plus_1 / (tf + table[length]))
                                        for tf, length in self._shortest_by_tf(token, slots, tfs, df).items())
        return best

    def _shortest_by_tf(self, token: str, slots: Sequence[int], tfs: Sequence[int], df: int) -> dict[int, int]:
        """tf -> the least length of a document holding ``token`` that many times, over the
        first ``df`` entries of its posting. Kept per token with the count of entries it read
        (``_tf_shortest``, a fork's own copy of the dict): a posting only grows at its end while
        documents are appended, so a later index reads only the entries after them; ``remove``
        and ``_adopt`` drop it. Entries are replaced, never changed."""
        memo = self.__dict__.get("_tf_shortest")
        if memo is None:
            memo = self._tf_shortest = {}
        known = memo.get(token)
        lens = self._lens
        if known is None or known[0] > df:
            shortest: dict[int, int] = {}
            # the distinct (tf, length) pairs in C, then one step per pair
            for tf, length in set(zip(islice(tfs, df), map(lens.__getitem__, islice(slots, df)))):
                if shortest.get(tf, length + 1) > length:
                    shortest[tf] = length
        elif known[0] == df:
            return known[1]
        else:
            shortest = dict(known[1])
            for slot, tf in zip(islice(slots, known[0], df), islice(tfs, known[0], df)):
                length = lens[slot]
                if shortest.get(tf, length + 1) > length:
                    shortest[tf] = length
        memo[token] = (df, shortest)
        return shortest

    def _idf(self, term: str, df: int) -> float:
        idf = self._idf_cache.get(term)
        if idf is None:
            n = self._n_docs
            idf = math.log(n - df + 0.5) - math.log(df + 0.5)
            if idf < 0:
                idf = self._floor()
            self._idf_cache[term] = idf
        return idf

    def _floor(self) -> float:
        """epsilon * mean idf over the vocabulary, from the df histogram.

        Terms sharing a df share an idf, so the mean costs one log pair per
        distinct df rather than one per term.
        """
        if self._idf_floor is None:
            n, hist = self._n_docs, self._histogram()
            total = sum(count * (math.log(n - df + 0.5) - math.log(df + 0.5))
                        for df, count in hist.items())
            self._idf_floor = self.epsilon * total / sum(hist.values())
        return self._idf_floor

    def _histogram(self) -> Counter[int]:
        """df -> number of terms with that df (df > 0), kept up to date once built."""
        if self._df_hist is None:
            hist = Counter(_run_lengths(self._posting_offsets))
            for term_id in list(self._post):
                if term_id < self._base_terms:
                    hist[self._base_df(term_id)] -= 1
                hist[self._df(term_id)] += 1
            hist = +hist  # drops the zero counts the subtraction left
            hist.pop(0, None)  # terms whose every document was removed
            self._df_hist = hist
        return self._df_hist

    def _base_df(self, term_id: int) -> int:
        return self._posting_offsets[term_id + 1] - self._posting_offsets[term_id]

    def _shift_df(self, df: int, step: int) -> None:
        """Move one term from df to df + step in the histogram, if it is built."""
        hist = self._df_hist
        if hist is None:
            return
        if df:
            hist[df] -= 1
            if not hist[df]:
                del hist[df]
        if df + step:
            hist[df + step] += 1

    def _touch(self) -> None:
        self._version += 1
        self._idf_cache.clear()
        self._idf_floor = None
        self._norm_cache = None
        self._recent = []

    def _intern(self, term: str) -> int:
        term_id = self._term_id.get(term)
        if term_id is None:
            term_id = self._term_id[term] = self._n_terms
            self._terms.append(term)
            self._n_terms += 1
        return term_id


class QueryScores:
    """One query's BM25 scores keyed by slot (``BM25Index._slot_scores``: the same floats, summed
    in the same order), worked out where asked: ``score`` of one slot (a binary search in each
    query term's posting), ``at_least(floor)`` every slot that can score ``floor`` or more, with
    ``whole`` the full dict. The scoring order of ``_slot_scores``'s dict is ``in_order``'s: by
    the first query token a slot holds, then by slot. Reads the index as it was when made."""

    def __init__(self, index: BM25Index, tokens: tuple) -> None:
        self._index, self._tokens = index, tokens
        self._terms: list[tuple] = []     # per query token held by some document, in query order
        if index._total_len:
            for token in tokens:
                term_id = index._term_id.get(token)
                if term_id is not None:
                    slots, tfs, df = index._posting_df(term_id)
                    if df:
                        self._terms.append((token, slots, tfs, df, index._idf(token, df)))
        self._norms = index._norms() if self._terms else []
        self._known: dict[int, float | None] = {}
        self._at_least: dict[frozenset, dict[int, float]] = {}   # by the terms left out

    def whole(self) -> dict[int, float]:
        """Every match's score: ``BM25Index.scored_slots``'s dict."""
        return self._index._slot_scores(self._tokens)

    def matches(self) -> tuple[int, int]:
        """(the largest posting's length, the postings' total): the count of matches lies
        between them."""
        lengths = [df for _, _, _, df, _ in self._terms]
        return max(lengths, default=0), sum(lengths)

    def count(self) -> int:
        """How many documents hold a query term (in C: a set of the postings' slots)."""
        held: set[int] = set()
        for _, slots, _, df, _ in self._terms:
            held.update(islice(slots, df))
        return len(held)

    def score(self, slot: int) -> float | None:
        """The slot's score, as ``_slot_scores`` sums it; None when it holds no query token."""
        known = self._known
        if slot in known:
            return known[slot]
        total, k1_plus_1, norm = None, self._index.k1 + 1, None
        for _, slots, tfs, df, idf in self._terms:
            at = bisect_left(slots, slot, 0, df)
            if at < df and slots[at] == slot:
                if norm is None:
                    norm = self._norms[slot]
                tf = tfs[at]
                total = (0.0 if total is None else total) + idf * (tf * k1_plus_1 / (tf + norm))
        known[slot] = total
        return total

    def in_order(self, slots: Iterable[int]) -> list[int]:
        """``slots`` (each a match) in the order of ``_slot_scores``'s dict."""
        return sorted(slots, key=self._order)

    def _order(self, slot: int) -> tuple[int, int]:
        for at, (_, slots, _, df, _) in enumerate(self._terms):
            found = bisect_left(slots, slot, 0, df)
            if found < df and slots[found] == slot:
                return at, slot
        raise KeyError(slot)

    def sample(self, size: int) -> list[float]:
        """The scores of ``size`` matches when there are that many, else of every match: those
        of the rarest query terms first (the best scores are likely among them)."""
        picked: set[int] = set()
        for _, slots, _, df, _ in sorted(self._terms, key=itemgetter(3)):
            picked.update(islice(slots, min(df, size - len(picked))))
            if len(picked) >= size:
                break
        return [self.score(slot) for slot in picked]

    def fewer_than(self, count: int) -> bool:
        """Whether fewer than ``count`` documents hold a query term (``count`` only when the
        postings' lengths leave it open)."""
        largest, total = self.matches()
        if largest >= count:
            return False
        return total < count or self.count() < count

    def at_least(self, floor: float, worth: int = 1) -> dict[int, float] | None:
        """The scores, in ``_slot_scores``'s order, of a set of matches holding every match that
        scores ``floor`` or more: those holding a term the others' largest parts (``_bound``),
        summed, cannot lift to ``floor`` (MaxScore). None when the terms left out hold fewer than
        ``worth`` postings or half of them, or a term's idf is not positive (its part is then no
        bound)."""
        index, terms = self._index, self._terms
        if not terms or floor <= 0.0:
            return None
        bounds: dict[str, float] = {}
        for token, slots, tfs, df, idf in terms:
            if idf <= 0.0:
                return None
            # a token asked twice adds its part twice
            bounds[token] = bounds.get(token, 0.0) + index._bound(token, slots, tfs, df)
        # left out: the terms of least parts whose parts together cannot reach the floor
        # (``1 + 1e-9`` covers the rounding of any sum of parts)
        left_out: set[str] = set()
        total = 0.0
        for token, bound in sorted(bounds.items(), key=itemgetter(1)):
            total += bound * (1 + 1e-9)
            if total >= floor:
                break
            left_out.add(token)
        saved = sum(df for token, _, _, df, _ in terms if token in left_out)
        if 2 * saved < sum(df for _, _, _, df, _ in terms) or saved < worth:
            return None
        key = frozenset(left_out)
        if key in self._at_least:        # the same terms left out: the same scores
            return self._at_least[key]
        held: set[int] = set()
        for token, slots, _, df, _ in terms:
            if token not in left_out:
                held.update(islice(slots, df))
        k1_plus_1, norms = index.k1 + 1, self._norms
        acc: dict[int, float] = {}
        get = acc.get
        for token, slots, tfs, df, idf in terms:
            if token not in left_out:
                for slot, tf in zip(slots, islice(tfs, df)):
                    acc[slot] = get(slot, 0.0) + idf * (tf * k1_plus_1 / (tf + norms[slot]))
                continue
            # the held slots that hold this term too, ascending (the order the full loop adds
            # them), picked from the posting in C
            for slot, tf in compress(zip(slots, islice(tfs, df)), map(held.__contains__, islice(slots, df))):
                acc[slot] = get(slot, 0.0) + idf * (tf * k1_plus_1 / (tf + norms[slot]))
        self._at_least[key] = acc
        return acc


def _empty_state() -> dict:
    return {"format": STATE_FORMAT, "ids": [], "terms": [], "doc_offsets": [0], "doc_terms": [],
            "posting_offsets": [0], "postings": [], "tfs": []}


def _run_lengths(offsets: Sequence[int]) -> list[int]:
    return list(map(sub, offsets[1:], offsets[:-1]))


def _dense_map(live: list[int], size: int) -> list[int] | None:
    """Old position -> new position, or None when nothing moves."""
    if len(live) == size:
        return None
    mapping = [-1] * size
    for new, old in enumerate(live):
        mapping[old] = new
    return mapping


def _renumbered(values: Sequence[int], mapping: list[int] | None) -> Iterable[int]:
    return values if mapping is None else map(mapping.__getitem__, values)


def _append_run(state: dict, offsets_key: str, values_key: str, values: Iterable[int]) -> None:
    state[values_key].extend(values)
    state[offsets_key].append(len(state[values_key]))


def _check_state(state: object) -> None:
    """Shape checks that cost O(1), never O(postings)."""
    if not isinstance(state, dict) or state.get("format") != STATE_FORMAT:
        raise ValueError("not a BM25 state of this format")
    if not all(isinstance(state.get(key), list) for key in ("ids", "terms")):
        raise ValueError("BM25 state: ids and terms must be lists")
    if not all(isinstance(state.get(key), Sequence) for key in INT_FIELDS):
        raise ValueError("BM25 state lacks one of " + ", ".join(INT_FIELDS))
    offsets = state["doc_offsets"]
    if len(offsets) != len(state["ids"]) + 1 or offsets[0] != 0 or offsets[-1] != len(state["doc_terms"]):
        raise ValueError("BM25 state: doc offsets do not fit ids and doc_terms")
    offsets = state["posting_offsets"]
    if len(offsets) != len(state["terms"]) + 1 or offsets[0] != 0 \
            or not offsets[-1] == len(state["postings"]) == len(state["tfs"]):
        raise ValueError("BM25 state: posting offsets do not fit terms, postings and tfs")
