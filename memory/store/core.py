"""The store object: opens a store root, locks a scope, reads its folded state, applies writes.

Layout and durability rules: docs/ARCHITECTURE.md and WHERE_IS_THE_DATA.md. One writer
per scope at a time (``fcntl.flock`` on ``locks/<digest>/.lock``, under a shared lock on
``.lock`` that a whole-store operation takes exclusively); every acknowledged write was
appended, flushed and fsynced, and its scope manifest replaced atomically, before the
call returned. A torn last line, or a transaction whose revisions did not all reach the
disk, is never read as data.

Every write goes through ``Store.write(scope, work)``: under the scope's lock, ``work``
gets a ``ScopeWrite`` whose ``apply`` plans each admitted envelope once on a staged state
and whose revisions reach the log, then the store's own state, when ``work`` returns.
"""
from __future__ import annotations

import fcntl
import gc
import os
import shutil
import threading
from contextlib import contextmanager
from pathlib import Path
from collections.abc import Callable, Iterable, Iterator  # not typing's: importing typing cost a `memory query` process ~3-4 ms

from .. import lifecycle
from ..clock import SystemClock
from ..envelope_builder import user_scope  # noqa: F401  (re-exported: the one place a caller's scope is built)
from ..errors import MemoryStoreError, NotFoundError, RefusedError, StoreError, StoreIOError
from ..jsonio import atomic_write, dumps, fsync_dir, loads_strict, open_private, private_mkdir
from ..lifecycle import ScopeState, StagedState
from ..policy import Policies, load_policies, store_policies, write_store_copy
from . import budget, current, erasure, integrity, log, manifest
from .layout import ERASING_FILE, MANIFEST_FILE, SCOPE_FILE, StoreLayout, current_dir, digest_of, scope_lock_path, shard_files, shard_names

STORE_FORMAT = "memory.store.v1"
SHARD_MAX_BYTES = 2 * 1024 * 1024
DEFAULT_BATCH = 500
SAVE_KNOWN_AFTER = 1024 * 1024

TYPE_CHECKING = False   # typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import TypeVar
    T = TypeVar("T")


def result_for(envelope: object, status: str, record_id=None, revision=None, error=None) -> dict:
    envelope = envelope if isinstance(envelope, dict) else {}
    tx = envelope.get("transaction_id")
    op = envelope.get("operation")
    if error and error["code"] == "credential_detected" and isinstance(tx, str):
        from ..credentials import credential_kinds   # the write side's screen: a read never loads it
        if credential_kinds(tx):
            tx = None  # a refusal never echoes the secret it refused
    return {"status": status, "transaction_id": tx if isinstance(tx, str) else None,
            "operation": op if isinstance(op, str) else None,
            "record_id": record_id, "revision": revision, "error": error}


def refused(envelope: object, exc: MemoryStoreError) -> dict:
    return result_for(envelope, "refused", error={"code": exc.code, "message": exc.message})


def scope_of(scope_type: str, scope_key: str) -> dict:
    return {"type": scope_type, "key": scope_key}


Where = "dict | str"   # a scope, or the digest naming its folder


