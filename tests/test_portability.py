"""Export and verified restore: a round trip loses and alters nothing; damage is refused whole."""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from memory import cli, portability
from memory.cli import main
from memory.doctor import check_store
from memory.errors import MemoryStoreError
from memory.jsonio import canonical_bytes
from memory.query import QueryRequest, run_query

from helpers import add_env, by_id, config_copy, envelope, make_store, scope, snapshot, update_env


def step(store, env, at=None) -> str | None:
    if at:
        store.clock.set(at)
    result = store.mutate(env)
    assert result["status"] == "applied", result
    return result["record_id"]


def rich_history(store) -> dict:
    """Every operation the ledger knows, including an erasure, in scope user:alice (and bob)."""
    ids = {}
    ids["paris"] = step(store, add_env("The user lives in Paris.", "user.home_city", "paris",
                                       valid_from="2021-09-01T00:00:00Z"), "2024-01-01T00:00:00Z")
    ids["berlin"] = step(store, update_env("The user lives in Berlin.", "berlin", key="user.home_city",
                                           valid_from="2024-01-15T00:00:00Z"), "2024-01-16T00:00:00Z")
    ids["tea"] = step(store, add_env("Zoë drinks tea in Zürich ✓", "user.drink", "tea", kind="preference",
                                     payload_extra={"aliases": ["favourite drink"], "tags": ["food"]}))
    step(store, by_id("retire", ids["tea"], "tea-off", valid={"from": None, "to": "2024-02-01T00:00:00Z"}),
         "2024-02-02T00:00:00Z")
    ids["cat"] = step(store, envelope("add", "cat", key="user.pet", source="model_inference", actor="agent",
                                      payload={"kind": "fact", "statement": "The user has a cat."}))
    step(store, by_id("approve", ids["cat"], "cat-ok", actor="reviewer"))
    ids["dog"] = step(store, envelope("add", "dog", key="user.other_pet", source="model_inference", actor="agent",
                                      payload={"kind": "fact", "statement": "The user has a dog."}))
    step(store, by_id("reject", ids["dog"], "dog-no", actor="reviewer"))
    ids["tue"] = step(store, add_env("Dentist on Tuesday.", "user.dentist", "tue"))
    ids["thu"] = step(store, add_env("Dentist on Thursday.", "user.dentist_alt", "thu"))
    step(store, envelope("dispute", "d1", record_id=ids["tue"], payload={"conflict_with": [ids["thu"]]}))
    step(store, envelope("resolve", "r1", record_id=ids["thu"], payload={"conflict_with": [ids["tue"]]}),
         "2024-02-10T00:00:00Z")
    ids["pw"] = step(store, add_env("The user likes opera.", "user.music", "opera"))
    step(store, envelope("forget", "forget-opera", key="user.music"))
    for n, text in enumerate(["Hi, I moved to Berlin!", "Nice, when?", "In January."]):
        ids[f"turn{n}"] = step(store, envelope("add", f"turn{n}", source="conversation", actor="importer",
                                               payload={"kind": "episode", "statement": text}))
    step(store, envelope("erase", "erase-turn", record_id=ids["turn1"]), "2024-02-20T00:00:00Z")
    step(store, add_env("Bob lives in Rome.", "user.home_city", "rome", user="bob"))
    store.clock.set("2024-03-01T00:00:00Z")
    return ids


def shard_bytes(store, user="alice") -> bytes:
    return b"".join(p.read_bytes() for p in store.shard_paths(scope(user)))


def answer(store, text, **kw) -> dict:
    result = run_query(store, QueryRequest(text=text, user="alice", **kw))
    return {k: result[k] for k in ("knowledge_state", "reason_code", "evidence", "audit_only")}


QUESTIONS = [("where does the user live?", {}), ("where did the user live?", {"as_of": "2023-01-01"}),
             ("when is the dentist?", {}), ("what does Zoë drink?", {"include_inactive": True}),
             ("does the user have a pet?", {"include_inactive": True}), ("moved to Berlin", {}),
             ("where does the user live?", {"recorded_as_of": "2024-01-10T00:00:00Z"})]


@pytest.fixture
def source(tmp_path):
    store = make_store(tmp_path / "source")
    return store, rich_history(store)


