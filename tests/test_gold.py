"""Gold cases: the shipped set, the loader's checks, the runner's scoring and the gates.

The scoring tests run the runner against a fake store and canned answers, so
every metric is checked by hand-computed numbers. The last tests replay real
gold cases through the engine: once as it is, once through a query function
that ignores status (a deliberately broken planner), which the gates must catch.
"""
from __future__ import annotations

import dataclasses
import json
from collections import Counter

import pytest

from memory import schemas
from memory.benchmark import gold
from memory.errors import DatasetError, PolicyError
from memory.query import run_query

CATEGORIES = ("extraction", "cross_session", "temporal", "update", "abstention", "forgetting",
              "conflict", "cross_scope", "trust")
REASONS = ("unresolved_conflict", "retired_or_expired", "candidate_or_unverified", "insufficient_evidence")


# -- helpers ----------------------------------------------------------------------------


def envelope(tx: str, operation: str = "add", record_id: str | None = None, conflict_with=None) -> dict:
    env = {"schema_version": "memory.envelope.v1", "transaction_id": tx, "operation": operation,
           "actor": {"type": "user_via_agent", "id": "assistant"},
           "source": {"type": "explicit_user", "ref": f"chat#{tx}", "observed_at": "2024-01-01T00:00:00Z",
                      "evidence_hash": None, "session": None, "speaker": None},
           "target": {"record_id": record_id, "memory_key": "user.home_city", "scope": {"type": "user", "key": "u1"}},
           "reason": "test"}
    if conflict_with is not None:
        env["payload"] = {"conflict_with": conflict_with}
    return env


def make_case(case_id: str, steps: list[tuple], text: str, state: str = "VERIFIED", reason=None,
              expected=(), forbidden=(), hard=(), query_at=None) -> dict:
    """steps: (at, envelope) or (at, envelope, expect)."""
    setup = []
    for step in steps:
        entry = {"at": step[0], "envelope": step[1]}
        if len(step) > 2:
            entry["expect"] = step[2]
        setup.append(entry)
    query = {"text": text, "user": "u1", "as_of": None, "recorded_as_of": None, "include_inactive": False}
    if query_at:
        query["at"] = query_at
    return {"case_id": case_id, "category": case_id.split("_", 1)[1].rsplit("_", 1)[0],
            "description": "a synthetic case for the runner's tests", "setup": setup, "query": query,
            "expect": {"knowledge_state": state, "reason_code": reason, "expected": list(expected),
                       "forbidden": list(forbidden), "hard_negatives": list(hard), "stale_or_retired_trap": False}}


def item(tx: str, status: str = "active", *, ref: str | None = "chat#1") -> dict:
    return {"id": f"mem_{tx}", "status": status, "statement": "…", "score": 1.0,
            "valid_time": {"from": "2024-01-01T00:00:00Z", "to": None},
            "recorded_time": {"recorded_at": "2024-01-01T00:00:00Z", "recorded_by": "assistant"},
            "source": {"type": "explicit_user", "ref": ref, "session": None, "speaker": None}}


def answer(state: str, evidence=(), reason=None) -> dict:
    return {"knowledge_state": state, "reason_code": reason, "missing_conditions": [], "evidence": list(evidence),
            "audit_only": []}


class FakeStore:
    """Applies everything (or refuses what it is told to), remembering what it saw and when."""

    def __init__(self, clock, refusals: dict | None = None, explode: bool = False):
        self.clock = clock
        self.refusals = refusals or {}
        self.explode = explode
        self.received: list[dict] = []
        self.times: list[str] = []

    def mutate(self, env: dict) -> dict:
        if self.explode:
            raise RuntimeError("disk on fire")
        self.received.append(env)
        self.times.append(self.clock.now())
        tx = env["transaction_id"]
        if tx in self.refusals:
            return {"status": "refused", "transaction_id": tx, "operation": env["operation"], "record_id": None,
                    "revision": None, "error": {"code": self.refusals[tx], "message": "refused"}}
        return {"status": "applied", "transaction_id": tx, "operation": env["operation"], "record_id": f"mem_{tx}",
                "revision": 1, "error": None}


