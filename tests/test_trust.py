"""Issue 13, answers a user can trust: one test (or more) per failure class.

Each test shows the fix working and, where the fix is a policy flag or weight, that the
distractor wins with it off: the test fails for the bug it names.
"""
from __future__ import annotations

import json

import pytest

from helpers import add_env, by_id, envelope, update_env
from memory import planner
from memory.benchmark.gold import load_cases, run_case
from memory.decision import Match, follow_supersession, question_instant
from memory.paths import PROJECT_ROOT
from memory.policy import ForgettingPolicy, load_policy
from memory.query import QueryRequest, run_query
from test_planner_features import SETTINGS, features, space_of, turn

ALL = ("subject_attribution", "person_possessors", "asserted_support", "relation_subjects", "dialogue_pronouns",
       "negative_scope", "session_fusion", "feedback_expansion")


def fact(ref: str, text: str, *, kind: str = "fact", triggers=(), key: str | None = None) -> dict:
    record = turn(ref, None, text, session=ref, kind=kind)
    record["memory_key"] = key or f"user.{ref}"
    record["negative_triggers"] = list(triggers)
    return record


def support(space, question: str, *on: str, caller: str = "", **settings) -> dict[str, float]:
    measure = planner.support(space, question, dict(SETTINGS, **settings), features(*on), caller)
    return {rid: round(measure(rid), 3) for rid in space.records}


# -- class 1: a key noun the scope never saw weighs most ------------------------------------------

def test_key_terms_are_the_nouns_asked_about_not_the_verb_or_the_time():
    assert planner.key_terms("When does my visa expire?") == ["visa"]
    assert planner.key_terms("Which bank holds Jin's current account?", "jin") == ["bank", "current", "account"]
    assert planner.key_terms("what level was Pia's German at the end of 2023?") == ["level", "german"]
    # what is asked *for* (a name, a type, a number) is not the key: the thing it belongs to is
    assert planner.key_terms("What is my blood type?") == ["blood"]
    assert planner.key_terms("What's my dog's name?") == ["dog"]   # "What's" is not a possessive


def test_an_unseen_key_noun_keeps_a_generic_word_match_below_the_bar(store, monkeypatch):
    store.mutate(add_env("My gym membership expires in May.", "user.gym", "tx1", user="ines"))
    store.mutate(add_env("Ines rents a flat in Lyon.", "user.home", "tx2", user="ines"))
    answer = run_query(store, QueryRequest(text="When does my visa expire?", user="ines"))
    assert answer["knowledge_state"] == "UNKNOWN" and answer["evidence"] == []
    monkeypatch.setattr(planner, "key_terms", lambda question, caller="": [])  # the mechanism off
    assert run_query(store, QueryRequest(text="When does my visa expire?", user="ines"))["knowledge_state"] == "VERIFIED"


# -- class 2: whose fact a record states ---------------------------------------------------------

def test_a_relations_fact_does_not_answer_for_the_owner(tmp_path):
    space = space_of([fact("brother", "My brother's shoe size is 44."), fact("boots", "Bought hiking boots.")],
                     tmp_path)
    question = "What is my shoe size?"
    assert support(space, question, *ALL)["brother"] == 0.0
    assert support(space, question, *(set(ALL) - {"relation_subjects"}))["brother"] > 0.2
    assert support(space, "What is my brother's shoe size?", *ALL)["brother"] > 0.2


def test_a_relation_named_in_the_record_answers_for_that_name(tmp_path):
    space = space_of([fact("lena", "Olu's daughter Lena was born on 14 March 2016.")], tmp_path)
    assert support(space, "When was Lena born?", *ALL)["lena"] > 0.2


def test_x_s_relation_requires_the_relation(tmp_path):
    space = space_of([fact("zoe", "Zoe works at the city library."),
                      fact("husband", "Zoe's husband works at a bakery.")], tmp_path)
    question = "Where does Zoe's husband work?"
    assert support(space, question, *ALL)["zoe"] == 0.0
    assert support(space, question, *(set(ALL) - {"relation_subjects"}))["zoe"] > 0.2


def test_dialogue_pronouns_decide_whose_turn_it_is(tmp_path):
    records = [turn("maya", "Maya", "Jon, I work as a nurse at the city hospital now."),
               turn("jon", "Jon", "That sounds exhausting, but rewarding!"),
               turn("rosa", "Rosa", "I paint on Sundays."),
               turn("ken", "Ken", "Rosa, so you are flying to Tokyo in April.", session="s2"),
               turn("rosa2", "Rosa", "Yes, two weeks.", session="s2")]
    space = space_of(records, tmp_path)
    assert support(space, "Where does Jon work?", *ALL)["maya"] == 0.0
    assert support(space, "Where does Jon work?", *(set(ALL) - {"dialogue_pronouns"}))["maya"] > 0.2
    assert support(space, "Where is Ken flying in April?", *ALL)["ken"] == 0.0
    assert support(space, "Where is Rosa flying in April?", *ALL)["ken"] > 0.2


