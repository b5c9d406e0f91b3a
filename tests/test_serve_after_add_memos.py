"""A long-lived reader after a write that only appends records (issue 14, ``memory serve``): the
query view's memos are carried to the new view (``planner.carried_memo``) instead of worked out
again over the whole scope, and the view's own save waits for the saver (``defer_saves``).
Every answer must stay what a fresh process gives: a carried value that a write made wrong
(a turn calling something off added after the view was built; a retired, updated or erased
record; a new speaker in a session) would change them.
"""
from __future__ import annotations

from collections import Counter

import pytest

from memory import api, indexing, planner
from memory.query import QueryRequest, _view, run_query
from memory.store import current as current_mod
from memory.store.current import FILE as CURRENT_FILE

from helpers import make_store, reopen, scope

LISBON = "We're planning a trip to Lisbon in March."
DENTIST = "I booked a dentist appointment for the 3rd of March."
CANCEL = "I'll cancel the Lisbon trip, we're going to Porto instead."
ASKED = "2024-02-06T09:00:00Z"
QUESTIONS = ("Am I going to Lisbon?", "Where am I travelling in March?", "When is my dentist appointment?",
             "What did Bob say about the concert?", "Did Ann like the concert?", "Where do I work?")


def _turn(store, text: str, at: str, tx: str, *, speaker: str = "paul", session: str | None = None):
    store.clock.set(at)
    result = api.add(store, "paul", text, speaker=speaker, session=session or f"chat-{tx}", valid_from=at, tx=tx)
    assert result.status == "applied"
    return result


def _answer(store, question: str) -> dict:
    store.clock.set(ASKED)
    return run_query(store, QueryRequest(text=question, user="paul", include_inactive=True))


def _same_as_a_fresh_process(store) -> list[dict]:
    """Every question answered by ``store`` (long-lived: carried memos) and by a fresh ``Store``
    on the same files: equal."""
    mine = [_answer(store, q) for q in QUESTIONS]
    fresh = [_answer(reopen(store), q) for q in QUESTIONS]
    assert mine == fresh
    return mine


def _statements(answer: dict) -> list[str]:
    return [item["statement"] for item in answer["evidence"]]


def _carried(store) -> dict:
    """The memo of the store's current query view."""
    return _view(store, scope("paul"), None, store.fingerprint(scope("paul"))).memo


def test_a_turn_calling_off_added_after_the_view_was_built_takes_effect(tmp_path):
    store = make_store(tmp_path / "s")
    _turn(store, LISBON, "2024-01-10T09:00:00Z", "t1")
    _turn(store, DENTIST, "2024-01-12T09:00:00Z", "t2")
    before = _same_as_a_fresh_process(store)
    assert _statements(before[0]) == [LISBON]
    assert _carried(store)["turns_calling_off"]["found"] == []      # worked out over this view
    _turn(store, CANCEL, "2024-02-05T09:00:00Z", "t3")
    assert "from" in _carried(store)["turns_calling_off"]            # carried: only the new turn is read
    after = _same_as_a_fresh_process(store)
    assert _statements(after[0]) == [CANCEL]                          # the cancelled plan no longer answers


def test_a_retired_cancelling_turn_is_read_again_not_carried(tmp_path):
    store = make_store(tmp_path / "s")
    _turn(store, LISBON, "2024-01-10T09:00:00Z", "t1")
    cancel = _turn(store, CANCEL, "2024-02-05T09:00:00Z", "t2")
    assert _statements(_same_as_a_fresh_process(store)[0]) == [CANCEL]
    store.clock.set("2024-02-05T10:00:00Z")
    api.retire(store, "paul", cancel.record_id, at="2024-02-05T10:00:00Z", tx="t3")
    memo = _carried(store)
    assert "from" not in memo.get("turns_calling_off", {})            # a revision: the view's memos start over
    answers = _same_as_a_fresh_process(store)
    assert CANCEL not in _statements(answers[0])                      # it is retired: it does not answer


def test_an_updated_fact_is_read_again_not_carried(tmp_path):
    store = make_store(tmp_path / "s")
    _turn(store, LISBON, "2024-01-10T09:00:00Z", "t1")
    store.clock.set("2024-01-11T09:00:00Z")
    first = api.add(store, "paul", "I work at Globex.", key="job", valid_from="2024-01-11T09:00:00Z", tx="t2")
    assert _statements(_same_as_a_fresh_process(store)[-1]) == ["I work at Globex."]
    store.clock.set("2024-01-20T09:00:00Z")
    api.update(store, "paul", "I work at Initech.", record_id=first.record_id, valid_from="2024-01-20T09:00:00Z",
               tx="t3")
    assert "turns_calling_off" not in _carried(store)                # a revision: nothing carried
    assert _statements(_same_as_a_fresh_process(store)[-1]) == ["I work at Initech."]


