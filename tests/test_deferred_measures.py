"""Issue 14, the in-process query: a match's support, stated and swapped supports are measured when
the decision reads them (``Match.defer``), never changing an answer. The decision reads no support
of a match holding none of the question, and a stated or swapped support only when the best
support is too weak to rule them out (a support measure is at most 1)."""
from __future__ import annotations

import json

import pytest

from memory import api, planner
from memory.clock import FixedClock
from memory.decision import Match, decide, follow_supersession, swapped_better
from memory.policy import ForgettingPolicy, load_policy
from memory.query import QueryRequest, retrieve, run_query

NOW = "2024-06-01T00:00:00Z"
FORGETTING = ForgettingPolicy(load_policy("forgetting"))


def _record(name: str, kind: str = "episode", key: str | None = None) -> dict:
    return {"id": name, "revision": 1, "kind": kind, "status": "active", "memory_key": key, "statement": name,
            "valid_time": {"from": "2024-01-01T00:00:00Z", "to": None}, "source": {"speaker": "Ann"},
            "supersession": {"supersedes": [], "superseded_by": None}, "conflict": {"with": []},
            "sensitivity": {"classification": "private"}}


def _never(record_id: str) -> float:
    raise AssertionError(f"{record_id} measured, but the decision could not read it")


def _match(name: str, coverage: float, **deferred) -> Match:
    match = Match(_record(name), 1.0, 1.0, coverage, "2024-01-01T00:00:00Z")
    match.defer(name, **deferred)
    return match


def _state(matches, **ratios) -> str:
    return decide(matches, as_of=NOW, now=NOW, policy=FORGETTING, min_coverage=0.2, scope_label="user:u",
                  query_terms=["x"], **ratios).knowledge_state


def test_a_deferred_field_is_measured_once_when_read_and_dropped_when_set():
    calls = []
    match = _match("a", 0.5, support=lambda record_id: calls.append(record_id) or 0.7)
    assert match.deferred("support") and calls == []
    assert match.support == 0.7 and match.support == 0.7
    assert calls == ["a"] and not match.deferred("support")
    other = _match("b", 0.5, support=_never, stated=_never, swapped=_never)
    other.support, other.stated, other.swapped = 0.0, 0.0, None   # as the time tests zero a match
    assert (other.support, other.stated, other.swapped) == (0.0, 0.0, None)


def test_a_matchs_fields_copied_into_another_carry_what_is_deferred():
    # ``follow_supersession`` makes a present match the successor it builds by copying its __dict__
    measured = Match(_record("a"), 1.0, 1.0, 0.5, "2024-01-01T00:00:00Z", support=0.3)
    deferred = _match("b", 0.5, support=lambda record_id: {"b": 0.9}[record_id])
    measured.__dict__.update(deferred.__dict__)
    assert measured.support == 0.9
    deferred = _match("c", 0.5, support=_never)
    deferred.__dict__.update(Match(_record("d"), 1.0, 1.0, 0.5, "2024-01-01T00:00:00Z", support=0.3).__dict__)
    assert deferred.support == 0.3


def test_the_decision_reads_no_support_of_a_match_holding_none_of_the_question():
    answer, unrelated = _match("a", 0.6, support=lambda _: 0.6), _match("b", 0.0, support=_never)
    assert _state([answer, unrelated], support_ratio=0.5, evidence_ratio=0.4, swap_ratio=0.6) == "VERIFIED"
    assert unrelated.deferred("support")


def test_a_strong_support_settles_the_contest_and_the_swap_without_measuring_them():
    strong = _match("a", 0.6, support=lambda _: 0.8, stated=_never, swapped=_never)
    other = _match("b", 0.9, support=lambda _: 0.0, stated=_never, swapped=_never)
    assert _state([strong, other], support_ratio=0.5, swap_ratio=0.6) == "VERIFIED"
    assert strong.deferred("stated") and other.deferred("swapped")


