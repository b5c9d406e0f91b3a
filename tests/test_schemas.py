"""Schemas and policy files: generated from one vocabulary, valid, strictly loaded."""
from __future__ import annotations

import json
import shutil

import jsonschema
import pytest
from click.testing import CliRunner

from memory import schemas
from memory import vocabulary as V
from memory.cli import main
from memory.errors import PolicyError
from memory.paths import DEFAULT_CONFIG_DIR, POLICY_FILES, PROJECT_ROOT, SCHEMA_DIR
from memory.policy import load_policies, load_policy
from memory.store import Store

from helpers import config_copy, load_tool

GENERATED = load_tool("gen_schemas").rendered()
# small closed sets that belong to one schema only (not vocabularies shared with the CLI or policies)
LOCAL_ENUMS = [["store", "redacted"], ["refuse", "redact"], ["active", "retired"]]


def schema(name: str) -> dict:
    return json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_generated_schemas_do_not_drift(name):
    path = PROJECT_ROOT / "schemas" / f"{name}.schema.json"   # the source; the package's copy: test_packaging
    assert path.read_text(encoding="utf-8") == GENERATED[name], "run: python tools/gen_schemas.py"


@pytest.mark.parametrize("path", sorted(SCHEMA_DIR.glob("*.schema.json")), ids=lambda p: p.name)
def test_every_schema_is_valid_draft_2020_12(path):
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(document)


def _enums(node):
    if isinstance(node, dict):
        if "enum" in node:
            yield node["enum"]
        for value in node.values():
            yield from _enums(value)
    elif isinstance(node, list):
        for value in node:
            yield from _enums(value)


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_every_enum_comes_from_the_vocabulary(name):
    registry = [list(v) for k, v in vars(V).items() if k.isupper() and isinstance(v, tuple)]
    for values in _enums(json.loads(GENERATED[name])):
        assert values in registry or values in LOCAL_ENUMS, (name, values)


def test_record_and_envelope_enums_equal_the_vocabulary():
    record = schema("record")["properties"]
    assert record["status"]["enum"] == list(V.STATUSES)
    assert record["kind"]["enum"] == list(V.KINDS)
    assert record["scope"]["properties"]["type"]["enum"] == list(V.SCOPE_TYPES)
    assert record["source"]["properties"]["type"]["enum"] == list(V.SOURCE_TYPES)
    assert record["sensitivity"]["properties"]["classification"]["enum"] == list(V.CLASSIFICATIONS)
    assert record["conflict"]["properties"]["state"]["enum"] == list(V.CONFLICT_STATES)
    assert record["verification"]["properties"]["state"]["enum"] == list(V.VERIFICATION_STATES)
    assert record["confidence"]["enum"] == record["importance"]["enum"] == list(V.LEVELS)
    transition = record["transition"]["properties"]
    assert transition["operation"]["enum"] == list(V.OPERATIONS)
    assert transition["actor"]["properties"]["type"]["enum"] == list(V.ACTOR_TYPES)
    envelope = schema("envelope")["properties"]
    assert envelope["operation"]["enum"] == list(V.OPERATIONS)
    assert envelope["actor"]["properties"]["type"]["enum"] == list(V.ACTOR_TYPES)
    assert envelope["payload"]["properties"]["kind"]["enum"] == list(V.KINDS)
    assert envelope["target"]["properties"]["scope"]["properties"]["type"]["enum"] == list(V.SCOPE_TYPES)


def test_policy_and_result_enums_equal_the_vocabulary():
    mutation = schema("mutation-policy")["properties"]
    assert mutation["sources"]["propertyNames"]["enum"] == list(V.SOURCE_TYPES)
    rule = mutation["sources"]["additionalProperties"]["properties"]
    assert rule["operations"]["additionalProperties"]["enum"] == list(V.ADMISSIONS)
    assert rule["operations"]["propertyNames"]["enum"] == list(V.OPERATIONS)
    forgetting = schema("forgetting-policy")["properties"]
    assert forgetting["abstention_priority"]["items"]["enum"] == list(V.REASON_CODES)
    result = schema("query-result")["properties"]
    assert result["knowledge_state"]["enum"] == list(V.KNOWLEDGE_STATES)
    assert result["reason_code"]["anyOf"][0]["enum"] == list(V.REASON_CODES)


