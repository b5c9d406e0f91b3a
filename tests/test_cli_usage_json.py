"""A usage error (unknown option or command, missing argument or option, bad value or choice) under
--json is one JSON error object on stdout with the usage exit code, 2, like every other error
under --json; without --json it stays click's text on stderr."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from memory.cli import main

BAD = [
    (("query", "--json"), "Missing argument 'TEXT'"),
    (("query", "where?", "--json"), "Missing option '--user'"),
    (("query", "where?", "--user", "u", "--limit", "many", "--json"), "Invalid value for '--limit'"),
    (("query", "where?", "--user", "u", "--planner", "oracle", "--json"), "'oracle' is not one of"),
    (("query", "where?", "--user", "u", "--colour", "--json"), "No such option '--colour'"),
    (("add", "--json", "The user likes tea.", "--user", "u", "--kind", "rumour"), "Invalid value for '--kind'"),
    (("review", "approve", "--json"), "Missing argument 'RECORD_ID'"),
    (("benchmark", "locomo", "/no/such/file.json", "--json"), "does not exist"),
    (("frobnicate", "--json"), "No such command 'frobnicate'"),
    (("--colour", "stats", "--json"), "No such option '--colour'"),
]


@pytest.mark.parametrize("args,says", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_a_usage_error_under_json_is_one_json_error_object(args, says):
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 2
    assert result.stderr == ""
    assert result.stdout.count("\n") == 1
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "usage_error" and says in error["message"] and "--help" in error["message"]


@pytest.mark.parametrize("args,says", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_without_json_a_usage_error_stays_clicks_text(args, says):
    result = CliRunner().invoke(main, [a for a in args if a != "--json"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("Usage: ") and "Error: " in result.stderr and says in result.stderr


def test_json_after_a_double_dash_is_an_argument_not_the_flag():
    result = CliRunner().invoke(main, ["query", "--", "--json"])
    assert result.exit_code == 2 and result.stderr.startswith("Usage: ")


def test_python_dash_m_memory_runs_the_cli(tmp_path):
    """The ground rules and the docs say `python -m memory ...`; the package had no __main__."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    repo = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(repo)}
    done = subprocess.run([sys.executable, "-m", "memory", "query", "--json"], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=60)
    assert done.returncode == 2 and json.loads(done.stdout)["error"]["code"] == "usage_error"


def test_an_unquoted_statement_is_a_usage_error_that_does_not_echo_it():
    """The commonest slip: click's message would quote the stray words, i.e. the memory text."""
    result = CliRunner().invoke(main, ["add", "The", "user", "lives", "in", "Paris.", "--user", "u", "--json"])
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "usage_error" and "quote" in error["message"] and "Paris" not in result.output
