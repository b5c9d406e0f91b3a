"""``Neighbours.compute_many``: the planner's full smoothing asks the neighbours of every hit at
once (one hold of the view's lock, not one per hit); each must be what ``compute`` gives one by
one, and kept on the view for the next query, as ``compute`` keeps it."""
from __future__ import annotations

import pytest

from memory import indexing
from memory.store import CurrentRecords

from helpers import make_store, scope
from test_current_view import fill


@pytest.fixture
def store(tmp_path):
    return make_store(tmp_path / "store")


def test_neighbours_worked_out_together_are_those_worked_out_one_by_one_and_kept_for_later_queries(store):
    fill(store)
    view = indexing.current_view(store, scope())
    ids = list(view.ids) + ["mem_not_in_this_scope"]
    one_by_one = CurrentRecords(view).neighbours()
    expected = {rid: one_by_one.compute(rid) for rid in ids}
    assert any(len(found) == 2 for found in expected.values()) and expected["mem_not_in_this_scope"] == ()
    view._neighbours.clear()                       # what the first reader kept for later queries
    together = CurrentRecords(view).neighbours()
    together.compute_many(ids[::-1])
    together.compute_many(ids[:5])                 # known already: nothing worked out again
    assert together.known() == expected
    assert dict(view._neighbours) == expected      # kept for the next query's reader
    assert CurrentRecords(view).neighbours().known() == expected
