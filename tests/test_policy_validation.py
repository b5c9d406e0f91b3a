"""Policy files are validated completely when loaded, at `memory init`, `memory doctor` and every command.

An unknown key (a misspelled feature flag was silently "off"), a missing key (was a KeyError,
exit 1, on the first query), a value of the wrong type, or an integer literal too long for Python
to read (was exit 1) is exit 4 `policy_invalid`, and the message names each key path. Every
problem of every file is reported together.
"""
from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from memory.cli import main
from memory.errors import PolicyError
from memory.paths import DEFAULT_CONFIG_DIR, POLICY_FILES
from memory import policy
from memory.policy import load_policies

from helpers import config_copy


def edit(config, name: str, change) -> None:
    path = config / f"{name}-policy.json"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2))


def rename_feature(data):
    data["features"]["feedback_expanson"] = data["features"].pop("feedback_expansion")


# (file, edit, fragments the message must hold: the key paths named)
BROKEN = {
    "misspelled_feature": ("retrieval", rename_feature,
                           ["features: unknown field(s): feedback_expanson", "features: missing required field: feedback_expansion"]),
    "unknown_feature": ("retrieval", lambda d: d["features"].update(dense_serach=True),
                        ["features: unknown field(s): dense_serach"]),
    "missing_planner_key": ("retrieval", lambda d: d["planner"].pop("rrf_k"),
                            ["planner: missing required field: rrf_k"]),
    "missing_decision_key": ("retrieval", lambda d: d["decision"].pop("min_coverage"),
                             ["decision: missing required field: min_coverage"]),
    "wrong_type_planner": ("retrieval", lambda d: d["planner"].update(max_steps="6"),
                           ["planner.max_steps: must be an integer, not a string"]),
    "wrong_type_feature": ("retrieval", lambda d: d["features"].update(dense_search="yes"),
                           ["features.dense_search: must be true or false, not a string"]),
    "unknown_llm_key": ("retrieval", lambda d: d["llm"].update(timeout=5),
                        ["llm: unknown field(s): timeout"]),
    "missing_cap": ("mutation", lambda d: d["caps"].pop("list_items"),
                    ["caps: missing required field: list_items"]),
    "wrong_type_cap": ("mutation", lambda d: d["caps"].update(envelope_bytes="64k"),
                       ["caps.envelope_bytes: must be an integer, not a string"]),
    "unknown_operation": ("mutation", lambda d: d["sources"]["explicit_user"]["operations"].update(ad="admit_active"),
                          ["sources.explicit_user.operations: unknown key: ad"]),
    "unknown_top_level": ("forgetting", lambda d: d.update(retention_days=30),
                          ["(root): unknown field(s): retention_days"]),
    "wrong_type_retention": ("forgetting", lambda d: d["retention"][0].update(days=1.5),
                             ["retention.0.days: must be an integer, not a number"]),
}


@pytest.fixture
def config(tmp_path, monkeypatch):
    copy = config_copy(tmp_path / "config")
    monkeypatch.setenv("MEMORY_CONFIG", str(copy))
    return copy


