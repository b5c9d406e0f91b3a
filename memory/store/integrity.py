"""Does a scope's folder still hold what the store wrote? Its shards against its manifest.

The writer records each shard's bytes, lines and sha256 in ``manifest.json`` after every
append, and an erasure announces the entries its rewrite will leave (``erasing.json``)
before it rewrites anything. So the only disagreements a crash can leave are:

* the last listed shard (or one new shard after it) holds more than the manifest says:
  an append whose manifest was not rewritten yet (complete lines, then maybe a torn one);
* a shard an erasure rewrote matches the entry ``erasing.json`` announced for it.

Anything else (a line removed, reordered or edited, even with its record hash recomputed,
a shard removed, truncated, or listed nowhere before the last one, a missing or unreadable
manifest) was done outside the store: ``check`` reports it, the store refuses to write or
answer from that scope (``scope_tampered``), and the next write never rewrites the manifest
over the evidence. Lines past the manifest are checked one by one (JSON, record hash,
scope), so a line copied from another scope is not served as an unacknowledged append.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from ..jsonio import abandoned, atomic_write, dumps, is_temporary, loads_trusted
from ..paths import scope_digest
from ..records import hash_ok
from .layout import (AUDIT_FILE, CURRENT_DIR, ERASING_FILE, LOCKS_DIR, MANIFEST_FILE, SCOPE_FILE, is_shard_name,
                     shard_names)

# the codes ``check`` reports; none of them is repaired without an operator's word
TAMPER_CODES = ("manifest_missing", "manifest_invalid", "shard_missing", "shard_unlisted", "shard_altered",
                "shard_truncated", "line_invalid", "record_hash_mismatch", "record_scope_mismatch")


@dataclass(frozen=True)
class Finding:
    code: str
    shard: str | None
    message: str


def read_manifest(scope_dir: Path) -> dict | None | bool:
    """The manifest's shard entries; None when the file is missing, False when unreadable."""
    try:
        manifest = loads_trusted((Path(scope_dir) / MANIFEST_FILE).read_bytes())
    except FileNotFoundError:
        return None
    except ValueError:
        return False
    shards = manifest.get("shards") if isinstance(manifest, dict) else None
    if not isinstance(shards, dict) or not all(
            isinstance(e, dict) and isinstance(e.get("bytes"), int) and isinstance(e.get("sha256"), str)
            for e in shards.values()):
        return False
    return shards


def _same(entry: dict | None, data: bytes) -> bool:
    return entry is not None and entry.get("bytes") == len(data) and \
        entry.get("sha256") == hashlib.sha256(data).hexdigest()


def check(scope_dir: Path, pending: dict | None = None, known: dict | None = None) -> list[Finding]:
    """Every disagreement between a scope's shards and its manifest that a crash cannot explain.

    ``pending``: the entries an erasure announced (``erasure.pending``). ``known``: {name:
    (size, inode, ctime_ns, sha256)} of shards verified before (``load_known``); a shard whose
    stat and manifest entry are unchanged is not read again (it is filled in place). The change
    time, unlike the modification time, cannot be set back by whoever edits the file."""
    scope_dir = Path(scope_dir)
    names = shard_names(scope_dir)
    listed = read_manifest(scope_dir)
    if listed is None:
        return [Finding("manifest_missing", None, "the scope's manifest.json is missing")] if names else []
    if listed is False:
        return [Finding("manifest_invalid", None, "the scope's manifest.json is unreadable")]
    pending = pending or {}
    found: list[Finding] = []
    order = sorted(listed)
    last = order[-1] if order else None
    for name in order:
        if name not in names:
            found.append(Finding("shard_missing", name, f"shard {name} is listed in the manifest but absent"))
    for name in names:
        if name not in listed and last is not None and name < last:
            found.append(Finding("shard_unlisted", name, f"shard {name} is not in the manifest"))
    digest = scope_dir.name
    for name in names:
        path = scope_dir / name
        entry = listed.get(name)
        try:
            st = os.stat(path)
        except FileNotFoundError:
            continue
        stat = (st.st_size, st.st_ino, st.st_ctime_ns)
        if known is not None and entry is not None and known.get(name) == (*stat, entry["sha256"]):
            continue
        data = path.read_bytes()
        if _same(entry, data) or _same(pending.get(name), data):
            if known is not None and entry is not None and _same(entry, data):
                known[name] = (*stat, entry["sha256"])
            continue
        if entry is None:
            if last is None or name > last:   # a new shard an append started: its lines are checked
                found += _check_lines(data, name, digest)
            continue
        size = entry["bytes"]
        if name == last and len(data) > size and hashlib.sha256(data[:size]).hexdigest() == entry["sha256"]:
            found += _check_lines(data[size:], name, digest)   # an append the manifest does not list yet
        elif len(data) < size:
            found.append(Finding("shard_truncated", name, f"shard {name} is shorter than its manifest entry"))
        else:
            found.append(Finding("shard_altered", name,
                                 f"shard {name} differs from its manifest entry (edited, reordered or lines removed)"))
    return found


