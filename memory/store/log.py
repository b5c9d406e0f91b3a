"""The append-only log of one scope: its shards and its audit file.

Append (one transaction group per write, fsynced), heal (cut what a crash left
unacknowledged at the tail), read (complete lines only; a group cut short is not
data), and pins (a position in a shard that tells "behind" from "moved", which the
derived files use to read only what is new). Nothing here knows about policies or
caches: ``Store`` (``core``) decides what to write and when.
"""
from __future__ import annotations

import hashlib
import hmac
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import StoreError
from ..jsonio import abandoned, atomic_write, canonical_bytes, is_temporary, loads_trusted, open_private, private_mkdir
from .layout import AUDIT_FILE, shard_files, shard_names, shard_paths


@dataclass
class ShardFile:
    path: Path
    data: bytes          # complete lines only
    torn_bytes: int      # bytes after the last LF (a crash mid-write)


def read_shard(path: Path) -> ShardFile:
    data = Path(path).read_bytes()
    cut = data.rfind(b"\n") + 1
    return ShardFile(Path(path), data[:cut], len(data) - cut)


def tail_bytes(path: Path | str, size: int, length: int = 64) -> bytes:
    with open(path, "rb") as handle:
        handle.seek(max(0, size - length))
        return handle.read(length)


# -- reading ------------------------------------------------------------------------------

def read_audit_rows(scope_dir: Path) -> list[dict]:
    path = Path(scope_dir) / AUDIT_FILE
    if not path.exists():
        return []
    return [loads_trusted(line) for line in read_shard(path).data.splitlines()]


TX_DIGEST = "hmac-sha256"


def tx_digest(key: str, tx: str) -> str:
    """How an audit row names a transaction id: a keyed digest (the key is the row's own random
    ``tx_digest.key``), never the id itself, which a caller may have filled with content."""
    return "h:" + hmac.new(bytes.fromhex(key), tx.encode("utf-8"), hashlib.sha256).hexdigest()


class Settled:
    """``tx in settled``: whether an erasure touched the transaction (rows name it by digest;
    rows written before digests, by the id itself)."""

    def __init__(self, audit_rows: list[dict]) -> None:
        self.plain: set = set()
        self.keyed: list[tuple[str, frozenset]] = []
        for row in audit_rows:
            transactions = row.get("transactions", {})
            key = (row.get("tx_digest") or {}).get("key")
            if key:
                self.keyed.append((key, frozenset(transactions)))
            else:
                self.plain.update(transactions)

    def __contains__(self, tx: object) -> bool:
        if tx in self.plain:
            return True
        return isinstance(tx, str) and any(tx_digest(key, tx) in named for key, named in self.keyed)


def settled_transactions(audit_rows: list[dict]) -> Settled:
    """Transactions an erasure touched: their groups were durable, then lost lines on purpose.

    An erase removes the revisions of the erased records, so an update's group can
    legitimately hold fewer lines than its ``group_size``; it must not look cut short.
    """
    return Settled(audit_rows)


def drop_incomplete_tail(revisions: list[dict], settled: frozenset = frozenset()) -> list[dict]:
    """A transaction writes its revisions as one group; a group cut short by a crash is not data."""
    if not revisions:
        return revisions
    last_tx = revisions[-1]["transition"]["transaction_id"]
    if last_tx in settled:
        return revisions
    start = len(revisions)
    while start > 0 and revisions[start - 1]["transition"]["transaction_id"] == last_tx:
        start -= 1
    group = revisions[start:]
    expected = group[0]["transition"].get("group_size", 1)
    return revisions if len(group) >= expected else revisions[:start]


def read_revisions(scope_dir: Path) -> list[dict]:
    """Every complete revision of a scope folder, in log order (incomplete tail groups dropped)."""
    revisions: list[dict] = []
    for path in shard_paths(scope_dir):
        shard = read_shard(path)
        for number, line in enumerate(shard.data.splitlines(), 1):
            try:
                revisions.append(loads_trusted(line))
            except ValueError:
                raise StoreError(f"shard {path.name} line {number} is not JSON (run: memory doctor)",
                                 code="store_corrupt") from None
    return drop_incomplete_tail(revisions, settled_transactions(read_audit_rows(scope_dir)))


def first_revision(scope_dir: Path) -> dict | None:
    """The first complete revision of a scope folder (None: no record left)."""
    for path in shard_paths(scope_dir):
        data = read_shard(path).data
        if data:
            return loads_trusted(data[:data.index(b"\n")])
    return None