def test_an_erased_cancelling_turn_no_longer_calls_anything_off(tmp_path):
    store = make_store(tmp_path / "s")
    _turn(store, LISBON, "2024-01-10T09:00:00Z", "t1")
    cancel = _turn(store, CANCEL, "2024-02-05T09:00:00Z", "t2")
    assert _statements(_same_as_a_fresh_process(store)[0]) == [CANCEL]
    api.erase(store, "paul", record_id=cancel.record_id, tx="t3")
    assert _statements(_same_as_a_fresh_process(store)[0]) == [LISBON]


def test_a_new_speaker_in_a_session_changes_what_its_turns_are_about(tmp_path):
    """``speaks_about`` reads the other speakers of a turn's session: "Did you like the concert?"
    said by Ann alone is about no one; once Bob speaks in that session it is about Bob."""
    store = make_store(tmp_path / "s")
    asked = _turn(store, "Did you like the concert?", "2024-01-10T09:00:00Z", "t1", speaker="Ann", session="s1")
    _turn(store, "The weather was fine.", "2024-01-10T09:01:00Z", "t2", speaker="Ann", session="s2")
    _same_as_a_fresh_process(store)

    def about_bob() -> bool:
        view = _view(store, scope("paul"), None, store.fingerprint(scope("paul")))
        space = planner.SearchSpace(indexing.open_index(store, scope("paul")), view.records, view.sessions, view.memo)
        return planner._speaks_about(space, asked.record_id, ["bob"])
    assert about_bob() is False                                       # kept in the view's memo
    _turn(store, "I loved it, the band was great.", "2024-01-10T09:02:00Z", "t3", speaker="Bob", session="s1")
    assert about_bob() is True
    _same_as_a_fresh_process(store)


def test_carried_session_counts_equal_fresh_ones(tmp_path):
    """``session_term_counts`` carried across appends and extended by them counts exactly what the
    index's holders give a fresh memo, for terms asked before the writes."""
    store = make_store(tmp_path / "s")
    for n in range(6):
        _turn(store, f"We talked about the garden and tomatoes, part {n}.", f"2024-01-1{n}T09:00:00Z", f"a{n}",
              session=f"s{n % 2}")
    _same_as_a_fresh_process(store)
    store.clock.set(ASKED)
    run_query(store, QueryRequest(text="What about the garden tomatoes?", user="paul"))
    assert {"garden", "tomato"} & set(_carried(store)["session_term_counts"])
    for n in range(4):       # into an old session, and into a new one
        _turn(store, f"The garden needs water, tomatoes too, note {n}.", f"2024-01-2{n}T09:00:00Z", f"b{n}",
              session="s1" if n % 2 else f"new{n}")
        view = _view(store, scope("paul"), None, store.fingerprint(scope("paul")))
        index = indexing.open_index(store, scope("paul"))
        space = planner.SearchSpace(index, view.records, view.sessions, view.memo)
        fresh = planner.SearchSpace(index, view.records, view.sessions, {})
        carried = planner._term_counts(space)
        # a term an appended record holds waits until a search asks for it (``get``)
        terms = set(carried) | set(getattr(carried, "pending", ()))
        assert {"garden", "tomato"} & terms
        assert all(Counter(carried.get(t)) == planner._session_counts(fresh, t) for t in terms)
        _same_as_a_fresh_process(store)


def test_a_view_due_for_saving_is_saved_by_the_saver_not_by_the_search(tmp_path, monkeypatch):
    monkeypatch.setattr(current_mod, "SAVE_AFTER_LINES", 2)
    store = make_store(tmp_path / "s")
    _turn(store, LISBON, "2024-01-10T09:00:00Z", "t1")
    _turn(store, DENTIST, "2024-01-12T09:00:00Z", "t2")
    _answer(store, QUESTIONS[0])                                      # built and saved (2 lines read)
    path = next(store.root.rglob(CURRENT_FILE))
    first = path.read_bytes()
    saver = indexing.defer_saves(store, delay=3600)
    for n in range(3):
        _turn(store, f"Another note {n}.", f"2024-01-1{n + 3}T09:00:00Z", f"n{n}")
        _answer(store, QUESTIONS[0])
    assert path.read_bytes() == first and saver.due() == 1            # nothing saved on the request path
    indexing.flush_saves(store)
    assert path.read_bytes() != first and saver.due() == 0
    assert _same_as_a_fresh_process(store)                            # the saved view reads back whole


# -- the turns calling something off, marked in the current view as it is read -----------------


def _view_of(store):
    return indexing.current_view(store, scope("paul"))