def fake_run(cases, answers: dict, *, refusals=None, explode=False, k=5):
    """Run with canned answers keyed by query text; returns (report, the stores used)."""
    stores = []

    def factory(root, clock):
        stores.append(FakeStore(clock, refusals, explode))
        return stores[-1]

    def query_fn(store, request):
        store.query_time = store.clock.now()
        store.request = request
        return answers[request.text]

    return gold.run_gold(cases, query_fn=query_fn, k=k, store_factory=factory), stores


# -- the shipped set ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def shipped():
    return gold.load_cases()


def test_shipped_set_is_large_and_covers_every_category(shipped):
    counts = Counter(case["category"] for case in shipped)
    assert len(shipped) >= 200
    assert set(counts) == set(CATEGORIES)
    assert min(counts.values()) >= 25, counts


def test_shipped_set_covers_every_state_reason_and_proof(shipped):
    expects = [case["expect"] for case in shipped]
    assert {e["knowledge_state"] for e in expects} == {
        "VERIFIED", "VERIFIED_HISTORICAL", "VERIFIED_NEGATIVE", "VERIFIED_WITH_NEGATIVE_BOUNDARY", "UNKNOWN"}
    assert {e["reason_code"] for e in expects} - {None} == set(REASONS)
    steps = [step for case in shipped for step in case["setup"]]
    assert any(s.get("expect", {}).get("code") == "value_tombstoned" for s in steps)
    assert any(s["envelope"]["operation"] == op for s in steps for op in ("dispute", "resolve", "approve", "reject",
                                                                            "forget", "retire", "update"))
    queries = [case["query"] for case in shipped]
    assert any(q["as_of"] for q in queries) and any(q["recorded_as_of"] for q in queries)
    assert sum(e["stale_or_retired_trap"] for e in expects) >= 25


def test_every_cross_session_case_needs_two_sessions(shipped):
    for case in (c for c in shipped if c["category"] == "cross_session"):
        session_of = {s["envelope"]["transaction_id"]: s["envelope"]["source"]["session"] for s in case["setup"]}
        assert len({session_of[tx] for tx in case["expect"]["expected"]}) >= 2, case["case_id"]


def test_every_cross_scope_case_forbids_another_users_record(shipped):
    for case in (c for c in shipped if c["category"] == "cross_scope"):
        scope_of = {s["envelope"]["transaction_id"]: s["envelope"]["target"]["scope"]["key"] for s in case["setup"]}
        others = {tx for tx, key in scope_of.items() if key != case["query"]["user"]}
        assert others & set(case["expect"]["forbidden"]), case["case_id"]


def test_the_gold_schema_is_valid_2020_12():
    import jsonschema

    validator = schemas.validator("gold-case")
    jsonschema.Draft202012Validator.check_schema(validator.schema)


# -- the loader -----------------------------------------------------------------------------


def good_case(case_id="gold_update_001") -> dict:
    return make_case(case_id, [("2024-01-01T00:00:00Z", envelope("tx-a")),
                               ("2024-02-01T00:00:00Z", envelope("tx-b", "update", "@tx-a"))],
                     "where do I live?", expected=["tx-b"], forbidden=["tx-a"])


def write_lines(path, values) -> None:
    path.write_text("\n".join(v if isinstance(v, str) else json.dumps(v) for v in values) + "\n", encoding="utf-8")


def test_load_cases_reads_files_and_folders(tmp_path):
    write_lines(tmp_path / "update.jsonl", [good_case(), good_case("gold_update_002")])
    assert [c["case_id"] for c in gold.load_cases([tmp_path])] == ["gold_update_001", "gold_update_002"]
    assert len(gold.load_cases([tmp_path / "update.jsonl"])) == 2


