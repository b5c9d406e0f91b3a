"""A store keeps the policies it was created with: upgrading the package never changes its rules.

`memory init` copies the three policy files, byte for byte, into `<store>/policies/` and pins their
hashes in store.json; the store answers by that copy. The defaults shipped with a newer package
(simulated here by pointing the package's default folder elsewhere) take effect only when an
operator adopts them: `memory init --accept-policies`. `$MEMORY_CONFIG`, an explicit choice,
still wins over the copy (and `memory doctor` reports `policy_drift` when it differs from the pin).
"""
from __future__ import annotations

import hashlib
import json
import shutil

import pytest
from click.testing import CliRunner

from memory import paths
from memory.cli import main
from memory.doctor import check_store
from memory.paths import DEFAULT_CONFIG_DIR
from memory.store import Store

from helpers import config_copy


def cli(*args, input=None):
    result = CliRunner().invoke(main, [*args], input=input)
    return result


def cli_json(*args, input=None):
    result = cli(*args, "--json", input=input)
    return result.exit_code, json.loads(result.stdout)


def add(statement: str, key: str) -> dict:
    code, out = cli_json("add", statement, "--user", "me", "--key", key)
    assert code == 0, out
    return out


def is_active(record_id: str) -> bool:
    code, out = cli_json("get", record_id, "--user", "me")
    assert code == 0, out
    return out["status"] == "active"


def test_init_copies_the_policies_into_the_store_and_pins_them(tmp_path):
    code, out = cli_json("init")
    assert code == 0
    root = tmp_path / "store"
    for name, digest in out["policy_sha256"].items():
        copy = (root / "policies" / name).read_bytes()
        assert copy == (DEFAULT_CONFIG_DIR / name).read_bytes()
        assert hashlib.sha256(copy).hexdigest() == digest
    assert json.loads((root / "store.json").read_text())["policy_sha256"] == out["policy_sha256"]
    code, where = cli_json("where")
    assert where["policies"] == str((root / "policies").resolve())


def test_new_package_defaults_do_not_change_an_existing_store(tmp_path, newer_defaults):
    assert cli("init").exit_code == 0
    before = add("The user likes tea.", "user.drink")
    newer_defaults[0]()
    after = add("The user likes coffee.", "user.snack")
    assert is_active(before["record_id"]) and is_active(after["record_id"])  # the store's own rules
    code, report = cli_json("doctor")
    assert code == 0 and report["clean"], report
    # a store created after the upgrade gets the new defaults
    code, out = cli_json("--store", str(tmp_path / "fresh"), "init")
    assert code == 0
    assert (tmp_path / "fresh" / "policies" / "mutation-policy.json").read_bytes() == \
        (paths.DEFAULT_CONFIG_DIR / "mutation-policy.json").read_bytes()


def test_accept_policies_adopts_the_new_defaults_deliberately(tmp_path, newer_defaults):
    assert cli("init").exit_code == 0
    newer_defaults[0]()
    code, out = cli_json("init", "--accept-policies")
    assert code == 0
    copy = (tmp_path / "store" / "policies" / "mutation-policy.json").read_bytes()
    assert copy == (paths.DEFAULT_CONFIG_DIR / "mutation-policy.json").read_bytes()
    assert out["policy_sha256"]["mutation-policy.json"] == hashlib.sha256(copy).hexdigest()
    later = add("The user likes juice.", "user.drink")
    assert not is_active(later["record_id"])          # now a candidate, as the adopted rules say
    code, report = cli_json("doctor")
    assert code == 0 and report["clean"], report


def test_a_store_made_with_memory_config_keeps_those_rules_without_it(tmp_path, monkeypatch):
    config = config_copy(tmp_path / "config")
    path = config / "mutation-policy.json"
    policy = json.loads(path.read_text())
    policy["sources"]["explicit_user"]["operations"]["add"] = "admit_candidate"
    path.write_text(json.dumps(policy))
    monkeypatch.setenv("MEMORY_CONFIG", str(config))
    assert cli("init").exit_code == 0
    monkeypatch.delenv("MEMORY_CONFIG")
    record = add("The user likes tea.", "user.drink")
    assert not is_active(record["record_id"])


def test_an_edit_of_the_stores_copy_is_policy_drift(store):
    copy = store.root / "policies" / "mutation-policy.json"
    copy.write_text(copy.read_text().replace('"statement_bytes": 16384', '"statement_bytes": 16000'))
    report = check_store(Store.open(store.root))
    assert [(p["code"], p["where"]) for p in report.problems] == [("policy_drift", "config/mutation-policy.json")]


def test_memory_config_wins_over_the_copy_and_doctor_says_it_differs(tmp_path, store, monkeypatch):
    config = config_copy(tmp_path / "config")
    path = config / "mutation-policy.json"
    path.write_text(path.read_text().replace('"statement_bytes": 16384', '"statement_bytes": 16000'))
    monkeypatch.setenv("MEMORY_CONFIG", str(config))
    reopened = Store.open(store.root)
    assert reopened.policies.mutation.caps["statement_bytes"] == 16000
    assert "policy_drift" in {p["code"] for p in check_store(reopened).problems}


def test_a_store_without_a_copy_answers_by_the_defaults_until_it_adopts_them(tmp_path):
    """Stores made before stores kept a copy (the demo in data/): the defaults, as before."""
    assert cli("init").exit_code == 0
    root = tmp_path / "store"
    shutil.rmtree(root / "policies")
    assert Store.open(root).policies.mutation.loaded.path.parent == paths.DEFAULT_CONFIG_DIR
    assert cli("init", "--accept-policies").exit_code == 0
    assert sorted(p.name for p in (root / "policies").iterdir()) == [
        "forgetting-policy.json", "mutation-policy.json", "retrieval-policy.json"]
    assert Store.open(root).policies.mutation.loaded.path.parent == root / "policies"
