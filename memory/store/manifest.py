"""A scope's ``manifest.json``: bytes, lines and sha256 per shard, replaced atomically."""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from ..jsonio import atomic_write, dumps, loads_trusted
from .layout import MANIFEST_FILE, shard_paths

MANIFEST_VERSION = "memory.manifest.v1"


def shard_entry(data: bytes) -> dict:
    return {"bytes": len(data), "lines": data.count(b"\n"), "sha256": hashlib.sha256(data).hexdigest()}


@dataclass
class RunningHash:
    """The sha256 of a shard's first ``size`` bytes, kept by the writer that appends to it, so
    the next manifest hashes only what was appended (the last shard was hashed whole on every
    write, up to its 2 MB). It stands for the file while the file is the same one, unchanged
    since: same inode, size and change time (which, unlike the modification time, no one can set
    back)."""

    name: str
    inode: int
    size: int
    ctime_ns: int
    lines: int
    hasher: object

    def holds(self, scope_dir: Path) -> bool:
        try:
            st = os.stat(Path(scope_dir) / self.name)
        except FileNotFoundError:
            return False
        return (st.st_ino, st.st_size, st.st_ctime_ns) == (self.inode, self.size, self.ctime_ns)


def write_manifest(scope_dir: Path, *, policy_sha256: dict, now: str, appended_only: bool = False,
                   running: RunningHash | None = None, keep_running=None) -> dict:
    """Hash every shard into ``manifest.json``. With ``appended_only`` (the caller only
    appended to the last shard, or started a new one) a sealed shard whose size matches
    the old manifest keeps its entry instead of being re-read, and the last shard's entry
    extends ``running`` (its hash as the caller last left it, checked with ``RunningHash.holds``
    before the append): O(new bytes), not O(scope). ``keep_running`` is handed the last shard's
    running hash after the write."""
    scope_dir = Path(scope_dir)
    paths = shard_paths(scope_dir)
    old = manifest_shards(scope_dir) if appended_only else {}
    shards = {}
    after = None
    for path in paths:
        entry = old.get(path.name)
        if path == paths[-1]:
            entry, after = _running_entry(path, running if appended_only else None)
        elif entry is None or entry.get("bytes") != path.stat().st_size:
            entry = shard_entry(path.read_bytes())
        shards[path.name] = entry
    manifest = {"schema_version": MANIFEST_VERSION, "scope_digest": scope_dir.name, "shards": shards,
                "policy_sha256": policy_sha256, "updated_at": now}
    atomic_write(scope_dir / MANIFEST_FILE, dumps(manifest, pretty=True) + b"\n")
    if keep_running is not None and after is not None:
        keep_running(after)
    return manifest


def _running_entry(path: Path, running: RunningHash | None) -> tuple[dict, RunningHash]:
    """``shard_entry`` of the file, reading only what follows the bytes ``running`` hashed."""
    with open(path, "rb") as handle:
        st = os.fstat(handle.fileno())
        if running is not None and (running.name, running.inode) == (path.name, st.st_ino) \
                and running.size <= st.st_size:
            hasher, lines, start = running.hasher.copy(), running.lines, running.size
        else:
            hasher, lines, start = hashlib.sha256(), 0, 0
        handle.seek(start)
        data = handle.read(st.st_size - start)
    hasher.update(data)
    lines += data.count(b"\n")
    size = start + len(data)
    entry = {"bytes": size, "lines": lines, "sha256": hasher.hexdigest()}
    return entry, RunningHash(path.name, st.st_ino, size, st.st_ctime_ns, lines, hasher)


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