def test_load_cases_reports_every_problem_at_once(tmp_path):
    unknown_state = good_case("gold_update_002")
    unknown_state["expect"].update(knowledge_state="UNKNOWN", reason_code=None)      # needs a reason, no expected
    dangling = good_case("gold_update_003")
    dangling["setup"][1]["envelope"]["target"]["record_id"] = "@tx-missing"
    extra_field = good_case("gold_update_004")
    extra_field["expect"]["note"] = "not in the schema"
    wrong_category = good_case("gold_temporal_005")
    wrong_category["category"] = "update"
    clock_back = good_case("gold_update_006")
    clock_back["setup"][1]["at"] = "2023-01-01T00:00:00Z"
    write_lines(tmp_path / "cases.jsonl", [good_case(), unknown_state, "{not json", dangling, good_case(),
                                           extra_field, wrong_category, clock_back])
    with pytest.raises(DatasetError) as caught:
        gold.load_cases([tmp_path])
    details = caught.value.details
    assert caught.value.code == "gold_cases_invalid"
    expected_fragments = [
        ("cases.jsonl:2 gold_update_002", "reason_code"),
        ("cases.jsonl:3", "not valid JSON"),
        ("cases.jsonl:4 gold_update_003", "'@tx-missing' names no earlier record"),
        ("cases.jsonl:5 gold_update_001", "duplicate case_id"),
        ("cases.jsonl:6 gold_update_004", "unknown field"),
        ("cases.jsonl:7 gold_temporal_005", "does not carry its category"),
        ("cases.jsonl:8 gold_update_006", "the clock goes back"),
    ]
    for where, what in expected_fragments:
        assert any(d.startswith(where) and what in d for d in details), (where, what, details)


def test_a_reference_to_a_refused_add_is_a_problem():
    case = make_case("gold_forgetting_001",
                     [("2024-01-01T00:00:00Z", envelope("tx-a"), {"status": "refused", "code": "value_tombstoned"})],
                     "q", state="UNKNOWN", reason="insufficient_evidence", forbidden=["tx-a"])
    assert gold.consistency_problems(case) == ["expect.forbidden: 'tx-a' names no record created in setup"]


def test_a_transaction_id_may_repeat_only_in_a_replay_step():
    replay = make_case("gold_forgetting_001", [("2024-01-01T00:00:00Z", envelope("tx-a")),
                                               ("2024-01-02T00:00:00Z", envelope("tx-a"), {"status": "idempotent"})],
                       "q", expected=["tx-a"])
    assert gold.consistency_problems(replay) == []
    del replay["setup"][1]["expect"]
    assert gold.consistency_problems(replay) == ["setup[1]: transaction_id 'tx-a' repeats outside a replay step"]


# -- the runner ---------------------------------------------------------------------------


