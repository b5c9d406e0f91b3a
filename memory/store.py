"""The store on disk: the only module that reads and writes a store's files.

Layout and durability rules: docs/ARCHITECTURE.md and WHERE_IS_THE_DATA.md.
One writer at a time (``fcntl.flock`` on ``.lock``); every acknowledged write
was appended, flushed and fsynced, and its scope manifest replaced atomically,
before the call returned. A torn last line, or a transaction whose revisions
did not all reach the disk, is never read as data.
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

from . import lifecycle
from .clock import SystemClock
from .errors import InputError, MemoryStoreError, NotFoundError, RefusedError, StoreError
from .jsonio import atomic_write, canonical_bytes, dumps, fsync_dir, loads_strict, loads_trusted
from .lifecycle import ScopeState
from .paths import StoreLayout, scope_digest
from .policy import Policies, load_policies

STORE_FORMAT = "memory.store.v1"
MANIFEST_VERSION = "memory.manifest.v1"
AUDIT_VERSION = "memory.audit.v1"
SHARD_MAX_BYTES = 2 * 1024 * 1024
DEFAULT_BATCH = 500


def result_for(envelope: object, status: str, record_id=None, revision=None, error=None) -> dict:
    envelope = envelope if isinstance(envelope, dict) else {}
    tx = envelope.get("transaction_id")
    op = envelope.get("operation")
    return {"status": status, "transaction_id": tx if isinstance(tx, str) else None,
            "operation": op if isinstance(op, str) else None,
            "record_id": record_id, "revision": revision, "error": error}


@dataclass
class ShardFile:
    path: Path
    data: bytes          # complete lines only
    torn_bytes: int      # bytes after the last LF (a crash mid-write)


def scope_of(scope_type: str, scope_key: str) -> dict:
    return {"type": scope_type, "key": scope_key}


def user_scope(user: str) -> dict:
    if not isinstance(user, str) or not user.strip():
        raise InputError("a scope needs a non-empty user", code="scope_required")
    return scope_of("user", user)


class Store:
    """A store root with its policies and clock. Cheap to open; caches scope states."""

    def __init__(self, root: Path, *, clock=None, policies: Policies | None = None, config=None):
        self.layout = StoreLayout(Path(root))
        self.root = self.layout.root
        self.clock = clock or SystemClock()
        self.policies = policies or load_policies(config)
        self.shard_max_bytes = SHARD_MAX_BYTES
        self._states: dict[str, tuple[tuple, ScopeState]] = {}
        # values built from a scope's state (the query view), dropped with the state they came from
        self._derived: dict[tuple[str, str], tuple[ScopeState, object]] = {}
        # opened retrieval indexes by scope digest, with the fingerprint they were read at
        # (``indexing.open_index`` owns the entries: the store only keeps them alive)
        self.index_cache: dict[str, tuple[tuple, object]] = {}

    # -- opening --------------------------------------------------------------

    @classmethod
    def create(cls, root: Path, *, clock=None, config=None) -> "Store":
        store = cls(root, clock=clock, config=config)
        if store.layout.marker.exists():
            return store
        store.layout.shards.mkdir(parents=True, exist_ok=True)
        store.pin_policies()
        return store

    @classmethod
    def open(cls, root: Path, *, clock=None, config=None) -> "Store":
        marker = StoreLayout(Path(root)).marker
        if not marker.exists():
            raise StoreError(f"no store at {root} (run: memory init --store {root})", code="store_not_found")
        return cls(root, clock=clock, config=config)

    def marker(self) -> dict:
        return loads_strict(self.layout.marker.read_bytes(), what="store.json")

    def pin_policies(self) -> None:
        """Record the policy files in force (``doctor`` reports drift from these)."""
        atomic_write(self.layout.marker, dumps({
            "schema_version": STORE_FORMAT, "pinned_at": self.clock.now(),
            "policy_sha256": self.policies.hashes()}, pretty=True) + b"\n")

    # -- locking --------------------------------------------------------------

    @contextmanager
    def writer(self):
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.layout.lock, "a+b") as handle:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

    # -- reading --------------------------------------------------------------

    def scope_dir(self, scope: dict) -> Path:
        return self.layout.scope_dir(scope_digest(scope["type"], scope["key"]))

    def shard_paths(self, scope: dict) -> list[Path]:
        directory = self.scope_dir(scope)
        return [directory / name for name in shard_names(directory)]

    def fingerprint(self, scope: dict) -> tuple:
        """What changes when another process writes: sizes alone do not (a healed torn tail
        followed by an append of the same length, an erasure's rewrite), so the file identity,
        its mtime and its last bytes are part of it.

        Only the last shard and the audit log are read: a sealed shard is never appended to
        or healed in place (erasure rewrites it as a new file, a new inode), and a shard that
        stops being the last does so because a new one appeared, which changes the tuple."""
        # plain strings, not Path objects: every query takes this, and Paths cost more than the stats
        directory = str(self.scope_dir(scope))
        names = shard_names(directory)
        tailed = {names[-1], "audit.jsonl"} if names else {"audit.jsonl"}
        out = []
        for name in names + ["audit.jsonl"]:
            path = os.path.join(directory, name)
            try:
                st = os.stat(path)
            except FileNotFoundError:
                continue
            tail = _tail(path, st.st_size) if name in tailed else b""
            out.append((name, st.st_size, st.st_ino, st.st_mtime_ns, tail))
        return tuple(out)

    @staticmethod
    def read_shard(path: Path) -> ShardFile:
        data = path.read_bytes()
        cut = data.rfind(b"\n") + 1
        return ShardFile(path, data[:cut], len(data) - cut)

    def scope_revisions(self, scope: dict) -> list[dict]:
        """Every complete revision of a scope, in log order (incomplete tail groups dropped)."""
        revisions: list[dict] = []
        for path in self.shard_paths(scope):
            shard = self.read_shard(path)
            for number, line in enumerate(shard.data.splitlines(), 1):
                try:
                    revisions.append(loads_trusted(line))
                except ValueError:
                    raise StoreError(f"shard {path.name} line {number} is not JSON (run: memory doctor)",
                                     code="store_corrupt") from None
        return drop_incomplete_tail(revisions, settled_transactions(self.audit_rows(scope)))

    def audit_rows(self, scope: dict) -> list[dict]:
        return read_audit_rows(self.scope_dir(scope))

    def state(self, scope: dict, fingerprint: tuple | None = None) -> ScopeState:
        """The scope's folded log, cached until its files change.

        ``fingerprint``: the scope's ``fingerprint()`` taken by the caller moments ago (a query
        reads it once for its view and its index); never one kept from an earlier read."""
        digest = scope_digest(scope["type"], scope["key"])
        if fingerprint is None:
            fingerprint = self.fingerprint(scope)
        cached = self._states.get(digest)
        if cached and cached[0] == fingerprint:
            return cached[1]
        state = self.fold(scope)
        self._states[digest] = (fingerprint, state)
        return state

    def fold(self, scope: dict) -> ScopeState:
        """The scope's log read from disk, ignoring any cache."""
        state = ScopeState()
        for revision in self.scope_revisions(scope):
            state.absorb(revision)
        for row in self.audit_rows(scope):
            state.absorb_audit(row)
        return state

    def adopt_state(self, scope: dict, state: ScopeState) -> None:
        """Cache ``state`` as the fold of the scope's current files. Only a writer holding the
        lock may call it, right after writing exactly the revisions it absorbed."""
        self._states[scope_digest(scope["type"], scope["key"])] = (self.fingerprint(scope), state)

    def derived(self, scope: dict, name: str, build: Callable[[ScopeState], object],
                fingerprint: tuple | None = None) -> object:
        """``build(state)``, cached until the scope's state is re-read (its files changed).

        The value must not be changed by callers: other queries (and threads) share it.
        ``fingerprint`` as in ``state``."""
        state = self.state(scope, fingerprint)
        key = (scope_digest(scope["type"], scope["key"]), name)
        cached = self._derived.get(key)
        if cached is not None and cached[0] is state:
            return cached[1]
        value = build(state)
        self._derived[key] = (state, value)
        return value

    def get(self, record_id: str, scope: dict) -> dict:
        record = self.state(scope).current(record_id)
        if record is None:
            raise NotFoundError("no such record in this scope", code="record_not_found")
        return record

    def history(self, record_id: str, scope: dict) -> list[dict]:
        revisions = self.state(scope).revisions.get(record_id)
        if not revisions:
            raise NotFoundError("no such record in this scope", code="record_not_found")
        return list(revisions)

    def candidates(self, scope: dict) -> list[dict]:
        return [r for r in self.state(scope).currents() if r["status"] == "candidate"]

    def scope_digests(self) -> list[str]:
        if not self.layout.shards.is_dir():
            return []
        return sorted(p.name for p in self.layout.shards.iterdir() if p.is_dir())

    # -- writing --------------------------------------------------------------

    def mutate(self, raw: bytes | str | dict) -> dict:
        """Admit and apply one envelope durably; returns the DESIGN §5 result."""
        return next(iter(self.apply([raw], batch_size=1)))

    def apply(self, envelopes: Iterable, *, batch_size: int = DEFAULT_BATCH,
              progress: Callable[[int], None] | None = None) -> Iterator[dict]:
        """Apply envelopes in batches: one lock and one fsync per touched shard per batch.

        Results of a batch are yielded only after the batch is durable.
        """
        batch: list = []
        for raw in envelopes:
            batch.append(raw)
            if len(batch) >= batch_size:
                yield from self._apply_batch(batch)
                if progress:
                    progress(len(batch))
                batch = []
        if batch:
            yield from self._apply_batch(batch)
            if progress:
                progress(len(batch))

    def _apply_batch(self, batch: list) -> list[dict]:
        with self.writer():
            staged = _Staging(self)
            results = [self._apply_one(raw, staged) for raw in batch]
            staged.commit()
        return results

    def _apply_one(self, raw, staged: "_Staging") -> dict:
        from .envelope import admit  # here, not at the top: a read-only process never admits
        envelope = raw
        try:
            admitted = admit(raw, self.policies.mutation)
            envelope = admitted.envelope
            scope = envelope["target"]["scope"]
            state = staged.state(scope)
            known = state.transactions.get(envelope["transaction_id"])
            if known is not None:
                if known[0] != admitted.envelope_sha256:
                    raise RefusedError("this transaction_id was used with a different envelope",
                                       code="transaction_conflict")
                return result_for(envelope, "idempotent", known[1], known[2])
            plan = lifecycle.plan(admitted, state, self.policies.mutation.sha256, self.clock.now())
            if plan.erase_record_ids or plan.erase_scope:
                staged.commit()
                self._erase(scope, plan, admitted, state)
                if plan.revisions:  # the records a dispute left behind (lifecycle._erase_plan)
                    self.append_lines(scope, plan.revisions)
                    self.drop_derived(scope)
                    self.write_manifest(self.scope_dir(scope))
                staged.forget(scope)
                return result_for(envelope, "applied", plan.record_id, None)
            staged.add(scope, plan.revisions)
            return result_for(envelope, "applied", plan.record_id, plan.revision)
        except MemoryStoreError as exc:
            return result_for(envelope, "refused", error={"code": exc.code, "message": exc.message})

    def append_lines(self, scope: dict, revisions: list[dict]) -> int:
        """Append one transaction group per call site; never split a group across shards.

        Returns the bytes a crashed writer had left at the tail and that were cut first."""
        directory = self.scope_dir(scope)
        new_scope = not directory.exists()
        directory.mkdir(parents=True, exist_ok=True)
        if new_scope:
            atomic_write(directory / "scope.json", dumps({"scope_digest": directory.name}) + b"\n")
        payload = b"".join(canonical_bytes(r) + b"\n" for r in revisions)
        healed = heal_tail(directory)
        if healed:
            self.drop_derived(scope)  # an index cursor may point past the cut: it would read mid-line
        path = self._shard_for(directory, len(payload))
        with open(path, "ab") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        if new_scope:
            fsync_dir(directory.parent)
        return healed

    def _shard_for(self, directory: Path, incoming: int) -> Path:
        shards = sorted(p for p in directory.iterdir() if p.suffix == ".jsonl" and p.name[0].isdigit())
        if not shards:
            return directory / "000001.jsonl"
        last = shards[-1]
        size = last.stat().st_size
        if size and size + incoming > self.shard_max_bytes:
            return directory / f"{int(last.stem) + 1:06d}.jsonl"
        return last

    def write_manifest(self, scope_dir: Path, *, appended_only: bool = False) -> dict:
        """Hash every shard into ``manifest.json``. With ``appended_only`` (the caller only
        appended to the last shard, or started a new one) a sealed shard whose size matches
        the old manifest keeps its entry instead of being re-read: O(new bytes), not O(scope)."""
        paths = sorted(p for p in scope_dir.iterdir() if p.suffix == ".jsonl" and p.name[0].isdigit())
        old = _manifest_shards(scope_dir) if appended_only else {}
        shards = {}
        for path in paths:
            entry = old.get(path.name)
            if entry is None or path == paths[-1] or entry.get("bytes") != path.stat().st_size:
                data = path.read_bytes()
                entry = {"bytes": len(data), "lines": data.count(b"\n"),
                         "sha256": hashlib.sha256(data).hexdigest()}
            shards[path.name] = entry
        manifest = {"schema_version": MANIFEST_VERSION, "scope_digest": scope_dir.name, "shards": shards,
                    "policy_sha256": self.policies.hashes(), "updated_at": self.clock.now()}
        atomic_write(scope_dir / "manifest.json", dumps(manifest, pretty=True) + b"\n")
        return manifest

    # -- erasure --------------------------------------------------------------

    def _erase(self, scope: dict, plan: lifecycle.Plan, admitted, state: ScopeState) -> None:
        self.erase_content(scope, state, set(plan.erase_record_ids), {
            "event": "erase_scope" if plan.erase_scope else "erase_record",
            "actor": admitted.envelope["actor"], "reason": admitted.envelope.get("reason"),
            "transaction_id": admitted.envelope["transaction_id"],
            "transactions": {admitted.envelope["transaction_id"]: admitted.envelope_sha256}})

    def erase_content(self, scope: dict, state: ScopeState, doomed: set, why: dict) -> dict:
        """Remove every revision of ``doomed`` from the scope's files; the caller holds the writer lock.

        ``why`` (event, actor, reason, ...) goes into the content-free audit row, which is
        written (durably) before the shards are rewritten; returns that row.
        """
        directory = self.scope_dir(scope)
        row = {"schema_version": AUDIT_VERSION, "at": self.clock.now(), "transaction_id": None, **why,
               "record_ids": sorted(doomed),
               "content_sha256": {i: state.current(i)["hash"]["value"] for i in sorted(doomed)},
               "transactions": dict(why.get("transactions") or {}), "tombstones": []}
        for record_id in doomed:
            for revision in state.revisions[record_id]:
                transition = revision["transition"]
                row["transactions"].setdefault(transition["transaction_id"], transition.get("envelope_sha256", ""))
                if transition.get("tombstone"):
                    row["tombstones"].append(transition["tombstone"]["value_sha256"])
        directory.mkdir(parents=True, exist_ok=True)
        # a never-acknowledged tail goes first, so the rewrite below cannot bury it mid-log
        heal_tail(directory)
        # the audit row first: if we crash before the rewrite, the content is still there and
        # a retry (idempotent by transaction id) cannot complete it, so doctor flags it
        _append_durable(directory / "audit.jsonl", canonical_bytes(row) + b"\n")
        for path in self.shard_paths(scope):
            self._rewrite_without(path, doomed)
        self.drop_derived(scope)
        self.write_manifest(directory)
        return row

    def _rewrite_without(self, path: Path, doomed: set) -> None:
        shard = self.read_shard(path)
        kept = [line for line in shard.data.splitlines(keepends=True)
                if loads_trusted(line)["id"] not in doomed]
        data = b"".join(kept)
        if data != shard.data or shard.torn_bytes:
            atomic_write(path, data)

    def drop_derived(self, scope: dict) -> None:
        digest = scope_digest(scope["type"], scope["key"])
        for directory in (self.layout.index_dir(digest), self.layout.view_dir(digest)):
            shutil.rmtree(directory, ignore_errors=True)