# -- class 5: a negative bounds only what it negates ----------------------------------------------

def test_a_negative_supports_only_a_question_about_what_it_negates(tmp_path):
    space = space_of([fact("alcohol", "Xena does not drink alcohol.", kind="negative", triggers=["wine"]),
                      fact("smoke", "Xena does not smoke.", kind="negative", triggers=["cigarettes"]),
                      fact("run", "Xena runs every morning.")], tmp_path)
    off = set(ALL) - {"negative_scope"}
    assert support(space, "What does Xena drink in the morning?", *ALL)["alcohol"] == 0.0
    assert support(space, "What does Xena drink in the morning?", *off)["alcohol"] > 0.2
    assert support(space, "Does Xena drink wine?", *ALL)["alcohol"] > 0.2
    assert support(space, "Does Xena smoke?", *ALL)["smoke"] > 0.2


# -- class 6: no mechanism kept. ``planner.full_match_weight`` (a bonus for the record holding every
# content word) ranked a constructed case right but did not pay on the test halves (LoCoMo test MRR
# 0.6012 -> 0.5991; LongMemEval and the gold cases unchanged): removed (retrieval-ablation.md).


# -- class 3: supersession chains answer with the link valid when asked -----------------------------

POLICY = ForgettingPolicy(load_policy("forgetting", PROJECT_ROOT / "config"))


def link(rid: str, text: str, start: str, end: str | None, *, by=None, after=None) -> dict:
    return {"id": rid, "kind": "fact", "status": "retired" if end else "active", "statement": text,
            "memory_key": "user.phone", "valid_time": {"from": start, "to": end}, "source": {"ref": rid},
            "sensitivity": {"classification": "private"},
            "supersession": {"supersedes": [after] if after else [], "superseded_by": by}}


CHAIN = {"a": link("a", "an old Nokia", "2020-01-01T00:00:00Z", "2021-01-01T00:00:00Z", by="b"),
         "b": link("b", "a Pixel", "2021-01-01T00:00:00Z", "2022-01-01T00:00:00Z", by="c", after="a"),
         "c": link("c", "an iPhone", "2022-01-01T00:00:00Z", None, after="b")}
CREATED = {rid: r["valid_time"]["from"] for rid, r in CHAIN.items()}
NOW = "2024-01-01T00:00:00Z"


def followed(question: str, as_of: str = NOW) -> dict[str, str | None]:
    matches = [Match(CHAIN["a"], 5.0, 0.5, 1.0, CREATED["a"], support=1.0)]
    out = follow_supersession(matches, CHAIN, CREATED, question=question, as_of=as_of, now=NOW, policy=POLICY)
    return {m.record["id"]: m.valid_at for m in out}


def test_a_match_on_a_retired_link_answers_with_the_end_of_the_chain():
    assert "c" in followed("What phone does Ben have?")
    assert set(followed("What phone does Ben have?", as_of="2021-06-01T00:00:00Z")) == {"a", "b"}


def test_a_year_in_the_question_picks_the_link_valid_that_year():
    assert question_instant("What phone did Ben have in 2021?", NOW)[0] == "2021-12-31T23:59:59Z"
    assert set(followed("What phone did Ben have in 2021?")) == {"a", "b"}


def test_follow_supersession_end_to_end(store):
    store.mutate(add_env("I like green tea.", "user.hot_drink", "tx1", kind="preference"))
    store.clock.set("2024-04-01T12:00:00Z")
    store.mutate(update_env("These days only rooibos.", "tx2", key="user.hot_drink"))
    answer = run_query(store, QueryRequest(text="What tea do I like?", user="alice"))
    assert answer["knowledge_state"] == "VERIFIED"
    assert [e["statement"] for e in answer["evidence"]] == ["These days only rooibos."]
    assert [c["statement"] for c in answer["evidence"][0]["context"]] == ["I like green tea."]


# -- class 4: disputes settle or reopen when a side leaves; resolve accepts a vanished side ---------

def _disputed(store, *statements):
    ids = [store.mutate(add_env(text, f"user.k{i}", f"tx-{i}"))["record_id"] for i, text in enumerate(statements)]
    assert store.mutate(envelope("dispute", "tx-d", record_id=ids[0],
                                 payload={"conflict_with": ids[1:]}))["status"] == "applied"
    return ids


@pytest.mark.parametrize("operation", ["forget", "erase"])
def test_removing_one_side_of_a_dispute_settles_it(store, operation):
    a, b = _disputed(store, "Locker number 17 at the pool.", "Locker number 71 at the pool.")
    assert store.mutate(by_id(operation, b, "tx-gone"))["status"] == "applied"
    answer = run_query(store, QueryRequest(text="What is my pool locker number?", user="alice"))
    assert answer["knowledge_state"] == "VERIFIED"
    assert [e["id"] for e in answer["evidence"]] == [a]