def test_scores_match_hand_computed_values():
    t0, t1 = "2024-01-01T00:00:00Z", "2024-02-01T00:00:00Z"
    cases = [
        # answered right, expected first
        make_case("gold_update_001", [(t0, envelope("a1"))], "q1", expected=["a1"]),
        # expected second, behind a superseded record that must never appear: a stale use
        make_case("gold_update_002", [(t0, envelope("b-old")), (t1, envelope("b-new", "update", "@b-old"))], "q2",
                  expected=["b-new"], forbidden=["b-old"]),
        # abstained with the right reason
        make_case("gold_abstention_001", [(t0, envelope("c1"))], "q3", state="UNKNOWN",
                  reason="candidate_or_unverified", forbidden=["c1"]),
        # should have abstained, answered instead (with a hard negative and no provenance ref)
        make_case("gold_abstention_002", [(t0, envelope("d1"))], "q4", state="UNKNOWN",
                  reason="insufficient_evidence", forbidden=[], hard=["d1"]),
        # abstained wrongly: expected an answer
        make_case("gold_update_003", [(t0, envelope("e1"))], "q5", expected=["e1"]),
    ]
    answers = {
        "q1": answer("VERIFIED", [item("a1")]),
        "q2": answer("VERIFIED", [item("b-old", "retired"), item("b-new")]),
        "q3": answer("UNKNOWN", reason="candidate_or_unverified"),
        "q4": answer("VERIFIED", [item("d1", ref=None)]),
        "q5": answer("UNKNOWN", reason="insufficient_evidence"),
    }
    report, _ = fake_run(cases, answers)
    metrics = report["metrics"]
    assert report["dataset"] == "gold" and report["questions"] == 5
    assert metrics["passed"] == 2
    assert metrics["recall@1"] == pytest.approx(1 / 3)
    assert metrics["recall@5"] == pytest.approx(2 / 3)
    assert metrics["mrr"] == pytest.approx((1 + 0.5 + 0) / 3)
    assert metrics["knowledge_state_accuracy"] == pytest.approx(3 / 5)
    assert metrics["reason_code_accuracy"] == pytest.approx(1 / 2)
    assert metrics["abstention_precision"] == pytest.approx(1 / 2)     # q3 right, q5 wrong
    assert metrics["abstention_recall"] == pytest.approx(1 / 2)        # q3 found, q4 missed
    assert metrics["forbidden_hits"] == 1
    assert metrics["critical_stale_use_count"] == 1
    assert metrics["provenance_completeness"] == pytest.approx(3 / 4)
    assert report["by_category"]["update"]["questions"] == 3
    assert report["by_category"]["abstention"]["recall@5"] is None
    failures = {f["case_id"]: f["why"] for f in report["failures"]}
    assert set(failures) == {"gold_update_002", "gold_abstention_002", "gold_update_003"}
    assert "forbidden in evidence: b-old" in failures["gold_update_002"]
    assert "knowledge_state VERIFIED, expected UNKNOWN" in failures["gold_abstention_002"]
    assert "not in top 5: e1" in failures["gold_update_003"]


def test_a_forbidden_record_in_an_abstention_is_a_hit_but_not_a_stale_use():
    case = make_case("gold_abstention_001", [("2024-01-01T00:00:00Z", envelope("a")),
                                             ("2024-02-01T00:00:00Z", envelope("ret", "retire", "@a"))],
                     "q", state="UNKNOWN", reason="retired_or_expired", forbidden=["a"])
    report, _ = fake_run([case], {"q": answer("UNKNOWN", [item("a", "retired")], reason="retired_or_expired")})
    assert report["metrics"]["forbidden_hits"] == 1
    assert report["metrics"]["critical_stale_use_count"] == 0


def test_a_closed_record_counts_as_stale_even_if_the_answer_calls_it_active():
    case = make_case("gold_update_001", [("2024-01-01T00:00:00Z", envelope("a")),
                                         ("2024-02-01T00:00:00Z", envelope("b", "update", "@a"))],
                     "q", expected=["b"], forbidden=["a"])
    report, _ = fake_run([case], {"q": answer("VERIFIED", [item("b"), item("a", "active")])})
    assert report["metrics"]["critical_stale_use_count"] == 1


def test_a_hard_negative_ranked_above_the_answer_is_counted():
    steps = [("2024-01-01T00:00:00Z", envelope("home")), ("2024-01-01T00:00:00Z", envelope("office"))]
    above = make_case("gold_extraction_001", steps, "q1", expected=["home"], hard=["office"])
    below = make_case("gold_extraction_002", steps, "q2", expected=["home"], hard=["office"])
    report, _ = fake_run([above, below], {"q1": answer("VERIFIED", [item("office"), item("home")]),
                                          "q2": answer("VERIFIED", [item("home"), item("office")])})
    assert report["metrics"]["hard_negative_outranked"] == 1
    assert report["metrics"]["passed"] == 2          # informational: it fails no case


def test_references_are_substituted_and_the_clock_follows_the_steps():
    steps = [("2024-01-01T00:00:00Z", envelope("a")), ("2024-01-02T00:00:00Z", envelope("b")),
             ("2024-01-03T00:00:00Z", envelope("d", "dispute", "@a", ["@b"]))]
    case = make_case("gold_conflict_001", steps, "q", state="UNKNOWN", reason="unresolved_conflict",
                     forbidden=["a", "b"], query_at="2024-03-01T00:00:00Z")
    _, (store,) = fake_run([case], {"q": answer("UNKNOWN", reason="unresolved_conflict")})
    dispute = store.received[2]
    assert dispute["target"]["record_id"] == "mem_a"
    assert dispute["payload"]["conflict_with"] == ["mem_b"]
    assert case["setup"][2]["envelope"]["target"]["record_id"] == "@a"      # the case itself is untouched
    assert store.times == ["2024-01-01T00:00:00Z", "2024-01-02T00:00:00Z", "2024-01-03T00:00:00Z"]
    assert store.query_time == "2024-03-01T00:00:00Z"
    assert store.request.limit == 10