class _Staging:
    """Revisions admitted in a batch but not yet written, and the states they change."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.states: dict[str, tuple[dict, ScopeState]] = {}
        self.groups: dict[str, list[list[dict]]] = {}

    def state(self, scope: dict) -> ScopeState:
        digest = scope_digest(scope["type"], scope["key"])
        if digest not in self.states:
            # the store's fold, checked against the files under the writer lock, copied so the
            # batch's revisions never show in a state that readers share before they are durable
            self.states[digest] = (scope, self.store.state(scope).copy())
        return self.states[digest][1]

    def add(self, scope: dict, revisions: list[dict]) -> None:
        state = self.state(scope)
        for revision in revisions:
            state.absorb(revision)
        self.groups.setdefault(scope_digest(scope["type"], scope["key"]), []).append(revisions)

    def forget(self, scope: dict) -> None:
        self.states.pop(scope_digest(scope["type"], scope["key"]), None)

    def commit(self) -> None:
        for digest, groups in self.groups.items():
            scope, state = self.states.pop(digest)
            healed = sum(self.store.append_lines(scope, group) for group in _pack(groups))
            self.store.write_manifest(self.store.scope_dir(scope), appended_only=not healed)
            if not healed:
                # the fold of the files as they now are, under the lock: the next read (or
                # batch) need not re-read the scope; handed over, so staging stops changing it
                self.store.adopt_state(scope, state)
        self.groups = {}


def _pack(groups: list[list[dict]]) -> list[list[dict]]:
    """Several transaction groups in one write (fewer syscalls), each kept whole."""
    return [[revision for group in groups for revision in group]]


def _manifest_shards(scope_dir: Path) -> dict:
    """The shard entries of the scope's manifest; {} when it is missing or unreadable."""
    try:
        shards = loads_trusted((scope_dir / "manifest.json").read_bytes()).get("shards")
    except (OSError, ValueError, AttributeError):
        return {}
    return shards if isinstance(shards, dict) and all(isinstance(e, dict) for e in shards.values()) else {}