def test_removing_one_of_three_reopens_the_dispute_among_the_others(store):
    a, b, c = _disputed(store, "Train at 7:10.", "Train at 7:40.", "Train at 8:05.")
    store.mutate(by_id("forget", c, "tx-gone"))
    answer = run_query(store, QueryRequest(text="When is my train?", user="alice"))
    assert answer["reason_code"] == "unresolved_conflict"
    assert all(c not in condition for condition in answer["missing_conditions"])


@pytest.mark.parametrize("operation", ["forget", "erase"])
def test_a_settled_side_never_makes_a_second_active_record_for_its_key(store, operation):
    """Found by the heavy fuzzer: the slot was filled while its record was disputed."""
    a, b = _disputed(store, "Locker number 17 at the pool.", "Locker number 71 at the pool.")
    filled = store.mutate(add_env("Locker number 23 at the pool.", "user.k0", "tx-new"))
    assert filled["status"] == "applied"           # a disputed record does not hold its slot
    assert store.mutate(by_id(operation, b, "tx-gone"))["status"] == "applied"
    state = store.state({"type": "user", "key": "alice"})
    active = [r["id"] for r in state.currents() if r["memory_key"] == "user.k0" and r["status"] == "active"]
    assert active == [filled["record_id"]]
    assert state.current(a)["status"] == "candidate"   # it waits beside the active one


def test_resolve_accepts_a_dispute_whose_other_side_was_erased(store):
    a, b = _disputed(store, "Flight lands at 14:20.", "Flight lands at 16:40.")
    store.mutate(by_id("erase", b, "tx-gone"))
    result = store.mutate(envelope("resolve", "tx-r", record_id=a, payload={"conflict_with": [b]}))
    assert result["status"] == "applied"
    assert store.mutate(envelope("resolve", "tx-r2", record_id=a,
                                 payload={"conflict_with": ["mem_000000000000000000000000"]}))["status"] == "refused"


# -- the trust gold cases run through the engine (the dev half) ----------------------------------

def test_scores_shown_are_positive_and_higher_is_better(store):
    store.mutate(add_env("Choir meets in the church hall on Fridays.", "user.choir", "tx1"))
    store.mutate(add_env("Our choir sings Bach this month.", "user.choir2", "tx2"))
    evidence = run_query(store, QueryRequest(text="Where does my choir meet?", user="alice"))["evidence"]
    scores = [e["score"] for e in evidence]
    assert all(s > 0 for s in scores) and scores == sorted(scores, reverse=True)


def test_trust_dev_cases_answer_without_citing_a_forbidden_record():
    from memory.query import run_query as query
    from memory.store import Store
    cases = load_cases([PROJECT_ROOT / "benchmarks" / "gold" / "trust.jsonl"])
    outcomes = [run_case(case, query_fn=query, store_factory=lambda root, clock: Store.create(root, clock=clock))
                for case in cases]
    cited = [o.case["case_id"] for o in outcomes
             if o.knowledge_state not in (None, "UNKNOWN") and set(o.ranked) & set(o.case["expect"]["forbidden"])]
    assert cited == []
    assert json.dumps([o.failure for o in outcomes if o.failure]) == "[]"


# -- the benchmark side: halves, the abstention curve, the floor gate ---------------------------

def test_halves_are_a_fixed_balanced_rule_by_stratum():
    from memory.benchmark.datasets import half_of
    items = [(f"q{i}", "abs" if i % 10 == 0 else "plain") for i in range(40)]
    halves = half_of(items, lambda item: item[0], lambda item: item[1])
    assert halves == half_of(list(reversed(items)), lambda item: item[0], lambda item: item[1])  # order-free
    for stratum in ("abs", "plain"):
        named = [halves[i] for i, s in items if s == stratum]
        assert abs(named.count("dev") - named.count("test")) <= 1


def test_the_abstention_curve_and_the_dev_operating_point():
    from memory.benchmark.datasets import abstention_curve, operating_point
    rows = ([{"should_abstain": True, "confidence": 0.05}] * 6 + [{"should_abstain": True, "confidence": 0.5}] * 4
            + [{"should_abstain": False, "confidence": 0.6}] * 40)
    curve = {p["threshold"]: p for p in abstention_curve(rows)}
    assert curve[0.1] == {"threshold": 0.1, "abstained": 6, "precision": 1.0, "recall": 0.6,
                          "false_abstention_rate": 0.0}
    assert curve[0.65]["false_abstention_rate"] == 1.0
    point = operating_point(list(curve.values()))
    assert point["meets_target"] and point["recall"] == 1.0 and point["threshold"] == 0.5   # at or below


def test_a_floor_gate_compares_with_the_baseline_in_the_same_report():
    from memory.benchmark.gold import check_gates
    report = {"dataset": "locomo", "metrics": {"mrr": 0.5}, "baselines": {"bm25_turns": {"metrics": {"mrr": 0.6}}}}
    gate = {"dataset": "locomo", "metric": "mrr", "comparison": ">=", "threshold": 0, "against": "bm25_turns"}
    assert check_gates(report, [gate]) == ["mrr >= bm25_turns (0.6): got 0.5"]
    report["metrics"]["mrr"] = 0.6
    assert check_gates(report, [gate]) == []