def test_the_query_clock_defaults_to_the_last_step():
    case = make_case("gold_update_001", [("2024-01-01T00:00:00Z", envelope("a")),
                                         ("2024-05-05T10:00:00Z", envelope("b"))], "q", expected=["a"])
    _, (store,) = fake_run([case], {"q": answer("VERIFIED", [item("a")])})
    assert store.query_time == "2024-05-05T10:00:00Z"


def test_a_setup_step_that_misbehaves_fails_the_case_with_the_reason():
    expects_refusal = make_case("gold_forgetting_001", [
        ("2024-01-01T00:00:00Z", envelope("a")),
        ("2024-01-02T00:00:00Z", envelope("again"), {"status": "refused", "code": "value_tombstoned"})],
        "q1", state="UNKNOWN", reason="insufficient_evidence")
    refused_unexpectedly = make_case("gold_update_001", [("2024-01-01T00:00:00Z", envelope("b"))], "q2",
                                     expected=["b"])
    answers = {"q1": answer("UNKNOWN", reason="insufficient_evidence"), "q2": answer("VERIFIED", [item("b")])}
    report, _ = fake_run([expects_refusal, refused_unexpectedly], answers, refusals={"b": "key_already_active"})
    why = {f["case_id"]: f["why"] for f in report["failures"]}
    assert why["gold_forgetting_001"] == "setup[1] (again): expected refused/value_tombstoned, got applied"
    assert why["gold_update_001"] == "setup[0] (b): expected applied, got refused/key_already_active"
    assert report["metrics"]["setup_failures"] == 2
    assert report["metrics"]["knowledge_state_accuracy"] == 0.0      # a broken case scores as a miss


def test_an_engine_exception_fails_only_its_case():
    case = make_case("gold_update_001", [("2024-01-01T00:00:00Z", envelope("a"))], "q", expected=["a"])
    report, _ = fake_run([case], {}, explode=True)
    assert report["failures"][0]["why"] == "engine error: RuntimeError: disk on fire"


def test_progress_is_reported_per_case():
    cases = [make_case(f"gold_update_00{n}", [("2024-01-01T00:00:00Z", envelope("a"))], "q", expected=["a"])
             for n in (1, 2)]
    seen = []
    gold.run_gold(cases, query_fn=lambda store, request: answer("VERIFIED", [item("a")]),
                  store_factory=lambda root, clock: FakeStore(clock), progress=lambda *a: seen.append(a))
    assert seen == [(1, 2), (2, 2)]


# -- gates ------------------------------------------------------------------------------------


def test_check_gates_names_each_failed_gate():
    report = {"dataset": "gold", "metrics": {"recall@5": 0.9, "forbidden_hits": 0, "abstention_precision": None},
              "by_category": {"temporal": {"mrr": 0.5}}}
    gates = {"gates": [
        {"dataset": "gold", "metric": "recall@5", "comparison": ">=", "threshold": 0.95},
        {"dataset": "gold", "metric": "forbidden_hits", "comparison": "==", "threshold": 0},
        {"dataset": "gold", "metric": "abstention_precision", "comparison": ">=", "threshold": 0.9},
        {"dataset": "gold", "metric": "mrr", "category": "temporal", "comparison": ">", "threshold": 0.6},
        {"dataset": "gold", "metric": "no_such_metric", "comparison": "<", "threshold": 1},
        {"dataset": "locomo", "metric": "recall@5", "comparison": ">=", "threshold": 0.99},
    ]}
    assert gold.check_gates(report, gates) == [
        "recall@5 >= 0.95: got 0.9",
        "abstention_precision >= 0.9: not measured",
        "[temporal] mrr > 0.6: got 0.5",
        "no_such_metric < 1: not measured",
    ]
    assert gold.check_gates(dict(report, metrics=dict(report["metrics"], **{"recall@5": 0.96})),
                            gates["gates"][:2]) == []