def invoke(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def assert_policy_invalid(result, fragments):
    assert result.exit_code == 4, (result.exit_code, result.output)
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "policy_invalid"
    for fragment in fragments:
        assert any(fragment in detail for detail in error["details"]), (fragment, error["details"])
        assert fragment in error["message"]


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_policy_fails_init_naming_the_key(config, case, tmp_path):
    name, change, fragments = BROKEN[case]
    edit(config, name, change)
    assert_policy_invalid(invoke("init", "--json"), [f"{name}-policy.json"] + fragments)
    assert not (tmp_path / "store").exists()          # nothing written


ENVELOPE = json.dumps({"schema_version": "memory.envelope.v1", "transaction_id": "t1", "operation": "add",
                       "actor": {"type": "user_via_agent", "id": "me"}, "source": {"type": "explicit_user"},
                       "target": {"memory_key": "user.drink", "scope": {"type": "user", "key": "me"}},
                       "payload": {"kind": "fact", "statement": "The user likes tea."}})

COMMANDS = {
    "doctor": ["doctor"], "query": ["query", "what does the user drink?", "--user", "me"],
    "add": ["add", "The user likes coffee.", "--user", "me", "--key", "user.snack"],
    "mutate": ["mutate"], "get": ["get", "mem_000000000000000000000000", "--user", "me"],
    "history": ["history", "mem_000000000000000000000000", "--user", "me"],
    "stats": ["stats"], "build": ["build", "--user", "me"], "review": ["review", "list", "--user", "me"],
    "export": ["export", "--user", "me"], "retention": ["retention", "sweep"],
    "forget": ["forget", "--user", "me", "--key", "user.drink"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("case", ["misspelled_feature", "missing_planner_key", "wrong_type_cap"])
def test_a_policy_broken_after_init_fails_every_command(config, command, case):
    assert invoke("init").exit_code == 0
    assert invoke("mutate", input=ENVELOPE).exit_code == 0
    name, change, fragments = BROKEN[case]
    edit(config, name, change)
    result = invoke(*COMMANDS[command], "--json", input=ENVELOPE if command == "mutate" else None)
    assert_policy_invalid(result, fragments)


def test_a_broken_copy_in_the_store_fails_every_command_too(tmp_path):
    """Without $MEMORY_CONFIG the store answers by its own copy: that copy is validated the same way."""
    assert invoke("init").exit_code == 0
    copy = tmp_path / "store" / "policies" / "retrieval-policy.json"
    data = json.loads(copy.read_text())
    rename_feature(data)
    copy.write_text(json.dumps(data))
    for command in ("doctor", "query"):
        assert_policy_invalid(invoke(*COMMANDS[command], "--json"), BROKEN["misspelled_feature"][2])
    # the way back that docs/POLICIES.md gives: drop the broken copy, adopt the defaults again
    for path in copy.parent.iterdir():
        path.unlink()
    copy.parent.rmdir()
    assert invoke("init", "--accept-policies").exit_code == 0
    assert invoke("doctor").exit_code == 0


def test_every_problem_of_every_file_is_reported_together(config):
    for case in ("misspelled_feature", "wrong_type_planner", "missing_cap", "unknown_top_level"):
        name, change, _ = BROKEN[case]
        edit(config, name, change)
    with pytest.raises(PolicyError) as caught:
        load_policies()
    details = caught.value.details
    for case in ("misspelled_feature", "wrong_type_planner", "missing_cap", "unknown_top_level"):
        name, _, fragments = BROKEN[case]
        for fragment in fragments:
            assert f"{name}-policy.json: {fragment}" in details, (fragment, details)


def test_an_over_long_integer_literal_is_policy_invalid_not_exit_1(config):
    path = config / "retrieval-policy.json"
    path.write_text(re.sub(r'"max_steps": 6', '"max_steps": ' + "9" * 5000, path.read_text(), count=1))
    result = invoke("init", "--json")
    assert result.exit_code == 4, result.output
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "policy_invalid" and "retrieval-policy.json" in error["message"]
    assert "integer" in error["message"] and "9999" not in error["message"]


def _leaves(value, prefix=()):
    """Every key path of a JSON value (objects only; list items by index)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield prefix + (key,)
            yield from _leaves(item, prefix + (key,))
    elif isinstance(value, list):
        for number, item in enumerate(value):
            yield from _leaves(item, prefix + (number,))


# keys that may be left out: free text for people, and the llm section (the llm planner has defaults)
OPTIONAL = re.compile(r"^(description|sources\.[a-z_]+\.description|llm(\..*)?"
                      r"|operation_actor_types\.[a-z]+|sources\.[a-z_]+(\.operations\.[a-z]+)?)$")


def _paths(name: str) -> list[tuple]:
    return list(_leaves(json.loads((DEFAULT_CONFIG_DIR / POLICY_FILES[name]).read_text())))


@pytest.mark.parametrize("name", sorted(POLICY_FILES))
def test_leaving_out_any_key_the_code_reads_is_policy_invalid(config, name):
    shipped = (config / POLICY_FILES[name]).read_text()
    checked = 0
    for path in _paths(name):
        dotted = ".".join(map(str, path))
        if OPTIONAL.match(dotted):
            continue
        data = json.loads(shipped)
        node = data
        for part in path[:-1]:
            node = node[part]
        del node[path[-1]]
        (config / POLICY_FILES[name]).write_text(json.dumps(data))
        added = policy.ADDED_KEYS.get(name, {})
        if tuple(path) in added:   # a file written before the key existed: read as it was meant then
            loaded = getattr(load_policies(), name).data
            assert loaded[path[0]][path[1]] == added[tuple(path)], dotted
            continue
        with pytest.raises(PolicyError) as caught:
            load_policies()
        assert f"missing required field: {path[-1]}" in caught.value.message, dotted
        checked += 1
    (config / POLICY_FILES[name]).write_text(shipped)
    assert checked >= 5


@pytest.mark.parametrize("name", sorted(POLICY_FILES))
def test_an_unknown_key_in_any_object_is_policy_invalid(config, name):
    shipped = (config / POLICY_FILES[name]).read_text()
    objects = [()] + [p for p in _paths(name)
                      if isinstance(_at(json.loads(shipped), p), dict)]
    for path in objects:
        data = json.loads(shipped)
        _at(data, path)["zz_typo"] = True
        (config / POLICY_FILES[name]).write_text(json.dumps(data))
        with pytest.raises(PolicyError) as caught:
            load_policies()
        assert "zz_typo" in caught.value.message, path
    (config / POLICY_FILES[name]).write_text(shipped)


def _at(data, path):
    for part in path:
        data = data[part]
    return data
