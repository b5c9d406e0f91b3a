"""A scope's ``manifest.json``: bytes, lines and sha256 per shard, replaced atomically."""
from __future__ import annotations

import hashlib
from pathlib import Path

from ..jsonio import atomic_write, dumps, loads_trusted
from .layout import MANIFEST_FILE, shard_paths

MANIFEST_VERSION = "memory.manifest.v1"


def shard_entry(data: bytes) -> dict:
    return {"bytes": len(data), "lines": data.count(b"\n"), "sha256": hashlib.sha256(data).hexdigest()}


def write_manifest(scope_dir: Path, *, policy_sha256: dict, now: str, appended_only: bool = False) -> dict:
    """Hash every shard into ``manifest.json``. With ``appended_only`` (the caller only
    appended to the last shard, or started a new one) a sealed shard whose size matches
    the old manifest keeps its entry instead of being re-read: O(new bytes), not O(scope)."""
    scope_dir = Path(scope_dir)
    paths = shard_paths(scope_dir)
    old = manifest_shards(scope_dir) if appended_only else {}
    shards = {}
    for path in paths:
        entry = old.get(path.name)
        if entry is None or path == paths[-1] or entry.get("bytes") != path.stat().st_size:
            entry = shard_entry(path.read_bytes())
        shards[path.name] = entry
    manifest = {"schema_version": MANIFEST_VERSION, "scope_digest": scope_dir.name, "shards": shards,
                "policy_sha256": policy_sha256, "updated_at": now}
    atomic_write(scope_dir / MANIFEST_FILE, dumps(manifest, pretty=True) + b"\n")
    return manifest


def manifest_shards(scope_dir: Path) -> dict:
    """The shard entries of the scope's manifest; {} when it is missing or unreadable."""
    try:
        shards = loads_trusted((Path(scope_dir) / MANIFEST_FILE).read_bytes()).get("shards")
    except (OSError, ValueError, AttributeError):
        return {}
    return shards if isinstance(shards, dict) and all(isinstance(e, dict) for e in shards.values()) else {}


def manifest_bytes(scope_dir: Path) -> bytes | None:
    """The manifest file as stored (None: missing); doctor and the boot view pin its digest."""
    try:
        return (Path(scope_dir) / MANIFEST_FILE).read_bytes()
    except FileNotFoundError:
        return None
