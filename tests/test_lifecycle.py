"""lifecycle: what each operation writes — revisions, statuses, valid time, links, transition rows."""
from __future__ import annotations

import hashlib

import pytest

from memory import lifecycle
from memory.envelope import admit, envelope_sha256
from memory.errors import NotFoundError
from memory.lifecycle import ScopeState
from memory.paths import DEFAULT_CONFIG_DIR
from memory.records import hash_ok, record_id_for, tombstone_hash

from helpers import NOW, add_env, by_id, envelope, scope, update_env

POLICY_SHA = hashlib.sha256((DEFAULT_CONFIG_DIR / "mutation-policy.json").read_bytes()).hexdigest()
PARIS = "The user lives in Paris."
BERLIN = "The user lives in Berlin."
ACTOR = {"type": "user_via_agent", "id": "tester"}
REVIEWER = {"type": "reviewer", "id": "rita"}


def applied(store, env) -> dict:
    result = store.mutate(env)
    assert result["status"] == "applied", result
    return result


def transition(operation, tx, from_status, to_status, *, before=None, after=None, at=NOW, actor=ACTOR,
               env=None, group=1, tombstone=None, reason="test reason") -> dict:
    return {"operation": operation, "transaction_id": tx, "actor": actor, "reason": reason,
            "from_status": from_status, "to_status": to_status, "valid_to_before": before,
            "valid_to_after": after, "policy_sha256": POLICY_SHA, "recorded_at": at,
            "envelope_sha256": envelope_sha256(env), "tombstone": tombstone, "group_size": group}


@pytest.fixture
def paris(store):
    env = add_env(PARIS, "user.home_city", "tx-paris", valid_from="2021-09-01T00:00:00Z",
                  payload_extra={"aliases": ["home city"], "confidence": "medium"})
    return applied(store, env)["record_id"], env


def candidate(store, statement, key, tx):
    env = add_env(statement, key, tx, source="model_inference", actor="agent")
    return applied(store, env)["record_id"], env


# -- add -------------------------------------------------------------------------

def test_add_writes_an_active_first_revision_with_its_transition(store, paris):
    record_id, env = paris
    assert record_id == record_id_for(scope(), "tx-paris")
    record = store.get(record_id, scope())
    assert {k: record[k] for k in ("revision", "memory_key", "kind", "statement", "status", "scope")} == {
        "revision": 1, "memory_key": "user.home_city", "kind": "fact", "statement": PARIS, "status": "active",
        "scope": scope()}
    assert record["valid_time"] == {"from": "2021-09-01T00:00:00Z", "to": None}
    assert record["recorded_time"] == {"recorded_at": NOW, "recorded_by": "tester"}
    assert record["source"] == env["source"]
    assert record["verification"] == {"state": "verified", "method": "explicit_user", "verified_by": "tester",
                                      "verified_at": NOW}
    assert record["conflict"] == {"state": "none", "with": [], "resolution": None}
    assert record["supersession"] == {"supersedes": [], "superseded_by": None, "reason": None}
    assert record["sensitivity"] == {"classification": "private", "credential_present": False, "handling": "store"}
    assert (record["aliases"], record["confidence"], record["importance"]) == (["home city"], "medium", "medium")
    assert record["transition"] == transition("add", "tx-paris", None, "active", env=env)
    assert hash_ok(record)


def test_add_without_valid_from_starts_now(store):
    result = applied(store, add_env("The user likes tea.", "user.drink", "tx-tea"))
    assert store.get(result["record_id"], scope())["valid_time"] == {"from": NOW, "to": None}


def test_add_from_model_inference_lands_as_an_unverified_candidate(store, paris):
    record_id, env = candidate(store, "The user lives in Lyon.", "user.home_city", "tx-lyon")
    record = store.get(record_id, scope())
    assert record["status"] == "candidate"
    assert record["verification"] == {"state": "unverified", "method": None, "verified_by": None,
                                      "verified_at": None}
    assert record["transition"]["to_status"] == "candidate"
    # the active record of the key is untouched by a candidate
    assert store.get(paris[0], scope())["status"] == "active"


def test_add_episode_keeps_session_and_speaker(store):
    env = add_env("I moved to Berlin last week!", None, "tx-ep", kind="episode", source="conversation",
                  actor="importer")
    env["source"].update(ref="D1:3", session="session_1", speaker="Caroline")
    record = store.get(applied(store, env)["record_id"], scope())
    assert record["memory_key"] is None and record["kind"] == "episode"
    assert (record["source"]["ref"], record["source"]["session"], record["source"]["speaker"]) == \
        ("D1:3", "session_1", "Caroline")