@pytest.mark.parametrize("support, stated, swapped, expected", [
    (0.3, 0.9, 0.0, "UNKNOWN"),     # contested: what another record states is far better
    (0.3, 0.5, 0.9, "UNKNOWN"),     # the question asked of the other speaker is answered far better
    (0.3, 0.5, 0.4, "VERIFIED"),
    (0.45, 0.9, 0.0, "VERIFIED"),   # a known stated value above the bound of 1 is not needed
])
def test_a_weak_support_measures_them_and_decides_as_measured_at_once(support, stated, swapped, expected):
    def matches(deferred: bool) -> list[Match]:
        found = []
        for name, values in (("a", (support, 0.3, 0.0)), ("b", (0.0, stated, swapped))):
            match = Match(_record(name), 1.0, 1.0, 0.5, "2024-01-01T00:00:00Z")
            if deferred:
                match.defer(name, *(lambda _, v=v: v for v in values))
            else:
                match.support, match.stated, match.swapped = values
            found.append(match)
        return found
    ratios = dict(support_ratio=0.5, swap_ratio=0.6, evidence_ratio=0.4)
    assert _state(matches(True), **ratios) == _state(matches(False), **ratios) == expected
    assert swapped_better(matches(True), 0.6) == swapped_better(matches(False), 0.6)


def test_a_successor_borrows_a_deferred_support():
    old = dict(_record("old", "fact", "user.home"), status="retired",
               valid_time={"from": "2024-01-01T00:00:00Z", "to": "2024-03-01T00:00:00Z"},
               supersession={"supersedes": [], "superseded_by": "new"})
    new = dict(_record("new", "fact", "user.home"), valid_time={"from": "2024-03-01T00:00:00Z", "to": None},
               supersession={"supersedes": ["old"], "superseded_by": None})
    match = Match(old, 1.0, 1.0, 0.5, old["valid_time"]["from"])
    match.defer("old", support=lambda _: 0.6)
    found = follow_supersession([match], {"old": old, "new": new}, {"old": old["valid_time"]["from"],
                                                                    "new": new["valid_time"]["from"]},
                                question="Where do I live?", as_of=NOW, now=NOW, policy=FORGETTING)
    assert [m.record["id"] for m in found] == ["old", "new"] and found[1].support == 0.6


# -- end to end: the same answers as every measure taken at once ----------------------------------------

TURNS = [("Caroline", "After the charity race I realized that self-care matters."),
         ("Melanie", "I painted a sunset over the lake last weekend."),
         ("Caroline", "My sister Maria moved to Lisbon in March."),
         ("Melanie", "Your sister sounds lovely! My brother lives in Porto."),
         ("Caroline", "I adopted a cat called Luna."),
         ("Melanie", "We're planning a trip to Lisbon in May, I'll cancel the Porto trip instead.")]
QUESTIONS = ["What did Melanie realize after the charity race?", "What did Caroline realize after the race?",
             "Where does Caroline's sister live?", "What did Melanie paint?", "What did Caroline paint?",
             "Where does Melanie's brother live?", "What is Caroline's cat called?", "Where do I live?",
             "What colour is my van?", "When does my gym membership expire?", "Where is Melanie going in May?"]


def test_deferred_measures_give_the_answers_of_eager_ones(tmp_path, monkeypatch):
    store = api.open_store(tmp_path / "s", create=True, clock=FixedClock(NOW))
    api.add_conversation(store, {"request_id": "r1", "user_id": "ann", "session_id": "s1",
                                 "messages": [{"role": who, "content": text, "timestamp": None}
                                              for who, text in TURNS]})
    api.add(store, "ann", "I live in Oslo.", key="user.home")
    api.add(store, "ann", "My gym membership expires in May.", key="user.gym")
    requests = [QueryRequest(text=q, user="ann", limit=limit, include_inactive=limit > 10)
                for q in QUESTIONS for limit in (10, 100)]
    deferred = [json.dumps(run_query(store, request), sort_keys=True) for request in requests]
    # the benchmarks' path: every eligible match, the answer and its confidence
    retrieved = [json.dumps(retrieve(store, QueryRequest(text=q, user="ann", limit=100))) for q in QUESTIONS]

    def at_once(self, record_id, support=None, stated=None, swapped=None, swapped_none=None):
        for name, measure in (("support", support), ("stated", stated), ("swapped", swapped)):
            if measure is not None:
                setattr(self, name, measure(record_id))
    monkeypatch.setattr(Match, "defer", at_once)
    assert [json.dumps(run_query(store, request), sort_keys=True) for request in requests] == deferred
    assert [json.dumps(retrieve(store, QueryRequest(text=q, user="ann", limit=100)))
            for q in QUESTIONS] == retrieved