def test_a_fresh_process_parses_only_the_turns_marked_as_calling_off(tmp_path, monkeypatch):
    """Every holder of "call" or "instead" was parsed by every query process (~3.5k turns at 100k);
    the view marks which say something is called off as it reads them, saved with it."""
    store = make_store(tmp_path / "s")
    _turn(store, LISBON, "2024-01-10T09:00:00Z", "t1")
    for n in range(5):
        _turn(store, f"I'll call my sister {n} tonight instead.", f"2024-01-1{n + 1}T09:00:00Z", f"c{n}")
    _turn(store, "I will call the dentist about the appointment.", "2024-01-17T09:00:00Z", "d1")
    _turn(store, CANCEL, "2024-02-05T09:00:00Z", "t2")
    expected = [_answer(store, q) for q in QUESTIONS]
    fresh = reopen(store)
    parsed = []
    real = current_mod.CurrentView.record
    monkeypatch.setattr(current_mod.CurrentView, "record", lambda self, rid: parsed.append(rid) or real(self, rid))
    view = _view(fresh, scope("paul"), None, fresh.fingerprint(scope("paul")))
    space = planner.SearchSpace(indexing.open_index(fresh, scope("paul")), view.records, view.sessions, {})
    found = planner.turns_calling_off(space)
    assert sorted(r["statement"] for r in found) == sorted(
        [f"I'll call my sister {n} tonight instead." for n in range(5)] + [CANCEL])
    assert [r["id"] for r in found] == sorted(r["id"] for r in found)
    assert len(parsed) == len(found) == 6                            # the dentist call is not parsed
    monkeypatch.undo()
    assert [_answer(reopen(store), q) for q in QUESTIONS] == expected


def test_a_view_marking_no_turn_lists_none_without_reading_the_holders(tmp_path, monkeypatch):
    """A `memory query` process at 100k listed the ~3.7k holders of "call", "instead" ... (~10 ms)
    to find that the view marks none of them: with no mark, none is listed."""
    store = make_store(tmp_path / "s")
    _turn(store, LISBON, "2024-01-10T09:00:00Z", "t1")
    _turn(store, "I will call the dentist about the appointment instead of writing.", "2024-01-17T09:00:00Z", "d1")
    fresh = reopen(store)
    view = _view(fresh, scope("paul"), None, fresh.fingerprint(scope("paul")))
    index = indexing.open_index(fresh, scope("paul"))
    assert index.holders("call") and not view.records.marks_calling_off()
    monkeypatch.setattr(type(index), "holders", lambda self, term: pytest.fail("holders read"))
    space = planner.SearchSpace(index, view.records, view.sessions, {})
    assert planner.turns_calling_off(space) == []


def test_a_view_marked_by_another_pattern_is_rebuilt_not_misread(tmp_path, monkeypatch):
    store = make_store(tmp_path / "s")
    for n in range(3):
        _turn(store, CANCEL if n == 1 else LISBON, f"2024-01-1{n}T09:00:00Z", f"t{n}")
    view = _view_of(store)
    view.save()
    assert current_mod.CurrentView.load(view.directory, view.scope_dir).calls_off == {1}
    monkeypatch.setattr(current_mod, "_CALLING_OFF_ID", "another-pattern")
    assert current_mod.CurrentView.load(view.directory, view.scope_dir).ids == []   # read again from the log


def test_the_marks_follow_revisions_and_dropped_records():
    view = current_mod.CurrentView("/nonexistent", "/nonexistent")
    base = {"kind": "episode", "status": "active", "revision": 1, "memory_key": None,
            "source": {"speaker": "paul", "session": "s"}, "recorded_time": {"recorded_at": "2024-01-01T00:00:00Z"}}
    for rid, text in (("a", LISBON), ("b", CANCEL), ("c", "We called it off.")):
        view.absorb({**base, "id": rid, "statement": text}, "000001.jsonl", 0, 1)
    assert view.calls_off == {1, 2}
    view.absorb({**base, "id": "c", "revision": 2, "kind": "fact", "statement": "We called it off."},
                "000001.jsonl", 0, 1)
    assert view.calls_off == {1}                                      # no longer a turn
    view.forget(["a"])
    assert view.ids == ["b", "c"] and view.calls_off == {0}


def test_the_speakers_terms_are_carried_until_a_new_speaker_appears(tmp_path):
    """``speakers`` (speaker term -> names, the names stemmed) is carried across appends by known
    speakers and worked out again when an appended turn brings a new one."""
    store = make_store(tmp_path / "s")
    _turn(store, "The concert was loud.", "2024-01-10T09:00:00Z", "t1", speaker="Bob", session="s1")
    _turn(store, LISBON, "2024-01-10T09:01:00Z", "t2", session="s1")
    _same_as_a_fresh_process(store)
    known = _carried(store)["speakers"]
    assert known["bob"] == ("Bob",)
    _turn(store, "I loved it, the band was great.", "2024-01-10T09:02:00Z", "t3", speaker="Bob", session="s1")
    assert _carried(store).get("speakers") is known                  # carried, not worked out again
    _same_as_a_fresh_process(store)
    _turn(store, "Did you like the concert?", "2024-01-10T09:03:00Z", "t4", speaker="Ann Lee", session="s1")
    assert "ann" not in _carried(store).get("speakers", {})          # not carried: worked out when asked
    answers = _same_as_a_fresh_process(store)
    assert _carried(store)["speakers"]["ann"] == ("Ann Lee",)
    assert answers == [_answer(reopen(store), q) for q in QUESTIONS]