class Store:
    """A store root with its policies and clock. Cheap to open; caches each scope's folded state.

    Safe to share between threads: a scope is folded by one thread at a time, and writers
    of one scope take its file lock (which also excludes other threads of this process)."""

    def __init__(self, root: Path, *, clock=None, policies: Policies | None = None, config=None):
        self.layout = StoreLayout(Path(root))
        self.root = self.layout.root
        self.clock = clock or SystemClock()
        # the policies given, else config > $MEMORY_CONFIG > the store's own copy > the packaged defaults
        self._given_policies, self._config = policies, config
        self.policies = policies or store_policies(self.root, config)
        self.shard_max_bytes = SHARD_MAX_BYTES
        self._states: dict[str, tuple[tuple, ScopeState]] = {}
        self._guard = threading.Lock()
        self._fold_locks: dict[str, threading.Lock] = {}
        # scope digest -> the files' identity when they last checked out against the manifest,
        # and the sealed shards verified then (``integrity.check``)
        self._checked: dict[str, tuple] = {}
        self._known: dict[str, dict] = {}
        self._audit_keys: dict[str, tuple] = {}   # scope digest -> its audit rows' digest keys
        self._running: dict[str, manifest.RunningHash] = {}   # scope digest -> its last shard's hash
        # the read side's listener for this store's own appends (``hand_appends_to``), and per scope
        # digest what the append in progress wrote: (shard name, offset, lines), kept for ``_adopt``
        self._on_append: Callable[[str, log.Appended], None] | None = None
        self._appended: dict[str, tuple[str, int, bytes]] = {}

    # -- opening --------------------------------------------------------------

    @classmethod
    def create(cls, root: Path, *, clock=None, config=None, policies: Policies | None = None) -> "Store":
        store = cls(root, clock=clock, config=config, policies=policies)
        if store.layout.marker.exists():
            return store
        private_mkdir(store.layout.shards)
        os.chmod(store.root, 0o700)
        store.pin_policies()
        return store

    @classmethod
    def open(cls, root: Path, *, clock=None, config=None) -> "Store":
        marker = StoreLayout(Path(root)).marker
        if not marker.exists():
            # the option belongs to the group: it goes before the command
            raise StoreError(f"no store at {root} (run: memory --store {root} init)", code="store_not_found")
        return cls(root, clock=clock, config=config)

    def marker(self) -> dict:
        return loads_strict(self.layout.marker.read_bytes(), what="store.json")

    def pin_policies(self) -> None:
        """Adopt the policy files and pin them (``memory init``, ``memory init --accept-policies``).

        Adopted: the policies this Store was given, else those of ``config`` / ``$MEMORY_CONFIG``
        / the packaged defaults (never the store's own copy). They are copied, byte for byte,
        into ``<store>/policies/`` (the store answers by that copy from then on) and their
        hashes pinned in ``store.json`` (``doctor`` reports drift from these).
        """
        policies = self._given_policies or load_policies(self._config)
        write_store_copy(self.root, policies)
        atomic_write(self.layout.marker, dumps({
            "schema_version": STORE_FORMAT, "pinned_at": self.clock.now(),
            "policy_sha256": policies.hashes()}, pretty=True) + b"\n")
        self.policies = policies

    # -- where a scope's files are ------------------------------------------------

    def _digest(self, where) -> str:
        return where if isinstance(where, str) else digest_of(where)

    def scope_dir(self, where) -> Path:
        """The folder of a scope (given as a scope or as its digest)."""
        return self.layout.scope_dir(self._digest(where))

    def index_dir(self, where) -> Path:
        """The folder of a scope's retrieval index (derived; ``indexing`` owns its content)."""
        return self.layout.index_dir(self._digest(where))

    def view_dir(self, where) -> Path:
        """The folder of a scope's boot view (derived; ``bootview`` owns its content)."""
        return self.layout.view_dir(self._digest(where))

    def doctor_dir(self, where) -> Path:
        """The folder of a scope's last clean ``doctor`` run (derived; ``doctor`` owns its content)."""
        return self.layout.root / "doctor" / self._digest(where)

    def views_root(self) -> Path:
        return self.layout.root / "views"

    def has_scope(self, where) -> bool:
        return self.scope_dir(where).is_dir()

    def scope_digests(self) -> list[str]:
        if not self.layout.shards.is_dir():
            return []
        return sorted(p.name for p in self.layout.shards.iterdir() if p.is_dir())

    def scope_in_folder(self, digest: str) -> dict | None:
        """The scope a folder holds, read from its first record (None: no record left)."""
        first = log.first_revision(self.scope_dir(digest)) if self.has_scope(digest) else None
        return first["scope"] if first else None

    # -- locking --------------------------------------------------------------

    @contextmanager
    def writer(self, where=None):
        """The scope's write lock (or, with no scope, the whole store's).

        Writers of different scopes do not wait for each other; a whole-store writer waits
        for every scope writer. Not re-entrant: a thread holding it must not take it again."""
        private_mkdir(self.root)
        with open_private(self.layout.lock, os.O_RDWR | os.O_CREAT) as store_handle:
            fcntl.flock(store_handle.fileno(), fcntl.LOCK_EX if where is None else fcntl.LOCK_SH)
            try:
                if where is None:
                    yield
                    return
                path = scope_lock_path(self.layout, self._digest(where))
                private_mkdir(path.parent)
                with open_private(path, os.O_RDWR | os.O_CREAT) as handle:
                    fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
                    try:
                        yield
                    finally:
                        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
            finally:
                fcntl.flock(store_handle.fileno(), fcntl.LOCK_UN)

    @contextmanager
    def reading(self, where):
        """A shared hold on the scope that keeps writers out while a reader takes a consistent
        copy (``memory export``), creating nothing: on a read-only store, where no writer can run,
        a lock file that does not exist yet is simply not taken."""
        held = []
        try:
            for path in (self.layout.lock, scope_lock_path(self.layout, self._digest(where))):
                try:
                    handle = open(path, "rb")
                except (FileNotFoundError, PermissionError):
                    continue
                held.append(handle)
                fcntl.flock(handle.fileno(), fcntl.LOCK_SH)
            yield
        finally:
            for handle in reversed(held):
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
                handle.close()

    # -- reading --------------------------------------------------------------

    def shard_paths(self, where) -> list[Path]:
        directory = self.scope_dir(where)
        return [directory / name for name in shard_names(directory)]

    def shard_files(self, where) -> dict:
        """{name: (path, size, inode)} for the scope's shards."""
        return shard_files(self.scope_dir(where))

    def fingerprint(self, scope: dict) -> tuple:
        """What changes when another process writes (``files_fingerprint``), taken after checking
        the scope's files against its manifest (``check_scope``): every reader takes it before
        it reads, so no query answers from a scope whose files were altered outside the store."""
        taken = self.files_fingerprint(scope)
        self.check_scope(digest_of(scope), taken, save=True)
        return taken

    def scope_findings(self, digest: str, known: dict | None = None) -> list:
        """What ``integrity.check`` finds in the scope's folder now: ``doctor`` reports it. ``known``:
        the shards verified before, by stat and manifest hash (``integrity.check``; filled in place)."""
        directory = self.layout.scope_dir(digest)
        return integrity.check(directory, erasure.pending(directory), known)

    def file_findings(self) -> list[tuple[str, str, str]]:
        """Leftover temporaries, unaccounted files, loose modes under the store (``integrity``)."""
        return integrity.file_findings(self.root)

    def fix_file(self, code: str, where: str) -> None:
        integrity.fix_file(self.root, code, where)

    def check_scope(self, digest: str, taken: tuple | None = None, *, save: bool = False) -> None:
        """Raise ``scope_tampered`` (StoreError, exit 7, HTTP 503) when the scope's shards disagree
        with its manifest in a way no crash produces (``integrity``). Cached until the files move.

        A reader takes no lock: a writer may rewrite the manifest (or finish an erasure) between
        this check's reads, so a disagreement is believed only once the files stood still.
        ``save``: keep what was verified for the next process (``integrity.save_known``) when it
        took hashing at least ``SAVE_KNOWN_AFTER`` bytes (a small scope is cheap to hash again)."""
        directory = self.layout.scope_dir(digest)
        if taken is None:
            taken = self.files_fingerprint(directory)
        key = (taken, _identity(directory / MANIFEST_FILE), _identity(directory / ERASING_FILE))
        if self._checked.get(digest) == key:
            return
        for _ in range(3):
            known = self._known.get(digest)
            if known is None:
                known = self._known[digest] = integrity.load_known(current_dir(self.layout, digest))
            before = dict(known)
            findings = integrity.check(directory, erasure.pending(directory), known)
            if not findings:
                hashed = sum(entry[0] for name, entry in known.items() if before.get(name) != entry)
                if save and hashed >= SAVE_KNOWN_AFTER:
                    integrity.save_known(current_dir(self.layout, digest), known)
                self._checked[digest] = key
                return
            self._known.pop(digest, None)
            again = (self.files_fingerprint(directory), _identity(directory / MANIFEST_FILE),
                     _identity(directory / ERASING_FILE))
            if again == key:
                break
            key = again
        self._checked.pop(digest, None)
        raise tampered(digest, findings)

    def files_fingerprint(self, scope) -> tuple:
        """What changes when another process writes: sizes alone do not (a healed torn tail
        followed by an append of the same length, an erasure's rewrite), so the file identity,
        its mtime and its last bytes are part of it.

        Only the last shard and the audit log are read: a sealed shard is never appended to
        or healed in place (erasure rewrites it as a new file, a new inode), and a shard that
        stops being the last does so because a new one appeared, which changes the tuple."""
        # plain strings, not Path objects: every query takes this, and Paths cost more than the stats
        directory = str(scope if isinstance(scope, Path) else self.scope_dir(scope))
        names = shard_names(directory)
        tailed = {names[-1], "audit.jsonl"} if names else {"audit.jsonl"}
        out = []
        for name in names + ["audit.jsonl"]:
            path = os.path.join(directory, name)
            try:
                st = os.stat(path)
            except FileNotFoundError:
                continue
            tail = log.tail_bytes(path, st.st_size) if name in tailed else b""
            out.append((name, st.st_size, st.st_ino, st.st_mtime_ns, tail))
        return tuple(out)

    read_shard = staticmethod(log.read_shard)

    def shard_stats(self, where) -> dict[str, tuple[int, int, int]]:
        """{name: (size, inode, mtime_ns)} of the scope's shards: what changes when one is edited."""
        out = {}
        for path in self.shard_paths(where):
            st = path.stat()
            out[path.name] = (st.st_size, st.st_ino, st.st_mtime_ns)
        return out

    def audit_size(self, where) -> int:
        try:
            return (self.scope_dir(where) / "audit.jsonl").stat().st_size
        except FileNotFoundError:
            return 0

    def shard_data(self, where, name: str) -> bytes:
        """Every byte of one shard, torn tail included."""
        return (self.scope_dir(where) / name).read_bytes()

    def shard_bytes(self, where) -> list[tuple[str, bytes]]:
        """(name, every byte) of each shard, torn tail included: what ``doctor`` verifies."""
        return [(path.name, path.read_bytes()) for path in self.shard_paths(where)]

    def manifest_bytes(self, where) -> bytes | None:
        return manifest.manifest_bytes(self.scope_dir(where))

    def scope_revisions(self, where) -> list[dict]:
        """Every complete revision of a scope, in log order (incomplete tail groups dropped)."""
        return log.read_revisions(self.scope_dir(where))

    def audit_rows(self, where) -> list[dict]:
        return log.read_audit_rows(self.scope_dir(where))

    def read_tail(self, where, cursor: object) -> log.Tail:
        """The complete lines a derived file pinned at ``cursor`` has not read (``log.read_tail``)."""
        return log.read_tail(self.scope_dir(where), cursor)

    def appended_tail(self, where, cursor: object, appends, fingerprint: tuple) -> log.Tail | None:
        """``read_tail`` while the scope's files are those of ``fingerprint`` (the reader's own
        ``fingerprint()``), from the appends this store handed over (``hand_appends_to``), reading
        no file; None when they do not tell (``log.appended_tail``)."""
        return log.appended_tail(self.scope_dir(where), cursor, appends, fingerprint)

    def hand_appends_to(self, listener: "Callable[[str, log.Appended], None] | None") -> None:
        """From now on, each write of this store that only appended (no healed tail, no erasure)
        is handed to ``listener(scope digest, log.Appended)`` once durable, under the scope's
        lock: a long-lived reader extends its derived state from it (``appended_tail``) instead of
        listing and reading the shards again. The listener must be quick and must not write."""
        self._on_append = listener

    def cursor_status(self, where, cursor: object) -> str:
        """``caught_up`` | ``behind`` | ``moved`` for a derived file's cursor."""
        return log.cursor_status(self.scope_dir(where), cursor)

    def current_view(self, scope: dict, previous: "current.CurrentView | None" = None,
                     tail: log.Tail | None = None) -> "current.CurrentView":
        """The scope's current view (``current.CurrentView``) caught up with its files: ``previous``
        (a view this process holds) extended in place, or the saved one, or one read from the log.
        ``tail``: what ``previous`` lacks, already known (``appended_tail``, or a ``read_tail`` from
        its cursor another reader took moments ago), so its shards are not read again."""
        if previous is None:
            view, tail = current.CurrentView.load(current_dir(self.layout, digest_of(scope)), self.scope_dir(scope)), None
        else:
            view = previous
        return current.refreshed(view, tail)

    def erasure_mark(self, where) -> tuple | None:
        """The identity of the scope's audit file: an erasure appends its row there before it
        rewrites anything, so a reader that sees the same mark after answering as before it read
        answered from no record whose erasure was acknowledged meanwhile."""
        return _identity(self.scope_dir(where) / "audit.jsonl")

    def unchanged_since(self, where, files: dict) -> bool:
        """Whether no shard listed in ``files`` (``shard_files``) was rewritten since."""
        return log.same_files(self.scope_dir(where), files)

    def state(self, scope: dict, fingerprint: tuple | None = None) -> ScopeState:
        """The scope's folded log, cached until its files change.

        ``fingerprint``: the scope's ``fingerprint()`` taken by the caller moments ago (a query
        reads it once for its view and its index); never one kept from an earlier read."""
        digest = digest_of(scope)
        with self._guard:
            lock = self._fold_locks.setdefault(digest, threading.Lock())
        with lock:
            if fingerprint is None:
                fingerprint = self.fingerprint(scope)
            cached = self._states.get(digest)
            if cached and cached[0] == fingerprint:
                budget.held_state(self, digest, cached[1])   # the most recently used scope now
                return cached[1]
            state = self.fold(scope)
            self._states[digest] = (fingerprint, state)
            budget.held_state(self, digest, state)
            return state

    def fold(self, scope: dict) -> ScopeState:
        """The scope's log read from disk, ignoring any cache."""
        state, self._audit_keys[digest_of(scope)] = fold_log(self.scope_revisions(scope), self.audit_rows(scope))
        return state

    def erased_transaction(self, scope: dict, state: ScopeState, tx: str):
        """What an audit row keeps of transaction ``tx`` (named there by digest), or None."""
        return erased_transaction(state, self._audit_keys.get(digest_of(scope), ()), tx)

    def _adopt(self, scope: dict, state: ScopeState, before: tuple | None = None) -> tuple:
        """Cache ``state`` as the fold of the scope's current files: only under the scope's
        lock, right after writing exactly the revisions it absorbed. ``before``: the files as
        they were checked under this lock before the append (None: not known); with it, what
        was appended goes to the read side's listener (``hand_appends_to``). Returns the files'
        fingerprint now."""
        digest = digest_of(scope)
        taken = self.files_fingerprint(scope)
        directory = self.layout.scope_dir(digest)
        # the writer checked the files under this lock and wrote exactly these: they check out
        self._checked[digest] = (taken, _identity(directory / MANIFEST_FILE), _identity(directory / ERASING_FILE))
        self._states[digest] = (taken, state)
        budget.held_state(self, digest, state)
        appended = self._appended.pop(digest, None)
        listener = self._on_append
        if listener is not None and before is not None and appended is not None:
            listener(digest, log.Appended(before, taken, *appended))
        return taken

    def _forget(self, scope: dict) -> None:
        self._states.pop(digest_of(scope), None)

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

    # -- writing --------------------------------------------------------------

    def write(self, scope: dict, work: Callable[["ScopeWrite"], T]) -> T:
        """Run ``work`` under the scope's lock; what it applied is durable when this returns.

        The one write path (CONVENTIONS 18): ``work`` gets a ``ScopeWrite`` whose ``state``
        is the scope as the files now hold it plus what ``work`` applied so far, and whose
        ``apply(admitted)`` plans and stages one admitted envelope. If ``work`` raises,
        nothing it staged is written (an erasure it applied is already on disk)."""
        try:
            with self.writer(scope):
                handle = ScopeWrite(self, scope, self._settle(scope))
                try:
                    out = work(handle)
                except BaseException:
                    handle.discard()
                    raise
                handle.commit()
                return out
        except OSError as exc:
            raise StoreIOError.of(exc, self.root) from None

    def mutate(self, raw: bytes | str | dict) -> dict:
        """Admit and apply one envelope durably; returns the DESIGN §5 result."""
        return next(iter(self.apply([raw], batch_size=1)))

    def apply(self, envelopes: Iterable, *, batch_size: int = DEFAULT_BATCH,
              progress: Callable[[int], None] | None = None) -> Iterator[dict]:
        """Apply envelopes in batches: one lock and one fsync per touched scope per batch.

        Results of a batch are yielded (in input order) only after the batch is durable.

        From the second batch on, what the earlier batches left in memory (the scope's state
        grows with each one) is handed to the garbage collector as long-lived (``gc.freeze``,
        undone when the apply ends): each full collection walked all of it again, so the last
        20k of 100k envelopes into one scope went at half the rate of the first 20k. A process
        that froze objects itself is left as it is.
        """
        batch: list = []
        started = frozen = False
        may_freeze = gc.get_freeze_count() == 0
        try:
            for raw in envelopes:
                batch.append(raw)
                if len(batch) >= batch_size:
                    frozen = (started and may_freeze and _freeze()) or frozen
                    yield from self._apply_batch(batch)
                    if progress:
                        progress(len(batch))
                    started, batch = True, []
            if batch:
                frozen = (started and may_freeze and _freeze()) or frozen
                yield from self._apply_batch(batch)
                if progress:
                    progress(len(batch))
        finally:
            if frozen:
                gc.unfreeze()

    def _apply_batch(self, batch: list) -> list[dict]:
        from ..envelope import admit  # here, not at the top: a read-only process never admits
        results: list = [None] * len(batch)
        by_scope: dict[str, tuple[dict, list]] = {}
        for at, raw in enumerate(batch):
            try:
                admitted = admit(raw, self.policies.mutation)
            except MemoryStoreError as exc:
                results[at] = refused(raw, exc)
                continue
            scope = admitted.envelope["target"]["scope"]
            by_scope.setdefault(digest_of(scope), (scope, []))[1].append((at, admitted))
        # scopes are independent: each one's envelopes keep their order, under that scope's lock
        for scope, items in by_scope.values():
            for at, result in self.write(scope, lambda w, items=items: [(at, w.apply(a)) for at, a in items]):
                results[at] = result
        return results

    def _settle(self, scope: dict) -> tuple | None:
        """Under the scope's lock, before a write: remove what a crashed writer left (temporaries,
        which may hold erased content), refuse a scope whose files were altered outside the store
        (the evidence stays: nothing below rewrites its manifest), and complete an erasure that
        crashed part way. Returns the fingerprint it checked (None: the files changed since).

        When the files are exactly as this process last checked or wrote them, no other writer
        ran (nor crashed: a crash mid-erasure leaves the audit file changed): only the derived
        folders, which readers write without the lock, are looked at."""
        digest = self._digest(scope)
        directory = self.layout.scope_dir(digest)
        for derived in self._derived_dirs(digest):
            log.remove_temporaries(derived, live_ok=True)
        taken = self.files_fingerprint(directory)
        if self._checked.get(digest) == (taken, _identity(directory / MANIFEST_FILE),
                                         _identity(directory / ERASING_FILE)):
            return taken
        try:
            names = os.listdir(directory)
        except FileNotFoundError:
            return None
        stray = log.remove_temporaries(directory, names)
        if stray:
            taken = self.files_fingerprint(directory)
        self.check_scope(digest, taken)
        if stray or ERASING_FILE in names:
            self._complete_erasure(scope)
            return None
        return taken

    def _complete_erasure(self, where) -> None:
        """Remove every record an audit row names from the shards again, then the manifest and
        the marker (the caller holds the scope's lock)."""
        directory = self.scope_dir(where)
        log.heal_tail(directory)
        erasure.remove(directory, {i for row in log.read_audit_rows(directory) for i in row.get("record_ids", [])})
        self.write_manifest(directory)
        erasure.finish(directory)
        self.drop_derived(where)
        self._states.pop(self._digest(where), None)

    def append_lines(self, where, revisions: list[dict]) -> int:
        """Append one transaction group (the caller holds the scope's lock); never split a group.

        Returns the bytes a crashed writer had left at the tail and that were cut first."""
        directory = self.scope_dir(where)
        new_scope = not directory.exists()
        private_mkdir(directory)
        if new_scope or not (directory / MANIFEST_FILE).exists() and not shard_names(directory):
            atomic_write(directory / SCOPE_FILE, dumps({"scope_digest": directory.name}) + b"\n")
            # the manifest exists before the first shard: a scope with shards and no manifest
            # was altered, never left so by a crash
            self.write_manifest(directory)
        self._appended.pop(directory.name, None)
        healed = log.heal_tail(directory)
        if healed:
            self.drop_derived(where)  # an index cursor may point past the cut: it would read mid-line
        shard, offset, payload = log.append_group(directory, revisions, self.shard_max_bytes)
        if self._on_append is not None:
            self._appended[directory.name] = (shard.name, offset, payload)
        if new_scope:
            fsync_dir(directory.parent)
        return healed

    def append_all_or_nothing(self, where, revisions: list[dict]) -> int:
        """``append_lines`` and the manifest; on any failure nothing of it stays readable (what
        reached a shard is cut back before the error goes on). Returns the bytes healed first."""
        directory = self.scope_dir(where)
        before = {name: (path, size) for name, (path, size, _) in shard_files(directory).items()}
        # the last shard's hash as this store left it, if nobody touched the file since
        running = self._running.pop(directory.name, None)
        if running is not None and not running.holds(directory):
            running = None
        try:
            healed = self.append_lines(where, revisions)
            manifest.write_manifest(directory, policy_sha256=self.policies.hashes(), now=self.clock.now(),
                                    appended_only=not healed, running=None if healed else running,
                                    keep_running=lambda after: self._running.__setitem__(directory.name, after))
            return healed
        except BaseException:
            self._appended.pop(directory.name, None)
            # reported as failed, so nothing of it may be read: cut what reached a shard (the
            # manifest was not rewritten, or was rewritten before the cut: either way it agrees)
            for name, (path, _, _) in shard_files(directory).items():
                if name not in before:
                    log.undo_append(path, None)
                elif before[name][1] != path.stat().st_size:
                    log.undo_append(path, before[name][1])
            try:
                self.write_manifest(where)   # as the files now are (it may have listed the cut)
            except OSError:
                pass   # the old manifest stands, and it agrees with the files cut back
            raise

    def write_manifest(self, where, *, appended_only: bool = False) -> dict:
        """Rewrite the scope's ``manifest.json`` from its shards (``manifest.write_manifest``)."""
        return manifest.write_manifest(self.scope_dir(where) if not isinstance(where, Path) else where,
                                       policy_sha256=self.policies.hashes(), now=self.clock.now(),
                                       appended_only=appended_only)

    def replace_audit(self, where, rows: list[dict]) -> None:
        """A restore into an empty scope writes its audit log whole (caller holds the lock)."""
        directory = self.scope_dir(where)
        private_mkdir(directory)
        if not (directory / SCOPE_FILE).exists():
            atomic_write(directory / SCOPE_FILE, dumps({"scope_digest": directory.name}) + b"\n")
        log.replace_audit(directory, rows)
        fsync_dir(directory.parent)

    def repair_scope(self, digest: str, *, accept_tampered: bool = False) -> bool:
        """``doctor --repair`` on one scope folder: remove crashed writers' temporaries, cut
        unacknowledged tails, finish an erasure that crashed part way, rewrite the manifest, drop
        derived. A scope altered outside the store keeps its manifest (the evidence) unless the
        operator accepts its files as they are (``accept_tampered``). Returns whether repaired."""
        directory = self.scope_dir(digest)
        if directory.is_dir():
            with self.writer(digest):
                log.remove_temporaries(directory)
                if not accept_tampered:
                    self._checked.pop(digest, None)
                    try:
                        self.check_scope(digest)
                    except StoreError:
                        return False
                log.heal_all(directory)
                erased = {i for row in log.read_audit_rows(directory) for i in row.get("record_ids", [])}
                erasure.remove(directory, erased)
                self.write_manifest(digest)
                erasure.finish(directory)
                self._checked.pop(digest, None)
                self._states.pop(digest, None)
        shutil.rmtree(self.index_dir(digest), ignore_errors=True)
        shutil.rmtree(current_dir(self.layout, digest), ignore_errors=True)
        return True

    # -- erasure --------------------------------------------------------------

    def erase_content(self, scope: dict, state: ScopeState, doomed: set, why: dict) -> dict:
        """Remove every revision of ``doomed`` from the scope's files; the caller holds the scope's lock.

        ``why`` (event, actor, reason, ...) goes into the content-free audit row, which is
        written (durably) before the shards are rewritten; returns that row.
        """
        directory = self.scope_dir(scope)
        row = erasure.erase(directory, state, doomed, why, self.clock.now())
        self.drop_derived(scope)
        self.write_manifest(scope)
        erasure.finish(directory)
        self._forget(scope)
        return row

    def _derived_dirs(self, where) -> tuple[str, ...]:
        digest = self._digest(where)
        root = str(self.root)
        return tuple(os.path.join(root, top, digest) for top in ("index", "views", "doctor", "current"))

    def drop_derived(self, where) -> None:
        for directory in self._derived_dirs(where):
            shutil.rmtree(directory, ignore_errors=True)


