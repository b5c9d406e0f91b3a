"""Where things live: the store root, the policy folder, the schema folder.

Store root: ``--store PATH`` > ``$MEMORY_STORE`` > ``./data``. Policies:
``$MEMORY_CONFIG`` > the repository's ``config/``. A scope key never becomes a
path: scopes live under a digest of ``type:key``.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent
PROJECT_ROOT = PACKAGE_ROOT.parent
SCHEMA_DIR = PROJECT_ROOT / "schemas"
DEFAULT_CONFIG_DIR = PROJECT_ROOT / "config"

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
    environ = os.environ if environ is None else environ
    chosen = environ.get("MEMORY_CONFIG")
    return Path(chosen) if chosen else DEFAULT_CONFIG_DIR


def scope_digest(scope_type: str, scope_key: str) -> str:
    """The folder name of a scope: a digest, so user input never becomes a path."""
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
