"""What a `memory query` process loads: only what answering needs.

A fresh query process must not import jsonschema (a valid policy passes the compiled
predicate, ``schemas.problems``; jsonschema is asked only for a value that fails it) nor
Snowball's other stemmers (the package's ``__init__`` imports all 36; ``tokenize`` loads the
English one alone). Each was a sizable share of the process's start-up; these tests read the
``sys.modules`` of a real query process so the cost cannot come back unnoticed. No timings.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys

from helpers import NOW, add_env, cli_env, make_store
from memory.paths import PROJECT_ROOT
from memory.retrieval import tokenize as tokenize_module

# Runs the console script's entry as the process's own: its exit path (atexit) included.
QUERY_PROCESS = """
import atexit, json, sys
atexit.register(lambda: print("MODULES " + json.dumps(sorted(sys.modules))))
sys.argv = ["memory", "--store", sys.argv[1], "query", sys.argv[2], "--user", "alice", "--json"]
from memory.cli import main
main()
"""


def run_query_process(tmp_path, question: str) -> tuple[dict, list[str]]:
    store = make_store(tmp_path / "store")
    store.mutate(add_env("Alice lives in Berlin and works as a translator", "user.city", "t1"))
    store.mutate(add_env("Alice went hiking near Potsdam", None, "t2", kind="episode"))
    done = subprocess.run([sys.executable, "-c", QUERY_PROCESS, str(store.root), question],
                          env=cli_env(NOW), cwd=str(PROJECT_ROOT), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    answer, modules = done.stdout.splitlines()
    return json.loads(answer), json.loads(modules.removeprefix("MODULES "))


def test_a_query_process_imports_neither_jsonschema_nor_other_stemmers(tmp_path):
    answer, modules = run_query_process(tmp_path, "Where does Alice live?")
    # it really answered: policies loaded, the question tokenized and stemmed, the decision made
    assert answer["knowledge_state"] == "VERIFIED" and answer["evidence"]
    assert not [m for m in modules if m == "jsonschema" or m.startswith(("jsonschema.", "referencing"))]
    stemmers = [m for m in modules if m.rpartition(".")[2].endswith("_stemmer")]
    assert [m.rpartition(".")[2] for m in stemmers] == ["english_stemmer"]
    assert "snowballstemmer" not in modules  # the package's __init__ never ran


def test_a_query_process_imports_neither_click_nor_typing(tmp_path):
    """The console entry answers a query without click (``memory.cli``: ~11 ms of a query process,
    more with what click imports), and the read path's modules take their annotations' names from
    ``collections.abc`` (importing ``typing`` cost ~3-4 ms); the store's write-side names are
    imported when first asked for (``memory.store.__getattr__``)."""
    import site

    store = make_store(tmp_path / "store")
    store.mutate(add_env("Alice lives in Berlin and works as a translator", "user.city", "t1"))
    # without ``site``'s ``.pth`` hooks (this machine's import typing themselves), its site-packages on the path
    script = "import sys; sys.path[1:1] = __import__('json').loads(sys.argv.pop(1))\n" + QUERY_PROCESS
    done = subprocess.run([sys.executable, "-S", "-c", script, json.dumps([str(PROJECT_ROOT), *site.getsitepackages()]),
                           str(store.root), "Where does Alice live?"],
                          env=cli_env(NOW), cwd=str(PROJECT_ROOT), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    answer, modules = done.stdout.splitlines()
    answer, modules = json.loads(answer), json.loads(modules.removeprefix("MODULES "))
    assert answer["knowledge_state"] == "VERIFIED" and answer["evidence"]
    assert not [m for m in modules if m == "click" or m.startswith("click.")]
    assert "typing" not in modules and "memory.cli_root" not in modules
    assert "memory.store.interface" not in modules


def test_a_query_process_does_not_load_the_credential_screen(tmp_path):
    """The screen is the write side's (``envelope`` admits, a refusal never echoes a secret): its
    ~24 patterns cost every query process ~5 ms of ``re.compile`` at import."""
    answer, modules = run_query_process(tmp_path, "Where does Alice live?")
    assert answer["knowledge_state"] == "VERIFIED" and answer["evidence"]
    assert "memory.credentials" not in modules and "memory.envelope" not in modules


def test_a_query_process_defines_no_other_command(tmp_path):
    """``memory/cli.py`` defined every command (~30, with their options) in every process and
    imported their modules: a ``memory query`` now adds only its own to the root group."""
    store = make_store(tmp_path / "store")
    store.mutate(add_env("Alice lives in Berlin and works as a translator", "user.city", "t1"))
    script = QUERY_PROCESS.replace('"MODULES " + json.dumps(sorted(sys.modules))',
                                   '"COMMANDS " + json.dumps(sorted(sys.modules["memory.cli"].main.commands))')
    done = subprocess.run([sys.executable, "-c", script, str(store.root), "Where does Alice live?"],
                          env=cli_env(NOW), cwd=str(PROJECT_ROOT), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    answer, commands = done.stdout.splitlines()
    assert json.loads(answer)["knowledge_state"] == "VERIFIED"
    assert json.loads(commands.removeprefix("COMMANDS ")) == ["query"]


def test_a_query_process_does_not_import_importlib_resources(tmp_path):
    """The package data is read from the package's folder (``paths.PACKAGED``), as a wheel installs
    it: ``importlib.resources`` (with zipfile, tempfile and their imports) cost an installed
    ``memory query`` ~6-14 ms of start-up. Run without ``site``'s ``.pth`` hooks (this machine's
    import importlib.resources themselves), its site-packages on the path."""
    import site

    store = make_store(tmp_path / "store")
    store.mutate(add_env("Alice lives in Berlin and works as a translator", "user.city", "t1"))
    script = "import sys; sys.path[1:1] = json.loads(sys.argv.pop(1))\n".replace("json.loads", "__import__('json').loads") \
        + QUERY_PROCESS
    done = subprocess.run([sys.executable, "-S", "-c", script, json.dumps([str(PROJECT_ROOT), *site.getsitepackages()]),
                           str(store.root), "Where does Alice live?"],
                          env=cli_env(NOW), cwd=str(PROJECT_ROOT), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    answer, modules = done.stdout.splitlines()
    assert json.loads(answer)["knowledge_state"] == "VERIFIED"
    assert "importlib.resources" not in json.loads(modules.removeprefix("MODULES "))


def english_words() -> list[str]:
    """Inflected English words with the suffixes the Snowball steps handle, from the repo's docs."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted((PROJECT_ROOT / "docs").glob("*.md")))
    text += (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    found = set(re.findall(r"[a-z]+(?:'[a-z]+)?", text.casefold()))
    roots = ("connect", "generous", "happi", "relat", "condit", "nation", "hope", "argu", "sky", "news",
             "dying", "lying", "gener", "commun", "arsen", "cycl", "ski", "bias", "howe", "atlas")
    suffixes = ("", "s", "es", "ed", "ing", "ly", "ness", "ational", "ization", "fulness", "ousli",
                "iveness", "ement", "ment", "ent", "ion", "able", "ible", "al", "ance", "ence", "er", "ic")
    return sorted(found | {root + suffix for root in roots for suffix in suffixes})


def test_the_english_stemmer_loaded_alone_stems_as_the_package_does():
    from snowballstemmer.english_stemmer import EnglishStemmer

    alone = tokenize_module._english_stemmer_class()
    package = EnglishStemmer()
    words = english_words()
    assert len(words) > 1000
    # this process may have imported the package already (then its class is used as is);
    # the comparison holds either way, and the subprocess test covers the alias path
    stems = alone()
    assert [stems.stemWord(w) for w in words] == [package.stemWord(w) for w in words]


def test_the_stemmer_loaded_alone_in_a_fresh_process_stems_as_the_package_does():
    script = ("import json, sys\n"
              "from memory.retrieval.tokenize import _english_stemmer_class\n"
              "alone = _english_stemmer_class()\n"
              "assert 'snowballstemmer' not in sys.modules, 'the package __init__ ran'\n"
              "words = json.load(sys.stdin)\n"
              "print(json.dumps([alone().stemWord(w) for w in words]))\n")
    words = english_words()
    done = subprocess.run([sys.executable, "-c", script], input=json.dumps(words), env=cli_env(NOW),
                          cwd=str(PROJECT_ROOT), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    from snowballstemmer.english_stemmer import EnglishStemmer
    package = EnglishStemmer()
    assert json.loads(done.stdout) == [package.stemWord(w) for w in words]