# -- update ----------------------------------------------------------------------

def test_update_supersedes_closes_validity_and_links_both(store, paris):
    old_id, _ = paris
    store.clock.set("2024-03-05T00:00:00Z")
    env = update_env(BERLIN, "tx-berlin", key="user.home_city", valid_from="2024-03-04T00:00:00Z")
    result = applied(store, env)
    new_id = result["record_id"]
    assert (new_id, result["revision"]) == (record_id_for(scope(), "tx-berlin"), 1)

    new, old = store.get(new_id, scope()), store.get(old_id, scope())
    assert (new["status"], new["revision"], new["statement"]) == ("active", 1, BERLIN)
    assert new["valid_time"] == {"from": "2024-03-04T00:00:00Z", "to": None}
    assert new["supersession"] == {"supersedes": [old_id], "superseded_by": None, "reason": "test reason"}
    assert (new["aliases"], new["confidence"], new["kind"]) == (["home city"], "medium", "fact")   # inherited
    assert new["transition"] == transition("update", "tx-berlin", None, "active", at="2024-03-05T00:00:00Z",
                                           env=env, group=2)

    assert (old["status"], old["revision"], old["statement"]) == ("retired", 2, PARIS)
    assert old["valid_time"] == {"from": "2021-09-01T00:00:00Z", "to": "2024-03-04T00:00:00Z"}
    assert old["supersession"] == {"supersedes": [], "superseded_by": new_id, "reason": "test reason"}
    assert old["recorded_time"] == {"recorded_at": "2024-03-05T00:00:00Z", "recorded_by": "tester"}
    assert old["transition"] == transition("update", "tx-berlin", "active", "retired", before=None,
                                           after="2024-03-04T00:00:00Z", at="2024-03-05T00:00:00Z",
                                           env=env, group=2)
    first, second = store.history(old_id, scope())
    assert first["status"] == "active" and first["transition"]["operation"] == "add" and hash_ok(first)
    assert hash_ok(second)


def test_future_dated_update_keeps_the_current_value_valid_until_it_starts(store, paris):
    old_id, _ = paris
    result = applied(store, update_env(BERLIN, "tx-future", key="user.home_city",
                                       valid_from="2024-06-01T00:00:00Z"))
    new, old = store.get(result["record_id"], scope()), store.get(old_id, scope())
    assert new["valid_time"] == {"from": "2024-06-01T00:00:00Z", "to": None}
    assert old["valid_time"] == {"from": "2021-09-01T00:00:00Z", "to": "2024-06-01T00:00:00Z"}
    assert old["status"] == "retired" and new["status"] == "active"
    assert old["transition"]["recorded_at"] == new["transition"]["recorded_at"] == NOW


def test_update_by_record_id(store, paris):
    result = applied(store, update_env(BERLIN, "tx-id", record_id=paris[0]))
    assert store.get(paris[0], scope())["supersession"]["superseded_by"] == result["record_id"]
    assert store.get(result["record_id"], scope())["valid_time"]["from"] == NOW


def test_a_second_update_chains_from_the_new_active_record(store, paris):
    store.clock.set("2024-04-01T00:00:00Z")
    berlin = applied(store, update_env(BERLIN, "tx-2", key="user.home_city"))["record_id"]
    store.clock.set("2024-05-01T00:00:00Z")
    rome = applied(store, update_env("The user lives in Rome.", "tx-3", key="user.home_city"))["record_id"]
    assert store.get(berlin, scope())["valid_time"] == {"from": "2024-04-01T00:00:00Z",
                                                        "to": "2024-05-01T00:00:00Z"}
    assert store.get(rome, scope())["supersession"]["supersedes"] == [berlin]
    assert [r["status"] for r in store.state(scope()).currents()] == ["retired", "retired", "active"]


# -- retire ----------------------------------------------------------------------

def test_retire_closes_validity_at_now_by_default(store, paris):
    env = by_id("retire", paris[0], "tx-retire")
    result = applied(store, env)
    record = store.get(paris[0], scope())
    assert (result["record_id"], result["revision"]) == (paris[0], 2)
    assert record["status"] == "retired"
    assert record["valid_time"] == {"from": "2021-09-01T00:00:00Z", "to": NOW}
    assert record["transition"] == transition("retire", "tx-retire", "active", "retired", before=None,
                                               after=NOW, env=env)


def test_retire_at_a_given_instant(store, paris):
    applied(store, by_id("retire", paris[0], "tx-r", valid={"from": None, "to": "2023-01-01T00:00:00Z"}))
    assert store.get(paris[0], scope())["valid_time"]["to"] == "2023-01-01T00:00:00Z"


