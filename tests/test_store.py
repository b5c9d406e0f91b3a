"""store: refusals write nothing, idempotency and isolation per scope, crashes, erasure."""
from __future__ import annotations

import json
import multiprocessing
import tempfile
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory.clock import FixedClock
from memory.doctor import check_store
from memory.errors import NotFoundError, StoreError
from memory.indexing import open_index
from memory.jsonio import dumps, loads_strict
from memory.paths import scope_digest
from memory.policy import load_policies
from memory.records import record_id_for
from memory.store import Store
from memory.vocabulary import REFUSAL_CODES

from helpers import (NOW, add_env, all_bytes, by_id, changed, envelope, make_store, raw, reopen, scope, shard_of,
                     snapshot, update_env)

S = "ZEBRA-QUASAR-7781"          # a distinctive string no refusal message may echo
LATER = "2024-03-10T00:00:00Z"
CAPS = load_policies().mutation.caps


def applied(store, env) -> dict:
    result = store.mutate(env)
    assert result["status"] == "applied", result
    return result


@pytest.fixture
def seeded(store):
    """alice: an active home, a candidate pet, a retired job, a forgotten food; bob: the same tx ids."""
    ids = {}
    ids["home"] = applied(store, add_env("The user lives in Paris.", "user.home_city", "seed-home",
                                         valid_from="2021-09-01T00:00:00Z"))["record_id"]
    ids["pet"] = applied(store, add_env("The user has a cat.", "user.pet", "seed-pet", source="model_inference",
                                        actor="agent"))["record_id"]
    ids["job"] = applied(store, add_env("The user works at Acme.", "user.job", "seed-job",
                                        valid_from="2020-01-01T00:00:00Z"))["record_id"]
    applied(store, by_id("retire", ids["job"], "seed-job-retire"))
    ids["food"] = applied(store, add_env("The user likes durian.", "user.food", "seed-food"))["record_id"]
    applied(store, by_id("forget", ids["food"], "seed-forget"))
    ids["episode"] = applied(store, add_env("We talked about Paris.", None, "seed-ep", kind="episode",
                                            source="conversation", actor="agent"))["record_id"]
    ids["bob_home"] = applied(store, add_env("The user lives in Oslo.", "user.home_city", "seed-home",
                                             user="bob"))["record_id"]
    store.clock.set(LATER)
    return ids


def _dup_key(ids):
    return raw(add_env(S, "user.x", "t")).replace(b'"statement":', b'"statement":"' + S.encode() + b'","statement":')