def _freeze() -> bool:
    """``gc.freeze()`` unless the collector is off; whether it froze."""
    if not gc.isenabled():
        return False
    gc.freeze()
    return True


def _identity(path: Path) -> tuple | None:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return (st.st_size, st.st_ino, st.st_mtime_ns)


def tampered(digest: str, findings: list) -> StoreError:
    first = findings[0]
    where = f" in {first.shard}" if first.shard else ""
    return StoreError(
        f"scope {digest} was changed outside the store ({first.code}{where}"
        f"{f', and {len(findings) - 1} more' if len(findings) > 1 else ''}); it refuses reads and writes "
        "until an operator reviews `memory doctor` and accepts its files: memory doctor --repair --accept-tampered",
        code="scope_tampered",
        details=[{"code": f.code, "shard": f.shard, "message": f.message} for f in findings])


def fold_log(revisions: Iterable[dict], audit_rows: Iterable[dict]) -> tuple[ScopeState, tuple]:
    """A scope's revisions and audit rows folded, with the audit rows' digest keys (every backend)."""
    state, keys = ScopeState(), []
    for revision in revisions:
        state.absorb(revision)
    for row in audit_rows:
        state.absorb_audit(row)
        key = (row.get("tx_digest") or {}).get("key")
        if key:
            keys.append(key)
    return state, tuple(keys)


