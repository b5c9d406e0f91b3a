"""Where things live: the store root, the policy folder, the schema folder.

Store root: ``--store PATH`` > ``$MEMORY_STORE`` > ``./data``. Policy folder:
``$MEMORY_CONFIG`` > the default policies shipped in the package
(``memory/packaged/config``, located as ``importlib.resources`` would); a store answers by its
own copy of the policies it was created with (``memory.policy.store_policies``). The
JSON Schemas ship the same way (``memory/packaged/schemas``). The repository's
``config/`` and ``schemas/`` are the sources of those copies (tools/sync_package_data.py;
tests/test_packaging.py holds them equal). A scope key never becomes a path: scopes
live under a digest of ``type:key``.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
import os
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent
# a checkout's root (README, benchmarks/, tools/); in an installed package it is site-packages,
# so nothing the package needs at run time is looked up there
PROJECT_ROOT = PACKAGE_ROOT.parent


def _package_data():
    """The package's data folder: ``importlib.resources.files("memory") / "packaged"``.

    For a package that is a folder on a file system (as pip installs it, or a checkout) that is
    this module's folder, so it is taken directly: importing importlib.resources (and zipfile
    with it) is start-up that every `memory query` process would pay. Any other loader (a zip)
    is asked through importlib.resources.
    """
    folder = PACKAGE_ROOT / "packaged"
    if folder.is_dir():
        return folder
    from importlib import resources
    return resources.files(__package__).joinpath("packaged")


# package data (inside the package, so a plain `pip install .` ships it)
PACKAGED = _package_data()
SCHEMA_DIR = PACKAGED.joinpath("schemas")
DEFAULT_CONFIG_DIR = PACKAGED.joinpath("config")

POLICY_FILES = {
    "mutation": "mutation-policy.json",
    "forgetting": "forgetting-policy.json",
    "retrieval": "retrieval-policy.json",
}


def store_root(option: str | None = None, environ: dict | None = None) -> Path:
    environ = os.environ if environ is None else environ
    chosen = option or environ.get("MEMORY_STORE") or "data"
    return Path(chosen)


def config_dir(environ: dict | None = None) -> Path:
    """The policy folder: ``$MEMORY_CONFIG``, else the defaults shipped in the package."""
    environ = os.environ if environ is None else environ
    chosen = environ.get("MEMORY_CONFIG")
    return Path(chosen) if chosen else DEFAULT_CONFIG_DIR


def config_chosen(environ: dict | None = None) -> bool:
    """Whether ``$MEMORY_CONFIG`` names a policy folder (an operator's explicit choice)."""
    environ = os.environ if environ is None else environ
    return bool(environ.get("MEMORY_CONFIG"))


def schema_bytes(name: str) -> bytes:
    """The bytes of ``schemas/<name>.schema.json`` as the package ships it."""
    return SCHEMA_DIR.joinpath(f"{name}.schema.json").read_bytes()


def scope_digest(scope_type: str, scope_key: str) -> str:
    """The folder name of a scope: a digest, so user input never becomes a path."""
    if type(scope_type) is str and type(scope_key) is str:
        return _scope_digest(scope_type, scope_key)
    return hashlib.sha256(f"{scope_type}:{scope_key}".encode("utf-8")).hexdigest()[:32]


@lru_cache(maxsize=4096)
def _scope_digest(scope_type: str, scope_key: str) -> str:
    # a batch names its scope once per envelope, and again per record id: hashed once
    return hashlib.sha256(f"{scope_type}:{scope_key}".encode("utf-8")).hexdigest()[:32]


class StoreLayout:
    """Names of the files inside one store root."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    @property
    def marker(self) -> Path:
        return self.root / "store.json"

    @property
    def lock(self) -> Path:
        return self.root / ".lock"

    @property
    def shards(self) -> Path:
        return self.root / "shards"

    def scope_dir(self, digest: str) -> Path:
        return self.shards / digest

    def index_dir(self, digest: str) -> Path:
        return self.root / "index" / digest

    def view_dir(self, digest: str) -> Path:
        return self.root / "views" / digest