# -- pins ---------------------------------------------------------------------------------

PIN_BYTES = 64


def shard_pin(path: Path, offset: int, inode: int) -> str:
    """A position in a shard that changes when the bytes before it do: the name, the inode (an
    erasure's rewrite is a new file) and a digest of the 64 bytes before the offset (a crash cut
    healed in place, then appended again, keeps the inode and may regrow past the old offset).
    Derived files record these so they can tell "behind" (read on) from "moved" (rebuild)."""
    with open(path, "rb") as handle:
        handle.seek(max(0, offset - PIN_BYTES))
        tail = handle.read(min(offset, PIN_BYTES))
    return _pin(Path(path).name, inode, tail)


def _pin(name: str, inode: int, before: bytes) -> str:
    """``shard_pin`` from the bytes before the offset (at most ``PIN_BYTES``, all of them when fewer)."""
    return f"{name}|{inode}|{hashlib.sha256(before).hexdigest()[:16]}"


def pinned_offsets(shards: dict, cursor: dict) -> dict | None:
    """{shard name: offset} when every pin in ``cursor`` still holds, else None (moved)."""
    offsets = {}
    for pin, offset in cursor.items():
        name = pin.split("|", 1)[0]
        entry = shards.get(name)
        if not isinstance(offset, int) or entry is None or offset > entry[1] \
                or shard_pin(entry[0], offset, entry[2]) != pin:
            return None
        offsets[name] = offset
    return offsets


@dataclass
class Tail:
    """What a derived file must read to catch up with a scope's shards."""

    moved: bool                       # a pin no longer holds: start over (``lines`` are all of the log)
    lines: list[bytes] = field(default_factory=list)   # complete lines after the cursor, in log order
    cursor: dict = field(default_factory=dict)          # pins of the position after ``lines``
    positions: list[tuple[str, int]] = field(default_factory=list)   # (shard name, offset) of each line
    paths: list[Path] = field(default_factory=list)     # the shards read
    # {name: (path, size, inode)} of the shards as listed before anything was read (``shard_files``):
    # what a reader that saves a derived file checks for rewrites afterwards (``same_files``)
    files: dict | None = None

    @property
    def caught_up(self) -> bool:
        return not self.moved and not self.lines


def cursor_status(scope_dir: Path, cursor: object) -> str:
    """``caught_up`` | ``behind`` | ``moved`` for a derived file's cursor, reading no shard content."""
    shards = shard_files(scope_dir)
    offsets = pinned_offsets(shards, cursor) if isinstance(cursor, dict) else None
    if offsets is None:
        return "moved"
    return "caught_up" if offsets == {name: size for name, (_, size, _) in shards.items()} else "behind"


def read_tail(scope_dir: Path, cursor: object) -> Tail:
    """The complete lines a derived file pinned at ``cursor`` has not read yet, and the new cursor.

    When a pin no longer holds (an erasure's rewrite, a healed crash cut, a vanished shard)
    the tail is the whole log and ``moved`` is set: the reader rebuilds."""
    shards = shard_files(scope_dir)
    offsets = pinned_offsets(shards, cursor) if isinstance(cursor, dict) else None
    moved = offsets is None
    offsets = offsets or {}
    # the pins just verified, by shard: a shard with nothing new keeps its pin (the same bytes
    # before the same offset), so only the shards read are pinned again
    verified = {pin.split("|", 1)[0]: pin for pin in cursor} if offsets else {}
    lines: list[bytes] = []
    positions: list[tuple[str, int]] = []
    new_cursor = {}
    for name, (path, size, inode) in shards.items():
        start = offsets.get(name, 0)
        if start < size:
            with open(path, "rb") as handle:
                handle.seek(start)
                chunk = handle.read(size - start)
            complete = chunk[:chunk.rfind(b"\n") + 1]
            at = start
            for line in complete.splitlines(keepends=True):
                lines.append(line[:-1])
                positions.append((name, at))
                at += len(line)
        else:
            complete = b""
        end = start + len(complete)
        pin = verified.get(name) if not complete and name in offsets else None
        new_cursor[pin or shard_pin(path, end, inode)] = end
    return Tail(moved, lines, new_cursor, positions, [path for path, _, _ in shards.values()], shards)


