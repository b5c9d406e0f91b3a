"""What a saved current view answers from its saved arrays equals what its columns say.

``_Groups.speaker_sessions`` reads each asked speaker's sessions from ``current.bin`` (format 5)
instead of turning every session's speakers round, and ``sessions_with_speakers`` is the saved
sessions' index, both while nothing was added since; after an append they read the live groups.
An older file is rebuilt, never misread.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from memory.store import current as current_module
from memory.store.current import CurrentView


def revision(at: int, speaker, session, kind="episode") -> dict:
    return {"id": f"mem_{at:024x}", "kind": kind, "status": "active", "revision": 1,
            "source": {"speaker": speaker, "session": session},
            "recorded_time": {"recorded_at": "2024-01-01T00:00:00Z"}, "memory_key": None}


def reference(view: CurrentView, speakers) -> set[int]:
    """The session codes where one of the speaker codes speaks, read from the columns."""
    found = set()
    for at in range(len(view.ids)):
        session, speaker = view.columns["session"][at], view.columns["speaker"][at]
        if speaker in speakers and view.tables["session"][session] and view.tables["speaker"][speaker]:
            found.add(session)
    return found


def with_speakers(view: CurrentView) -> set[int]:
    return {view.columns["session"][at] for at in range(len(view.ids))
            if view.tables["session"][view.columns["session"][at]] and view.tables["speaker"][view.columns["speaker"][at]]}


def absorb_many(view: CurrentView, start: int, count: int, rng: random.Random) -> None:
    for at in range(start, start + count):
        speaker = rng.choice(["Ana", "Ben", "Cy", "Dee", None, ""])
        session = rng.choice([f"s{i}" for i in range(12)] + [None])
        view.absorb(revision(at, speaker, session, rng.choice(["episode", "fact"])), "shard-1", at * 10, 10)


def saved_and_loaded(view: CurrentView, tmp_path: Path) -> CurrentView:
    data, *_ = view.encoded()
    loaded = CurrentView(tmp_path, tmp_path)
    loaded._decode(data)
    return loaded


@pytest.mark.parametrize("seed", range(8))
def test_saved_speaker_sessions_are_the_columns(tmp_path, seed):
    rng = random.Random(seed)
    view = CurrentView(tmp_path, tmp_path)
    absorb_many(view, 0, 150, rng)
    loaded = saved_and_loaded(view, tmp_path)
    assert loaded.groups()._saved_spoken is not None
    codes = range(len(loaded.tables["speaker"]) + 1)
    for speakers in [{c} for c in codes] + [set(rng.sample(codes, 2)) for _ in range(5)] + [set()]:
        assert loaded.groups().speaker_sessions(speakers) == reference(loaded, speakers)
    assert set(loaded.groups().sessions_with_speakers()) == with_speakers(loaded)
    # an append (new speakers in old and new sessions): read from the live groups from then on
    absorb_many(loaded, 150, 40, rng)
    loaded.absorb(revision(999, "Eve", "s-new"), "shard-1", 9990, 10)
    for speakers in [{c} for c in range(len(loaded.tables["speaker"]) + 1)]:
        assert loaded.groups().speaker_sessions(speakers) == reference(loaded, speakers)
    assert set(loaded.groups().sessions_with_speakers()) == with_speakers(loaded)


def test_a_view_saved_in_format_4_is_rebuilt_not_misread(tmp_path):
    view = CurrentView(tmp_path, tmp_path)
    absorb_many(view, 0, 30, random.Random(1))
    data, *_ = view.encoded()
    old = data.replace(b'"format":%d' % current_module.FORMAT, b'"format":4', 1)
    assert old != data
    with pytest.raises(ValueError):
        CurrentView(tmp_path, tmp_path)._decode(old)
    (tmp_path / current_module.FILE).write_bytes(old)
    assert CurrentView.load(tmp_path, tmp_path).ids == []       # empty: rebuilt from the log


@pytest.mark.parametrize("count", [0, 1, 7, 300, 2000])
def test_the_saved_id_table_answers_as_the_dictionary(tmp_path, count):
    rng = random.Random(count)
    view = CurrentView(tmp_path, tmp_path)
    absorb_many(view, 0, count, rng)
    loaded = saved_and_loaded(view, tmp_path)
    assert isinstance(loaded.slot, current_module.SlotTable)
    expected = {record_id: at for at, record_id in enumerate(view.ids)}
    assert dict(loaded.slot) == expected == loaded.slot.copy() and len(loaded.slot) == count
    for record_id, at in expected.items():
        assert loaded.slot[record_id] == at and loaded.slot.get(record_id) == at and record_id in loaded.slot
    for absent in ["", "mem_", f"mem_{count:024x}", "mem_\ud800", "x" * 300] + [f"mem_{rng.getrandbits(96):024x}"
                                                                             for _ in range(200)]:
        assert absent not in loaded.slot and loaded.slot.get(absent, -1) == -1
        with pytest.raises(KeyError):
            loaded.slot[absent]
    assert loaded.slot.get(None) is None and 5 not in loaded.slot
    order = list(expected)[::-1]
    assert loaded.slot.slots_of(order) == [expected[i] for i in order]
    if count:
        with pytest.raises(KeyError):
            loaded.slot.slots_of(order[:1] + ["mem_nope"])
    # the first change gives the view a dict; the table lent before answers as it did
    lent = loaded.slot
    loaded.absorb(revision(10**6, "Ana", "s1"), "shard-1", 0, 10)
    assert type(loaded.slot) is dict and loaded.slot[f"mem_{10**6:024x}"] == count
    assert f"mem_{10**6:024x}" not in lent and len(lent) == count and dict(lent) == expected


def test_ids_that_collide_in_the_table_are_each_found(tmp_path):
    """Ids whose crc32 fall in one bucket of the table (linear probing past each other)."""
    from zlib import crc32
    ids, seen = [], {}
    for n in range(20000):
        record_id = f"mem_{n:024x}"
        bucket = crc32(record_id.encode()) & 15
        if bucket == 3:
            ids.append(record_id)
        if len(ids) == 6:
            break
    table = current_module.SlotTable.table_of(ids)
    slots = current_module.SlotTable(ids, table)
    assert [slots[record_id] for record_id in ids] == list(range(6))
    assert "mem_nope" not in slots
