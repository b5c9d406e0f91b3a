"""A speaker search over a store's current view (issue 14: 21% of a query at 100k) passes by the
matches whose session has none of the named speakers, and filters the matches by the index's
slots (``current.SpeakerFilter``, ``planner._kept`` / ``planner._lifter``). The ranking must be
the full loop's: every match smoothed by its neighbours, then filtered by speaker, then the best
taken, floats and the order of ties included. A filter that drops a session holding a named
speaker, or a slot table that is not the view's, changes it."""
from __future__ import annotations

import heapq
import random
from operator import itemgetter

import pytest
from hypothesis import Phase, given, settings, strategies as st

from memory import api, indexing, planner
from memory.query import _view
from memory.store import current as current_mod

from helpers import make_store, scope
from test_planner_search import reference_scores, wide_bm25_cases

WORDS = ["coffee", "tea", "garden", "music", "train", "bread"]


def _store_of(tmp_path, seed: int):
    """~150 turns in 12 sessions: sessions 0-5 between ann and bob, 6-11 between cyd and dee
    (and one turn without a speaker), many sharing "coffee" with skewed counts and ties."""
    rng = random.Random(seed)
    store = make_store(tmp_path / f"s{seed}")
    for session in range(12):
        pair = ("ann", "bob") if session < 6 else ("cyd", "dee")
        for turn in range(rng.randint(8, 16)):
            words = [rng.choice(WORDS) for _ in range(rng.randint(1, 6))]
            if rng.random() < 0.7:
                words += ["coffee"] * rng.choice([1, 1, 2, 3])
            speaker = pair[turn % 2]
            api.add(store, "paul", " ".join(words) + ".", speaker=speaker, session=f"chat-{session}",
                    tx=f"t{session}-{turn}")
    return store


def _space(store):
    view = _view(store, scope("paul"), None, store.fingerprint(scope("paul")))
    index = indexing.open_index(store, scope("paul"))
    space = planner.SearchSpace(index, view.records, view.sessions, {})
    space.neighbour_weight = 0.5
    return space


def _full_loop(space, tokens, limit, speakers):
    """Every match smoothed, then the speakers' records, then the best (``speaker_ranking`` as
    first written)."""
    said = lambda items: [(rid, s) for rid, s in items  # noqa: E731
                          if space.records.column("speaker", rid) in speakers]
    return heapq.nlargest(limit, said(reference_scores(space, tokens).items()), key=itemgetter(1))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("limit", [1, 3, 10])
@pytest.mark.parametrize("speakers", [{"ann"}, {"dee"}, {"ann", "cyd"}])
def test_a_speaker_search_over_a_current_view_ranks_as_the_full_loop(tmp_path, seed, limit, speakers):
    store = _store_of(tmp_path, seed)
    space = _space(store)
    keep = space.records.speaker_filter(speakers)
    assert isinstance(keep, current_mod.SpeakerFilter)
    _, ids, _ = space.index.scored_slots(["coffee"])
    assert keep.by_slot({}, ids) == {}                     # the index's slots are the view's
    lifts = keep.lifter(ids)
    sessions = {space.records.column("session", rid) for at, rid in enumerate(ids) if not lifts(at)}
    barren = {"ann": range(6, 12), "dee": range(6)}.get(min(speakers), ()) if len(speakers) == 1 else ()
    assert sessions == {f"chat-{n}" for n in barren}       # exactly the sessions the speakers are not in
    for tokens in (["coffee"], ["coffee", "tea"], ["garden", "coffee", "music"]):
        assert space.search(tokens, limit, keep) == _full_loop(space, tokens, limit, speakers)


def test_a_slot_table_that_is_not_the_views_is_read_by_id(tmp_path):
    store = _store_of(tmp_path, 7)
    space = _space(store)
    keep = space.records.speaker_filter({"bob"})
    _, ids, _ = space.index.scored_slots(["coffee"])
    moved = ids[1:] + ids[:1]                              # every slot names another record
    assert keep.by_slot({0: 1.0}, moved) is None
    assert keep.by_slot({0: 1.0}, list(ids)) is not None   # equal ids, another list: checked, then kept
    lifts = keep.lifter(moved)
    for at, rid in enumerate(moved):                       # by the id the table names
        assert lifts(at) == keep.lifter()(rid)


class SpeakerKeep:
    """A speaker filter over a plain space (records' speaker = id parity, sessions as drawn) that
    offers ``lifter`` as ``current.SpeakerFilter`` does; ``wrong`` makes it pass by a session
    that does hold a kept record."""

    def __init__(self, space, every: int, parity: int, wrong: bool = False) -> None:
        self.every, self.parity = every, parity
        self.session_of = {rid: name for name, turns in space.sessions.items() for rid in turns}
        self.lively = {self.session_of[rid] for rid in self.session_of if self._kept(rid)}
        if wrong and self.lively:
            self.lively.discard(sorted(self.lively)[0])

    def _kept(self, rid: str) -> bool:
        return int(rid[1:]) % self.every == self.parity % self.every

    def __call__(self, items):
        return [(rid, s) for rid, s in items if self._kept(rid)]

    def lifter(self, ids=None):
        def lifts(key) -> bool:
            rid = key if ids is None else ids[key]
            session = self.session_of.get(rid)
            return session is None or session in self.lively
        return lifts


# 100 draws: a filter passing by a session that holds a kept turn is found at the 2nd (30 seeds)
@settings(max_examples=100, deadline=None)
@given(wide_bm25_cases(), st.integers(0, 8), st.sampled_from([2, 3, 7, 11]))
def test_a_speaker_search_passing_by_sessions_without_the_speakers_ranks_as_the_reference_loop(case, parity, every):
    space, tokens, limit = case
    keep = SpeakerKeep(space, every, parity)
    want = heapq.nlargest(limit, keep(reference_scores(space, tokens).items()), key=itemgetter(1))
    assert space.search(tokens, limit, keep) == want


def test_a_lifter_passing_by_a_session_with_a_kept_turn_is_caught():
    # the check above fails for a filter that is wrong: find a drawn case where it shows
    from hypothesis import find
    def differs(args):
        (space, tokens, limit), parity, every = args
        keep = SpeakerKeep(space, every, parity, wrong=True)
        want = heapq.nlargest(limit, keep(reference_scores(space, tokens).items()), key=itemgetter(1))
        return space.search(tokens, limit, keep) != want
    # generating only: the first case that shows it is the proof (shrinking it took ~30 s of CI)
    find(st.tuples(wide_bm25_cases(), st.integers(0, 8), st.sampled_from([2, 3, 7])), differs,
         settings=settings(max_examples=500, deadline=None, database=None, phases=[Phase.generate]))