@dataclass(frozen=True)
class Appended:
    """One append this process made to a scope's log, as its writer knows it: the scope's files
    (``Store.files_fingerprint``) under the scope's lock right before and right after it, the
    shard the lines went to, where they start there, and the lines, each ending with LF."""

    before: tuple
    after: tuple
    shard: str
    offset: int
    payload: bytes


def appended_tail(scope_dir: Path, cursor: object, appends, fingerprint: tuple) -> Tail | None:
    """What ``read_tail(scope_dir, cursor)`` returns while the scope's files are those of
    ``fingerprint``, worked out from ``appends`` (this process's own appends, oldest first)
    without listing, pinning or reading a shard; None when they do not tell (read it then).

    They tell when the cursor stands exactly at the end of every shard as one append found them
    (``before``: same shards, inodes and sizes, and the last shard's pin is that of its last
    bytes, which the fingerprint holds), each later append found the files exactly as the one
    before it left them, and the last one left them as ``fingerprint`` has them: then the tail
    is those appends' lines, and the new cursor keeps the pins of the shards none of them
    touched and pins the others at their ends (from the appended bytes)."""
    if not appends or appends[-1].after != fingerprint or not isinstance(cursor, dict):
        return None
    held = _cursor_shards(cursor)
    if held is None:
        return None
    start = next((at for at in range(len(appends) - 1, -1, -1) if _stands_at(held, appends[at].before)), None)
    if start is None or any(later.before != earlier.after
                            for earlier, later in zip(appends[start:], appends[start + 1:])):
        return None
    lines: list[bytes] = []
    positions: list[tuple[str, int]] = []
    ends: dict[str, tuple[int, bytes]] = {}
    for appended in appends[start:]:
        at = appended.offset
        for line in appended.payload.splitlines(keepends=True):
            lines.append(line[:-1])
            positions.append((appended.shard, at))
            at += len(line)
        if len(appended.payload) < PIN_BYTES:
            return None      # the pin needs bytes from before the append (never so: a line is longer)
        ends[appended.shard] = (at, appended.payload[-PIN_BYTES:])
    new_cursor, files, directory = {}, {}, Path(scope_dir)
    for name, size, inode, _, _ in _shards_of(fingerprint):
        if name in ends:
            end, before = ends[name]
            if end != size:
                return None
            new_cursor[_pin(name, inode, before)] = end
        else:
            known = held.get(name)
            if known is None or known[0] != inode or known[1] != size:
                return None
            new_cursor[known[2]] = size
        files[name] = (directory / name, size, inode)
    return Tail(False, lines, new_cursor, positions, [path for path, _, _ in files.values()], files)


def _shards_of(fingerprint: tuple) -> list[tuple]:
    """The shard entries (name, size, inode, mtime_ns, last bytes) of a ``files_fingerprint``."""
    return [entry for entry in fingerprint if entry[0] != AUDIT_FILE]


def _cursor_shards(cursor: dict) -> dict | None:
    """{shard name: (inode, offset, pin)} of a cursor (None: not one ``read_tail`` wrote)."""
    held = {}
    for pin, offset in cursor.items():
        parts = pin.split("|") if isinstance(pin, str) else ()
        if len(parts) != 3 or not parts[1].isdigit() or not isinstance(offset, int):
            return None
        held[parts[0]] = (int(parts[1]), offset, pin)
    return held


def _stands_at(held: dict, fingerprint: tuple) -> bool:
    """Whether a cursor (``_cursor_shards``) stands at the end of every shard of ``fingerprint``."""
    shards = _shards_of(fingerprint)
    if len(shards) != len(held):
        return False
    for name, size, inode, _, _ in shards:
        known = held.get(name)
        if known is None or known[0] != inode or known[1] != size:
            return False
    if shards:
        name, size, inode, _, last = shards[-1]
        if len(last) != min(size, PIN_BYTES) or held[name][2] != _pin(name, inode, last):
            return False
    return True


def same_files(scope_dir: Path, before: dict) -> bool:
    """Whether every shard of ``before`` (``shard_files``) is still the same file (no rewrite)."""
    now = {p.name: p.stat().st_ino for p in shard_paths(scope_dir)}
    return all(now.get(name) == inode for name, (_, _, inode) in before.items())


# -- healing ------------------------------------------------------------------------------

def heal_torn_tail(path: Path) -> int:
    """Cut bytes after the last LF (never-acknowledged data); returns how many were cut."""
    path = Path(path)
    if not path.exists():
        return 0
    size = path.stat().st_size
    if size == 0:
        return 0
    with open(path, "r+b") as handle:
        handle.seek(max(0, size - 1))
        if handle.read(1) == b"\n":
            return 0
        data = path.read_bytes()
        keep = data.rfind(b"\n") + 1
        handle.truncate(keep)
        handle.flush()
        os.fsync(handle.fileno())
        return size - keep


