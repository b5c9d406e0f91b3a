"""The read side at scope scale (issue 14): what a query derives from every record of a scope
is kept in the derived current view and extended by appended records, never recomputed by
parsing the whole scope, and always says what the records themselves say.

- the per-scope groups (a session's turns, who speaks in a session, the scope's speakers, the
  keyed records) extended in place equal the groups built from scratch, and equal what the
  planner computes from parsed records;
- a saved view of another format, or torn anywhere (a kill mid-write), is rebuilt, never misread;
- the BM25 index read from a mapping answers as the one it was saved from, and keeps answering
  after the file is replaced; a fork shares its postings copy-on-write, neither side seeing
  the other's new documents.
"""
from __future__ import annotations

from array import array

import pytest

from memory import decision, indexing, planner
from memory.query import QueryRequest, _current_view, run_query
from memory.retrieval.bm25 import BM25Index
from memory.retrieval import index as index_module
from memory.retrieval.index import ScopeIndex
from memory.store import CurrentRecords, Sessions
from memory.store import current as current_module

from helpers import add_env, envelope, make_store, reopen, scope, update_env

SPEAKERS = ("Maria Brown", "Tom", "Aisha Khan")


def episode(text: str, tx: str, session: str, speaker: str | None) -> dict:
    env = envelope("add", tx, source="conversation",
                   payload={"kind": "episode", "statement": text, "confidence": "high", "importance": "low",
                            "aliases": [], "tags": [], "negative_triggers": []},
                   valid={"from": "2024-01-01T10:00:00Z", "to": None})
    env["source"]["session"] = session
    if speaker:
        env["source"]["speaker"] = speaker
    return env


def turns(start: int, count: int, sessions: int = 7) -> list[dict]:
    """Interleaved sessions (a session's turns are not adjacent in the log), some turns with no
    speaker, three speakers."""
    return [episode(f"Turn {i}: Tom and Maria talked about the garden and the car.", f"ep-{i}",
                    session=f"s{i % sessions}", speaker=None if i % 11 == 0 else SPEAKERS[i % 3])
            for i in range(start, start + count)]


def applied(store, envelopes) -> None:
    results = store.apply(envelopes)
    assert {r["status"] for r in results} == {"applied"}, results


@pytest.fixture
def store(tmp_path):
    store = make_store(tmp_path / "store")
    applied(store, turns(0, 300))                       # enough lines that the view is saved
    applied(store, [add_env("The user lives in Rome.", "user.home_city", "tx-rome",
                            valid_from="2024-01-01T00:00:00Z"),
                    add_env("The user likes tea.", "user.drink", "tx-tea")])
    return store


def groups_of(view) -> dict:
    groups = view.groups()
    return {"sessions": {k: list(v) for k, v in groups.sessions.items()}, "speakers": dict(groups.speakers),
            "session_speakers": {k: dict(v) for k, v in groups.session_speakers.items()},
            "keyed": list(groups.keyed), "position": list(groups.position)}


def rebuilt_groups(view) -> dict:
    view._groups = None
    return groups_of(view)


def from_the_log(store):
    """The view read from the whole log, ignoring the saved file."""
    fresh = reopen(store)
    saved = fresh.current_view(scope())
    return current_module.refreshed(current_module.CurrentView(saved.directory, saved.scope_dir))


def test_groups_extended_by_appended_records_equal_groups_built_from_scratch(store):
    view = indexing.current_view(store, scope())
    groups_of(view)                                     # built: from now on extended in place
    applied(store, turns(300, 40, sessions=9))          # new sessions, existing ones, no speaker
    applied(store, [add_env("The user has a cat.", "user.pet", "tx-cat")])
    applied(store, [update_env("The user lives in Oslo.", "tx-oslo", key="user.home_city",
                               valid_from="2024-02-01T00:00:00Z")])
    extended = indexing.current_view(store, scope())
    assert extended is view                             # the same object, extended from the tail
    incremental = groups_of(extended)
    assert incremental == rebuilt_groups(extended)
    assert incremental == groups_of(from_the_log(store))
    assert groups_of(reopen(store).current_view(scope())) == incremental    # saved file + its tail