def test_the_shipped_gates_file_is_valid_and_has_the_required_gates():
    gates = gold.load_gates()
    named = {(g["metric"], g["comparison"], g["threshold"]) for g in gates["gates"] if g["dataset"] == "gold"}
    assert {("recall@5", ">=", 0.95), ("mrr", ">=", 0.90), ("knowledge_state_accuracy", ">=", 0.95),
            ("abstention_precision", ">=", 0.90), ("abstention_recall", ">=", 0.90),
            ("critical_stale_use_count", "==", 0), ("forbidden_hits", "==", 0)} <= named


@pytest.mark.parametrize("text, fragment", [
    ('{"schema_version": "memory.benchmark-gates.v1", "gates": [], "gates": []}', "duplicate JSON key"),
    ('{"schema_version": "memory.benchmark-gates.v1", "gates": [{"dataset": "gold", "metric": "mrr", '
     '"comparison": "~", "threshold": 1}]}', "fails its schema"),
])
def test_a_bad_gates_file_is_refused(tmp_path, text, fragment):
    path = tmp_path / "gates.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PolicyError) as caught:
        gold.load_gates(path)
    assert fragment in caught.value.message


# -- the real engine ----------------------------------------------------------------------------


def ignoring_status(store, request):
    """A broken planner: every match may answer, whatever its status or validity."""
    out = run_query(store, dataclasses.replace(request, include_inactive=True))
    pooled = sorted(out["evidence"] + out["audit_only"], key=lambda e: -e["score"])
    if pooled and out["knowledge_state"] == "UNKNOWN":
        out = dict(out, knowledge_state="VERIFIED", reason_code=None)
    return dict(out, evidence=pooled)


@pytest.mark.xdist_group("gold_on_jsonl")
def test_every_shipped_setup_replays_as_written(gold_on_jsonl):
    """Each step's result (applied, or the refusal it expects) holds in the real lifecycle."""
    report = gold.build_report(list(gold_on_jsonl.values()), 5)
    assert report["metrics"]["setup_failures"] == 0, [f for f in report["failures"] if "setup" in f["why"]]


@pytest.mark.xdist_group("gold_on_jsonl")
def test_the_shared_replay_reports_as_run_gold_does(shipped, gold_on_jsonl):
    """``gold_on_jsonl`` (conftest) stands in for ``run_gold``: the same report on a few cases."""
    few = [case for case in shipped if case["category"] in ("update", "conflict")][:3] + shipped[-2:]
    assert gold.build_report([gold_on_jsonl[case["case_id"]] for case in few], 5) == gold.run_gold(few)


@pytest.fixture(scope="module")
def trap_cases(shipped):
    return [case for case in shipped if case["category"] in ("update", "forgetting", "conflict")]


@pytest.mark.xdist_group("gold_on_jsonl")
def test_the_engine_never_uses_a_forbidden_or_stale_record(trap_cases, gold_on_jsonl):
    report = gold.build_report([gold_on_jsonl[case["case_id"]] for case in trap_cases], 5)
    assert report["metrics"]["setup_failures"] == 0, report["failures"]
    assert report["metrics"]["forbidden_hits"] == 0, report["failures"]
    assert report["metrics"]["critical_stale_use_count"] == 0


def test_a_planner_that_ignores_status_fails_the_gates(trap_cases):
    report = gold.run_gold(trap_cases, query_fn=ignoring_status)
    failed = gold.check_gates(report, gold.load_gates())
    assert report["metrics"]["critical_stale_use_count"] > 0
    assert any(f.startswith("critical_stale_use_count == 0") for f in failed)
    assert any(f.startswith("forbidden_hits == 0") for f in failed)
