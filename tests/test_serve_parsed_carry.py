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


def _grouped(slots) -> list:
    return [(key, [record["id"] for record in slots[key]]) for key in slots]


def test_keyed_records_grouped_after_an_append_equal_a_fresh_grouping(tmp_path):
    store = make_store(tmp_path / "s")
    for n, (key, text) in enumerate([("job", "I work at Globex."), ("city", "I live in Porto."),
                                     ("pet", "My dog is Rex.")]):
        api.add(store, "paul", text, key=key, valid_from=AT, tx=f"k{n}")
    older = _records(store)
    before = older.keyed_slots()
    assert [r["statement"] for r in before["job"]] == ["I work at Globex."]     # parsed: carried
    api.add(store, "paul", "I also work at Initech.", key="job", valid_from=AT, tx="k3")
    api.add(store, "paul", "I drive a Volvo.", key="car", valid_from=AT, tx="k4")
    _turn(store, "Lunch was great.", "k5")
    newer = _records(store)
    assert getattr(newer, "_keyed_from", None) is not None                       # extended, not regrouped
    after = newer.keyed_slots()
    assert _grouped(after) == _grouped(CurrentRecords(newer.view).keyed_slots())
    assert [r["statement"] for r in after["car"]] == ["I drive a Volvo."]       # a key the append brought
    assert _grouped(before) == [("job", [before["job"][0]["id"]]), ("city", [before["city"][0]["id"]]),
                                ("pet", [before["pet"][0]["id"]])]             # the older one unchanged


def test_the_turn_count_kept_by_the_groups_follows_appends_of_turns_and_facts(tmp_path):
    # ``Sessions.turns`` reads how many slots are in no session from the groups, counted once and
    # then kept by each append: a fact (in no session) and a turn each move it as a recount does
    from memory import indexing
    from memory.store import Sessions

    store = make_store(tmp_path / "s")
    _turn(store, "We went to Lisbon in March.", "t1")
    api.add(store, "paul", "I work at Globex.", key="job", valid_from=AT, tx="t2")
    view = indexing.current_view(store, scope("paul"))

    def recount(sessions) -> int:
        return sum(len(sessions[name]) for name in sessions)
    assert Sessions(view).turns() == recount(Sessions(view)) == 1
    api.add(store, "paul", "I live in Porto.", key="city", valid_from=AT, tx="t3")
    _turn(store, "Lunch was great.", "t4")
    api.add(store, "paul", "My dog is Rex.", key="pet", valid_from=AT, tx="t5")
    assert indexing.current_view(store, scope("paul")) is view       # extended in place
    assert Sessions(view).turns() == recount(Sessions(view)) == 2
    older = Sessions(view)
    older._count -= 2                                                # a snapshot before the last two
    assert older.turns() == 1
