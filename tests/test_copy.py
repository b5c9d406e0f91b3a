"""``memory copy --to STORE``: a whole store into another, on either backend, every hash verified."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from memory.cli import main

NOW = "2024-03-01T12:00:00Z"


def run(store: str, *args) -> tuple[int, dict | str]:
    result = CliRunner().invoke(main, ["--store", store, *args], env={"MEMORY_NOW": NOW}, catch_exceptions=False)
    try:
        return result.exit_code, json.loads(result.stdout)
    except ValueError:
        return result.exit_code, result.stdout


def history(store: str) -> dict:
    """Two users with an update and an erasure, and a third whose only record is erased."""
    assert run(store, "init", "--json")[0] == 0
    for user, key, text in (("u1", "user.home_city", "The user lives in Rome."), ("u1", "user.drink", "The user drinks tea."),
                            ("u2", "user.pet", "The user has a cat named Luna."),
                            ("gone", "user.secret_hobby", "The user collects stamps.")):
        assert run(store, "add", text, "--user", user, "--key", key, "--tx", f"tx-{user}-{key}", "--json")[1]["status"] \
            == "applied"
    assert run(store, "update", "The user lives in Oslo.", "--user", "u1", "--key", "user.home_city", "--from",
               "2024-03-01T12:00:01Z", "--tx", "tx-oslo", "--json")[1]["status"] == "applied"
    assert run(store, "erase", "--key", "user.drink", "--user", "u1", "--tx", "tx-erase", "--json")[1]["status"] == "applied"
    assert run(store, "erase", "--whole-scope", "--user", "gone", "--tx", "tx-gone", "--json")[1]["status"] == "applied"
    return {user: run(store, "export", "--user", user)[1] for user in ("u1", "u2")}


def copied_exports(source: str, target: str) -> tuple[dict, dict]:
    code, report = run(source, "copy", "--to", target, "--json")
    assert code == 0, report
    return report, {user: run(target, "export", "--user", user)[1] for user in ("u1", "u2")}


def test_a_copy_between_folders_exports_the_same_bytes_and_says_what_it_left_out(tmp_path):
    source, target = str(tmp_path / "a"), str(tmp_path / "b")
    exported = history(source)
    report, again = copied_exports(source, target)
    assert again == exported and all(exported.values())
    assert (report["scopes"], len(report["unnamed"])) == (2, 1)   # "gone" has no record left to name it
    # a second run appends nothing: the copy is idempotent (a rerun completes an interrupted one)
    assert run(source, "copy", "--to", target, "--json")[1]["appended"] == 0
    # the erasure's audit row came along, and the erased record with it stays erased
    assert "The user drinks tea." not in again["u1"]


def test_a_copy_refuses_a_target_that_holds_other_records(tmp_path):
    source, target = str(tmp_path / "a"), str(tmp_path / "b")
    history(source)
    assert run(target, "init", "--json")[0] == 0
    assert run(target, "add", "Something else.", "--user", "u1", "--key", "user.other", "--json")[1]["status"] == "applied"
    code, answer = run(source, "copy", "--to", target, "--json")
    assert code != 0 and answer["error"]["code"] == "scope_not_empty"


def test_a_copy_to_postgresql_and_back_exports_the_same_bytes(tmp_path):
    from pg import fresh_schema_url
    url = fresh_schema_url()
    source, back = str(tmp_path / "a"), str(tmp_path / "back")
    exported = history(source)
    _, on_postgres = copied_exports(source, url)
    assert on_postgres == exported
    _, round_trip = copied_exports(url, back)
    assert round_trip == exported
