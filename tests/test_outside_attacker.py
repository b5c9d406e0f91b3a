"""What a hostile caller sends from outside: each gets a documented error, never a crash or a leak."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from memory.cli import main

UNPARSABLE = ["postgresql://user:hunter2pw@[::1/memory",         # a bracket left open
              "postgresql://user:hunter2pw@db.internal:99999/memory",   # a port out of range
              "postgresql://user:hunter2pw@db.internal:5x/memory"]      # a port that is not a number


@pytest.mark.parametrize("url", UNPARSABLE)
@pytest.mark.parametrize("command", [("query", "where?", "--user", "a"), ("init",), ("doctor",), ("where",),
                                     ("export", "--user", "a")])
def test_a_store_url_that_does_not_parse_is_a_usage_error_naming_no_password(url, command):
    """Each exited 1, internal_error (ValueError): what the README calls a bug."""
    result = CliRunner().invoke(main, ["--store", url, *command, "--json"])
    error = json.loads(result.stdout)["error"]
    assert (result.exit_code, error["code"]) == (2, "store_url_invalid"), result.stdout
    assert "hunter2pw" not in result.stdout + result.stderr


def test_copy_into_a_url_that_does_not_parse_is_the_same_usage_error(tmp_path):
    source = str(tmp_path / "store")
    assert CliRunner().invoke(main, ["--store", source, "init"]).exit_code == 0
    result = CliRunner().invoke(main, ["--store", source, "copy", "--to", UNPARSABLE[0], "--json"])
    assert (result.exit_code, json.loads(result.stdout)["error"]["code"]) == (2, "store_url_invalid")
    assert "hunter2pw" not in result.stdout + result.stderr


@pytest.mark.parametrize("command", [("import", "locomo"), ("import", "longmemeval"),
                                     ("benchmark", "locomo"), ("benchmark", "longmemeval")])
def test_a_dataset_nested_thousands_deep_is_a_dataset_error_and_makes_no_store(tmp_path, command):
    """Exited 1, internal_error (RecursionError): the stdlib parser recursed past Python's limit."""
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    store = tmp_path / "made"
    result = CliRunner().invoke(main, ["--store", str(store), *command, str(deep), "--json"])
    assert (result.exit_code, json.loads(result.stdout)["error"]["code"]) == (8, "dataset_invalid")
    assert not store.exists()


def test_a_token_listed_twice_is_refused_without_naming_it(tmp_path, store):
    """The parser's duplicate_key message quoted the key, which in a tokens file is a secret: stderr
    (and whatever collects it) held the token."""
    tokens = tmp_path / "tokens.json"
    tokens.write_text('{"tok-supersecret-123": ["alice"], "tok-supersecret-123": "*"}')
    result = CliRunner().invoke(main, ["serve", "--tokens", str(tokens), "--port", "0"])
    assert result.exit_code == 3 and "duplicate_key" in result.stderr
    assert "supersecret" not in result.stdout + result.stderr


EVIL = "evil\x1b]0;pwned\x07\x1b[2J"


def test_names_sent_over_http_cannot_drive_the_operators_terminal(store):
    """A user id and a session with escape sequences (HTTP takes both) reached stats, build, history and
    query's text verbatim: only statements were made printable."""
    from memory import api
    result = api.mutate(store, {
        "schema_version": "memory.envelope.v1", "transaction_id": "t1", "operation": "add",
        "actor": {"type": "agent", "id": "memory-serve"},
        "source": {"type": "conversation", "ref": f"{EVIL}:0", "session": EVIL, "speaker": "user"},
        "target": {"memory_key": None, "scope": {"type": "user", "key": EVIL}},
        "payload": {"kind": "episode", "statement": "I adopted a cat named Luna."}})
    assert result.status == "applied"
    outputs = []
    for args in (["stats"], ["build"], ["history", result.record_id, "--user", EVIL],
                 ["query", "did I adopt a cat?", "--user", EVIL]):
        run = CliRunner().invoke(main, args)
        assert run.exit_code == 0, run.output
        outputs.append(run.stdout)
    assert all("\x1b" not in out and "\x07" not in out for out in outputs), outputs
    assert "evil\\x1b]0;pwned\\x07" in outputs[0]


def test_an_error_naming_a_path_shows_its_control_characters_escaped(tmp_path):
    result = CliRunner().invoke(main, ["--store", str(tmp_path / EVIL), "query", "x", "--user", "a"])
    assert result.exit_code == 7 and "store_not_found" in result.stderr
    assert "\x1b" not in result.stderr and "\\x1b]0;pwned\\x07" in result.stderr