# -- dispute and resolve ---------------------------------------------------------

def test_dispute_marks_every_named_record_unresolved(store, paris):
    lyon, _ = candidate(store, "The user lives in Lyon.", "user.home_city", "tx-lyon")
    env = by_id("dispute", paris[0], "tx-dispute", payload={"conflict_with": [lyon]})
    result = applied(store, env)
    assert (result["record_id"], result["revision"]) == (paris[0], 2)
    holder, other = store.get(paris[0], scope()), store.get(lyon, scope())
    assert holder["status"] == other["status"] == "disputed"
    assert holder["conflict"] == {"state": "unresolved", "with": [lyon], "resolution": None}
    assert other["conflict"] == {"state": "unresolved", "with": [paris[0]], "resolution": None}
    assert holder["transition"] == transition("dispute", "tx-dispute", "active", "disputed", env=env, group=2)
    assert other["transition"]["from_status"] == "candidate"


def test_a_repeated_id_in_conflict_with_gets_one_revision(store, paris):
    lyon, _ = candidate(store, "The user lives in Lyon.", "user.home_city", "tx-lyon")
    applied(store, by_id("dispute", paris[0], "tx-d", payload={"conflict_with": [lyon, lyon, paris[0]]}))
    assert [r["revision"] for r in store.history(lyon, scope())] == [1, 2]
    assert store.get(paris[0], scope())["transition"]["group_size"] == 2


def test_resolve_makes_the_holder_active_and_rejects_the_others(store, paris):
    lyon, _ = candidate(store, "The user lives in Lyon.", "user.home_city", "tx-lyon")
    applied(store, by_id("dispute", paris[0], "tx-dispute", payload={"conflict_with": [lyon]}))
    store.clock.set("2024-03-02T00:00:00Z")
    env = by_id("resolve", lyon, "tx-resolve", payload={"conflict_with": [paris[0]]})
    result = applied(store, env)
    assert (result["record_id"], result["revision"]) == (lyon, 3)
    held, loser = store.get(lyon, scope()), store.get(paris[0], scope())
    assert held["status"] == "active" and loser["status"] == "rejected"
    assert held["conflict"] == {"state": "resolved", "with": [paris[0]], "resolution": "held"}
    assert loser["conflict"] == {"state": "resolved", "with": [lyon], "resolution": "rejected"}
    assert held["verification"] == {"state": "verified", "method": "resolution", "verified_by": "tester",
                                    "verified_at": "2024-03-02T00:00:00Z"}
    assert loser["verification"]["state"] == "rejected"
    assert held["transition"] == transition("resolve", "tx-resolve", "disputed", "active",
                                            at="2024-03-02T00:00:00Z", env=env, group=2)
    assert loser["transition"]["from_status"] == "disputed" and loser["transition"]["to_status"] == "rejected"


# -- review ----------------------------------------------------------------------

def test_approve_makes_a_candidate_active(store):
    pet, _ = candidate(store, "The user has a cat.", "user.pet", "tx-pet")
    store.clock.set("2024-03-02T00:00:00Z")
    env = by_id("approve", pet, "tx-approve", actor="reviewer", actor_id="rita")
    result = applied(store, env)
    record = store.get(pet, scope())
    assert (result["revision"], record["status"]) == (2, "active")
    assert record["verification"] == {"state": "verified", "method": "review", "verified_by": "rita",
                                      "verified_at": "2024-03-02T00:00:00Z"}
    assert record["recorded_time"] == {"recorded_at": "2024-03-02T00:00:00Z", "recorded_by": "rita"}
    assert record["transition"] == transition("approve", "tx-approve", "candidate", "active", actor=REVIEWER,
                                              at="2024-03-02T00:00:00Z", env=env)


def test_approve_supersedes_the_keys_active_record(store, paris):
    lyon, _ = candidate(store, "The user lives in Lyon.", "user.home_city", "tx-lyon")
    result = applied(store, by_id("approve", lyon, "tx-approve", actor="reviewer"))
    approved, old = store.get(lyon, scope()), store.get(paris[0], scope())
    assert approved["status"] == "active" and old["status"] == "retired"
    assert approved["supersession"]["supersedes"] == [paris[0]]
    assert old["supersession"]["superseded_by"] == lyon
    assert old["valid_time"]["to"] == approved["valid_time"]["from"] == NOW
    assert result["revision"] == 2 and approved["transition"]["group_size"] == 2
    assert [r["memory_key"] for r in store.state(scope()).currents() if r["status"] == "active"] \
        == ["user.home_city"]


