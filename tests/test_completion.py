"""Shell completion for bash and zsh, through click's ``_MEMORY_COMPLETE`` protocol."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from memory.cli import main


def complete(mode: str, words: str, cword: int | None = None) -> str:
    env = {"_MEMORY_COMPLETE": mode, "COMP_WORDS": words,
           "COMP_CWORD": str(len(words.split()) - 1 if cword is None else cword)}
    result = CliRunner().invoke(main, [], prog_name="memory", env=env)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_bash_source_is_a_completion_script_for_memory():
    script = complete("bash_source", "")
    assert "_memory_completion()" in script
    assert "complete -o nosort -F _memory_completion memory" in script


def test_zsh_source_is_a_completion_script_for_memory():
    script = complete("zsh_source", "")
    assert script.startswith("#compdef memory")
    assert "_MEMORY_COMPLETE=zsh_complete" in script


def test_bash_completes_a_subcommand():
    assert complete("bash_complete", "memory que").split() == ["plain,query"]
    offered = complete("bash_complete", "memory re").split()
    assert {"plain,retire", "plain,review"} <= set(offered)
    assert all(item.startswith("plain,re") for item in offered)


def test_zsh_completes_a_subcommand_with_its_help():
    lines = complete("zsh_complete", "memory exp").splitlines()
    assert lines[:2] == ["plain", "export"]
    assert lines[2].startswith("Write every revision")


def test_completion_reaches_options_and_choices():
    assert "plain,--planner" in complete("bash_complete", "memory query --pl").split()
    assert set(complete("bash_complete", "memory export --format ", 3).split()) == {"plain,jsonl", "plain,json"}
    assert set(complete("bash_complete", "memory review ", 2).split()) == {"plain,approve", "plain,list",
                                                                          "plain,reject"}


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_the_script_completes_in_a_real_bash(tmp_path):
    shim = tmp_path / "bin" / "memory"
    shim.parent.mkdir()
    shim.write_text(f"#!/bin/sh\nexec '{sys.executable}' -c 'from memory.cli import main; main(prog_name=\"memory\")'"
                    ' "$@"\n')
    shim.chmod(0o755)
    script = ('eval "$(_MEMORY_COMPLETE=bash_source memory)"\n'
              'COMP_WORDS=(memory sta); COMP_CWORD=1; _memory_completion memory\n'
              'echo "${COMPREPLY[@]}"\n')
    env = {**os.environ, "PATH": f"{shim.parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["stats"]
