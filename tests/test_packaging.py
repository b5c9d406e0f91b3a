"""A plain (non-editable) install works: the policies and schemas ship inside the package.

The repository's config/ and schemas/ are the sources; memory/packaged/ holds byte-for-byte copies
(tools/sync_package_data.py writes them) that the wheel ships and the code reads with
importlib.resources. These tests hold the copies to the sources, check that pyproject.toml ships
them, and run the CLI from a copy of the package alone (no checkout beside it), as an installed
package runs. .ci/run builds the real wheel and runs tools/smoke_wheel.py against it.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from memory.paths import DEFAULT_CONFIG_DIR, PACKAGE_ROOT, PROJECT_ROOT, SCHEMA_DIR

from helpers import NOW, load_tool

SOURCES = {"config": PROJECT_ROOT / "config", "schemas": PROJECT_ROOT / "schemas"}


@pytest.mark.parametrize("part", sorted(SOURCES))
def test_the_packaged_copies_equal_their_sources_byte_for_byte(part):
    sources = {p.name: p.read_bytes() for p in SOURCES[part].glob("*.json")}
    packaged = {p.name: p.read_bytes() for p in (PACKAGE_ROOT / "packaged" / part).glob("*.json")}
    assert sources, f"no source files in {part}/"
    assert packaged == sources, "run: python tools/sync_package_data.py"


def test_the_sync_tool_finds_nothing_to_do():
    assert load_tool("sync_package_data").stale() == []


def test_the_code_reads_the_packaged_copies_where_importlib_resources_finds_them():
    from importlib import resources
    packaged = resources.files("memory").joinpath("packaged")
    assert Path(DEFAULT_CONFIG_DIR) == Path(packaged.joinpath("config")) == PACKAGE_ROOT / "packaged" / "config"
    assert Path(SCHEMA_DIR) == Path(packaged.joinpath("schemas")) == PACKAGE_ROOT / "packaged" / "schemas"


def test_pyproject_ships_every_packaged_file():
    project = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = project["tool"]["setuptools"]["package-data"]["memory"]
    shipped = {p for pattern in globs for p in PACKAGE_ROOT.glob(pattern)}
    packaged = {p for p in (PACKAGE_ROOT / "packaged").rglob("*") if p.is_file()}
    assert packaged and packaged <= shipped


def _package_alone(tmp_path: Path) -> Path:
    """A copy of the package in a folder with nothing else: no config/, no schemas/ beside it."""
    site = tmp_path / "site-packages"
    shutil.copytree(PACKAGE_ROOT, site / "memory", ignore=shutil.ignore_patterns("__pycache__"))
    return site


def _run(site: Path, cwd: Path, *args: str, env_extra: dict | None = None, stdin: str | None = None):
    env = {"PYTHONPATH": str(site), "MEMORY_NOW": NOW, "PATH": "/usr/bin:/bin", **(env_extra or {})}
    return subprocess.run([sys.executable, "-m", "memory.cli", *args], input=stdin, env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_the_package_alone_runs_init_add_and_query(tmp_path):
    """Was: `policy file missing: .../site-packages/config/mutation-policy.json` at memory init."""
    site, work = _package_alone(tmp_path), tmp_path / "elsewhere"
    work.mkdir()
    init = _run(site, work, "--store", "s", "init", "--json")
    assert init.returncode == 0, init.stdout + init.stderr
    assert sorted(p.name for p in (work / "s" / "policies").iterdir()) == [
        "forgetting-policy.json", "mutation-policy.json", "retrieval-policy.json"]
    added = _run(site, work, "--store", "s", "add", "The user lives in Paris.", "--user", "me",
                 "--key", "user.home_city", "--json")
    assert added.returncode == 0, added.stdout + added.stderr
    answer = _run(site, work, "--store", "s", "query", "where does the user live?", "--user", "me", "--json")
    assert answer.returncode == 0 and json.loads(answer.stdout)["knowledge_state"] == "VERIFIED"


def test_the_package_alone_with_memory_config_finds_its_schemas(tmp_path):
    """Was: with $MEMORY_CONFIG set, `internal_error (FileNotFoundError)` on the schemas."""
    site, work = _package_alone(tmp_path), tmp_path / "elsewhere"
    work.mkdir()
    config = shutil.copytree(PROJECT_ROOT / "config", tmp_path / "my-config")
    init = _run(site, work, "--store", "s", "init", "--json", env_extra={"MEMORY_CONFIG": str(config)})
    assert init.returncode == 0, init.stdout + init.stderr
    envelope = {"schema_version": "memory.envelope.v1", "transaction_id": "t1", "operation": "add",
                "actor": {"type": "user_via_agent", "id": "me"}, "source": {"type": "explicit_user"},
                "target": {"memory_key": "user.drink", "scope": {"type": "user", "key": "me"}},
                "payload": {"kind": "fact", "statement": "The user likes tea."}}
    mutated = _run(site, work, "--store", "s", "mutate", "--json", stdin=json.dumps(envelope),
                   env_extra={"MEMORY_CONFIG": str(config)})
    assert mutated.returncode == 0 and json.loads(mutated.stdout)["status"] == "applied", mutated.stdout


def test_memory_config_still_chooses_the_policies(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from memory.cli import main
    config = shutil.copytree(PROJECT_ROOT / "config", tmp_path / "my-config")
    path = config / "mutation-policy.json"
    policy = json.loads(path.read_text())
    policy["sources"]["explicit_user"]["operations"]["add"] = "admit_candidate"
    path.write_text(json.dumps(policy))
    monkeypatch.setenv("MEMORY_CONFIG", str(config))
    assert CliRunner().invoke(main, ["init"]).exit_code == 0
    result = CliRunner().invoke(main, ["add", "The user likes tea.", "--user", "me", "--key", "user.drink",
                                         "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["status"] == "applied"
    listed = CliRunner().invoke(main, ["review", "list", "--user", "me", "--json"])
    assert "likes tea" in listed.stdout       # a candidate, as the chosen policy says
