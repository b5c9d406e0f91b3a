"""envelope: admission of one envelope — caps before parsing, schema, policy, credentials."""
from __future__ import annotations

import hashlib
import json

import pytest

from memory import envelope as envelope_module
from memory.envelope import admit
from memory.paths import SCHEMA_DIR
from memory.errors import InputError, MemoryStoreError, RefusedError
from memory.jsonio import dumps
from memory.policy import load_policies

from helpers import add_env, all_bytes, by_id, changed, config_copy, envelope, make_store, raw, scope, snapshot

SECRET = "QUOKKA-7781-STATEMENT"
STATEMENT = f"The user keeps a {SECRET} in the attic."


@pytest.fixture(scope="module")
def policy():
    return load_policies().mutation


def good() -> dict:
    return add_env(STATEMENT, "user.attic", "tx-1")


def refusal(raw_input, policy) -> MemoryStoreError:
    with pytest.raises(MemoryStoreError) as caught:
        admit(raw_input, policy)
    assert SECRET not in caught.value.message
    assert SECRET not in json.dumps(caught.value.to_json())
    return caught.value


# -- the happy path --------------------------------------------------------------

def test_admit_returns_the_normalized_envelope_and_the_digest_of_what_was_sent(policy):
    sent = changed(good(), **{"payload.statement": "Cafe\u0301 on the corner",
                              "valid_time.from": "2024-02-01T01:00:00+01:00",
                              "source.observed_at": "2024-02-01T10:00:00+02:00"})
    admitted = admit(dumps(sent), policy)
    assert admitted.admission == "admit_active"
    assert admitted.credential_present is False
    assert admitted.envelope["payload"]["statement"] == "Café on the corner"
    assert admitted.envelope["valid_time"]["from"] == "2024-02-01T00:00:00Z"
    assert admitted.envelope["source"]["observed_at"] == "2024-02-01T08:00:00Z"
    # the idempotency digest is of the envelope as sent (NFC, canonical JSON), not of the normalized one
    as_sent = changed(sent, **{"payload.statement": "Café on the corner"})
    plain = json.dumps(as_sent, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    assert admitted.envelope_sha256 == hashlib.sha256(plain).hexdigest()
    # ... so key order and NFC spelling do not change it
    reordered = json.dumps(dict(reversed(list(sent.items())))).encode()
    assert admit(reordered, policy).envelope_sha256 == admitted.envelope_sha256
    assert admit(dumps(as_sent), policy).envelope_sha256 == admitted.envelope_sha256


def test_admit_does_not_mutate_a_dict_the_caller_passed(policy):
    sent = changed(good(), **{"valid_time.from": "2024-02-01T01:00:00+01:00", "payload.statement": "e\u0301"})
    before = json.dumps(sent, sort_keys=True)
    admit(sent, policy)
    assert json.dumps(sent, sort_keys=True) == before


@pytest.mark.parametrize("source, actor, scope_type, admission", [
    ("explicit_user", "user_via_agent", "user", "admit_active"),
    ("model_inference", "agent", "user", "admit_candidate"),
    ("raw_import", "importer", "project", "admit_candidate"),
])
def test_admission_comes_from_the_policy_table(policy, source, actor, scope_type, admission):
    env = add_env("The user likes tea.", "user.drink", "tx-1", source=source, actor=actor, scope_type=scope_type)
    assert admit(env, policy).admission == admission


def test_repository_evidence_with_its_hash_is_admitted(policy):
    env = add_env("The project uses Python 3.11.", "project.python", "tx-1", source="repository_evidence",
                  actor="agent", scope_type="project", evidence_hash="sha256:" + "0" * 64)
    assert admit(env, policy).admission == "admit_active"


# -- bad input -------------------------------------------------------------------

def test_malformed_json(policy):
    assert refusal(b'{"schema_version": "memory.envelope.v1", "payload": {"statement": "' + SECRET.encode() + b'"',
                   policy).code == "invalid_json"


def test_invalid_utf8(policy):
    assert refusal(raw(good()).replace(b"attic", b"att\xffic"), policy).code == "invalid_utf8"


def test_lone_surrogate_escape_is_refused_not_a_crash(policy):
    data = raw(good()).replace(b"attic", b"att\\udc80ic")
    assert refusal(data, policy).code == "invalid_utf8"


def test_duplicate_key(policy):
    data = raw(good()).replace(b'"reason":', b'"operation":"add","reason":')
    assert refusal(data, policy).code == "duplicate_key"


@pytest.mark.parametrize("literal", [b"NaN", b"Infinity", b"-Infinity", b"1e999"])
def test_non_finite_numbers(policy, literal):
    data = raw(good()).replace(b'"confidence":"high"', b'"confidence":' + literal)
    assert refusal(data, policy).code == "non_finite_number"


@pytest.mark.parametrize("mutation", [
    {"surprise": 1},                                         # an unknown top-level field
    {"payload.mood": "happy"},                               # an unknown payload field
    {"target.user": "alice"},                                # an unknown target field
    {"operation": "upsert"},                                 # an unknown operation
    {"payload.kind": "rumour"},                              # an unknown kind
    {"payload.statement": 42},                               # a wrong type
    {"payload.statement": ""},                               # empty statement
    {"payload.aliases": "home"},                             # a string for a list
    {"actor.type": "robot"},
    {"source.type": "gossip"},
    {"target.scope": {"type": "user"}},                      # a scope without a key
    {"target.scope": {"type": "user", "key": ""}},
    {"target.memory_key": "User Home!"},                     # keys are dotted snake_case
    {"target.record_id": "mem_nothex"},
    {"schema_version": "memory.envelope.v0"},
    {"valid_time.from": "yesterday"},
    {"transaction_id": ""},
])
def test_schema_violations(policy, mutation):
    env = good()
    for dotted, value in mutation.items():
        env = changed(env, **{dotted: value}) if "." in dotted or dotted in env else {**env, dotted: value}
    error = refusal(env, policy)
    assert error.code == "schema_violation"
    assert error.details, "every violation is reported as a value"


def test_schema_violations_are_collected_together(policy):
    env = changed(good(), **{"actor.type": "robot", "payload.kind": "rumour"})
    error = refusal(env, policy)
    assert len(error.details) >= 2
    assert any(d.startswith("actor/type") for d in error.details)
    assert any(d.startswith("payload/kind") for d in error.details)


def test_missing_required_fields(policy):
    env = {k: v for k, v in good().items() if k not in ("actor", "target")}
    error = refusal(env, policy)
    assert error.code == "schema_violation" and len(error.details) == 2


def test_a_json_array_is_not_an_envelope(policy):
    assert refusal(b"[1, 2]", policy).code == "schema_violation"


def test_oversize_envelope_is_refused_by_the_cap_before_parsing(policy, monkeypatch):
    cap = policy.caps["envelope_bytes"]
    blob = b'{"statement": "' + SECRET.encode() * (cap // len(SECRET) + 1)      # not even valid JSON

    def never(*_a, **_k):
        raise AssertionError("an oversize envelope must not be parsed")
    monkeypatch.setattr(envelope_module, "loads_strict", never)
    error = refusal(blob, policy)
    assert error.code == "envelope_too_large"
    assert str(cap) in error.message


def test_an_envelope_exactly_at_the_cap_is_parsed(policy):
    env = good()
    data = raw(env)
    pad = policy.caps["envelope_bytes"] - len(data)
    data = data[:-1] + b" " * pad + b"}"
    assert len(data) == policy.caps["envelope_bytes"]
    assert admit(data, policy).admission == "admit_active"


def test_oversize_dict_envelope_is_refused(policy):
    # every part within its own cap, the whole over the envelope cap
    item = policy.caps["list_item_bytes"]
    env = changed(good(), **{"payload.aliases": ["x" * item] * 32, "payload.tags": ["y" * item] * 32,
                             "payload.negative_triggers": ["z" * item] * 32, "reason": "r" * 2048,
                             "payload.statement": SECRET + "s" * (policy.caps["statement_bytes"] - 100)})
    assert len(dumps(env)) > policy.caps["envelope_bytes"]
    assert refusal(env, policy).code == "envelope_too_large"


def test_statement_cap_counts_utf8_bytes(policy):
    cap = policy.caps["statement_bytes"]
    assert admit(changed(good(), **{"payload.statement": "é" * (cap // 2)}), policy)
    error = refusal(changed(good(), **{"payload.statement": SECRET + "é" * (cap // 2)}), policy)
    assert error.code == "statement_too_large"


def test_list_caps(policy):
    caps = policy.caps
    too_many = changed(good(), **{"payload.aliases": [f"a{i}" for i in range(caps["list_items"] + 1)]})
    assert refusal(too_many, policy).code == "list_too_long"
    too_long = changed(good(), **{"payload.tags": ["é" * (caps["list_item_bytes"] // 2 + 1)]})
    assert refusal(too_long, policy).code == "list_too_long"
    at_cap = changed(good(), **{"payload.tags": [f"t{i}" for i in range(caps["list_items"])]})
    assert admit(at_cap, policy)


@pytest.mark.parametrize("valid, code", [
    ({"from": "2024-02-30T00:00:00Z", "to": None}, "invalid_valid_time"),          # no such day
    ({"from": "2024-03-01T00:00:00Z", "to": "2024-03-01T00:00:00Z"}, "invalid_valid_time"),
    ({"from": "2024-03-02T00:00:00Z", "to": "2024-03-01T00:00:00+00:00"}, "invalid_valid_time"),
    ({"from": "2024-03-01T01:00:00+02:00", "to": "2024-02-29T22:30:00Z"}, "invalid_valid_time"),
])
def test_valid_time_must_be_a_real_non_empty_interval(policy, valid, code):
    assert refusal(changed(good(), valid_time=valid), policy).code == code


@pytest.mark.parametrize("field, instant", [
    ("valid_time.from", "0999-01-01T00:00:00Z"),          # was stored as "999-01-01T00:00:00Z"
    ("valid_time.from", "0001-01-01T00:00:00Z"),
    ("valid_time.to", "0999-12-31T23:59:59Z"),
    ("valid_time.from", "1000-01-01T00:30:00+01:00"),     # year 1000 as written, 999 in UTC
    ("valid_time.to", "9999-12-31T23:59:59-01:00"),       # past the last UTC instant
    ("source.observed_at", "0999-01-01T00:00:00Z"),
    ("source.observed_at", "1000-01-01T00:00:00+00:01"),
])
def test_an_instant_outside_years_1000_to_9999_is_refused(policy, field, instant):
    env = changed(good(), **{"valid_time": {"from": None, "to": None}, field: instant})
    error = refusal(env, policy)
    assert error.code == "instant_out_of_range" and error.exit_code == 3
    assert field in error.message


@pytest.mark.parametrize("instant", ["1000-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "1000-01-01T01:00:00+01:00"])
def test_the_first_and_last_years_are_admitted(policy, instant):
    admitted = admit(changed(good(), **{"valid_time": {"from": instant, "to": None}}), policy)
    assert admitted.envelope["valid_time"]["from"][:4] in ("1000", "9999")


def test_an_instant_out_of_range_writes_nothing(store):
    before = snapshot(store.root)
    result = store.mutate(add_env(STATEMENT, "user.old", "tx-old", valid_from="0999-01-01T00:00:00Z"))
    assert result["error"]["code"] == "instant_out_of_range"
    assert snapshot(store.root) == before


def test_valid_time_is_compared_in_utc_not_as_spelled(policy):
    # 01:00+02:00 is 23:00Z the day before: 23:30Z is after it, though it sorts before as text
    valid = {"from": "2024-03-01T01:00:00+02:00", "to": "2024-02-29T23:30:00Z"}
    assert admit(changed(good(), valid_time=valid), policy).envelope["valid_time"] == {
        "from": "2024-02-29T23:00:00Z", "to": "2024-02-29T23:30:00Z"}


# -- the policy ------------------------------------------------------------------

@pytest.mark.parametrize("env, code", [
    (add_env(STATEMENT, "user.x", "t", source="conversation", actor="agent"), "kind_not_permitted"),
    (envelope("update", "t", key="user.x", source="conversation", actor="agent",
              payload={"statement": STATEMENT}), "operation_not_permitted"),
    (add_env(STATEMENT, "user.x", "t", source="explicit_user", actor="importer"), "actor_not_permitted"),
    (by_id("approve", "mem_" + "0" * 24, "t", actor="agent"), "actor_not_permitted"),
    (add_env(STATEMENT, "project.x", "t", scope_type="project"), "scope_not_permitted"),
    (add_env(STATEMENT, "project.x", "t", source="repository_evidence", actor="agent", scope_type="project"),
     "evidence_required"),
    (add_env(STATEMENT + " api_key=sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX", "user.x", "t"), "credential_detected"),
])
def test_policy_refusals(policy, env, code):
    error = refusal(env, policy)
    assert isinstance(error, RefusedError)
    assert error.code == code and error.exit_code == 5


# -- credentials, through the store ---------------------------------------------

API_KEY = "sk-proj-Zx81KqWmB2vLp09RtYh3NcD4"


def test_a_credential_is_refused_and_nothing_is_written(store):
    before = snapshot(store.root)
    result = store.mutate(add_env(f"My OpenAI key is {API_KEY}", "user.openai", "tx-key"))
    assert result["status"] == "refused"
    assert result["error"]["code"] == "credential_detected"
    assert API_KEY not in json.dumps(result)
    assert snapshot(store.root) == before


@pytest.mark.parametrize("secret", [
    "AKIAIOSFODNN7EXAMPLE", "ghp_" + "a1B2" * 9, "xoxb-1234567890-abcdefghij",
    "-----BEGIN RSA PRIVATE KEY-----", "password: hunter2hunter2", "Bearer abcdefghijklmnopqrstuvwxyz123",
])
def test_other_credential_shapes_are_refused(store, secret):
    result = store.mutate(add_env(f"note {secret}", "user.note", "tx-c"))
    assert result["error"]["code"] == "credential_detected"
    assert secret not in json.dumps(result)


def test_a_credential_in_an_alias_is_refused_too(store):
    env = add_env("The user's OpenAI account.", "user.openai", "tx-a", payload_extra={"aliases": [API_KEY]})
    assert store.mutate(env)["error"]["code"] == "credential_detected"


def test_with_a_redacting_policy_the_credential_is_stored_redacted(tmp_path, monkeypatch):
    config = config_copy(tmp_path / "config")
    policy_path = config / "mutation-policy.json"
    policy_path.write_text(policy_path.read_text().replace('"action": "refuse"', '"action": "redact"'))
    monkeypatch.setenv("MEMORY_CONFIG", str(config))
    store = make_store(tmp_path / "redacting")
    env = add_env(f"My OpenAI key is {API_KEY} (personal)", "user.openai", "tx-key",
                  payload_extra={"aliases": [f"key {API_KEY}"]})
    result = store.mutate(env)
    assert result["status"] == "applied"
    record = store.get(result["record_id"], scope())
    assert record["statement"] == "My OpenAI key is [REDACTED:openai_key] (personal)"
    assert record["aliases"] == ["key [REDACTED:openai_key]"]
    assert record["sensitivity"]["credential_present"] is True
    assert record["sensitivity"]["handling"] == "redacted"
    assert API_KEY.encode() not in all_bytes(store.root)
    # replaying the original (unredacted) envelope is the same transaction
    assert store.mutate(env)["status"] == "idempotent"
    assert API_KEY.encode() not in all_bytes(store.root)


GITHUB_TOKEN = "ghp_" + "Zx81KqWmB2vLp09RtYh3NcD4" + "a1B2c3D4e5F6"
STORED_FIELDS = ["transaction_id", "actor.id", "source.ref", "source.session", "source.speaker",
                 "source.evidence_hash", "target.scope.key", "reason", "payload.statement"]
STORED_LISTS = ["payload.aliases", "payload.tags", "payload.negative_triggers"]


def _with_secret(field: str, secret: str) -> dict:
    env = add_env("The user's GitHub account.", "user.github", "tx-g", kind="negative")
    value = [f"see {secret}"] if field in STORED_LISTS else (
        secret if field in ("transaction_id", "actor.id", "source.evidence_hash", "target.scope.key")
        else f"from {secret}")
    return changed(env, **{field: value})


@pytest.mark.parametrize("field", STORED_FIELDS + STORED_LISTS)
def test_a_credential_in_any_stored_field_is_refused_and_nothing_is_written(store, field):
    before = snapshot(store.root)
    result = store.mutate(_with_secret(field, GITHUB_TOKEN))
    assert result["status"] == "refused" and result["error"]["code"] == "credential_detected"
    assert field in result["error"]["message"]                # the field is named, the value never
    assert GITHUB_TOKEN not in json.dumps(result)            # not even as the echoed transaction_id
    assert snapshot(store.root) == before


def test_a_real_evidence_hash_passes_the_screen(policy):
    for evidence in ("sha256:" + hashlib.sha256(b"x").hexdigest(), hashlib.sha1(b"x").hexdigest(),
                     "git:" + "0123456789abcdef" * 2 + "01234567"):
        env = add_env("The project uses Python 3.11.", "project.python", "tx-1", source="repository_evidence",
                      actor="agent", scope_type="project", evidence_hash=evidence)
        assert admit(env, policy).credential_present is False


@pytest.mark.parametrize("field", ["transaction_id", "actor.id", "source.evidence_hash", "source.session"])
def test_a_redacting_policy_still_refuses_a_credential_outside_the_free_text(tmp_path, monkeypatch, field):
    config = config_copy(tmp_path / "config")
    policy_path = config / "mutation-policy.json"
    policy_path.write_text(policy_path.read_text().replace('"action": "refuse"', '"action": "redact"'))
    monkeypatch.setenv("MEMORY_CONFIG", str(config))
    store = make_store(tmp_path / "redacting")
    before = snapshot(store.root)
    result = store.mutate(_with_secret(field, GITHUB_TOKEN))
    assert result["error"]["code"] == "credential_detected"
    assert snapshot(store.root) == before
    # in the free text, the same policy redacts and stores
    assert store.mutate(_with_secret("payload.tags", GITHUB_TOKEN))["status"] == "applied"
    assert GITHUB_TOKEN.encode() not in all_bytes(store.root)


def test_input_errors_and_refusals_share_the_result_shape(store):
    result = store.mutate(b"{not json")
    assert result == {"status": "refused", "transaction_id": None, "operation": None, "record_id": None,
                      "revision": None, "error": {"code": "invalid_json", "message": result["error"]["message"]}}
    assert isinstance(InputError("x"), MemoryStoreError)


@pytest.mark.parametrize("where", ["reason", "negative_triggers"])
def test_a_credential_outside_the_statement_is_refused_too(store, where):
    env = add_env("The user's OpenAI account.", "user.openai", "tx-r", kind="negative")
    if where == "reason":
        env["reason"] = f"the user pasted {API_KEY}"
    else:
        env["payload"]["negative_triggers"] = [f"key {API_KEY}"]
    before = snapshot(store.root)
    result = store.mutate(env)
    assert result["error"]["code"] == "credential_detected"
    assert API_KEY not in json.dumps(result)
    assert snapshot(store.root) == before


def test_a_redacting_policy_redacts_the_reason_kept_by_an_erasure_audit(tmp_path, monkeypatch):
    config = config_copy(tmp_path / "config")
    policy_path = config / "mutation-policy.json"
    policy_path.write_text(policy_path.read_text().replace('"action": "refuse"', '"action": "redact"'))
    monkeypatch.setenv("MEMORY_CONFIG", str(config))
    store = make_store(tmp_path / "redacting")
    record_id = store.mutate(add_env("The user likes tea.", "user.drink", "tx-1",
                                     payload_extra={"aliases": ["tea"]}))["record_id"]
    store.clock.set("2024-03-02T00:00:00Z")
    update = store.mutate(envelope("update", "tx-2", key="user.drink", payload={"statement": "The user likes mate."},
                                   reason=f"moved on; key {API_KEY}"))
    assert store.get(update["record_id"], scope())["aliases"] == ["tea"]          # inherited, not wiped
    store.mutate(by_id("erase", record_id, "tx-3", reason=f"asked, token {API_KEY}"))
    assert API_KEY.encode() not in all_bytes(store.root)
    assert b"[REDACTED:openai_key]" in (store.scope_dir(scope()) / "audit.jsonl").read_bytes()


# -- which fields are screened --------------------------------------------------------

def _caller_chosen_strings(node: dict, path: str = "") -> set[str]:
    """Dotted paths of the schema's strings that are not an enum, a const, an instant or a record id."""
    if "anyOf" in node:
        return set().union(*(_caller_chosen_strings(branch, path) for branch in node["anyOf"]))
    kinds = node.get("type") if isinstance(node.get("type"), list) else [node.get("type")]
    found = set()
    if "object" in kinds:
        for name, child in node.get("properties", {}).items():
            found |= _caller_chosen_strings(child, f"{path}.{name}" if path else name)
    if "array" in kinds:
        found |= _caller_chosen_strings(node.get("items", {}), path)
    pattern = node.get("pattern", "")
    if "string" in kinds and "enum" not in node and "const" not in node \
            and not pattern.startswith(("^\\d{4}-", "^mem_")):
        found.add(path)
    return found


def test_the_screened_fields_are_every_caller_chosen_string_of_the_closed_schema(policy):
    schema = json.loads((SCHEMA_DIR / "envelope.schema.json").read_text())
    assert set(envelope_module._FREE_STRINGS + envelope_module._FREE_LISTS) == _caller_chosen_strings(schema)
    # ... and the written-out extraction returns each of them from an envelope that fills them all
    full = changed(add_env("s", "user.k", "tx", evidence_hash="e", payload_extra={
        "aliases": ["a"], "tags": ["t"], "negative_triggers": ["n"]}),
        **{"source.session": "se", "source.speaker": "sp", "source.ref": "r"})
    admit(full, policy)  # it passes its schema
    assert {name for name, _ in envelope_module._free_strings(full)} == _caller_chosen_strings(schema)
    closed = json.dumps(schema).count('"additionalProperties": false')
    assert closed == json.dumps(schema).count('"type": "object"')   # nothing unnamed can be stored


_INSTANTS = ["2024-03-01T12:00:00Z", "2024-02-29T23:59:59Z", "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z",
             "2024-01-01T24:00:00Z", "2024-01-01T00:60:00Z", "2024-01-01T00:00:60Z", "0999-12-31T23:59:59Z",
             "1000-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "0000-01-01T00:00:00Z", "2024-03-01T12:00:00z",
             "2024-03-01T12:00:00+00:00", "2024-03-01", " 2024-03-01T12:00:00Z", "2024-03-01T12:00:00Z\n",
             "2024-03-01T12:00:00.5Z", "٢٠٢٤-03-01T12:00:00Z", "2024-03-01 12:00:00Z", "2024-03-01T12:00:00+01:00"]


@pytest.mark.parametrize("instant", _INSTANTS)
def test_an_instant_already_canonical_is_read_as_the_slow_path_reads_it(instant):
    """``_canonical`` skips parsing a canonical spelling: it must answer exactly as the parse does."""
    from memory.clock import normalize_instant
    try:
        expected = normalize_instant(instant)
    except ValueError as exc:
        expected = type(exc)
    try:
        got = envelope_module._canonical(instant, "valid_time.from", "invalid_valid_time")
    except InputError as exc:
        got = {"instant_out_of_range": envelope_module.InstantOutOfRange}.get(exc.code, ValueError)
    assert got == expected