def test_the_support_setup_is_shared_by_the_as_asked_and_ungated_readings(tmp_path, monkeypatch):
    from test_planner_features import SETTINGS, features, space_of, turn
    space = space_of([turn("a", "Ann", "My van is green."), turn("b", "Bo", "I own a van.")], tmp_path)
    setups = []
    set_up = planner._set_up_support
    monkeypatch.setattr(planner, "_set_up_support", lambda *a: setups.append(a[1]) or set_up(*a))
    on = features("subject_attribution", "asked_attributes", "stated_contest")
    asked = planner.support(space, "What colour is Ann's van?", SETTINGS, on)
    ungated = planner.support(space, "What colour is Ann's van?", SETTINGS, on, ungated=True)
    assert setups == ["What colour is Ann's van?"]
    assert (asked("a"), asked("b")) != (0.0, 0.0) or (ungated("a"), ungated("b")) != (0.0, 0.0)
    # another settings dict is another setup
    planner.support(space, "What colour is Ann's van?", dict(SETTINGS, unseen_key_weight=4), on)
    assert len(setups) == 2


def test_the_trust_tests_read_no_support_of_a_match_holding_none_of_the_question(tmp_path, monkeypatch):
    # session 8 and 9's tests (change_starts, recurring_times, the mood, act and head tests) ran over
    # every match after ``planner.support`` and read each support, measuring the matches the decision
    # never reads; they run in the deferred reading now (``query._ReadTests``)
    from memory import query
    store = api.open_store(tmp_path / "s", create=True, clock=FixedClock(NOW))
    api.add_conversation(store, {"request_id": "r1", "user_id": "ann", "session_id": "s1",
                                 "messages": [{"role": who, "content": text, "timestamp": None}
                                              for who, text in TURNS]})
    reached = []
    decided = query.decide_mod.decide

    def spy(matches, **settings):
        reached.extend((m.coverage, m.deferred("support")) for m in matches)
        return decided(matches, **settings)
    monkeypatch.setattr(query.decide_mod, "decide", spy)
    for question in ("What did Melanie paint?", "What is Caroline's cat called?", "Where do I live?"):
        run_query(store, QueryRequest(text=question, user="ann"))
    unrelated = [deferred for coverage, deferred in reached if coverage == 0]
    assert unrelated and all(unrelated)


@pytest.mark.parametrize("support, expected", [(0.9, "VERIFIED"),   # 1 - 0.9 is below the margin whatever
                                               (0.0, "UNKNOWN")])  # nothing supports it: no score to take
def test_the_sureness_reads_no_swapped_support_it_need_not(support, expected):
    # ``decision.sureness_margin``: a question naming one speaker is decided by the best swapped
    # support less the best support; a swapped support is at most 1, so a best support above
    # 1 - margin answers, and without one there is nothing to answer with: neither sets up the
    # swapped questions' support tests (``Match.holds_swapped``)
    answer = _match("a", 0.6, support=lambda _: support, stated=_never, swapped=_never)
    other = _match("b", 0.5, support=lambda _: 0.0, stated=_never, swapped=_never)
    assert decide([answer, other], as_of=NOW, now=NOW, policy=FORGETTING, min_coverage=0.2, scope_label="user:u",
                  query_terms=["x"], support_ratio=0.5, swap_ratio=0.6, evidence_ratio=0.4,
                  sureness_margin=0.25).knowledge_state == expected
    assert answer.deferred("swapped") and other.deferred("swapped")


def test_a_swapped_support_of_a_match_failing_the_trust_tests_reads_none_unmeasured():
    failing = _match("a", 0.6, support=lambda _: 0.0, swapped=_never, swapped_none=lambda _: True)
    assert not failing.holds_swapped() and failing.deferred("swapped")
    assert _match("b", 0.6, swapped=_never).holds_swapped()


def test_later_values_read_no_support_of_a_match_naming_no_later_value():
    # ``features.later_values`` silences a match naming what only a later link of the answering slot
    # holds; a match naming none of it is not measured for that
    from memory.decision import _silence_later_values
    old = dict(_record("I drive a Skoda", "fact", "user.car"),
               valid_time={"from": "2023-01-01T00:00:00Z", "to": "2024-03-01T00:00:00Z"},
               supersession={"supersedes": [], "superseded_by": "I drive a Tesla"})
    new = dict(_record("I drive a Tesla", "fact", "user.car"), valid_time={"from": "2024-03-01T00:00:00Z", "to": None},
               supersession={"supersedes": ["I drive a Skoda"], "superseded_by": None})
    records = {r["id"]: r for r in (old, new)}
    answer = Match(old, 1.0, 1.0, 0.6, old["valid_time"]["from"], support=0.6, valid_at="2023-06-01T00:00:00Z")
    tesla = _match("The Tesla has room for five", 0.3, support=lambda _: 0.3)
    unrelated = _match("We went hiking", 0.0, support=_never)
    _silence_later_values([answer, tesla, unrelated], records, {r["id"]: r["valid_time"]["from"] for r in records.values()},
                          {"user.car": [old, new]}, as_of=NOW, now=NOW, policy=FORGETTING)
    assert tesla.support == 0.0 and unrelated.deferred("support")


