"""Where a store keeps its files: the one place that knows the names inside a store root.

``StoreLayout`` (``memory.paths``) names the top-level folders; this module adds the
rules every reader and writer of a scope folder shares, written once: which files
are shards (``shard_names``), the per-scope lock file, and the derived folders.
"""
from __future__ import annotations

import os
from pathlib import Path

from ..paths import StoreLayout, scope_digest

__all__ = ["StoreLayout", "scope_digest", "digest_of", "shard_names", "shard_paths", "shard_files",
           "is_shard_name", "scope_lock_path", "current_dir", "AUDIT_FILE", "MANIFEST_FILE", "SCOPE_FILE", "ERASING_FILE"]

AUDIT_FILE = "audit.jsonl"
MANIFEST_FILE = "manifest.json"
SCOPE_FILE = "scope.json"
ERASING_FILE = "erasing.json"
LOCKS_DIR = "locks"
CURRENT_DIR = "current"


def digest_of(scope: dict) -> str:
    return scope_digest(scope["type"], scope["key"])


def is_shard_name(name: str) -> bool:
    """The one shard-listing rule: ``NNNNNN.jsonl`` (the audit log is not a shard)."""
    return name.endswith(".jsonl") and name[:1].isdigit()


def shard_names(directory: Path | str) -> list[str]:
    """A scope folder's shard file names (``000001.jsonl``, ...), in log order; none when the
    folder does not exist."""
    try:
        with os.scandir(directory) as entries:
            return sorted(e.name for e in entries if is_shard_name(e.name))
    except (FileNotFoundError, NotADirectoryError):
        return []


def shard_paths(directory: Path) -> list[Path]:
    directory = Path(directory)
    return [directory / name for name in shard_names(directory)]


def shard_files(directory: Path) -> dict:
    """{name: (path, size, inode)} for a scope folder's shards."""
    directory = Path(directory)
    return {name: (path, st.st_size, st.st_ino) for name in shard_names(directory)
            for path in [directory / name] for st in [path.stat()]}


def current_dir(layout: StoreLayout, digest: str) -> Path:
    """The folder of a scope's derived current view (``current.CurrentView``)."""
    return layout.root / CURRENT_DIR / digest


def scope_lock_path(layout: StoreLayout, digest: str) -> Path:
    """One lock file per scope, outside the scope folder (taking a lock never creates a scope)."""
    return layout.root / LOCKS_DIR / digest / ".lock"
