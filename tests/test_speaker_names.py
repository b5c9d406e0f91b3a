"""``SearchSpace.records_by_speaker`` over a store's current view names the speakers from the
view's groups (O(speakers)) and groups their records only when one is asked for: the planner's
callers (the swapped question, the caller's own turns) read the names only, and grouping every
record was ~30 ms at 100k records, paid again by a search after each write of a served scope.
The names, their order and every group must be what grouping the records gives."""
from __future__ import annotations

import pytest

from memory import indexing, planner
from memory.store import CurrentRecords

from helpers import add_env, make_store, scope
from test_current_view import episode


@pytest.fixture
def store(tmp_path):
    return make_store(tmp_path / "store")


def eager(records) -> dict:
    grouped: dict = {}
    for record_id in records:
        grouped.setdefault(records.column("speaker", record_id), set()).add(record_id)
    return {name: frozenset(ids) for name, ids in grouped.items()}


def test_speakers_are_named_from_the_groups_in_the_order_they_first_speak(store):
    speakers = ["Maria", "Ben", "Maria", "Ana", "Ben", "Zoe"]
    results = store.apply([episode(f"Turn {i} about the garden.", f"ep-{i}", session=f"s{i % 2}", speaker=name)
                           for i, name in enumerate(speakers * 40)])
    assert {result["status"] for result in results} == {"applied"}
    store.mutate(add_env("The user likes tea.", "user.drink", "tx-tea"))       # no speaker
    view = indexing.current_view(store, scope())
    records = CurrentRecords(view)
    space = planner.SearchSpace(None, records)
    by_speaker = space.records_by_speaker()
    assert isinstance(by_speaker, planner._BySpeaker) and by_speaker._groups is None
    assert list(by_speaker) == ["Maria", "Ben", "Ana", "Zoe", None] == list(eager(records))
    assert by_speaker._groups is None                          # names read without grouping
    assert dict(by_speaker) == eager(records) and "Zoe" in by_speaker and "Nobody" not in by_speaker
    # a reader of an older snapshot does not see a speaker who first spoke after it was taken
    assert [r["status"] for r in store.apply([episode("A late turn.", "ep-late", speaker="Late")])] == ["applied"]
    assert indexing.current_view(store, scope()) is view
    assert list(planner.SearchSpace(None, records).records_by_speaker()) == list(eager(records))
    assert "Late" in planner.SearchSpace(None, CurrentRecords(view)).records_by_speaker()
