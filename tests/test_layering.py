"""Dependencies point one way (CONVENTIONS §2), enforced by reading every module's imports."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from memory.paths import PACKAGE_ROOT

BOTTOM = {"memory.errors", "memory.paths", "memory.jsonio", "memory.clock", "memory.vocabulary"}
# the write core may import the bottom, each other and store-level siblings, never the read path or consumers
STORE_PACKAGE = {"memory.store", "memory.store.core", "memory.store.layout", "memory.store.log",
                 "memory.store.manifest", "memory.store.erasure", "memory.store.current", "memory.store.interface",
                 "memory.store.integrity", "memory.store.postgres", "memory.store.budget"}
CORE = BOTTOM | STORE_PACKAGE | {"memory.envelope_builder", "memory.schemas", "memory.records", "memory.credentials",
                                 "memory.policy", "memory.envelope", "memory.lifecycle", "memory.doctor", "memory.where"}
ABOVE_CORE = ("memory.retrieval", "memory.indexing", "memory.planner", "memory.llm_planner", "memory.decision",
              "memory.query", "memory.remote", "memory.importers", "memory.benchmark", "memory.server",
              "memory.api", "memory.mcp_server", "memory.cli")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE_ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE_ROOT.rglob("*.py"))}


def imports(path: Path) -> set[str]:
    """Every module a file imports, relative imports resolved, function-level imports included."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module
            found.add(prefix)
            # "from . import lifecycle" imports a module, not a name
            found.update(f"{prefix}.{alias.name}" for alias in node.names
                         if f"{prefix}.{alias.name}" in modules())
    return found


def top(name: str) -> str:
    return name.split(".")[0]


ALL = modules()
IMPORTS = {name: imports(path) for name, path in ALL.items()}


def importers_of(package: str) -> set[str]:
    return {name for name, found in IMPORTS.items() if any(top(i) == package for i in found)}


def test_the_walker_sees_relative_and_function_level_imports():
    assert "memory.lifecycle" in IMPORTS["memory.store.core"]       # from .. import lifecycle
    assert "memory.store.log" in IMPORTS["memory.store.core"]       # from . import log
    assert "memory.doctor" in IMPORTS["memory.api"]                 # imported inside a function
    assert "click" in IMPORTS["memory.cli"]


def test_only_the_cli_imports_click():
    # memory.cli: the entry (click only to echo what click.echo would change); memory.cli_root: the
    # root group, its plumbing and `query`; memory.cli_commands: the other commands
    assert importers_of("click") == {"memory.cli", "memory.cli_root", "memory.cli_commands"}


def test_only_remote_imports_httpx():
    assert importers_of("httpx") <= {"memory.remote"}


def test_only_the_postgres_ledger_imports_psycopg():
    assert importers_of("psycopg") <= {"memory.postgres_ledger"}


def test_only_jsonio_imports_orjson():
    assert importers_of("orjson") <= {"memory.jsonio"}


@pytest.mark.parametrize("name", sorted(n for n in ALL if n.startswith("memory.retrieval")))
def test_retrieval_never_imports_the_store(name):
    assert not {i for i in IMPORTS[name] if i in ("memory.store", "memory.indexing")
                or i.startswith(("memory.store.", "memory.planner", "memory.query", "memory.cli"))}


@pytest.mark.parametrize("name", sorted(BOTTOM & set(ALL)))
def test_the_bottom_imports_nothing_above_it(name):
    above = {i for i in IMPORTS[name] if top(i) == "memory" and i != "memory" and i not in BOTTOM}
    assert above == set(), f"{name} imports {above}"


@pytest.mark.parametrize("name", sorted(CORE & set(ALL)))
def test_the_write_core_never_reaches_the_read_path_or_consumers(name):
    above = {i for i in IMPORTS[name] if i.startswith(ABOVE_CORE)}
    assert above == set(), f"{name} imports {above}"


def test_the_lower_write_core_never_imports_the_store():
    for name in ("memory.schemas", "memory.records", "memory.credentials", "memory.policy", "memory.envelope",
                 "memory.lifecycle", "memory.envelope_builder"):
        assert {i for i in IMPORTS[name] if top(i) == "memory" and i != "memory"} <= CORE - STORE_PACKAGE - {"memory.doctor"}, name


def test_schemas_and_records_sit_below_policy_and_lifecycle():
    lower = {"memory.schemas", "memory.records"}
    for name in lower:
        assert not IMPORTS[name] & {"memory.policy", "memory.lifecycle", "memory.envelope", "memory.store"}
    assert "memory.store" not in IMPORTS["memory.lifecycle"] | IMPORTS["memory.envelope"] | IMPORTS["memory.policy"]


# -- only the store package touches a store's files (CONVENTIONS 19: the shard rule written once) --

STORE_FILE_NAMES = {".jsonl", "manifest.json", "audit.jsonl", "scope.json", ".lock"}
# memory.paths holds StoreLayout, the top-level names the store package builds on; memory.where
# describes the files for people (WHERE_IS_THE_DATA.md)
NAMES_FILES = STORE_PACKAGE | {"memory.paths", "memory.where"}
STORE_INTERNALS = {"layout", "read_shard", "_states", "_rewrite_without"}


def store_file_uses(path: Path) -> set[str]:
    """Store file names spelled as strings, and the store's internals reached by attribute."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and node.value in STORE_FILE_NAMES:
            found.add(repr(node.value))
        elif isinstance(node, ast.Attribute) and node.attr in STORE_INTERNALS:
            found.add("." + node.attr)
    return found


def test_the_store_checker_sees_file_names_and_internals():
    assert {"'manifest.json'", "'.jsonl'"} <= store_file_uses(ALL["memory.store.layout"])
    assert ".layout" in store_file_uses(ALL["memory.store.core"])


@pytest.mark.parametrize("name", sorted(n for n in ALL if n not in NAMES_FILES))
def test_only_the_store_package_touches_store_files(name):
    """doctor, portability, bootview, retention, indexing, stats go through the Store's API."""
    assert store_file_uses(ALL[name]) == set(), f"{name} reaches into the store's files"


@pytest.mark.parametrize("name", sorted(n for n in ALL if n not in STORE_PACKAGE))
def test_only_the_store_package_imports_its_modules(name):
    inner = {i for i in IMPORTS[name] if i.startswith("memory.store.")}
    assert inner == set(), f"{name} imports {inner}: import from memory.store"


def test_only_the_store_package_locks_files():
    # jsonio holds each atomic_write temporary locked until its rename (a crashed writer's is then told apart)
    assert importers_of("fcntl") <= STORE_PACKAGE | {"memory.jsonio"}