def test_reject_tombstones_the_candidates_value(store):
    pet, _ = candidate(store, "The user has a cat.", "user.pet", "tx-pet")
    env = by_id("reject", pet, "tx-reject", actor="reviewer", actor_id="rita")
    applied(store, env)
    record = store.get(pet, scope())
    assert record["status"] == "rejected"
    assert record["verification"]["state"] == "rejected"
    tombstone = {"memory_key": "user.pet", "value_sha256": tombstone_hash("user.pet", "The user has a cat.")}
    assert record["transition"] == transition("reject", "tx-reject", "candidate", "rejected", actor=REVIEWER,
                                              env=env, tombstone=tombstone)
    again = store.mutate(add_env("the user has a CAT", "user.pet", "tx-again", source="model_inference",
                                 actor="agent"))
    assert again["error"]["code"] == "value_tombstoned"


# -- forget ----------------------------------------------------------------------

def test_forget_rejects_the_record_and_no_one_can_store_the_value_again(store):
    food = applied(store, add_env("The user likes durian.", "user.food", "tx-food"))["record_id"]
    env = envelope("forget", "tx-forget", key="user.food")
    result = applied(store, env)
    record = store.get(food, scope())
    assert (result["record_id"], result["revision"], record["status"]) == (food, 2, "rejected")
    assert record["transition"]["tombstone"] == {"memory_key": "user.food",
                                                 "value_sha256": tombstone_hash("user.food",
                                                                                "The user likes durian.")}
    assert record["verification"]["method"] == "forget"
    for tx, env in [("a1", add_env("  the user LIKES durian!! ", "user.food", "a1")),
                    ("a2", add_env("The user likes durian.", "user.food", "a2", source="model_inference",
                                   actor="agent"))]:
        assert store.mutate(env)["error"]["code"] == "value_tombstoned", tx
    # the same words under another key are another value
    applied(store, add_env("The user likes durian.", "user.snack", "a3"))
    # and an update cannot re-assert it either
    applied(store, add_env("The user likes mango.", "user.food", "a4"))
    store.clock.set("2024-03-02T00:00:00Z")
    assert store.mutate(update_env("the user likes durian", "a5", key="user.food"))["error"]["code"] \
        == "value_tombstoned"


def test_forget_with_a_statement_tombstones_that_value(store):
    food = applied(store, add_env("The user likes durian.", "user.food", "tx-food"))["record_id"]
    applied(store, by_id("forget", food, "tx-f", payload={"statement": "The user likes natto."}))
    assert store.mutate(add_env("The user likes natto.", "user.food", "n"))["error"]["code"] == "value_tombstoned"
    applied(store, add_env("The user likes durian.", "user.food", "d"))


# -- erase -----------------------------------------------------------------------

def test_erase_record_answers_with_the_id_and_removes_it(store, paris):
    other = applied(store, add_env("The user likes tea.", "user.drink", "tx-tea"))["record_id"]
    result = applied(store, by_id("erase", paris[0], "tx-erase"))
    assert (result["record_id"], result["revision"]) == (paris[0], None)
    with pytest.raises(NotFoundError):
        store.get(paris[0], scope())
    with pytest.raises(NotFoundError):
        store.history(paris[0], scope())
    assert store.get(other, scope())["status"] == "active"


def test_erase_scope_removes_every_record(store, paris):
    applied(store, add_env("The user likes tea.", "user.drink", "tx-tea"))
    result = applied(store, envelope("erase", "tx-erase-all", whole_scope=True))
    assert (result["record_id"], result["revision"]) == (None, None)
    assert list(store.state(scope()).currents()) == []


# -- purity ----------------------------------------------------------------------

def test_plan_is_pure_and_deterministic(store):
    admitted = admit(add_env(PARIS, "user.home_city", "tx-1"), store.policies.mutation)
    state = ScopeState()
    first = lifecycle.plan(admitted, state, POLICY_SHA, NOW)
    second = lifecycle.plan(admitted, state, POLICY_SHA, NOW)
    assert first.revisions == second.revisions
    assert state.revisions == {} and state.transactions == {}
    assert first.record_id == record_id_for(scope(), "tx-1")


def test_state_as_recorded_at_reads_the_log_as_of_then(store, paris):
    store.clock.set("2024-04-01T00:00:00Z")
    applied(store, update_env(BERLIN, "tx-b", key="user.home_city"))
    then = store.state(scope()).as_recorded_at("2024-03-15T00:00:00Z")
    assert [(r["statement"], r["status"]) for r in then] == [(PARIS, "active")]
    now = store.state(scope()).as_recorded_at("2024-04-01T00:00:00Z")
    assert sorted((r["statement"], r["status"]) for r in now) == [(BERLIN, "active"), (PARIS, "retired")]