def cut_incomplete_group(path: Path, settled: frozenset = frozenset(), *, chunk: int = 64 * 1024) -> int:
    """Truncate a trailing transaction group cut short by a crash; returns the bytes cut.

    Such a group was never acknowledged. Left in place, the next append would bury it
    mid-log, where readers no longer recognise it as a torn tail and would read it as data.

    Only the shard's last ``chunk`` bytes are read, more when the last group reaches further
    back (every append calls this: reading the whole shard made a write cost O(shard))."""
    path = Path(path)
    try:
        size = os.stat(path).st_size
    except FileNotFoundError:
        return 0
    while True:
        offset, lines = _last_lines(path, size, chunk)
        # only the last group is parsed; the line before it tells where the group starts
        group: list[dict] = []
        start = len(lines)
        try:
            while start > 0:
                revision = loads_trusted(lines[start - 1])
                tx = revision["transition"]["transaction_id"]
                if group and tx != group[0]["transition"]["transaction_id"]:
                    break
                group.insert(0, revision)
                start -= 1
        except ValueError:
            return 0  # a corrupt complete line is tampering: doctor reports it, nothing is cut
        if start > 0 or offset == 0:
            break
        chunk *= 4   # the group may begin before what was read
    if not group or group[0]["transition"]["transaction_id"] in settled \
            or len(group) >= group[0]["transition"].get("group_size", 1):
        return 0
    keep = offset + sum(len(line) for line in lines[:start])
    with open(path, "r+b") as handle:
        handle.truncate(keep)
        handle.flush()
        os.fsync(handle.fileno())
    return size - keep


def _last_lines(path: Path, size: int, chunk: int) -> tuple[int, list[bytes]]:
    """(where the first returned line starts, the lines of the shard's last ``chunk`` bytes or so,
    from a line start on, with their line ends), as ``splitlines(keepends=True)`` of the whole file
    would give them."""
    if size <= chunk:
        with open(path, "rb") as handle:
            return 0, handle.read(size).splitlines(keepends=True)
    with open(path, "rb") as handle:
        handle.seek(size - chunk - 1)
        data = handle.read(chunk + 1)
    # a line starts after every LF (the byte before the chunk included); not the shard's last byte
    first = data.find(b"\n", 0, len(data) - 1) + 1
    if first == 0:
        return _last_lines(path, size, size)   # one line longer than the chunk: read it all
    return size - chunk - 1 + first, data[first:].splitlines(keepends=True)


def heal_tail(scope_dir: Path) -> int:
    """Under the scope's lock: cut the last shard's torn line and any cut-short group (bytes cut)."""
    shards = shard_paths(scope_dir)
    if not shards:
        return 0
    return heal_torn_tail(shards[-1]) + cut_incomplete_group(shards[-1],
                                                            settled_transactions(read_audit_rows(scope_dir)))


def heal_all(scope_dir: Path) -> None:
    """``doctor --repair``: every shard's torn tail, then the last group cut short."""
    shards = shard_paths(scope_dir)
    for path in shards:
        heal_torn_tail(path)
    if shards:
        cut_incomplete_group(shards[-1], settled_transactions(read_audit_rows(scope_dir)))


# -- appending ----------------------------------------------------------------------------

def append_durable(path: Path, data: bytes) -> None:
    path = Path(path)
    private_mkdir(path.parent)
    heal_torn_tail(path)
    _append(path, data)


def _append(path: Path, data: bytes) -> None:
    """Append ``data`` and fsync; on failure (disk full, file-size limit, ...) cut the file back
    to where it was, so a write reported as failed leaves nothing readable, then re-raise."""
    try:
        size = os.stat(path).st_size
    except FileNotFoundError:
        size = None
    try:
        with open_private(path) as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        undo_append(path, size)
        raise


def undo_append(path: Path, size: int | None) -> None:
    """Cut ``path`` back to ``size`` bytes (None: it did not exist, remove it); best effort."""
    try:
        if size is None:
            os.unlink(path)
            return
        with open(path, "r+b") as handle:
            handle.truncate(size)
            os.fsync(handle.fileno())
    except OSError:
        pass   # a read-only or vanished file: nothing more can be cut; readers stop at the manifest