# (case id, expected code, envelope builder: ids -> dict or bytes)
REFUSAL_CASES = [
    ("invalid_json", "invalid_json", lambda ids: b'{"payload": {"statement": "' + S.encode() + b'"'),
    ("invalid_utf8", "invalid_utf8", lambda ids: raw(add_env(S, "user.x", "t")).replace(b"QUASAR", b"QUA\xc3SAR")),
    ("duplicate_key", "duplicate_key", _dup_key),
    ("non_finite_number", "non_finite_number",
     lambda ids: raw(add_env(S, "user.x", "t")).replace(b'"confidence":"high"', b'"confidence":NaN')),
    ("schema_violation", "schema_violation", lambda ids: {**add_env(S, "user.x", "t"), "extra": S}),
    ("schema_violation-operation", "schema_violation", lambda ids: changed(add_env(S, "user.x", "t"),
                                                                          operation="upsert")),
    ("envelope_too_large", "envelope_too_large",
     lambda ids: raw(add_env(S * (CAPS["envelope_bytes"] // len(S)), "user.x", "t"))),
    ("statement_too_large", "statement_too_large",
     lambda ids: add_env(S * (CAPS["statement_bytes"] // len(S) + 1), "user.x", "t")),
    ("list_too_long", "list_too_long",
     lambda ids: add_env(S, "user.x", "t", payload_extra={"tags": [S] * (CAPS["list_items"] + 1)})),
    ("operation_not_permitted", "operation_not_permitted",
     lambda ids: update_env(S, "t", record_id=ids["episode"], source="conversation", actor="agent")),
    ("actor_not_permitted", "actor_not_permitted", lambda ids: by_id("approve", ids["pet"], "t", actor="agent",
                                                                     payload={"statement": S})),
    ("scope_not_permitted", "scope_not_permitted", lambda ids: add_env(S, "project.x", "t", scope_type="project")),
    ("kind_not_permitted", "kind_not_permitted",
     lambda ids: add_env(S, "user.x", "t", source="conversation", actor="agent")),
    ("evidence_required", "evidence_required",
     lambda ids: add_env(S, "project.x", "t", source="repository_evidence", actor="agent", scope_type="project")),
    ("credential_detected", "credential_detected",
     lambda ids: add_env(f"{S} token ghp_{'Ab1' * 12}", "user.x", "t")),
    ("transaction_conflict", "transaction_conflict",
     lambda ids: add_env(f"The user lives in {S}.", "user.home_city", "seed-home")),
    ("record_not_found", "record_not_found", lambda ids: by_id("retire", ids["bob_home"], "t",
                                                               payload={"statement": S})),
    ("record_not_found-absent", "record_not_found", lambda ids: update_env(S, "t", record_id="mem_" + "0" * 24)),
    ("record_not_found-key", "record_not_found", lambda ids: update_env(S, "t", key="user.unknown")),
    ("key_already_active", "key_already_active", lambda ids: add_env(S, "user.home_city", "t")),
    ("duplicate_active_record", "duplicate_active_record",
     lambda ids: add_env("the user LIVES in paris", "user.home_city", "t")),
    ("duplicate_active_record-update", "duplicate_active_record",
     lambda ids: update_env("The user lives in Paris!", "t", key="user.home_city")),
    ("value_tombstoned", "value_tombstoned", lambda ids: add_env("The user likes durian.", "user.food", "t")),
    ("invalid_transition", "invalid_transition", lambda ids: by_id("retire", ids["job"], "t",
                                                                   payload={"statement": S})),
    ("invalid_transition-approve-active", "invalid_transition",
     lambda ids: by_id("approve", ids["home"], "t", actor="reviewer")),
    ("invalid_transition-update-candidate", "invalid_transition", lambda ids: update_env(S, "t",
                                                                                        record_id=ids["pet"])),
    ("invalid_transition-dispute-retired", "invalid_transition",
     lambda ids: by_id("dispute", ids["home"], "t", payload={"conflict_with": [ids["job"]], "statement": S})),
    ("invalid_valid_time", "invalid_valid_time",
     lambda ids: update_env(S, "t", key="user.home_city", valid_from="2021-01-01T00:00:00Z")),
    ("invalid_valid_time-retire", "invalid_valid_time",
     lambda ids: by_id("retire", ids["home"], "t", valid={"from": None, "to": "2021-08-31T23:59:59Z"})),
    ("invalid_valid_time-interval", "invalid_valid_time",
     lambda ids: add_env(S, "user.x", "t", valid_from="2024-01-02T00:00:00Z", valid_to="2024-01-01T00:00:00Z")),
    ("instant_out_of_range", "instant_out_of_range",
     lambda ids: add_env(S, "user.x", "t", valid_from="0999-01-01T00:00:00Z")),
    ("invalid_target", "invalid_target", lambda ids: changed(add_env(S, "user.x", "t"),
                                                             **{"target.record_id": ids["home"]})),
    ("invalid_target-episode-key", "invalid_target",
     lambda ids: add_env(S, "user.x", "t", kind="episode", source="conversation", actor="agent")),
    ("invalid_target-no-conflict", "invalid_target", lambda ids: by_id("dispute", ids["home"], "t")),
]


def test_the_refusal_table_covers_every_refusal_code():
    assert {code for _, code, _ in REFUSAL_CASES} == set(REFUSAL_CODES)


@pytest.mark.parametrize("case, code, build", REFUSAL_CASES, ids=[c[0] for c in REFUSAL_CASES])
def test_every_refusal_writes_nothing_and_never_echoes_the_statement(seeded, store, case, code, build):
    sent = build(seeded)
    before = snapshot(store.root)
    result = store.mutate(sent)
    assert result["status"] == "refused"
    assert result["error"]["code"] == code, result["error"]
    assert result["record_id"] is None and result["revision"] is None
    assert snapshot(store.root) == before
    message = result["error"]["message"]
    assert S not in message
    for statement in ("lives in Paris", "likes durian", "LIVES in paris"):
        assert statement.lower() not in message.lower()
    # the refusal left no trace: the same transaction id is still free
    assert reopen(store).state(scope()).transactions.get("t") is None


# -- idempotency -------------------------------------------------------------------

def test_same_transaction_same_envelope_is_idempotent_and_writes_nothing(store):
    env = add_env("The user lives in Paris.", "user.home_city", "tx-1")
    first = applied(store, env)
    before = snapshot(store.root)
    store.clock.set(LATER)
    again = store.mutate(json.dumps(dict(reversed(list(env.items())))).encode())   # same envelope, reordered
    assert again == {**first, "status": "idempotent"}
    assert snapshot(store.root) == before


def test_same_transaction_different_envelope_is_a_conflict(store):
    applied(store, add_env("The user lives in Paris.", "user.home_city", "tx-1"))
    before = snapshot(store.root)
    result = store.mutate(add_env("The user lives in Rome.", "user.home_city", "tx-1"))
    assert result["error"]["code"] == "transaction_conflict"
    # even a changed reason is a different envelope
    result = store.mutate(add_env("The user lives in Paris.", "user.home_city", "tx-1", reason="other"))
    assert result["error"]["code"] == "transaction_conflict"
    assert snapshot(store.root) == before


def test_an_update_replay_answers_with_the_new_record(store):
    applied(store, add_env("The user lives in Paris.", "user.home_city", "tx-1"))
    store.clock.set(LATER)
    env = update_env("The user lives in Rome.", "tx-2", key="user.home_city")
    first = applied(store, env)
    assert store.mutate(env) == {**first, "status": "idempotent"}
    assert len(store.history(first["record_id"], scope())) == 1


def test_the_same_transaction_id_in_another_scope_is_independent(store):
    alice = applied(store, add_env("The user lives in Paris.", "user.home_city", "tx-1"))
    bob = applied(store, add_env("The user lives in Paris.", "user.home_city", "tx-1", user="bob"))
    assert bob["record_id"] != alice["record_id"]
    assert bob["record_id"] == record_id_for(scope("bob"), "tx-1")
    # a different envelope under the same id is fine in a third scope, and a conflict in its own
    applied(store, add_env("The user lives in Rome.", "user.home_city", "tx-1", user="carol"))
    assert store.mutate(add_env("The user lives in Rome.", "user.home_city", "tx-1"))["error"]["code"] \
        == "transaction_conflict"


def test_a_batch_sees_its_own_earlier_envelopes(store):
    env = add_env("The user lives in Paris.", "user.home_city", "tx-1")
    results = list(store.apply([env, raw(env), add_env("Rome", "user.home_city", "tx-1"), b"{oops",
                                add_env("The user likes tea.", "user.drink", "tx-2")]))
    assert [r["status"] for r in results] == ["applied", "idempotent", "refused", "refused", "applied"]
    assert results[2]["error"]["code"] == "transaction_conflict"
    assert [r["transaction_id"] for r in results] == ["tx-1", "tx-1", "tx-1", None, "tx-2"]
    assert len(shard_of(store).read_bytes().splitlines()) == 2
    assert check_store(reopen(store)).clean


# -- isolation -----------------------------------------------------------------------

@pytest.fixture
def twins(store):
    """alice and bob with the same transaction ids, keys and statement shapes."""
    ids = {}
    for user in ("alice", "bob"):
        ids[user] = applied(store, add_env(f"The user is called {user}.", "user.name", "tx-name",
                                           user=user))["record_id"]
        applied(store, add_env("The user has a cat.", "user.pet", "tx-pet", user=user, source="model_inference",
                               actor="agent"))
    return ids


def test_reads_by_id_never_cross_scopes(store, twins):
    for reader in (store, reopen(store)):
        for call in (reader.get, reader.history):
            with pytest.raises(NotFoundError) as crossed:
                call(twins["bob"], scope("alice"))
            with pytest.raises(NotFoundError) as absent:
                call("mem_" + "f" * 24, scope("alice"))
            assert crossed.value.to_json() == absent.value.to_json()
            assert crossed.value.exit_code == 6
        assert reader.get(twins["bob"], scope("bob"))["statement"] == "The user is called bob."
        assert [r["scope"]["key"] for r in reader.candidates(scope("alice"))] == ["alice"]
        assert {r["scope"]["key"] for r in reader.state(scope("alice")).currents()} == {"alice"}


@pytest.mark.parametrize("operation, extra", [
    ("retire", {}), ("forget", {}), ("erase", {}), ("update", {"payload": {"statement": "Renamed."}}),
    ("approve", {"actor": "reviewer"}), ("reject", {"actor": "reviewer"}),
    ("dispute", {"payload": {"conflict_with": ["@alice"]}}),
])
def test_mutations_never_reach_another_scopes_record(store, twins, operation, extra):
    payload = extra.get("payload")
    if payload and "conflict_with" in payload:
        payload = {"conflict_with": [twins["alice"]]}
    env = by_id(operation, twins["bob"], "tx-cross", payload=payload, actor=extra.get("actor", "user_via_agent"))
    absent = by_id(operation, "mem_" + "f" * 24, "tx-cross", payload=payload,
                   actor=extra.get("actor", "user_via_agent"))
    before = snapshot(store.root)
    result = store.mutate(env)
    assert result["error"] == store.mutate(absent)["error"]
    assert result["error"]["code"] == "record_not_found"
    assert snapshot(store.root) == before


def test_conflict_with_naming_another_scopes_record_is_not_found(store, twins):
    env = by_id("dispute", twins["alice"], "tx-d", payload={"conflict_with": [twins["bob"]]})
    assert store.mutate(env)["error"]["code"] == "record_not_found"


def test_key_lookups_stay_in_scope(store, twins):
    store.clock.set(LATER)
    applied(store, update_env("The user is called Alicia.", "tx-u", key="user.name"))
    assert store.get(twins["bob"], scope("bob"))["status"] == "active"
    assert store.get(twins["alice"], scope("alice"))["status"] == "retired"


@pytest.mark.parametrize("key", ["../../escape", "a/b", "/etc/passwd", ".", "..", "con", "ü\u0000x", "x" * 256])
def test_a_scope_key_never_becomes_a_path(store, key):
    applied(store, add_env("The user likes tea.", "user.drink", "tx-1", user=key))
    folders = [p.name for p in store.layout.shards.iterdir()]
    assert folders == [scope_digest("user", key)]
    for path in store.root.rglob("*"):
        assert path.resolve().is_relative_to(store.root.resolve())
        assert key not in path.name or key in (".", "..")
    scope_file = store.layout.shards / folders[0] / "scope.json"
    assert key.encode() not in scope_file.read_bytes() or len(key) < 3


# scope keys are NFC (admission normalizes every string): a key that NFC changes ('\uf900') names
# the scope of its normal form, so the property is stated over normal forms
user_keys = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12).map(
    lambda text: unicodedata.normalize("NFC", text))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(user_keys, min_size=2, max_size=4, unique=True))
def test_property_each_scope_sees_only_its_own_records(users):
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.create(Path(tmp), clock=FixedClock(NOW))
        for user in users:
            for tx in ("tx-a", "tx-b"):
                applied(store, add_env(f"note {tx}", f"user.{tx[-1]}", tx, user=user))
        fresh = Store.open(Path(tmp), clock=FixedClock(NOW))
        for user in users:
            records = list(fresh.state(scope(user)).currents())
            assert [r["scope"] for r in records] == [scope(user)] * 2
            for other in users:
                if other != user:
                    with pytest.raises(NotFoundError):
                        fresh.get(record_id_for(scope(other), "tx-a"), scope(user))


# -- crashes -------------------------------------------------------------------------

@pytest.fixture
def acked(store):
    """Acknowledged writes: two adds and an update; returns (results, the shard's bytes)."""
    results = [applied(store, add_env("The user lives in Paris.", "user.home_city", "tx-home",
                                      valid_from="2021-01-01T00:00:00Z")),
               applied(store, add_env("The user likes tea.", "user.drink", "tx-tea"))]
    store.clock.set("2024-03-02T00:00:00Z")
    results.append(applied(store, update_env("The user lives in Rome.", "tx-rome", key="user.home_city")))
    store.clock.set(LATER)
    return results, shard_of(store).read_bytes()


def _assert_acked_intact(store, results):
    for result in results:
        assert store.get(result["record_id"], scope())["transition"]["transaction_id"] == result["transaction_id"] \
            or result["transaction_id"] == "tx-home"
    home = store.get(results[0]["record_id"], scope())
    assert home["status"] == "retired" and home["supersession"]["superseded_by"] == results[2]["record_id"]
    actives = [r for r in store.state(scope()).currents() if r["status"] == "active"
               and r["memory_key"] in ("user.drink", "user.home_city")]
    assert sorted((r["memory_key"], r["statement"]) for r in actives) == [
        ("user.drink", "The user likes tea."), ("user.home_city", "The user lives in Rome.")]


@pytest.mark.parametrize("cut", ["middle", "before_newline"])
@pytest.mark.parametrize("repair_first", [True, False])
def test_a_torn_last_line_is_never_read_and_is_repaired(store, acked, cut, repair_first):
    results, acked_bytes = acked
    path = shard_of(store)
    manifest = path.parent / "manifest.json"
    listed = manifest.read_bytes()
    store.mutate(add_env("The user likes chess.", "user.game", "tx-torn"))       # never acknowledged...
    line = path.read_bytes()[len(acked_bytes):]
    keep = len(line) // 2 if cut == "middle" else len(line) - 1              # ...because the crash tore it
    path.write_bytes(acked_bytes + line[:keep])
    manifest.write_bytes(listed)                           # (a crash mid-append: the manifest was not rewritten)

    fresh = reopen(store)
    _assert_acked_intact(fresh, results)
    assert record_id_for(scope(), "tx-torn") not in fresh.state(scope()).revisions
    codes = {p["code"] for p in check_store(fresh).problems}
    assert "torn_tail" in codes

    if repair_first:
        report = check_store(fresh, repair=True)
        assert report.problems == [] and "torn_tail" in {p["code"] for p in report.repaired}
        assert path.read_bytes() == acked_bytes
        assert check_store(reopen(store)).clean
    # a later write works, and the torn transaction can be retried as new
    later = reopen(store)
    applied(later, add_env("The user likes chess.", "user.game", "tx-torn"))
    applied(later, add_env("The user likes go.", "user.game2", "tx-after"))
    final = reopen(store)
    _assert_acked_intact(final, results)
    assert final.get(record_id_for(scope(), "tx-torn"), scope())["statement"] == "The user likes chess."
    assert check_store(final).clean
    assert path.read_bytes().startswith(acked_bytes)


@pytest.mark.parametrize("repair_first", [True, False])
def test_an_update_cut_to_one_line_is_dropped_whole_and_repaired(store, acked, repair_first):
    results, acked_bytes = acked
    path = shard_of(store)
    manifest = path.parent / "manifest.json"
    listed = manifest.read_bytes()
    store.clock.set("2024-03-11T00:00:00Z")
    store.mutate(update_env("The user lives in Oslo.", "tx-oslo", key="user.home_city"))   # 2 lines...
    lines = path.read_bytes()[len(acked_bytes):].splitlines(keepends=True)
    assert len(lines) == 2
    path.write_bytes(acked_bytes + lines[0])                                               # ...1 reached disk
    manifest.write_bytes(listed)                                                           # ...the manifest not

    fresh = reopen(store)
    _assert_acked_intact(fresh, results)
    rome = fresh.get(results[2]["record_id"], scope())
    assert rome["status"] == "active" and rome["revision"] == 1
    assert record_id_for(scope(), "tx-oslo") not in fresh.state(scope()).revisions
    assert "incomplete_transaction" in {p["code"] for p in check_store(fresh).problems}

    if repair_first:
        report = check_store(fresh, repair=True)
        assert report.problems == []
        assert {"incomplete_transaction", "manifest_mismatch"} <= {p["code"] for p in report.repaired}
        assert path.read_bytes() == acked_bytes
    # the next write must not bury the half group mid-log (where it would read as data)
    later = reopen(store)
    applied(later, add_env("The user likes go.", "user.game", "tx-after"))
    final = reopen(store)
    _assert_acked_intact(final, results)
    assert record_id_for(scope(), "tx-oslo") not in final.state(scope()).revisions
    homes = [r for r in final.state(scope()).currents() if r["memory_key"] == "user.home_city"
             and r["status"] == "active"]
    assert [r["statement"] for r in homes] == ["The user lives in Rome."]
    assert check_store(final).clean
    # and the cut transaction can be retried
    applied(final, update_env("The user lives in Oslo.", "tx-oslo", key="user.home_city"))
    assert check_store(reopen(store)).clean


def test_a_store_that_is_not_there_is_a_store_error(tmp_path):
    with pytest.raises(StoreError) as caught:
        Store.open(tmp_path / "nowhere")
    assert caught.value.code == "store_not_found" and caught.value.exit_code == 7
    # the hint must be a command that runs: --store is the group's option, before the command
    assert f"memory --store {tmp_path / 'nowhere'} init" in caught.value.message


def test_a_corrupt_complete_line_fails_loudly(store, acked):
    with open(shard_of(store), "ab") as handle:
        handle.write(b"this is not json\n")
    with pytest.raises(StoreError) as caught:
        reopen(store).state(scope())
    # a complete line past the manifest that is no record: written by hand, not by a crash
    assert caught.value.code == "scope_tampered"


# -- rollover and concurrency ---------------------------------------------------------

def test_shards_roll_over_and_never_split_a_group(store):
    store.shard_max_bytes = 3000
    applied(store, add_env("Value 0.", "user.counter", "tx-0", valid_from="2020-01-01T00:00:00Z"))
    for number in range(1, 8):
        store.clock.set(f"2024-03-0{number + 1}T00:00:00Z")
        applied(store, update_env(f"Value {number}.", f"tx-{number}", key="user.counter"))
    paths = store.shard_paths(scope())
    assert len(paths) > 2
    for path in paths:
        revisions = [loads_strict(line) for line in path.read_bytes().splitlines()]
        sizes = {}
        for revision in revisions:
            sizes.setdefault(revision["transition"]["transaction_id"], []).append(revision)
        for group in sizes.values():
            assert len(group) == group[0]["transition"]["group_size"]
    fresh = reopen(store)
    statuses = [r["status"] for r in fresh.state(scope()).currents()]
    assert statuses == ["retired"] * 7 + ["active"]
    report = check_store(fresh)
    assert report.clean and report.revisions == 15


def _writer(root: str, worker: int) -> None:
    store = Store.open(Path(root), clock=FixedClock(NOW))
    for number in range(5):
        result = store.mutate(add_env(f"Worker {worker} note {number}.", f"user.w{worker}_{number}",
                                      f"tx-{worker}-{number}"))
        assert result["status"] == "applied", result


def test_concurrent_writer_processes_lose_nothing(store):
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_writer, args=(str(store.root), n)) for n in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(30)
    assert [w.exitcode for w in workers] == [0, 0, 0, 0]
    fresh = reopen(store)
    assert len(list(fresh.state(scope()).currents())) == 20
    assert check_store(fresh).clean


# -- erasure ---------------------------------------------------------------------------

ERASED = "Zanzibarian quokkas whistle xylophonically"
ERASED_PARTS = [b"zanzi", b"quokk", b"whist", b"xylop"]     # word stems: no hex digest can contain them


def _content_left(root) -> list[bytes]:
    data = all_bytes(root).lower()
    return [part for part in ERASED_PARTS if part in data]


@pytest.fixture
def secret(store):
    """alice's record with the statement to erase (superseded by an update), a kept one, bob's record."""
    add = add_env(ERASED, "user.secret", "tx-secret", valid_from="2021-01-01T00:00:00Z")
    record_id = applied(store, add)["record_id"]
    applied(store, add_env("The user likes tea.", "user.drink", "tx-tea"))
    store.clock.set("2024-03-02T00:00:00Z")
    kept = applied(store, update_env("The secret was replaced.", "tx-replace", key="user.secret"))["record_id"]
    applied(store, add_env("Bob plays the oboe.", "user.music", "tx-bob", user="bob"))
    open_index(store, scope())                      # derived files hold the words too
    store.clock.set(LATER)
    assert _content_left(store.root) == ERASED_PARTS            # the search can find them
    return {"id": record_id, "add": add, "kept": kept}


def test_erase_record_removes_every_byte_of_the_statement(store, secret):
    result = applied(store, by_id("erase", secret["id"], "tx-erase", reason="user asked"))
    assert result["record_id"] == secret["id"]
    assert _content_left(store.root) == []
    # the rest of the scope is untouched and the store verifies clean (a shrunk update group is not a crash)
    fresh = reopen(store)
    assert fresh.get(secret["kept"], scope())["statement"] == "The secret was replaced."
    assert fresh.get(secret["kept"], scope())["supersession"]["supersedes"] == [secret["id"]]
    report = check_store(fresh)
    assert report.clean, report.problems
    assert fresh.get(record_id_for(scope("bob"), "tx-bob"), scope("bob"))["statement"] == "Bob plays the oboe."
    # and a later write after the erase keeps the kept record
    applied(fresh, add_env("The user likes chess.", "user.game", "tx-after"))
    assert reopen(store).get(secret["kept"], scope())["status"] == "active"
    assert check_store(reopen(store)).clean


def test_erase_leaves_a_content_free_audit_row(store, secret):
    hash_before = store.get(secret["id"], scope())["hash"]["value"]
    applied(store, by_id("erase", secret["id"], "tx-erase", reason="user asked", actor_id="alice-agent"))
    audit = store.scope_dir(scope()) / "audit.jsonl"
    rows = [loads_strict(line) for line in audit.read_bytes().splitlines()]
    assert len(rows) == 1
    row = rows[0]
    assert row["event"] == "erase_record"
    assert row["record_ids"] == [secret["id"]]
    assert row["content_sha256"] == {secret["id"]: hash_before}
    assert row["actor"] == {"type": "user_via_agent", "id": "alice-agent"}
    assert (row["reason"], row["at"]) == ("user asked", LATER)
    # transaction ids may carry content (the server's hold request ids): only keyed digests remain
    from memory.store.log import tx_digest
    assert row["transaction_id"] == tx_digest(row["tx_digest"]["key"], "tx-erase")
    assert tx_digest(row["tx_digest"]["key"], secret["add"]["transaction_id"]) in row["transactions"]
    assert b"tx-erase" not in audit.read_bytes() and secret["add"]["transaction_id"].encode() not in audit.read_bytes()
    assert not any(part in audit.read_bytes().lower() for part in ERASED_PARTS)


def test_replaying_the_original_add_after_erasure_does_not_resurrect_it(store, secret):
    applied(store, by_id("erase", secret["id"], "tx-erase"))
    before = snapshot(store.root)
    replay = store.mutate(secret["add"])
    assert replay["status"] == "idempotent"
    assert store.mutate(by_id("erase", secret["id"], "tx-erase"))["status"] == "idempotent"
    assert snapshot(store.root) == before
    assert _content_left(store.root) == []
    # a different envelope under the erased transaction id is still a conflict
    assert store.mutate(changed(secret["add"], reason="again"))["error"]["code"] == "transaction_conflict"


def test_erase_whole_scope(store, secret):
    applied(store, add_env("The user likes durian.", "user.food", "tx-food"))
    applied(store, envelope("forget", "tx-forget", key="user.food"))
    result = applied(store, envelope("erase", "tx-erase-all", reason="account closed", whole_scope=True))
    assert result["record_id"] is None
    assert _content_left(store.root) == []
    assert b"durian" not in all_bytes(store.root).lower()
    assert b"likes tea" not in all_bytes(store.root).lower()
    fresh = reopen(store)
    assert list(fresh.state(scope()).currents()) == []
    assert fresh.get(record_id_for(scope("bob"), "tx-bob"), scope("bob"))["statement"] == "Bob plays the oboe."
    assert check_store(fresh).clean
    # replays are idempotent, the tombstone survives, and the scope can be written again
    for env in (secret["add"], add_env("The user likes tea.", "user.drink", "tx-tea")):
        assert fresh.mutate(env)["status"] == "idempotent"
    assert fresh.mutate(add_env("The user likes durian!", "user.food", "tx-new"))["error"]["code"] \
        == "value_tombstoned"
    applied(fresh, add_env("The user likes chess.", "user.game", "tx-after"))
    assert _content_left(store.root) == []
    assert check_store(reopen(store)).clean


def test_a_tombstone_survives_erasing_its_record(store):
    food = applied(store, add_env("The user likes durian.", "user.food", "tx-food"))["record_id"]
    applied(store, by_id("forget", food, "tx-forget"))
    applied(store, by_id("erase", food, "tx-erase"))
    assert b"durian" not in all_bytes(store.root)
    assert reopen(store).mutate(add_env("the user likes DURIAN", "user.food", "tx-2"))["error"]["code"] \
        == "value_tombstoned"


def test_erasing_a_record_named_by_key_erases_the_active_one(store):
    applied(store, add_env("The user likes durian.", "user.food", "tx-food"))
    result = applied(store, envelope("erase", "tx-erase", key="user.food"))
    assert result["record_id"] == record_id_for(scope(), "tx-food")
    assert b"durian" not in all_bytes(store.root)


def test_erasing_by_key_erases_the_slots_past_values_too(store):
    """The old value of a slot is the same personal data as its current one."""
    applied(store, add_env("The user lives in Reykjavik.", "user.home_city", "tx-old", valid_from="2020-01-01T00:00:00Z"))
    applied(store, update_env("The user lives in Tromso.", "tx-new", key="user.home_city"))
    applied(store, add_env("The user likes tea.", "user.drink", "tx-tea"))
    result = applied(store, envelope("erase", "tx-erase", key="user.home_city"))
    assert result["record_id"] == record_id_for(scope(), "tx-new")
    everything = all_bytes(store.root)
    assert b"Reykjavik" not in everything and b"Tromso" not in everything
    assert b"tea" in everything  # another slot is untouched
    row = reopen(store).audit_rows(scope())[-1]
    assert sorted(row["record_ids"]) == sorted([record_id_for(scope(), "tx-old"), record_id_for(scope(), "tx-new")])


def test_scope_json_and_manifests_never_hold_the_scope_key(store):
    applied(store, add_env("The user likes tea.", "user.drink", "tx-1", user="very-private-user-key"))
    directory = store.scope_dir(scope("very-private-user-key"))
    for name in ("scope.json", "manifest.json"):
        assert b"very-private-user-key" not in (directory / name).read_bytes()
    assert loads_strict((directory / "manifest.json").read_bytes())["shards"]["000001.jsonl"]["lines"] == 1
    assert dumps  # the serializer is the package's own


def test_a_long_lived_store_sees_another_processes_same_size_change(store, tmp_path):
    import shutil
    applied(store, add_env("The user likes tea.", "user.drink", "tx-1"))
    before = shard_of(store).stat().st_size
    # learn the length of the next line on a copy of the store
    shutil.copytree(store.root, tmp_path / "copy")
    rehearsal = make_store(tmp_path / "copy")
    applied(rehearsal, add_env("The user likes go.", "user.game", "tx-2"))
    length = shard_of(rehearsal).stat().st_size - before
    # a crashed writer left a torn tail of exactly that length; a long-lived reader caches the state
    with open(shard_of(store), "ab") as handle:
        handle.write(b"x" * length)
    reader = reopen(store)
    assert len(reader.state(scope()).order) == 1
    # another process heals the tail and appends a line of the same length: same size, new content
    applied(reopen(store), add_env("The user likes go.", "user.game", "tx-2"))
    assert shard_of(store).stat().st_size == before + length
    assert reader.get(record_id_for(scope(), "tx-2"), scope())["statement"] == "The user likes go."


# -- one write path (CONVENTIONS 18) ------------------------------------------------------------

def test_writers_of_different_scopes_do_not_wait_for_each_other(store):
    """The lock is the scope's: while alice's writer is held, bob's write goes through
    (with one store-wide lock it would wait for ever: flock on a second handle blocks)."""
    import threading
    done = []
    with store.writer(scope("alice")):
        worker = threading.Thread(target=lambda: done.append(
            store.mutate(add_env("Bob likes tea.", "user.drink", "tx-bob", user="bob"))))
        worker.start()
        worker.join(timeout=60)
        finished_while_held = not worker.is_alive()
    worker.join()
    assert finished_while_held and done[0]["status"] == "applied"


def test_a_writer_of_one_scope_excludes_another_writer_of_it(store):
    import fcntl
    from memory.store.layout import scope_lock_path
    with store.writer(scope("alice")):
        with open(scope_lock_path(store.layout, scope_digest("user", "alice")), "a+b") as other:
            with pytest.raises(BlockingIOError):
                fcntl.flock(other.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        bob_lock = scope_lock_path(store.layout, scope_digest("user", "bob"))
        bob_lock.parent.mkdir(parents=True, exist_ok=True)
        with open(bob_lock, "a+b") as free:
            fcntl.flock(free.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)


def _add_request(request_id: str, messages: list[str]) -> dict:
    return {"request_id": request_id, "user_id": "alice", "session_id": "s1",
            "messages": [{"role": "user", "content": m, "timestamp": None} for m in messages]}


def test_a_served_add_admits_each_message_once(store, monkeypatch):
    import memory.envelope as envelope_module
    from memory import api
    calls = []
    real = envelope_module.admit

    def counting(raw, policy):
        calls.append(1)
        return real(raw, policy)
    monkeypatch.setattr(envelope_module, "admit", counting)   # the façade imports it at the call
    api.add_conversation(store, _add_request("r1", ["I like tea.", "I live in Oslo.", "I have a cat."]))
    assert len(calls) == 3
    assert len(list(reopen(store).state(scope()).currents())) == 3


def test_a_long_lived_store_applies_its_own_writes_without_reading_the_log_again(store, monkeypatch):
    from memory import api
    folds = []
    real = Store.fold
    monkeypatch.setattr(Store, "fold", lambda self, s: folds.append(1) or real(self, s))
    for n in range(4):
        api.add_conversation(store, _add_request(f"r{n}", [f"Message number {n}."]))
        store.state(scope())                      # a search reads the state after each add
    assert len(folds) == 1
    assert [r["statement"] for r in store.state(scope()).currents()] == \
        [r["statement"] for r in reopen(store).state(scope()).currents()]


def test_a_refused_add_leaves_the_shared_state_untouched(store):
    from memory import api
    from memory.errors import RefusedError
    api.add_conversation(store, _add_request("r1", ["I like tea."]))
    before = list(store.state(scope()).currents())
    with pytest.raises(RefusedError):
        api.add_conversation(store, _add_request("r1", ["I like coffee."]))   # same request id, other body
    assert list(store.state(scope()).currents()) == before


def test_an_erase_plan_appends_its_revisions_after_removing_the_content(store, monkeypatch):
    """A plan may erase and also settle other records (a dispute whose other side was erased):
    its revisions are written after the content is gone."""
    from memory import lifecycle
    from memory.envelope import admit
    doomed = applied(store, add_env("The user likes tea.", "user.drink", "tx-tea"))["record_id"]
    real = lifecycle.plan

    def erase_and_settle(admitted, state, policy_sha256, now):
        plan = real(admitted, state, policy_sha256, now)
        if admitted.envelope["operation"] == "erase":
            settle = admit(add_env("The user likes coffee.", "user.morning_drink", admitted.envelope["transaction_id"]),
                           store.policies.mutation)
            plan.revisions = real(settle, state, policy_sha256, now).revisions
        return plan
    monkeypatch.setattr(lifecycle, "plan", erase_and_settle)
    applied(store, by_id("erase", doomed, "tx-erase"))
    statements = [r["statement"] for r in reopen(store).state(scope()).currents()]
    assert statements == ["The user likes coffee."]
    assert b"likes tea" not in all_bytes(store.root)


def test_a_long_apply_hands_its_state_to_the_collector_as_long_lived_and_takes_it_back(tmp_path):
    """Issue 14: the scope's state grows with every batch of a long apply, and each full garbage
    collection walked it again (the last 20k of 100k envelopes went at half the first 20k's rate)."""
    import gc
    store = make_store(tmp_path / "s")
    seen = []
    envelopes = [add_env(f"Episode {i}", None, f"tx-{i}", kind="episode") for i in range(7)]
    results = list(store.apply(envelopes, batch_size=2, progress=lambda n: seen.append(gc.get_freeze_count())))
    assert [r["status"] for r in results] == ["applied"] * 7
    assert seen[0] == 0 and all(count > 0 for count in seen[1:])   # frozen from the second batch on
    assert gc.get_freeze_count() == 0                              # and given back at the end
    assert store.mutate(add_env("One more", None, "tx-one", kind="episode"))["status"] == "applied"
    assert gc.get_freeze_count() == 0


def test_an_apply_leaves_a_process_that_froze_objects_itself_as_it_was(tmp_path):
    import gc
    from memory.store.budget import BUDGET
    store = make_store(tmp_path / "s")
    # the process-wide cache budget must not drop other tests' scopes meanwhile, nor the entries
    # of their collected stores: a frozen object freed then lowers the count without apply
    # touching the freeze (setting the limit after the collection forgets collected stores first)
    limit = BUDGET.limit
    gc.collect()
    BUDGET.set_limit(1 << 40)
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        list(store.apply([add_env(f"Episode {i}", None, f"tx-{i}", kind="episode") for i in range(5)], batch_size=2))
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
        BUDGET.set_limit(limit)


@pytest.mark.parametrize("chunk", [1, 7, 64, 300, 1000, 10**9])
@pytest.mark.parametrize("kept", [0, 1, 2, 3])
def test_cutting_a_short_last_group_reads_from_the_end_and_cuts_what_a_whole_read_cuts(tmp_path, chunk, kept):
    """``cut_incomplete_group`` reads the shard's tail only (issue 14: every append read the whole
    last shard); wherever its chunk ends, it cuts exactly the group cut short, and nothing else."""
    from memory.jsonio import canonical_bytes
    from memory.store import cut_incomplete_group
    from memory.store.log import _last_lines

    def line(tx: str, group: int, n: int) -> bytes:
        return canonical_bytes({"id": f"r-{tx}-{n}", "pad": "x" * (n * 37 % 90),
                                "transition": {"transaction_id": tx, "group_size": group}}) + b"\n"
    whole = line("a", 1, 0) + line("b", 3, 0) + line("b", 3, 1) + line("b", 3, 2) + line("c", 2, 0) + line("c", 2, 1)
    last = b"".join(line("d", 4, n) for n in range(kept))
    path = tmp_path / "000001.jsonl"
    path.write_bytes(whole + last)
    assert cut_incomplete_group(path, chunk=chunk) == (len(last) if kept else 0)
    assert path.read_bytes() == whole
    ends = [i + 1 for i, byte in enumerate(whole) if byte == ord("\n")]
    for size in ends:
        offset, lines = _last_lines(path, size, chunk)
        assert offset in [0] + ends and lines and b"".join(lines) == whole[offset:size]
        assert lines == whole[:size].splitlines(keepends=True)[-len(lines):]


def test_the_manifest_kept_by_a_running_hash_is_the_hash_of_the_files(tmp_path):
    """The writer hashes only what it appended to the last shard (issue 14); the manifest must still
    say exactly what the files hold: across shard rollovers, and after another writer appended."""
    import hashlib
    from memory.store.manifest import manifest_shards
    store = make_store(tmp_path / "s")
    store.shard_max_bytes = 4000
    other = reopen(store)
    for i in range(40):
        writer = other if i % 7 == 3 else store
        assert writer.mutate(add_env(f"Episode number {i} " + "x" * (i * 13 % 200), None, f"tx-{i}",
                                     kind="episode"))["status"] == "applied"
        directory = store.scope_dir(scope())
        listed = manifest_shards(directory)
        actual = {p.name: {"bytes": len(p.read_bytes()), "lines": p.read_bytes().count(b"\n"),
                           "sha256": hashlib.sha256(p.read_bytes()).hexdigest()} for p in store.shard_paths(scope())}
        assert listed == actual
    assert len(store.shard_paths(scope())) > 3