def test_refusal_codes_are_snake_case():
    assert all(code.replace("_", "").isalnum() and code == code.lower() for code in V.REFUSAL_CODES)


# -- policy files ------------------------------------------------------------------

@pytest.mark.parametrize("path", sorted(DEFAULT_CONFIG_DIR.glob("*.json")), ids=lambda p: p.name)
def test_every_policy_file_validates_against_its_schema(path):
    schema_path = SCHEMA_DIR / f"{path.stem}.schema.json"
    assert schema_path.exists(), f"{path.name} has no schema"
    assert schemas.violations(path.stem, json.loads(path.read_text(encoding="utf-8"))) == []


def test_the_policies_load_and_every_source_and_operation_is_known():
    policies = load_policies()
    assert set(policies.hashes()) == set(POLICY_FILES.values())
    for source in V.SOURCE_TYPES:
        for operation in V.OPERATIONS:
            assert policies.mutation.admission(source, operation) in V.ADMISSIONS
    assert policies.forgetting.abstention_priority == list(V.REASON_CODES)


@pytest.fixture
def config(tmp_path, monkeypatch):
    copy = config_copy(tmp_path / "config")
    monkeypatch.setenv("MEMORY_CONFIG", str(copy))
    return copy


@pytest.mark.parametrize("edit, fragment", [
    (lambda t: t.replace('"credentials": {"action": "refuse"},',
                         '"credentials": {"action": "refuse"}, "credentials": {"action": "redact"},'),
     "duplicate JSON key 'credentials'"),
    (lambda t: t.replace('"envelope_bytes": 65536', '"envelope_bytes": NaN'), "NaN"),
    (lambda t: t.replace('"envelope_bytes": 65536', '"envelope_bytes": 1e999'), "Infinity"),
    (lambda t: t[:-3], "not valid JSON"),
    (lambda t: t.replace('"add": "admit_candidate"', '"add": "admit_always"'), "fails its schema"),
])
def test_a_broken_mutation_policy_is_a_policy_error(config, edit, fragment):
    path = config / "mutation-policy.json"
    path.write_text(edit(path.read_text()))
    with pytest.raises(PolicyError) as caught:
        load_policies()
    assert caught.value.code == "policy_invalid" and caught.value.exit_code == 4
    assert fragment in caught.value.message


def test_every_broken_policy_file_is_reported_together(config):
    (config / "mutation-policy.json").write_text('{"a": 1, "a": 2}')
    (config / "retrieval-policy.json").write_text('{"schema_version": "memory.retrieval-policy.v1"}')
    with pytest.raises(PolicyError) as caught:
        load_policies()
    # one detail per problem, each naming its file (and its key path, when it has one)
    assert caught.value.details == [
        "mutation-policy.json: duplicate JSON key 'a'",
        *(f"retrieval-policy.json: (root): missing required field: {key}"
          for key in ("bm25", "planner", "decision", "features"))]


def test_schema_problems_are_listed_one_by_one(config):
    path = config / "forgetting-policy.json"
    data = json.loads(path.read_text())
    data["answering_statuses"] = ["candidate"]
    data["abstention_priority"] = ["unresolved_conflict"]
    data["surprise"] = True
    path.write_text(json.dumps(data))
    with pytest.raises(PolicyError) as caught:
        load_policy("forgetting")
    assert len(caught.value.details) == 3


def test_a_missing_policy_file(config):
    (config / "retrieval-policy.json").unlink()
    with pytest.raises(PolicyError) as caught:
        load_policy("retrieval")
    assert caught.value.code == "policy_missing"


