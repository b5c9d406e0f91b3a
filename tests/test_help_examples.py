"""The help examples of the commands that edit and read a user's ledger run as printed, in order,
on a fresh store, whatever today is. `memory add` (no --from: valid from today) then `memory update
... --from 2026-01-01` failed with invalid_valid_time on 2026-12-01; the older CLI tests pinned the
clock to 2024-03-01, before the example's date, so none saw it."""
from __future__ import annotations

import json
import shlex
import subprocess
import sys

import pytest

from click.testing import CliRunner

from memory.cli import main

PLACEHOLDER = "mem_0123456789abcdef01234567"
# in the order a newcomer would type them; a placeholder id stands for the record the previous
# example wrote. The other commands' examples need a server, Postgres, a data set or a second
# record id; they are not run here.
IN_ORDER = ("add", "update", "query", "get", "history", "retire")


def examples(command: str) -> list[list[str]]:
    text = CliRunner().invoke(main, [command, "--help"]).output.split("Example:\n", 1)[1]
    return [shlex.split(line, comments=True) for line in text.splitlines() if line.strip().startswith("memory ")]


@pytest.mark.parametrize("today", ["2024-03-01T12:00:00Z", "2026-12-01T09:00:00Z", "2031-07-15T08:00:00Z"])
def test_the_ledger_help_examples_run_as_printed_on_any_date(tmp_path, today):
    from helpers import cli_env
    from memory.paths import PROJECT_ROOT
    root = tmp_path / "store"
    env = cli_env(today)
    run = lambda args: subprocess.run([sys.executable, "-m", "memory", "--store", str(root), *args],  # noqa: E731
                                      capture_output=True, text=True, cwd=str(PROJECT_ROOT), env=env, timeout=120)
    assert run(["init"]).returncode == 0
    last_id = None
    for command in IN_ORDER:
        for example in examples(command):
            assert example[0] == "memory" and example[1] == command
            args = [last_id if arg == PLACEHOLDER else arg for arg in example[1:]]
            done = run(args + ([] if "--json" in args else ["--json"]))
            assert done.returncode == 0, (today, example, done.stdout + done.stderr)
            out = json.loads(done.stdout)
            if command in ("add", "update"):
                last_id = out["record_id"] if "record_id" in out else out["record"]["id"]