@pytest.fixture
def target(tmp_path):
    return make_store(tmp_path / "target", now="2025-06-01T00:00:00Z")


def test_a_round_trip_loses_and_alters_nothing(source, target):
    store, ids = source
    exported = portability.collect(store, scope())
    summary = portability.restore(target, portability.parse(portability.render(exported)))
    assert summary["status"] == "restored" and summary["revisions"] == len(exported.revisions) == summary["appended"]
    # byte for byte: statements, statuses, valid times, transitions, hashes
    assert shard_bytes(target) == shard_bytes(store)
    assert target.scope_revisions(scope()) == store.scope_revisions(scope())
    assert target.audit_rows(scope()) == store.audit_rows(scope()) != []
    for record_id in store.state(scope()).order:
        assert target.history(record_id, scope()) == store.history(record_id, scope())
    target.clock.set(store.clock.now())
    for text, options in QUESTIONS:
        assert answer(target, text, **options) == answer(store, text, **options), text
    assert check_store(target).to_json()["problems"] == []
    assert target.shard_paths(scope("bob")) == []            # one scope per export


def test_the_restored_ledger_keeps_its_rules(source, target):
    store, ids = source
    portability.restore(target, portability.collect(store, scope()))
    again = target.mutate(add_env("The user lives in Paris.", "user.home_city", "paris",
                                  valid_from="2021-09-01T00:00:00Z"))
    assert again == {"status": "idempotent", "transaction_id": "paris", "operation": "add",
                     "record_id": ids["paris"], "revision": 1, "error": None}
    opera = target.mutate(add_env("The user likes opera.", "user.music", "opera-again"))
    assert opera["error"]["code"] == "value_tombstoned"
    reused = target.mutate(add_env("Something else.", "user.x", "erase-turn"))
    assert reused["error"]["code"] == "transaction_conflict"   # an erased transaction id stays used


def test_the_json_format_restores_the_same(source, target):
    store, _ = source
    data = portability.render(portability.collect(store, scope()), "json")
    assert json.loads(data)["end"]["revisions"] > 0
    portability.restore(target, portability.parse(data))
    assert shard_bytes(target) == shard_bytes(store)


def test_restoring_twice_is_idempotent(source, target):
    store, _ = source
    exported = portability.collect(store, scope())
    portability.restore(target, exported)
    before = snapshot(target.root)
    summary = portability.restore(target, exported)
    assert summary["status"] == "idempotent" and summary["appended"] == 0
    assert snapshot(target.root) == before


def test_a_restore_cut_short_by_a_crash_completes_on_rerun(source, target):
    store, _ = source
    exported = portability.collect(store, scope())
    portability.restore(target, exported)
    shard = target.shard_paths(scope())[-1]
    lines = shard.read_bytes().splitlines(keepends=True)
    shard.write_bytes(b"".join(lines[:5]) + lines[5][:10])      # five lines acknowledged, a torn sixth
    summary = portability.restore(target, exported)
    assert summary["status"] == "restored" and summary["appended"] == len(exported.revisions) - 5
    assert shard_bytes(target) == shard_bytes(store)
    assert check_store(target).to_json()["problems"] == []


def test_a_scope_holding_other_records_is_refused(source, target):
    store, _ = source
    target.mutate(add_env("The user lives in Oslo.", "user.home_city", "oslo"))
    before = snapshot(target.root)
    with pytest.raises(portability.RefusedError) as caught:
        portability.restore(target, portability.collect(store, scope()))
    assert caught.value.code == "scope_not_empty"
    assert snapshot(target.root) == before


# -- damaged exports: refused whole, with every problem named ----------------------------------

def lines_of(store) -> list[dict]:
    return [json.loads(line) for line in portability.render(portability.collect(store, scope())).splitlines()]


def reframed(values: list[dict]) -> bytes:
    """The body re-framed with a freshly computed end line: only the hashes and chains can tell."""
    header, body = values[0], values[1:-1]
    revisions = [v for v in body if v["schema_version"] == "memory.record.v1"]
    audit = [v for v in body if v["schema_version"] == "memory.audit.v1"]
    end = portability.Export(header, revisions, audit).end()
    return b"".join(canonical_bytes(v) + b"\n" for v in [header, *body, end])


