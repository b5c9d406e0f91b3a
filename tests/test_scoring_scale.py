"""What a search after a write reads from a store's current view without walking the scope:
a snapshot's session count and turn count (counted in C, from the newest session back), its
column values in bulk, and the planner's session ranking over them, against recounts."""
from __future__ import annotations

import pytest

from memory import indexing, planner
from memory.store import CurrentRecords, Sessions

from helpers import make_store, scope
from test_read_scale import applied, episode, turns


@pytest.fixture
def store(tmp_path):
    store = make_store(tmp_path / "store")
    applied(store, turns(0, 120))
    return store


def recount(sessions: Sessions) -> tuple[int, int]:
    names = [name for name in sessions]
    return len(names), sum(len(sessions[name]) for name in names)


def test_a_snapshots_session_and_turn_counts_equal_a_recount_as_the_view_grows(store):
    view = indexing.current_view(store, scope())
    before = Sessions(view)
    counted = (len(before), before.turns())
    assert counted == recount(before) == (7, 120)
    applied(store, [episode("More in an old session.", "ep-a", session="s1", speaker="Tom")])
    applied(store, [episode("A new session.", "ep-b", session="brand-new", speaker="Zoe"),
                    episode("And another.", "ep-c", session="newer", speaker=None)])
    assert indexing.current_view(store, scope()) is view            # extended in place
    fresh = Sessions(before.view)
    assert (len(fresh), fresh.turns()) == recount(fresh) == (9, 123)
    again = Sessions(view)
    again._count = before._count                                     # the first snapshot's bound
    assert (Sessions.__len__(again), again.turns()) == recount(before) == counted


def test_column_values_equal_the_column_read_one_record_at_a_time(store):
    records = CurrentRecords(indexing.current_view(store, scope()))
    ids = list(records)
    assert records.column_values("session", ids) == [records.column("session", rid) for rid in ids]
    assert records.column_values("speaker", ids[::7]) == [records.column("speaker", rid) for rid in ids[::7]]


def test_the_session_ranking_from_the_view_equals_the_one_from_plain_dicts(store):
    # the view path counts holders and sizes in C; a plain dict of records and sessions
    # walks them: the ranking must be the same
    view = indexing.current_view(store, scope())
    records = CurrentRecords(view)
    index = indexing.open_index(store, scope())
    sessions = Sessions(view)
    fast = planner.SearchSpace(index, records, sessions)
    plain = planner.SearchSpace(index, {rid: records[rid] for rid in records},
                                {name: list(sessions[name]) for name in sessions})
    for terms in (["garden"], ["car", "tom"], ["maria", "garden", "turn"]):
        order = [rid for rid, _ in fast.search(terms, 40)]
        assert order == [rid for rid, _ in plain.search(terms, 40)]
        assert planner.session_ranking(fast, terms, order) == planner.session_ranking(plain, terms, order)