def test_a_record_moved_to_another_session_drops_the_groups_and_they_are_rebuilt(store):
    view = indexing.current_view(store, scope())
    before = groups_of(view)
    at = view.slot[view.ids[5]]
    revision = current_module.CurrentRecords(view)[view.ids[5]]
    moved = {**revision, "source": {**revision["source"], "session": "elsewhere"}}
    view.absorb(moved, view.tables["shard"][view.columns["shard"][at]], view.columns["offset"][at],
                view.columns["length"][at])
    assert view._groups is None
    after = groups_of(view)
    assert after != before and after == rebuilt_groups(view)


def space_pair(store):
    """The same scope as the planner sees it from the current view and from parsed records."""
    fresh = reopen(store)
    view = fresh.current_view(scope())
    built = _current_view(scope(), view)
    records = dict(CurrentRecords(view).items())
    sessions: dict = {}
    for rid, record in records.items():
        if record["kind"] == "episode" and record["source"].get("session"):
            sessions.setdefault(record["source"]["session"], []).append(rid)
    index = indexing.open_index(fresh, scope())
    return (planner.SearchSpace(index, built.records, built.sessions, {}),
            planner.SearchSpace(index, records, sessions, {}), view)


def test_the_planner_reads_from_the_groups_what_parsed_records_say(store):
    applied(store, turns(300, 30, sessions=9))
    by_view, by_records, view = space_pair(store)
    assert by_view.speakers() == by_records.speakers()
    assert dict(planner._session_speakers(by_view)) == planner._session_speakers(by_records)
    assert dict(by_view.sessions) == by_records.sessions
    neighbours, expected = by_view._neighbours(), by_records._neighbours()
    for rid in view.ids:
        assert neighbours.get(rid, ()) == expected.get(rid, ())
    keyed = [r for r in by_records.records.values() if r["kind"] != "episode" and r["memory_key"]]
    assert by_view.records.keyed() == keyed
    terms = ["garden", "tom"]
    assert planner.speaker_ranking(by_view, terms, {"Tom"}, 20) == planner.speaker_ranking(
        by_records, terms, {"Tom"}, 20)


def test_the_speakers_of_a_session_and_the_keyed_records_are_read_without_parsing_every_record(store, monkeypatch):
    by_view, _, view = space_pair(store)
    parsed = []
    real = current_module.CurrentView.record
    monkeypatch.setattr(current_module.CurrentView, "record", lambda self, rid: parsed.append(rid) or real(self, rid))
    speakers = planner._session_speakers(by_view)
    assert speakers["s1"] == {"Maria Brown", "Tom", "Aisha Khan"}
    assert planner.named_speakers(by_view, "What did Aisha say?") == {"Aisha Khan"}
    assert len(by_view.records.keyed()) == 2
    assert len(parsed) <= 2                             # the two keyed records, not 300 turns
    match = decision.Match(by_view.records[view.ids[-1]], 1.0, 1.0, 1.0, "2024-01-01T00:00:00Z")
    decision.follow_supersession([match], by_view.records, {}, question="what do I drink", as_of="2025-01-01T00:00:00Z",
                                 now="2025-01-01T00:00:00Z", policy=reopen(store).policies.forgetting)
    assert len(parsed) <= 3


def test_a_snapshot_reads_the_groups_as_they_were_when_it_was_taken(store):
    view = indexing.current_view(store, scope())
    records, sessions = CurrentRecords(view), Sessions(view)
    before = {session: list(sessions[session]) for session in sessions}
    speakers = dict(records.session_speakers())
    applied(store, [episode("A new speaker joins.", "ep-new", session="s1", speaker="Zoe")])
    applied(store, [episode("A new session.", "ep-new-2", session="brand-new", speaker="Zoe")])
    assert indexing.current_view(store, scope()) is view           # extended in place
    assert {session: list(sessions[session]) for session in sessions} == before
    assert dict(records.session_speakers()) == speakers
    assert "Zoe" not in records.distinct("speaker")
    assert "Zoe" in CurrentRecords(view).distinct("speaker")