def refusal(target, data: bytes):
    before = snapshot(target.root)
    with pytest.raises(portability.InputError) as caught:
        portability.restore(target, portability.parse(data))
    assert snapshot(target.root) == before
    return caught.value


def test_an_edited_statement_fails_its_hash(source, target):
    values = lines_of(source[0])
    values[1]["statement"] = "The user lives in Atlantis."
    error = refusal(target, reframed(values))
    assert error.code == "export_invalid"
    assert [p["code"] for p in error.details] == ["record_hash_mismatch"]
    assert "Atlantis" not in error.message and "Atlantis" not in json.dumps(error.details)


def test_a_line_that_breaks_the_record_schema_is_named(source, target):
    values = lines_of(source[0])
    del values[1]["kind"]
    error = refusal(target, reframed(values))
    assert "record_schema_violation" in {p["code"] for p in error.details}
    broken = portability.render(portability.collect(source[0], scope()), "json")
    document = json.loads(broken)
    document["revisions"][0] = ["not", "a", "record"]
    document["end"] = portability.Export(document["export"], document["revisions"], document["audit"]).end()
    error = refusal(target, json.dumps(document).encode())
    assert error.details == [{"code": "record_schema_violation", "where": "revision 1",
                              "message": "not a record revision with a transition"}]


def test_a_removed_line_breaks_the_chain(source, target):
    values = lines_of(source[0])
    del values[2]                       # the retiring half of paris -> berlin
    error = refusal(target, reframed(values))
    assert {p["code"] for p in error.details} >= {"transition_chain_broken"}


def test_a_removed_tail_line_is_caught_too(tmp_path, target):
    store = make_store(tmp_path / "short")
    step(store, add_env("The user lives in Paris.", "user.home_city", "paris", valid_from="2021-09-01T00:00:00Z"))
    step(store, update_env("The user lives in Berlin.", "berlin", key="user.home_city",
                           valid_from="2024-03-01T12:00:01Z"))
    values = lines_of(store)
    del values[-2]                      # the update's second line: its group is cut short at the tail
    error = refusal(target, reframed(values))
    assert [p["code"] for p in error.details] == ["incomplete_transaction"]


def test_a_truncated_or_unframed_file_is_refused(source, target):
    data = portability.render(portability.collect(source[0], scope()))
    assert refusal(target, data.rsplit(b"\n", 2)[0] + b"\n").code == "export_invalid"      # no end line
    assert refusal(target, data.split(b"\n", 1)[1]).code == "export_invalid"               # no header
    values = lines_of(source[0])
    values[1]["statement"] = "x"
    spliced = b"".join(canonical_bytes(v) + b"\n" for v in values)                         # old end line
    assert "end line does not match" in refusal(target, spliced).message
    assert refusal(target, data + b'{"schema_version": "other"}\n').code == "export_invalid"


def test_an_active_only_export_is_not_restorable(source, target):
    store, ids = source
    exported = portability.collect(store, scope(), active_only=True)
    kept = {r["id"] for r in exported.revisions}
    assert kept == {ids["berlin"], ids["cat"], ids["thu"], ids["turn0"], ids["turn2"]}
    assert exported.header["complete"] is False
    error = refusal(target, portability.render(exported))
    assert error.details[0]["code"] == "export_incomplete"
    assert {p["code"] for p in error.details[1:]} <= {"transition_chain_broken", "incomplete_transaction"}


def test_the_target_policy_decides_what_enters(source, tmp_path):
    config = config_copy(tmp_path / "strict")
    policy = json.loads((config / "mutation-policy.json").read_text())
    policy["sources"]["explicit_user"]["operations"]["add"] = "admit_candidate"
    del policy["sources"]["conversation"]
    (config / "mutation-policy.json").write_text(json.dumps(policy))
    target = make_store(tmp_path / "strict-store", config=config)
    before = snapshot(target.root)
    with pytest.raises(portability.RefusedError) as caught:
        portability.restore(target, portability.collect(source[0], scope()))
    assert caught.value.code == "restore_not_permitted"
    codes = {p["code"] for p in caught.value.details}
    assert codes == {"admission_differs", "operation_not_permitted"}
    assert snapshot(target.root) == before