def test_the_stated_measure_is_set_up_only_when_read(tmp_path, monkeypatch):
    # ``stated_contest``: the decision reads a stated support only when the best support does not
    # settle the contest, so the ungated reading is set up on the first one read
    from memory import query
    store = api.open_store(tmp_path / "s", create=True, clock=FixedClock(NOW))
    api.add(store, "ann", "I live in Oslo.", key="user.home")
    ungated = []
    support = planner.support

    def spy(*args, **kwargs):
        ungated.append(kwargs.get("ungated", False))
        return support(*args, **kwargs)
    monkeypatch.setattr(query.planner, "support", spy)
    assert run_query(store, QueryRequest(text="Where do I live?", user="ann"))["knowledge_state"] == "VERIFIED"
    assert ungated and not any(ungated)


def test_the_value_bridge_reads_no_support_of_a_match_naming_no_link():
    # ``features.value_bridge`` (a past question naming no thing: every activity question, "What did I get
    # up to last week?") read the support of every match without a key before looking at what it names;
    # only a match naming a slot's link by a name only that link holds is measured now (read11)
    from memory.decision import _bridge_named_values
    old = dict(_record("I drive a Skoda", "fact", "user.car"),
               valid_time={"from": "2023-01-01T00:00:00Z", "to": "2024-03-01T00:00:00Z"},
               supersession={"supersedes": [], "superseded_by": "I drive a Tesla"})
    new = dict(_record("I drive a Tesla", "fact", "user.car"), valid_time={"from": "2024-03-01T00:00:00Z", "to": None},
               supersession={"supersedes": ["I drive a Skoda"], "superseded_by": None})
    records = {r["id"]: r for r in (old, new)}
    created = {r["id"]: r["valid_time"]["from"] for r in records.values()}
    tesla = _match("I'll drive you, the Tesla has room", 0.3, support=lambda _: 0.3)
    unrelated = _match("We went hiking in the hills", 0.3, support=_never)
    added = _bridge_named_values([tesla, unrelated], records, created, {"user.car": [old, new]}, named=None,
                                 instant="2023-06-01T00:00:00Z", before=False, now=NOW, policy=FORGETTING)
    assert [m.record["id"] for m in added] == ["I drive a Skoda"] and added[0].support == 0.3
    assert tesla.support == 0.0 and unrelated.deferred("support")


def test_an_activity_question_reads_no_support_of_a_fact_before_the_decision(tmp_path, monkeypatch):
    # ``period_doings`` read every match's support after the loop ("What did I get up to last week?"),
    # and the value bridge every unkeyed one's: a stated fact's test is a deferred one now
    # (``query._doings_of`` in ``_ReadTests``), and a turn's coverage raise reads its support in the loop
    from memory import query
    then, asked = "2024-05-22T10:00:00Z", "2024-06-01T00:00:00Z"   # a Wednesday of the week before
    store = api.open_store(tmp_path / "s", create=True, clock=FixedClock(then))
    api.add_conversation(store, {"request_id": "r1", "user_id": "ann", "session_id": "s1",
                                 "messages": [{"role": "user", "content": "Rode the lakes loop, got soaked.",
                                               "timestamp": then},
                                              {"role": "assistant", "content": "Sounds wet!", "timestamp": then}]})
    api.add(store, "ann", "My gas bill for May was 64 euros.", key="user.gas_bill")
    store = api.open_store(tmp_path / "s", clock=FixedClock(asked))
    reached = []
    decided = query.decide_mod.decide

    def spy(matches, **settings):
        reached.extend((m.record["statement"], m.deferred("support")) for m in matches)
        return decided(matches, **settings)
    monkeypatch.setattr(query.decide_mod, "decide", spy)
    answer = run_query(store, QueryRequest(text="What did I get up to last week?", user="ann"))
    assert [e["statement"] for e in answer["evidence"]] == ["Rode the lakes loop, got soaked."]
    assert dict(reached)["My gas bill for May was 64 euros."] is True
