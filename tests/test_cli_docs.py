"""The docs cannot drift: docs/CLI.md is --help, the README tour runs word for word,
POLICIES.md names every policy key, AGENTS.md every refusal code and a working Python
example, WHERE_IS_THE_DATA.md the same files as `memory where`."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from memory.paths import DEFAULT_CONFIG_DIR, PROJECT_ROOT
from memory.vocabulary import REFUSAL_CODES
from memory.where import ENTRIES

from helpers import load_tool

README = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
AGENTS = (PROJECT_ROOT / "docs" / "AGENTS.md").read_text(encoding="utf-8")
POLICIES = (PROJECT_ROOT / "docs" / "POLICIES.md").read_text(encoding="utf-8")


def code_block(text: str, after: str, language: str) -> str:
    """The first ```language block after the heading ``after``."""
    section = text.split(after, 1)[1]
    return section.split(f"```{language}\n", 1)[1].split("```", 1)[0]


def test_cli_md_is_generated_from_help():
    generated = load_tool("gen_cli_docs").render()
    committed = (PROJECT_ROOT / "docs" / "CLI.md").read_text(encoding="utf-8")
    assert committed == generated, "docs/CLI.md is out of date: run python tools/gen_cli_docs.py"


def test_cli_md_covers_every_command():
    from memory.cli import main
    committed = (PROJECT_ROOT / "docs" / "CLI.md").read_text(encoding="utf-8")
    for name in main.list_commands(None):
        assert f"## `memory {name}`" in committed


def test_the_readme_starts_with_the_two_set_up_commands():
    first_block = README.split("```bash\n", 1)[1].split("```", 1)[0].splitlines()
    assert len(first_block) == 2
    assert first_block[0].startswith("pip install . && memory query ")   # a plain install works (test_packaging)
    assert first_block[1].startswith("pip install -e '.[test") and "python -m pytest" in first_block[1]
    assert README.index("```bash") < README.index("## ")      # before any section


def _shims(directory) -> dict:
    """`memory` and `python3` on PATH as this interpreter, so the tour runs the code under test."""
    directory.mkdir()
    memory = directory / "memory"
    memory.write_text(f"#!/bin/sh\nexec '{sys.executable}' -c 'from memory.cli import main; "
                      f"main(prog_name=\"memory\")' \"$@\"\n")
    python3 = directory / "python3"
    python3.write_text(f"#!/bin/sh\nexec '{sys.executable}' \"$@\"\n")
    for path in (memory, python3):
        path.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("MEMORY_STORE", "MEMORY_CONFIG")}
    return {**env, "PATH": f"{directory}{os.pathsep}{env['PATH']}"}


def test_the_readme_tour_runs_verbatim(tmp_path):
    tour = code_block(README, "## A five-minute tour", "bash")
    env = {**_shims(tmp_path / "bin"), "TMPDIR": str(tmp_path), "MEMORY_NOW": "2026-01-01T00:00:00Z"}
    done = subprocess.run(["bash", "-c", "set -euo pipefail\n" + tour], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    expected_in_order = [
        "VERIFIED\n 1. The user lives in Berlin.",
        "VERIFIED_HISTORICAL\n 1. The user lives in Paris.",
        "(audit only, retired)",
        "add: - -> active", "update: active -> retired",
        "applied: dispute",
        "UNKNOWN (unresolved_conflict)",
        "no candidates",
        "user:me: 1 record(s) -> ",
        "1 scope(s), 4 record(s)",
        "4 record(s), 7 revision(s), 0 erasure audit row(s) -> ",
        "restored: 4 record(s), 7 revision(s)",
        "applied: forget", "applied: erase",
        "clean\n",
    ]
    at = 0
    for expected in expected_in_order:
        found = out.find(expected, at)
        assert found >= 0, f"{expected!r} not found after position {at} in:\n{out}"
        at = found + len(expected)
    assert out.endswith("clean\n")


def _keys(value, out: set) -> set:
    if isinstance(value, dict):
        for key, item in value.items():
            out.add(key)
            _keys(item, out)
    elif isinstance(value, list):
        for item in value:
            _keys(item, out)
    return out


@pytest.mark.parametrize("name", sorted(p.name for p in DEFAULT_CONFIG_DIR.glob("*.json")))
def test_policies_md_documents_every_key(name):
    assert f"## `{name}`" in POLICIES
    section = POLICIES.split(f"## `{name}`", 1)[1].split("\n## ", 1)[0]
    keys = _keys(json.loads((DEFAULT_CONFIG_DIR / name).read_text(encoding="utf-8")), set())
    missing = sorted(k for k in keys if not re.search(r"`[^`\n]*\b" + re.escape(k) + r"\b[^`\n]*`", section))
    assert missing == [], f"docs/POLICIES.md does not document {missing} of {name}"


def test_agents_md_lists_every_refusal_code():
    table = AGENTS.split("The codes:", 1)[1]
    assert [code for code in REFUSAL_CODES if f"| `{code}` |" not in table] == []


def test_agents_md_python_example_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MEMORY_NOW", "2026-01-01T00:00:00Z")   # after the example's valid_time.from
    exec(compile(code_block(AGENTS, "## Python", "python"), "docs/AGENTS.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out == ["VERIFIED The user lives in Berlin.", "1 add active"]


def test_agents_md_envelope_example_is_a_valid_envelope():
    from memory.envelope import admit
    from memory.policy import load_policies
    example = json.loads(code_block(AGENTS, "## Writing: the envelope", "json"))
    assert admit(example, load_policies().mutation).admission == "admit_active"


def test_where_is_the_data_lists_the_files_of_memory_where():
    text = (PROJECT_ROOT / "WHERE_IS_THE_DATA.md").read_text(encoding="utf-8")
    rows = {(m[0], m[1].replace(" ", "_")) for m in re.findall(r"^\| `([^`]+)` \| ([a-z ]+) \|", text, re.M)}
    assert rows == {(e["path"], e["role"]) for e in ENTRIES}


def test_the_docs_link_each_other():
    for link in ("docs/AGENTS.md", "docs/POLICIES.md", "docs/CLI.md", "docs/SERVER.md"):
        assert link in README
    assert "SERVER.md" in AGENTS and "POLICIES.md" in AGENTS