def _tail(path: Path | str, size: int, length: int = 64) -> bytes:
    with open(path, "rb") as handle:
        handle.seek(max(0, size - length))
        return handle.read(length)


def _append_durable(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    heal_torn_tail(path)
    with open(path, "ab") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def shard_pin(path: Path, offset: int, inode: int) -> str:
    """A position in a shard that changes when the bytes before it do: the name, the inode (an
    erasure's rewrite is a new file) and a digest of the 64 bytes before the offset (a crash cut
    healed in place, then appended again, keeps the inode and may regrow past the old offset).
    Derived files record these so they can tell "behind" (read on) from "moved" (rebuild)."""
    with open(path, "rb") as handle:
        handle.seek(max(0, offset - 64))
        tail = handle.read(min(offset, 64))
    return f"{path.name}|{inode}|{hashlib.sha256(tail).hexdigest()[:16]}"


def shard_names(directory: Path | str) -> list[str]:
    """A scope folder's shard file names (``000001.jsonl``, ...), in log order; none when the
    folder does not exist."""
    try:
        with os.scandir(directory) as entries:
            return sorted(e.name for e in entries if e.name.endswith(".jsonl") and e.name[0].isdigit())
    except (FileNotFoundError, NotADirectoryError):
        return []


def shard_files(directory: Path) -> dict:
    """{name: (path, size, inode)} for a scope folder's shards."""
    return {name: (path, st.st_size, st.st_ino) for name in shard_names(directory)
            for path in [directory / name] for st in [path.stat()]}


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


def heal_torn_tail(path: Path) -> int:
    """Cut bytes after the last LF (never-acknowledged data); returns how many were cut."""
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


def read_audit_rows(scope_dir: Path) -> list[dict]:
    path = Path(scope_dir) / "audit.jsonl"
    if not path.exists():
        return []
    return [loads_trusted(line) for line in Store.read_shard(path).data.splitlines()]


def settled_transactions(audit_rows: list[dict]) -> frozenset:
    """Transactions an erasure touched: their groups were durable, then lost lines on purpose.

    An erase removes the revisions of the erased records, so an update's group can
    legitimately hold fewer lines than its ``group_size``; it must not look cut short.
    """
    return frozenset(tx for row in audit_rows for tx in row.get("transactions", {}))


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


def cut_incomplete_group(path: Path, settled: frozenset = frozenset()) -> int:
    """Truncate a trailing transaction group cut short by a crash; returns the bytes cut.

    Such a group was never acknowledged. Left in place, the next append would bury it
    mid-log, where readers no longer recognise it as a torn tail and would read it as data.
    """
    if not path.exists():
        return 0
    data = path.read_bytes()
    lines = data.splitlines(keepends=True)
    try:
        revisions = [loads_trusted(line) for line in lines]
    except ValueError:
        return 0  # a corrupt complete line is tampering: doctor reports it, nothing is cut
    kept = drop_incomplete_tail(revisions, settled)
    if len(kept) == len(revisions):
        return 0
    keep = sum(len(line) for line in lines[:len(kept)])
    with open(path, "r+b") as handle:
        handle.truncate(keep)
        handle.flush()
        os.fsync(handle.fileno())
    return len(data) - keep


def heal_tail(scope_dir: Path) -> int:
    """Under the writer lock: cut the last shard's torn line and any cut-short group (bytes cut)."""
    shards = sorted(p for p in Path(scope_dir).iterdir() if p.suffix == ".jsonl" and p.name[0].isdigit())
    if not shards:
        return 0
    return heal_torn_tail(shards[-1]) + cut_incomplete_group(shards[-1],
                                                            settled_transactions(read_audit_rows(scope_dir)))