def test_a_broken_policy_stops_the_store_and_the_cli(config, tmp_path):
    assert CliRunner().invoke(main, ["init"]).exit_code == 0
    (config / "mutation-policy.json").write_text('{"caps": {}, "caps": {}}')
    with pytest.raises(PolicyError):
        Store.open(tmp_path / "store")
    result = CliRunner().invoke(main, ["doctor", "--json"])
    assert result.exit_code == 4
    assert json.loads(result.stdout)["error"]["code"] == "policy_invalid"


def test_violations_name_fields_never_values():
    secret = "PLUM-WIDGET-9931"
    value = {"schema_version": secret, "transaction_id": secret * 40, "operation": secret,
             "actor": {"type": secret, "id": ""}, "source": {"type": secret}, secret: secret,
             "target": {"scope": {"type": "user", "key": secret}, "memory_key": secret}}
    problems = schemas.violations("envelope", value)
    assert len(problems) >= 7
    assert not any(secret in problem for problem in problems)


def test_the_schema_folder_is_the_packages(tmp_path):
    # a copy of config/ has no schemas of its own: validation always uses schemas/ beside the package
    copy = config_copy(tmp_path / "c")
    assert not list(copy.glob("*.schema.json"))
    shutil.rmtree(copy)


# -- what a schema error says (names fields and rules, never values) ----------------------

def _envelope(**extra) -> dict:
    return {"schema_version": "memory.envelope.v1", "transaction_id": "t1", "operation": "add",
            "actor": {"type": "user_via_agent", "id": "me"}, "source": {"type": "explicit_user"},
            "target": {"memory_key": "user.drink", "scope": {"type": "user", "key": "me"}},
            "payload": {"kind": "fact", "statement": "The user likes PLUM-WIDGET tea."}, **extra}


def test_unknown_fields_are_named():
    problems = schemas.violations("envelope", _envelope(foo=1, bar=2))
    assert problems == ["(root): unknown field(s): bar, foo"]


def test_a_key_that_could_be_content_is_not_named():
    value = _envelope()
    value["payload"]["My PIN is 4417"] = True
    value["payload"]["kindd"] = "fact"
    assert schemas.violations("envelope", value) == [
        "payload: unknown field(s): (a key not in lowercase snake_case), kindd"]


def test_a_null_valid_time_says_what_to_do():
    assert schemas.violations("envelope", _envelope(valid_time=None)) == [
        "valid_time: must be an object, not null (to give none, leave the field out)"]


def test_wrong_values_are_described_by_the_rule_not_echoed():
    value = _envelope(valid_time={"from": "PLUM-WIDGET"})
    value["target"]["memory_key"] = "PLUM-WIDGET"
    value["operation"] = "PLUM-WIDGET"
    del value["actor"]
    problems = schemas.violations("envelope", value)
    assert problems == [
        "(root): missing required field: actor",
        "operation: must be one of: " + ", ".join(V.OPERATIONS),
        "target/memory_key: must be a memory key: lowercase words joined by dots, such as user.home_city or null",
        "valid_time/from: must be an ISO 8601 instant such as 2024-01-31T09:00:00Z or null"]
    assert not any("PLUM" in p for p in problems)


def test_the_cli_names_the_unknown_fields_and_keeps_the_content_out(tmp_path):
    assert CliRunner().invoke(main, ["init"]).exit_code == 0
    result = CliRunner().invoke(main, ["mutate", "--json"], input=json.dumps(_envelope(foo=1, bar=2, valid_time=None)))
    assert result.exit_code == 5
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "schema_violation"
    assert "(root): unknown field(s): bar, foo" in error["message"]
    assert "valid_time: must be an object, not null" in error["message"]
    assert "PLUM" not in result.output


def test_a_memory_key_with_a_trailing_newline_is_described_like_any_other_bad_key():
    from memory.envelope import admit
    value = _envelope()
    value["target"]["memory_key"] = "user.drink\n"
    with pytest.raises(Exception) as caught:
        admit(value, load_policies().mutation)
    assert caught.value.code == "schema_violation"
    assert caught.value.message.endswith("target/memory_key: must be a memory key: lowercase words joined by dots, "
                                         "such as user.home_city")