def answers(store) -> list:
    fresh = reopen(store)
    return [run_query(fresh, QueryRequest(text=text, user="alice", include_inactive=True, trace=True))
            for text in ("what did Tom say about the garden", "where does the user live", "What did Maria say?")]


def test_a_view_file_of_another_format_is_rebuilt_not_misread(store):
    expected = answers(store)
    path = reopen(store).current_view(scope()).directory / current_module.FILE
    data = path.read_bytes()
    start = len(current_module.MAGIC) + 8
    header_len = int.from_bytes(data[len(current_module.MAGIC):start], "little")
    header = data[start:start + header_len]
    old = header.replace(b'"format":%d' % current_module.FORMAT, b'"format":1')
    assert old != header
    path.write_bytes(data[:len(current_module.MAGIC)] + len(old).to_bytes(8, "little") + old
                     + data[start + header_len:])
    assert len(current_module.CurrentView.load(path.parent, reopen(store).scope_dir(scope()))) == 0
    assert answers(store) == expected


@pytest.mark.parametrize("keep", [0.1, 0.5, 0.8, 0.97, 0.999])
def test_a_view_file_torn_by_a_kill_mid_write_is_rebuilt_never_misread(store, keep):
    expected = answers(store)
    path = reopen(store).current_view(scope()).directory / current_module.FILE
    data = path.read_bytes()
    path.write_bytes(data[:int(len(data) * keep)])
    assert len(current_module.CurrentView.load(path.parent, reopen(store).scope_dir(scope()))) == 0
    assert answers(store) == expected


def test_an_index_read_from_its_mapping_answers_as_the_one_saved_and_survives_a_replace(tmp_path, monkeypatch):
    monkeypatch.setattr(index_module, "MAP_MIN_BYTES", 1)     # map even this small file
    settings = {"k1": 1.2, "b": 0.75, "epsilon": 0.25}
    written = ScopeIndex(tmp_path, settings)
    written.apply([(f"d{i}", f"the garden {'car ' * (i % 4)}number {i}") for i in range(300)], {"x": 1})
    written.save()
    loaded = ScopeIndex.open(tmp_path, settings)
    assert loaded.rebuilt_reason is None
    assert isinstance(loaded._bm25._postings, index_module._StoredInts)   # read from the file by position, not copied
    query = "garden car number 7"
    assert loaded.scores(query) == written.scores(query)
    assert loaded.search(query, 10) == written.search(query, 10)
    replacing = ScopeIndex.open(tmp_path, settings)
    replacing.remove("d7")                        # a removal rewrites the base file
    replacing.save()
    assert loaded.scores(query) == written.scores(query)     # the open file keeps the bytes it opened
    assert "d7" not in ScopeIndex.open(tmp_path, settings)


def test_a_fork_shares_postings_copy_on_write_neither_side_sees_the_others_documents():
    parent = BM25Index()
    for i in range(50):
        parent.add(f"d{i}", ["garden", "car", f"t{i}"])
    parent.add("late", ["garden", "late"])           # a posting changed since the base: in the overlay
    before = parent.scores(["garden", "car", "late"])
    child = parent.fork()
    child.add("new", ["garden", "car", "late"])
    assert parent.scores(["garden", "car", "late"]) == before
    # the parent changed after the fork (a served store never does, but a fork must not depend
    # on it), in a posting the child shares and never changed
    parent.add("other", ["garden", "t3"])
    assert set(child.scores(["t3"])) == {"d3"} and set(parent.scores(["t3"])) == {"d3", "other"}
    grandchild = child.fork()
    grandchild.remove("new")
    assert "new" in child.scores(["late"]) and "new" not in grandchild.scores(["late"])
    rebuilt = BM25Index()
    for doc_id in child.doc_ids():
        rebuilt.add(doc_id, child.terms(doc_id))
    assert child.scores(["garden", "car", "late"]) == rebuilt.scores(["garden", "car", "late"])