def erased_transaction(state: ScopeState, keys: tuple, tx: str):
    """What an audit row keeps of transaction ``tx``, which it names by a keyed digest, or None."""
    for key in keys:
        known = state.transactions.get(log.tx_digest(key, tx))
        if known is not None:
            return known
    return None


class ScopeWrite:
    """One scope under its writer lock: what a ``Store.write`` work function is handed."""

    def __init__(self, store: Store, scope: dict, fingerprint: tuple | None = None) -> None:
        self.store, self.scope = store, scope
        self._base = store.state(scope, fingerprint)       # checked against the files, under the lock
        self.state: StagedState = self._base.staged()
        self._groups: list[list[dict]] = []
        # the files as the next commit finds them, when known (``Store._adopt``'s ``before``)
        self._before = fingerprint

    def apply(self, admitted) -> dict:
        """Plan one admitted envelope on the staged state and stage its revisions; the result."""
        envelope = admitted.envelope
        try:
            known = self.state.transactions.get(envelope["transaction_id"])
            if known is None:
                known = self.store.erased_transaction(self.scope, self.state, envelope["transaction_id"])
            if known is not None:
                if known[0] != admitted.envelope_sha256:
                    raise RefusedError("this transaction_id was used with a different envelope",
                                       code="transaction_conflict")
                return result_for(envelope, "idempotent", known[1], known[2])
            plan = lifecycle.plan(admitted, self.state, self.store.policies.mutation.sha256, self.store.clock.now())
            if plan.erase_record_ids or plan.erase_scope:
                self._erase(plan, admitted)
                return result_for(envelope, "applied", plan.record_id, None)
            for revision in plan.revisions:
                self.state.absorb(revision)
            self._groups.append(plan.revisions)
            return result_for(envelope, "applied", plan.record_id, plan.revision)
        except MemoryStoreError as exc:
            return refused(envelope, exc)

    def _erase(self, plan: lifecycle.Plan, admitted) -> None:
        """Write what is staged, remove the content, then append what the plan settles
        (``plan.revisions``: e.g. a dispute whose other side was erased), all durably."""
        self.commit()
        self._before = None         # the files are rewritten: what a reader holds is read again
        self.store.erase_content(self.scope, self._base, set(plan.erase_record_ids), {
            "event": "erase_scope" if plan.erase_scope else "erase_record",
            "actor": admitted.envelope["actor"], "reason": admitted.envelope.get("reason"),
            "transaction_id": admitted.envelope["transaction_id"],
            "transactions": {admitted.envelope["transaction_id"]: admitted.envelope_sha256}})
        self._base = self.store.state(self.scope)
        self.state = self._base.staged()
        if plan.revisions:
            for revision in plan.revisions:
                self.state.absorb(revision)
            self._groups.append(plan.revisions)
            self.commit()

    def discard(self) -> None:
        self._groups = []
        self.state = self._base.staged()

    def commit(self) -> None:
        """Append the staged groups in one write, rewrite the manifest, then let the store's
        own state take the revisions (the next read or write need not re-read the log)."""
        if not self._groups:
            return
        groups, self._groups = self._groups, []
        try:
            healed = self.store.append_all_or_nothing(self.scope, [r for group in groups for r in group])
        except BaseException:
            self.store._forget(self.scope)   # what the store holds may have changed: read it again
            self._before = None
            raise
        if healed:
            self.store._forget(self.scope)
            self._base = self.store.state(self.scope)
            self._before = None
        else:
            for revision in self.state.absorbed:
                self._base.absorb(revision)
            # (``before`` only when known: a backend without files adopts by what its writer appended)
            self._before = self.store._adopt(self.scope, self._base) if self._before is None \
                else self.store._adopt(self.scope, self._base, before=self._before)
        self.state = self._base.staged()