# -- the command line ------------------------------------------------------------------------

def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_cli_export_and_import_round_trip(source, tmp_path, monkeypatch):
    store, _ = source
    monkeypatch.setenv("MEMORY_NOW", "2024-03-01T00:00:00Z")
    out = tmp_path / "alice.jsonl"
    printed = run("--store", str(store.root), "export", "--user", "alice")
    assert printed.exit_code == 0
    assert printed.stdout_bytes == portability.render(portability.collect(store, scope()))
    written = run("--store", str(store.root), "export", "--user", "alice", "-o", str(out), "--json")
    assert written.exit_code == 0 and out.read_bytes() == printed.stdout_bytes
    assert json.loads(written.stdout)["path"] == str(out)
    imported = run("--store", str(tmp_path / "fresh"), "import", "jsonl", str(out), "--json")
    assert imported.exit_code == 0 and json.loads(imported.stdout)["status"] == "restored"
    again = run("--store", str(tmp_path / "fresh"), "import", "jsonl", str(out))
    assert again.exit_code == 0 and again.stdout.startswith("idempotent: ")
    assert (tmp_path / "fresh" / "shards").exists()


def test_cli_import_exit_codes(source, tmp_path):
    values = lines_of(source[0])
    values[1]["statement"] = "x"
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(reframed(values))
    result = run("--store", str(tmp_path / "fresh"), "import", "jsonl", str(bad), "--json")
    assert result.exit_code == 3
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "export_invalid" and error["details"][0]["code"] == "record_hash_mismatch"


def test_cli_export_formats_are_the_library_formats():
    assert cli.EXPORT_FORMATS == portability.FORMATS


# -- property: any sequence of operations survives the round trip ------------------------------

STATEMENTS = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=24) \
    .filter(lambda s: s.strip())
OPS = st.lists(st.tuples(st.sampled_from(["add", "update", "retire", "forget"]), st.integers(0, 2), STATEMENTS),
               min_size=1, max_size=12)


@settings(max_examples=25, deadline=None)
@given(ops=OPS)
def test_any_history_round_trips(ops):
    with tempfile.TemporaryDirectory() as scratch:
        store = make_store(Path(scratch) / "a")
        for n, (op, key, text) in enumerate(ops):
            store.clock.set(f"2024-03-{n + 1:02d}T00:00:00Z")
            name = f"user.k{key}"
            if op == "add":
                env = add_env(text, name, f"tx{n}", valid_from=f"2020-01-{n + 1:02d}T00:00:00Z")
            elif op == "update":
                env = update_env(text, f"tx{n}", key=name, valid_from=f"2024-03-{n + 1:02d}T00:00:00Z")
            else:
                env = envelope(op, f"tx{n}", key=name, valid={"from": None, "to": None} if op == "retire" else None)
            store.mutate(env)                 # refusals are part of the story: they write nothing
        target = make_store(Path(scratch) / "b")
        portability.restore(target, portability.parse(portability.render(portability.collect(store, scope()))))
        assert shard_bytes(target) == shard_bytes(store)
        assert check_store(target).to_json()["problems"] == []


@settings(max_examples=40, deadline=None)
@given(position=st.integers(min_value=0), byte=st.integers(0, 255))
def test_a_corrupted_byte_is_refused_or_harmless(position, byte):
    with tempfile.TemporaryDirectory() as scratch:
        store = make_store(Path(scratch) / "a")
        step(store, add_env("The user lives in Paris.", "user.home_city", "paris", valid_from="2021-09-01T00:00:00Z"))
        step(store, update_env("The user lives in Zürich.", "zurich", key="user.home_city",
                               valid_from="2024-03-01T12:00:01Z"))
        data = bytearray(portability.render(portability.collect(store, scope())))
        data[position % len(data)] = byte
        target = make_store(Path(scratch) / "b")
        try:
            portability.restore(target, portability.parse(bytes(data)))
        except MemoryStoreError as exc:
            assert exc.code in ("export_invalid", "restore_not_permitted", "invalid_json", "invalid_utf8",
                                "duplicate_key", "non_finite_number")
            assert target.shard_paths(scope()) == []
        else:                                  # only the header's free fields can change unnoticed
            assert shard_bytes(target) == shard_bytes(store)