def remove_temporaries(directory: Path, listed: list[str] | None = None, *, live_ok: bool = False) -> list[str]:
    """Delete the ``atomic_write`` temporaries a crashed writer left in ``directory`` (the caller
    holds the lock of whatever writes there); returns their names. ``listed``: the folder's names
    as the caller just listed them. An erasure's temporary is a copy of a shard, content
    included: it must not outlive the crash."""
    try:
        if listed is None:
            listed = os.listdir(directory)
    except (FileNotFoundError, NotADirectoryError):
        return []
    names = sorted(name for name in listed if is_temporary(name))
    if live_ok:   # a folder readers write without the lock: only what a dead process left
        names = [name for name in names if abandoned(os.path.join(directory, name))]
    for name in names:
        try:
            os.unlink(os.path.join(directory, name))
        except FileNotFoundError:
            pass
    return names


def shard_for(scope_dir: Path, incoming: int, max_bytes: int) -> Path:
    """The shard the next ``incoming`` bytes go to: the last one, or a new one when it is full."""
    names = shard_names(scope_dir)
    if not names:
        return Path(scope_dir) / "000001.jsonl"
    last = Path(scope_dir) / names[-1]
    size = last.stat().st_size
    if size and size + incoming > max_bytes:
        return Path(scope_dir) / f"{int(last.stem) + 1:06d}.jsonl"
    return last


def append_group(scope_dir: Path, revisions: list[dict], max_bytes: int) -> tuple[Path, int, bytes]:
    """Append revisions in one write, flushed and fsynced; never split across shards. Returns
    (the shard, where the lines start in it, the lines)."""
    payload = b"".join(canonical_bytes(r) + b"\n" for r in revisions)
    path = shard_for(scope_dir, len(payload), max_bytes)
    try:
        offset = os.stat(path).st_size
    except FileNotFoundError:
        offset = 0
    _append(path, payload)
    return path, offset, payload


# the strings a successor copies from the record it supersedes (lifecycle._new_record)
INHERITED = ("aliases", "tags", "negative_triggers")


def rewritten(scope_dir: Path, doomed: set) -> dict[Path, bytes]:
    """{shard: its new bytes} for every shard an erasure of ``doomed`` changes.

    Every revision of a doomed record goes, and so does every copy of its content a successor
    inherited: a record that supersedes a doomed one (or one of its successors, and so on) loses
    the aliases, tags and negative triggers the doomed records carried, and is sealed again."""
    shards = [(path, read_shard(path)) for path in shard_paths(scope_dir)]
    parsed = []
    carried: dict[str, set] = {name: set() for name in INHERITED}
    heirs: set = set()
    for path, shard in shards:
        lines = shard.data.splitlines(keepends=True)
        revisions = [loads_trusted(line) for line in lines]
        for revision in revisions:   # log order: a successor comes after what it supersedes
            if revision["id"] in doomed:
                for name in INHERITED:
                    carried[name].update(v for v in revision.get(name) or () if isinstance(v, str))
            elif (doomed | heirs).intersection((revision.get("supersession") or {}).get("supersedes") or ()):
                heirs.add(revision["id"])
        parsed.append((path, shard, lines, revisions))
    out = {}
    for path, shard, lines, revisions in parsed:
        kept = []
        for line, revision in zip(lines, revisions):
            if revision["id"] in doomed:
                continue
            if revision["id"] in heirs and any(set(revision.get(n) or ()) & carried[n] for n in INHERITED):
                from ..records import seal
                revision = seal({**revision, **{n: [v for v in revision.get(n) or () if v not in carried[n]]
                                                for n in INHERITED if n in revision}})
                line = canonical_bytes(revision) + b"\n"
            kept.append(line)
        data = b"".join(kept)
        if data != shard.data or shard.torn_bytes:
            out[path] = data
    return out


def rewrite(plan: dict[Path, bytes]) -> None:
    """Replace each planned shard atomically (a new inode), the last shard first: a crash part
    way leaves the earlier shards, and with them what the doomed records carried, for the next
    writer to finish from (successors come after what they supersede)."""
    for path in sorted(plan, reverse=True):
        atomic_write(path, plan[path])


def replace_audit(scope_dir: Path, rows: list[dict]) -> None:
    """Write a scope's audit log whole (a restore into an empty scope)."""
    atomic_write(Path(scope_dir) / AUDIT_FILE, b"".join(canonical_bytes(r) + b"\n" for r in rows))
