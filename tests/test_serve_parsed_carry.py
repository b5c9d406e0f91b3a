"""A long-lived reader's snapshot after a write takes the records the older snapshot parsed
(``CurrentRecords.carry_parsed``, issue 14: a search after an add parsed its ~400 candidates
again) only when every one of them is still its record's current revision: after a write that
only appended records. After a revision (a retirement), the new snapshot reads the record again."""
from __future__ import annotations

from memory import api
from memory.query import QueryRequest, _view, run_query
from memory.store.current import CurrentRecords

from helpers import make_store, reopen, scope

AT = "2024-01-10T09:00:00Z"


def _turn(store, text: str, tx: str):
    result = api.add(store, "paul", text, speaker="paul", session="chat-1", valid_from=AT, tx=tx)
    assert result.status == "applied"
    return result.record_id


def _records(store) -> CurrentRecords:
    return _view(store, scope("paul"), None, store.fingerprint(scope("paul"))).records


def test_records_parsed_before_an_append_are_carried_and_equal_a_fresh_parse(tmp_path):
    store = make_store(tmp_path / "s")
    first = _turn(store, "I work at the bakery on Elm Street.", "t1")
    older = _records(store)
    parsed = older[first]
    _turn(store, "We went to Lisbon in March.", "t2")
    newer = _records(store)
    assert newer is not older and first in newer._parsed          # carried, not read again
    assert newer[first] is parsed
    assert run_query(store, QueryRequest(text="Where do I work?", user="paul")) == \
        run_query(reopen(store), QueryRequest(text="Where do I work?", user="paul"))


def test_a_record_revised_since_is_read_again(tmp_path):
    store = make_store(tmp_path / "s")
    first = _turn(store, "I work at the bakery on Elm Street.", "t1")
    older = _records(store)
    assert older[first]["status"] == "active"
    api.retire(store, "paul", first, at=AT, tx="t2")
    assert _records(store)[first]["status"] == "retired"
    newer = CurrentRecords(older.view)                               # a snapshot of the same view, now
    assert not newer.carry_parsed(older)                            # a revision since: nothing taken
    assert newer[first]["status"] == "retired"                      # not the parsed active revision