KNOWN_FILE = "verified.json"


def load_known(directory: Path) -> dict:
    """The shards a reader verified before (saved beside the scope's current view, derived):
    {name: (size, inode, ctime_ns, sha256)}; empty when missing or unreadable."""
    try:
        saved = loads_trusted((Path(directory) / KNOWN_FILE).read_bytes())
        return {name: tuple(entry) for name, entry in saved["shards"].items() if len(entry) == 4}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def save_known(directory: Path, known: dict) -> None:
    """Keep ``known`` for the next process (a cold ``memory query`` then hashes only what changed)."""
    try:
        atomic_write(Path(directory) / KNOWN_FILE, dumps({"shards": {n: list(e) for n, e in known.items()}}))
    except OSError:
        pass   # derived: a read-only store verifies again next time


def _check_lines(data: bytes, name: str, digest: str) -> list[Finding]:
    """Complete lines past the manifest: each must be a record of this scope with a true hash."""
    found = []
    for line in data[:data.rfind(b"\n") + 1].splitlines():
        try:
            revision = loads_trusted(line)
            scope = revision["scope"]
            ours = scope_digest(scope["type"], scope["key"]) == digest
        except (ValueError, KeyError, TypeError):
            found.append(Finding("line_invalid", name, f"shard {name} holds a line that is not a record"))
            continue
        if not ours:
            found.append(Finding("record_scope_mismatch", name, f"shard {name} holds a record of another scope"))
        elif not hash_ok(revision):
            found.append(Finding("record_hash_mismatch", name, f"shard {name} holds a record whose hash is wrong"))
    return found



# what may live where: a top-level name -> the files its folder may hold (None: any derived file)
_TOP_FILES = {"store.json", ".lock"}
_TOP_FOLDERS = {"shards", LOCKS_DIR, "index", "views", CURRENT_DIR, "doctor", "policies"}
_SCOPE_FILES = {AUDIT_FILE, MANIFEST_FILE, SCOPE_FILE, ERASING_FILE}


def _accounted(parts: tuple) -> bool:
    """Whether a file at ``parts`` (relative to the store root) is one the store writes."""
    if len(parts) == 1:
        return parts[0] in _TOP_FILES
    top = parts[0]
    if top == "shards":
        return len(parts) == 3 and (is_shard_name(parts[2]) or parts[2] in _SCOPE_FILES)
    if top == LOCKS_DIR:
        return len(parts) == 3 and parts[2] == ".lock"
    if top == "policies":
        return len(parts) == 2 and parts[1].endswith(".json")
    return top in _TOP_FOLDERS   # derived folders: their owners name their files


def file_findings(root: Path) -> list[tuple[str, str, str]]:
    """(code, path relative to the store, message) for every file under the store that is a
    leftover temporary (a crashed rewrite; it may hold erased content), that the store does not
    account for, or whose mode is looser than 0600 (files) / 0700 (folders)."""
    root = Path(root)
    found: list[tuple[str, str, str]] = []
    if not root.is_dir():
        return found
    for folder, dirs, files in os.walk(root):
        rel_folder = os.path.relpath(folder, root)
        parts_folder = () if rel_folder == "." else tuple(rel_folder.split(os.sep))
        if parts_folder and parts_folder[0] not in _TOP_FOLDERS:
            found.append(("file_unaccounted", "/".join(parts_folder), "a folder the store does not account for"))
            dirs[:] = []
            continue
        mode = os.lstat(folder).st_mode & 0o777
        if mode & 0o077:
            found.append(("mode_too_open", "/".join(parts_folder) or ".", f"folder mode {mode:04o}, expected 0700"))
        for name in sorted(files):
            parts = parts_folder + (name,)
            where = "/".join(parts)
            st = os.lstat(os.path.join(folder, name))
            if is_temporary(name):
                found.append(("stray_temporary", where, "a temporary a crashed rewrite left (it may hold erased content)"))
                continue
            if not _accounted(parts):
                found.append(("file_unaccounted", where, "a file the store does not account for"))
            if st.st_mode & 0o077:
                found.append(("mode_too_open", where, f"file mode {st.st_mode & 0o777:04o}, expected 0600"))
    return found


def fix_file(root: Path, code: str, where: str) -> None:
    """``doctor --repair`` of a ``file_findings`` entry: a temporary goes, a mode is tightened."""
    path = Path(root) / where
    try:
        if code == "stray_temporary":
            if abandoned(path):    # a live writer's temporary is left to it
                path.unlink()
        else:
            os.chmod(path, 0o700 if path.is_dir() else 0o600)
    except FileNotFoundError:
        pass
