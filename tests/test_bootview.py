"""The boot view: which records boot, their pins, and doctor's stale / tampered checks."""
from __future__ import annotations

import ast
import hashlib
import json

import pytest
from click.testing import CliRunner

from memory import bootview
from memory.cli import main
from memory.decision import blocker
from memory.doctor import check_store
from memory.jsonio import dumps, loads_strict
from memory.paths import PACKAGE_ROOT, scope_digest

from helpers import NOW, add_env, config_copy, envelope, make_store, reopen, scope, update_env

DIGEST = scope_digest("user", "alice")


def seed(store) -> dict:
    """One record of every state the view must tell apart; returns tx -> record id."""
    ids = {}

    def put(env):
        result = store.mutate(env)
        assert result["status"] == "applied", result
        ids[env["transaction_id"]] = result["record_id"]
    put(add_env("The user lives in Paris.", "user.home_city", "paris", valid_from="2021-01-01T00:00:00Z"))
    put(update_env("The user lives in Berlin.", "berlin", key="user.home_city", valid_from="2024-01-01T00:00:00Z"))
    put(add_env("The user prefers tea.", "user.drink", "tea", kind="preference"))
    put(add_env("Moving to Lisbon.", "user.next_city", "lisbon", valid_from="2024-06-01T00:00:00Z"))
    put(add_env("Gym on Mondays.", "user.gym", "gym", valid_from="2023-01-01T00:00:00Z",
                valid_to="2024-01-01T00:00:00Z"))
    put(add_env("Said hello.", None, "turn", kind="episode"))
    put(envelope("add", "guess", key="user.pet", source="model_inference", actor="agent",
                 payload={"kind": "fact", "statement": "The user has a cat."}))
    put(add_env("Dentist on Tuesday.", "user.dentist", "tue"))
    put(add_env("Dentist on Thursday.", "user.dentist_alt", "thu"))
    put(envelope("dispute", "d1", record_id=ids["tue"], payload={"conflict_with": [ids["thu"]]}))
    return ids


def view_of(store) -> dict:
    return loads_strict(bootview.view_path(store, DIGEST).read_bytes())


def problems(store, repair=False) -> list[tuple[str, str]]:
    return [(p["code"], p["where"]) for p in check_store(store, repair=repair).to_json()["problems"]]


def notices(store) -> list[tuple[str, str]]:
    """A stale view is derived state a rebuild replaces: a notice on a clean store, not a problem."""
    report = check_store(store).to_json()
    assert report["clean"], report["problems"]
    return [(p["code"], p["where"]) for p in report.get("notices", [])]


WHERE = f"views/{DIGEST}/agent-memory.json"


def test_the_view_lists_the_active_currently_valid_records_only(store):
    ids = seed(store)
    bootview.write_view(store, scope())
    view = view_of(store)
    assert {e["id"] for e in view["records"]} == {ids["berlin"], ids["tea"]}
    assert view["scope"] == scope() and view["scope_digest"] == DIGEST and view["built_at"] == NOW


def test_each_entry_is_pinned_by_its_record_hash_and_the_file_by_the_manifest(store):
    seed(store)
    bootview.write_view(store, scope())
    view = view_of(store)
    for entry in view["records"]:
        record = store.get(entry["id"], scope())
        assert (entry["revision"], entry["hash"], entry["statement"]) == \
               (record["revision"], record["hash"]["value"], record["statement"])
    manifest = (store.scope_dir(scope()) / "manifest.json").read_bytes()
    assert view["manifest_sha256"] == hashlib.sha256(manifest).hexdigest()
    assert view["forgetting_policy_sha256"] == store.policies.forgetting.sha256
    assert view["view_sha256"] == bootview.view_sha256(view)


def test_stale_after_is_the_next_instant_the_view_would_change(store):
    seed(store)
    bootview.write_view(store, scope())
    assert view_of(store)["stale_after"] == "2024-06-01T00:00:00Z"   # Lisbon starts


def test_the_view_agrees_with_the_decision_for_active_records(store):
    seed(store)
    state = store.state(scope())
    for now in ("2022-01-01T00:00:00Z", NOW, "2024-07-01T00:00:00Z", "2026-01-01T00:00:00Z"):
        for record in state.currents():
            created = state.revisions[record["id"]][0]["recorded_time"]["recorded_at"]
            decided = (record["status"] == "active" and record["kind"] != "episode"
                       and blocker(record, created, now, now, store.policies.forgetting) is None)
            assert bootview.boots(store, state, record, now) == decided, (record["id"], now)


def test_retention_windows_keep_records_out_of_the_view(tmp_path, monkeypatch):
    config = config_copy(tmp_path / "config")
    policy = json.loads((config / "forgetting-policy.json").read_text())
    policy["retention"] = [{"kind": "preference", "classification": "*", "days": 30}]
    (config / "forgetting-policy.json").write_text(json.dumps(policy))
    store = make_store(tmp_path / "other", config=config)
    store.mutate(add_env("The user prefers tea.", "user.drink", "tea", kind="preference"))
    bootview.write_view(store, scope())
    assert [e["statement"] for e in view_of(store)["records"]] == ["The user prefers tea."]
    assert view_of(store)["stale_after"] == "2024-03-31T12:00:00Z"
    store.clock.set("2024-04-01T00:00:00Z")
    assert notices(store) == [("derived_stale", WHERE)]
    bootview.write_view(store, scope())
    assert view_of(store)["records"] == []