def test_neighbours_kept_across_writes_equal_neighbours_worked_out_afresh(store):
    view = indexing.current_view(store, scope())
    first = CurrentRecords(view).neighbours()
    for rid in view.ids:
        first.compute(rid)                              # kept on the view for later queries
    assert len(view._neighbours) == len(view.ids)
    applied(store, turns(300, 20))                      # a next turn for the last turn of each session
    assert indexing.current_view(store, scope()) is view
    second = CurrentRecords(view).neighbours()
    _, by_records, _ = space_pair(store)
    expected = by_records._neighbours()
    known = second.known()
    for rid in view.ids:
        found = known.get(rid)
        assert (second.compute(rid) if found is None else found) == expected.get(rid, ()), rid
    stale = first.known()                               # the first snapshot still answers as it was
    assert all(rid not in stale for rid in view.ids[-20:])


def test_a_snapshot_never_claims_an_index_a_writer_caught_up_with_while_it_checked(store):
    """A served search and a write on one scope, interleaved: the snapshot was N records, and
    between its record-count check and its cursor check the writer absorbed a new turn and
    moved the view's cursor to the index's. covers_index said True, the new turn's id reached
    the decision unfiltered, and the search was a 500 (KeyError) under 20 concurrent clients."""
    scope_ = scope("alice")
    view = indexing.current_view(store, scope_)
    records = CurrentRecords(view)
    applied(store, turns(1000, 1))
    index = indexing.open_index(store, scope_)                  # the index has the new turn

    class WriterBetweenChecks(list):
        fired = False

        def __len__(self):
            length = super().__len__()
            if not WriterBetweenChecks.fired:                   # right after the count is read,
                WriterBetweenChecks.fired = True                # the writer's thread absorbs
                current_module.refreshed(view)                  # the turn and moves the cursor
            return length

    view.ids = WriterBetweenChecks(view.ids)
    assert index.cursor != view.cursor                          # the snapshot's view: behind
    assert records.covers_index(index) is not True
    if not WriterBetweenChecks.fired:                           # (the check stopped before the count)
        WriterBetweenChecks.fired = True
        current_module.refreshed(view)
    assert index.cursor == view.cursor and records.covers_index(index) is not True   # after it, too


def test_a_saved_views_session_speakers_are_read_one_session_at_a_time_as_parsed_records_say(store):
    reopen(store).current_view(scope())                     # built and saved
    by_view, by_records, view = space_pair(store)          # ... and read from its saved file
    expected = planner._session_speakers(by_records)
    asked = planner._session_speakers(by_view)
    for session, speakers in expected.items():
        assert asked[session] == speakers, session
    assert "no such session" not in asked
    assert view.groups()._session_speakers is None          # no session's but those asked were read
    assert dict(asked) == expected                          # ... and all of them, when all are asked


def test_stored_ints_read_by_position_are_the_array_they_stand_for(tmp_path, monkeypatch):
    # index_module._StoredInts: the postings and documents' terms of a large index.bin, read from
    # the file a slice at a time (a mapping kept every page a query touched, and its neighbours,
    # in the process's resident set); a walk reads ahead a block at a time
    monkeypatch.setattr(index_module, "_READ_AHEAD", 32)
    values = array("I", [(i * 7919) % 1000 for i in range(300)])
    path = tmp_path / "ints"
    path.write_bytes(b"head" + values.tobytes())
    with open(path, "rb") as handle:
        stored = index_module._StoredFile(handle.fileno())
    ints = index_module._StoredInts(stored, 4, len(values))
    assert len(ints) == len(values)
    for start, stop in [(0, 0), (0, 1), (5, 17), (290, 300), (295, 400), (17, 5), (-3, None), (None, None),
                        (0, 40), (40, 41), (3, 9)]:
        assert list(ints[start:stop]) == list(values[start:stop])
    assert list(ints[3:40:4]) == list(values[3:40:4])
    assert [ints[i] for i in (0, 1, 299, -1, -300)] == [values[i] for i in (0, 1, 299, -1, -300)]
    for bad in (300, -301):
        with pytest.raises(IndexError):
            ints[bad]
    walked = ints[0:0]
    at = 0
    for size in [3, 0, 7, 31, 32, 1, 60, 2] * 6:            # a walk, as ``BM25Index.to_state`` reads
        walked.extend(ints[at:at + size])
        at += size
    assert walked == values[:at]