@pytest.mark.parametrize("active_from", [NOW, "2024-06-01T00:00:00Z"])
def test_approve_never_leaves_the_superseded_record_an_empty_interval(store, active_from):
    from helpers import snapshot
    active = applied(store, add_env(PARIS, "user.home_city", "tx-a", valid_from=active_from))["record_id"]
    lyon, _ = candidate(store, "The user lives in Lyon.", "user.home_city", "tx-lyon")
    before = snapshot(store.root)
    result = store.mutate(by_id("approve", lyon, "tx-approve", actor="reviewer"))
    assert result["error"]["code"] == "invalid_valid_time"
    assert snapshot(store.root) == before
    assert store.get(active, scope())["valid_time"] == {"from": active_from, "to": None}
    # later than the active record's start, the same approval goes through
    store.clock.set("2024-07-01T00:00:00Z")
    applied(store, by_id("approve", lyon, "tx-approve-later", actor="reviewer"))
    old = store.get(active, scope())["valid_time"]
    assert old["from"] < old["to"] == "2024-07-01T00:00:00Z"


def test_resolve_never_makes_a_second_active_record_for_a_key(store, paris):
    from helpers import snapshot
    lyon, _ = candidate(store, "The user lives in Lyon.", "user.home_city", "tx-lyon")
    pet, _ = candidate(store, "The user has a cat.", "user.pet", "tx-pet")
    applied(store, by_id("dispute", lyon, "tx-d", payload={"conflict_with": [pet]}))
    before = snapshot(store.root)
    result = store.mutate(by_id("resolve", lyon, "tx-r", payload={"conflict_with": [pet]}))
    assert result["error"]["code"] == "key_already_active"
    assert snapshot(store.root) == before
    # naming the active record in the dispute settles it properly
    applied(store, by_id("dispute", lyon, "tx-d2", payload={"conflict_with": [paris[0]]}))
    applied(store, by_id("resolve", lyon, "tx-r2", payload={"conflict_with": [paris[0], pet]}))
    actives = [r["id"] for r in store.state(scope()).currents() if r["status"] == "active"]
    assert actives == [lyon]


def test_resolve_cannot_bring_back_a_tombstoned_value(store):
    food = applied(store, add_env("The user likes durian.", "user.food", "tx-food"))["record_id"]
    guess, _ = candidate(store, "The user likes natto.", "user.food", "tx-guess")
    tea = applied(store, add_env("The user likes tea.", "user.drink", "tx-tea"))["record_id"]
    applied(store, by_id("forget", food, "tx-forget", payload={"statement": "the user likes NATTO"}))
    applied(store, by_id("dispute", guess, "tx-d", payload={"conflict_with": [tea]}))
    result = store.mutate(by_id("resolve", guess, "tx-r", payload={"conflict_with": [tea]}))
    assert result["error"]["code"] == "value_tombstoned"
    assert store.mutate(by_id("approve", guess, "tx-a", actor="reviewer"))["error"]["code"] == "invalid_transition"


def test_an_update_in_the_same_second_as_the_add_replaces_it(tmp_path):
    """An agent that adds a fact and corrects it within one second (no --from: both start "now") was
    refused invalid_valid_time; like a retire in the same second, the update goes through and the
    replaced value's interval closes where it opened (it held for no whole second)."""
    from memory import api
    from memory.clock import FixedClock
    from memory.envelope_builder import user_scope
    store = api.open_store(tmp_path / "s", create=True, clock=FixedClock(NOW))
    added = api.add(store, "u1", "I like green tea", key="user.tea")
    assert added.status == "applied"
    result = api.update(store, "u1", "These days only rooibos", key="user.tea")
    assert result.status == "applied", result.error
    answer = api.query(store, "What tea do I like?", "u1")
    assert answer.knowledge_state == "VERIFIED"
    assert answer.evidence[0].statement == "These days only rooibos"
    old = store.get(added.record_id, user_scope("u1"))
    assert (old["status"], old["valid_time"]) == ("retired", {"from": NOW, "to": NOW})


def test_an_update_that_starts_before_the_current_value_is_still_refused(store):
    applied(store, add_env(PARIS, "user.home_city", "tx-a", valid_from="2024-06-01T00:00:00Z"))
    result = store.mutate(update_env(BERLIN, "tx-b", key="user.home_city", valid_from="2024-05-31T23:59:59Z"))
    assert result["error"]["code"] == "invalid_valid_time"