def test_doctor_is_clean_with_a_fresh_view(store):
    seed(store)
    bootview.build_views(store)
    assert problems(store) == []
    assert problems(reopen(store)) == []


def test_a_write_makes_the_view_stale_and_repair_drops_it(store):
    seed(store)
    bootview.write_view(store, scope())
    store.mutate(add_env("The user likes jazz.", "user.music", "jazz"))
    assert notices(store) == [("derived_stale", WHERE)]
    report = check_store(store, repair=True).to_json()
    assert report["clean"] and [p["code"] for p in report["repaired"]] == ["derived_stale"]
    assert not bootview.view_path(store, DIGEST).exists() and "notices" not in report
    assert notices(store) == []


def test_time_passing_a_boundary_makes_the_view_stale(store):
    seed(store)
    bootview.write_view(store, scope())
    store.clock.set("2024-05-31T23:59:59Z")
    assert notices(store) == []
    store.clock.set("2024-06-01T00:00:00Z")
    assert notices(store) == [("derived_stale", WHERE)]


def test_a_policy_change_makes_the_view_stale(tmp_path):
    config = config_copy(tmp_path / "config")
    store = make_store(tmp_path / "other", config=config)
    seed(store)
    bootview.write_view(store, scope())
    policy = json.loads((config / "forgetting-policy.json").read_text())
    policy["retention"] = []
    (config / "forgetting-policy.json").write_text(json.dumps(policy))
    report = check_store(reopen(store)).to_json()
    assert ("derived_stale", WHERE) in [(p["code"], p["where"]) for p in report["notices"]]
    assert [p["code"] for p in report["problems"]] == ["policy_drift"]


def _edit(store, change, *, rehash: bool) -> None:
    path = bootview.view_path(store, DIGEST)
    view = loads_strict(path.read_bytes())
    change(view)
    if rehash:
        view["view_sha256"] = bootview.view_sha256(view)
    path.write_bytes(dumps(view, pretty=True))


@pytest.mark.parametrize("rehash", [False, True])
@pytest.mark.parametrize("change", [
    lambda v: v["records"][0].update(statement="The user lives in Atlantis."),
    lambda v: v["records"].pop(),
    lambda v: v["records"].append(dict(v["records"][0], id="mem_000000000000000000000000")),
    lambda v: v["records"][0].update(hash="0" * 64),
], ids=["statement", "removed", "added", "hash"])
def test_an_edited_view_is_tampered(store, change, rehash):
    seed(store)
    bootview.write_view(store, scope())
    _edit(store, change, rehash=rehash)
    assert problems(store) == [("boot_view_tampered", WHERE)]
    assert problems(store, repair=True) == [("boot_view_tampered", WHERE)]   # reported, never "fixed"
    assert bootview.view_path(store, DIGEST).exists()


def test_a_view_that_is_not_json_is_tampered(store):
    seed(store)
    bootview.write_view(store, scope())
    bootview.view_path(store, DIGEST).write_bytes(b"{")
    assert problems(store) == [("boot_view_tampered", WHERE)]


def test_a_view_moved_to_another_scope_folder_is_tampered(store):
    seed(store)
    store.mutate(add_env("Bob lives in Rome.", "user.home_city", "rome", user="bob"))
    bootview.build_views(store)
    bob = scope_digest("user", "bob")
    bootview.view_path(store, bob).write_bytes(bootview.view_path(store, DIGEST).read_bytes())
    assert problems(store) == [("boot_view_tampered", f"views/{bob}/agent-memory.json")]


def test_build_views_defaults_to_every_scope_and_skips_erased_ones(store):
    seed(store)
    store.mutate(add_env("Bob lives in Rome.", "user.home_city", "rome", user="bob"))
    store.mutate(add_env("Carol lives in Nice.", "user.home_city", "nice", user="carol"))
    store.mutate(envelope("erase", "wipe", user="carol", whole_scope=True))
    built = bootview.build_views(store)
    assert sorted(v["scope"]["key"] for v in built) == ["alice", "bob"]


def test_cli_build_prints_what_it_wrote(store):
    seed(store)
    result = CliRunner().invoke(main, ["build", "--user", "alice", "--json"])
    assert result.exit_code == 0
    [summary] = json.loads(result.stdout)
    assert summary["records"] == 2 and summary["scope_digest"] == DIGEST
    assert summary["path"] == str(bootview.view_path(store, DIGEST))
    text = CliRunner().invoke(main, ["build"])
    assert text.exit_code == 0 and text.stdout.startswith("user:alice: 2 record(s) -> ")


def test_cli_doctor_exits_7_on_a_tampered_view(store):
    seed(store)
    bootview.write_view(store, scope())
    _edit(store, lambda v: v["records"].pop(), rehash=True)
    result = CliRunner().invoke(main, ["doctor", "--json"])
    assert result.exit_code == 7 and json.loads(result.stdout)["problems"][0]["code"] == "boot_view_tampered"


def test_bootview_imports_only_the_write_core():
    """doctor (write core) calls check_boot_views, so bootview may not reach the read path."""
    core = {"errors", "paths", "jsonio", "clock", "vocabulary", "schemas", "records", "credentials", "policy",
            "envelope", "lifecycle", "store"}
    tree = ast.parse((PACKAGE_ROOT / "bootview.py").read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level}
    assert imported <= core, imported - core
