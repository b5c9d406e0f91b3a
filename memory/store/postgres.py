"""The PostgreSQL store: the same ledger as ``core.Store``, kept in the tables of
``memory/postgres_ledger.py`` (docs/POSTGRES.md), for servers that share one database.

It runs the JSONL store's write path unchanged: ``write(scope, work)`` hands ``work`` the
same ``core.ScopeWrite`` (admission, ``lifecycle.plan`` on a staged state, the same
canonical revision bytes and hashes); only where the bytes go differs. A write is one
database transaction holding the scope's ``pg_advisory_xact_lock``; its results are
returned only after COMMIT. An erasure deletes the rows and writes the content-free audit
row in that transaction, then ``VACUUM (FULL)`` rewrites the partitions after COMMIT.

Reads follow a scope by its sequence number: each process keeps the scope's folded state,
current view and index in memory with the (seq, audit rows) position they were read at,
and reads only the revisions appended since; an erasure (the audit rows changed) makes
them read the scope again. Nothing derived is written anywhere: a new process reads each
scope it is asked about once.

Only ``memory/postgres_ledger.py`` imports the driver.
"""
from __future__ import annotations

import hashlib
import threading
from contextlib import contextmanager
from pathlib import Path
from collections.abc import Callable, Iterable, Iterator  # not typing's: importing typing cost a `memory query` process ~3-4 ms
from urllib.parse import urlsplit, urlunsplit

from ..errors import PolicyError, StoreError
from ..jsonio import canonical_bytes, loads_trusted
from ..lifecycle import ScopeState
from ..paths import DEFAULT_CONFIG_DIR, config_chosen
from ..policy import Policies, load_policies
from . import budget, erasure
from .core import DEFAULT_BATCH, ScopeWrite, Store, erased_transaction, fold_log
from .current import CurrentView
from .layout import digest_of
from .log import Tail

TYPE_CHECKING = False   # typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import TypeVar
    T = TypeVar("T")
URL_SCHEMES = ("postgresql://", "postgres://")
SHARD = "pg"   # the view's "shard" column: every line is a row of one table


def driver_failure(exc: BaseException):
    """A driver exception as the store's ``StoreError`` (None: not the driver's)."""
    from ..postgres_ledger import driver_failure as translate  # the one module that knows the driver
    return translate(exc)


def is_url(location: object) -> bool:
    """Whether a ``--store`` value names a PostgreSQL database rather than a folder."""
    return isinstance(location, str) and location.startswith(URL_SCHEMES)


def redacted(url: str) -> str:
    """The URL without its password (what a message or ``memory init`` may print)."""
    parts = urlsplit(url)
    userinfo, at, host = parts.netloc.rpartition("@")
    if not at or ":" not in userinfo:
        return url
    return urlunsplit(parts._replace(netloc=f"{userinfo.split(':', 1)[0]}:***@{host}"))


class _PinnedFile:
    """One policy file as the database holds it, read like a file of a folder."""

    def __init__(self, name: str, data: bytes | None) -> None:
        self.name, self._data = name, data

    def read_bytes(self) -> bytes:
        if self._data is None:
            raise FileNotFoundError(self.name)
        return self._data

    def __str__(self) -> str:
        return f"policies/{self.name} (in the database)"


class _PinnedFolder:
    """The store's ``policies`` table as ``load_policies`` reads a folder: the same parsing,
    schema checks and hashes as a JSONL store's ``policies/`` copy."""

    def __init__(self, files: dict[str, tuple[str, bytes]]) -> None:
        self.files = files

    def joinpath(self, name: str) -> _PinnedFile:
        return _PinnedFile(name, self.files[name][1] if name in self.files else None)


class PostgresView(CurrentView):
    """The current view of one scope, its lines held in memory (no shard files to seek in)."""

    def __init__(self) -> None:
        super().__init__(Path("."), Path("."))
        self.lines: dict[str, bytes] = {}
        self.seq = 0
        self.audit = 0

    def line(self, record_id: str) -> bytes:
        return self.lines[record_id]

    def save(self) -> None:  # derived data stays in the process: nothing is written
        pass


class _Writing:
    """The writer transaction this thread holds on one scope."""

    def __init__(self, scope_digest: str, ledger, tx) -> None:
        self.digest, self.ledger, self.tx = scope_digest, ledger, tx
        self.seq, self.audit = 0, 0
        self.registered: set[str] = set()
        self.vacuum = False


class _OneCall:
    """Runs one ``PostgresLedger`` method on a connection borrowed for just that call."""

    def __init__(self, store: "PostgresStore") -> None:
        self.store = store

    def __getattr__(self, name: str):
        def call(*args, **kwargs):
            with self.store._ledger() as ledger:
                return getattr(ledger, name)(*args, **kwargs)
        return call


class PostgresStore:
    """A ``StoreBackend`` on PostgreSQL (see the module doc). Safe to share between threads:
    each thread talks to the database over a connection of its own."""

    derived_files = False   # indexing keeps this backend's index in memory, never on disk

    def __init__(self, url: str, *, clock=None, policies: Policies | None = None, config=None) -> None:
        from ..clock import SystemClock
        from ..postgres_ledger import PostgresLedger
        self.url = url
        self.root = redacted(url)
        self.clock = clock or SystemClock()
        # the policies given, else config > $MEMORY_CONFIG > the store's pinned copy > the packaged
        # defaults, as for a JSONL store (``policy.policy_source``); the copy is read on first use
        self._given_policies, self._config = policies, Path(config) if config is not None else None
        self._policies = policies
        self._connect = PostgresLedger
        self._idle: list = []          # connections no thread is using (a served store reuses them)
        self._local = threading.local()
        self._guard = threading.Lock()
        self._fold_locks: dict[str, threading.Lock] = {}
        # digest -> ((seq, audit rows) it was read up to, the folded state)
        self._states: dict[str, tuple[tuple[int, int], ScopeState]] = {}
        self._audit_keys: dict[str, tuple] = {}   # scope digest -> its audit rows' digest keys

    # -- opening ------------------------------------------------------------------------

    @classmethod
    def create(cls, url: str, *, clock=None, config=None, policies: Policies | None = None) -> "PostgresStore":
        """``memory init`` on a URL: create or upgrade the schema (refusing a newer one)."""
        store = cls(url, clock=clock, config=config, policies=policies)
        with store._ledger() as ledger:
            ledger.migrate(now=store.clock.now())
        store.pin_policies(only_if_none=True)
        return store

    @classmethod
    def open(cls, url: str, *, clock=None, config=None) -> "PostgresStore":
        store = cls(url, clock=clock, config=config)
        with store._ledger() as ledger:
            ledger.check_schema()
        return store

    @contextmanager
    def _ledger(self):
        """A connection for one operation: the writer's own inside ``writer`` (so its reads see
        the scope as the lock holder does), else one from the pool (made when none is idle)."""
        writing = getattr(self._local, "writing", None)
        if writing is not None:
            yield writing.ledger
            return
        with self._guard:
            ledger = self._idle.pop() if self._idle else None
        if ledger is None:
            ledger = self._connect(self.url)
        try:
            yield ledger
        except Exception as exc:
            failure = driver_failure(exc)
            if failure is not None:
                raise failure from None
            raise
        finally:
            if ledger.reusable():
                with self._guard:
                    self._idle.append(ledger)
            else:
                ledger.close()     # broken, or left inside a transaction: never handed out again

    def _call(self):
        """``self._call().method(...)``: one ledger call on a pooled connection."""
        return _OneCall(self)

    def close(self) -> None:
        with self._guard:
            idle, self._idle = self._idle, []
        for ledger in idle:
            ledger.close()

    # -- policies: pinned in the database, as a JSONL store pins them in policies/ --------------

    @property
    def policies(self) -> Policies:
        if self._policies is None:
            self._policies = self._load_policies()
        return self._policies

    @policies.setter
    def policies(self, value: Policies) -> None:
        self._policies = value

    def _load_policies(self) -> Policies:
        if self._config is not None:
            return load_policies(self._config)
        if config_chosen():
            return load_policies(None)
        pinned = self._call().pinned_policies()
        return load_policies(_PinnedFolder(pinned) if pinned else DEFAULT_CONFIG_DIR)

    def marker(self) -> dict:
        pinned = self._call().pinned_policies()
        return {"schema_version": "memory.store.postgres.v1",
                "policy_sha256": {name: digest for name, (digest, _) in pinned.items()}}

    def pin_policies(self, *, only_if_none: bool = False) -> None:
        """Adopt the policy files and pin them in the database (``memory init``, ``--accept-policies``).

        Adopted: the policies this store was given, else ``config`` / ``$MEMORY_CONFIG`` / the
        packaged defaults (never the pinned copy), byte for byte as they were hashed; every
        process opening the store answers by them from then on. ``only_if_none``: a first
        ``memory init`` (a store that already pinned its policies keeps them)."""
        policies = self._given_policies or load_policies(self._config)
        files = {}
        for policy in (policies.mutation, policies.forgetting, policies.retrieval):
            loaded = policy.loaded
            raw = loaded.raw or loaded.path.read_bytes()
            if hashlib.sha256(raw).hexdigest() != loaded.sha256:
                raise PolicyError(f"policy {loaded.path.name} changed on disk since it was loaded; "
                                  "run the command again", code="policy_invalid")
            files[loaded.path.name] = (loaded.sha256, raw)
        with self._ledger() as ledger:
            written = ledger.pin_policies(files, now=self.clock.now(), only_if_none=only_if_none)
        if written:
            self._policies = self._given_policies or self._load_policies()

    # -- where a scope is ----------------------------------------------------------------

    @staticmethod
    def _digest(where) -> str:
        return where if isinstance(where, str) else digest_of(where)

    def index_dir(self, where) -> Path:
        # never written (``derived_files``): the in-memory index only carries the name
        return Path("postgres-index") / self._digest(where)

    def has_scope(self, where) -> bool:
        return self._call().position(self._digest(where)) != (0, 0)

    def scope_digests(self) -> list[str]:
        return self._call().scope_digests()

    def scope_in_folder(self, digest: str) -> dict | None:
        rows = self._call().read(digest)
        return loads_trusted(rows[0][1])["scope"] if rows else None

    # -- locking -------------------------------------------------------------------------

    @contextmanager
    def writer(self, where=None):
        """The scope's transaction holding its advisory lock (COMMIT on a clean exit).

        Reads this thread makes inside it see the scope as the lock holder does. Not
        re-entrant. A whole-store lock (no scope) is not provided on this backend."""
        if where is None:
            raise StoreError("a whole-store lock is not available on a PostgreSQL store",
                             code="usage_error")
        if getattr(self._local, "writing", None) is not None:
            raise StoreError("this thread already holds a scope's write lock", code="usage_error")
        digest = self._digest(where)
        with self._ledger() as ledger:
            with ledger.writing(digest) as tx:
                self._local.writing = _Writing(digest, ledger, tx)
                try:
                    yield
                finally:
                    writing, self._local.writing = self._local.writing, None
            if writing.vacuum:
                # after COMMIT (VACUUM cannot run in a transaction): the deleted rows' bytes leave the heap
                ledger.vacuum_scope(digest)

    @contextmanager
    def reading(self, where):
        """A consistent copy for ``memory export``: the scope's advisory lock keeps writers out
        while its revisions and audit rows are read (the transaction writes nothing)."""
        with self.writer(where):
            yield

    def _writing(self, where) -> _Writing:
        writing = getattr(self._local, "writing", None)
        if writing is None or writing.digest != self._digest(where):
            raise StoreError("a write needs the scope's lock (Store.write)", code="usage_error")
        return writing

    # -- reading -------------------------------------------------------------------------

    def fingerprint(self, scope: dict) -> tuple:
        """(last seq, audit rows): changes with every append and every erasure."""
        return tuple(self._call().position(digest_of(scope)))

    def state(self, scope: dict, fingerprint: tuple | None = None) -> ScopeState:
        """The scope's folded log, extended by what was appended since this process last read
        it; read again whole when an erasure changed the audit rows."""
        digest = digest_of(scope)
        with self._guard:
            lock = self._fold_locks.setdefault(digest, threading.Lock())
        with lock:
            cached = self._states.get(digest)
            if cached is not None and fingerprint is not None and cached[0] == tuple(fingerprint):
                budget.held_state(self, digest, cached[1])   # the most recently used scope now
                return cached[1]
            after, seen = cached[0] if cached is not None else (0, -1)
            snapshot = self._call().snapshot(digest, after=after, audit_seen=seen)
            if cached is not None and not snapshot.rebuilt:
                state = cached[1]
                for _, line in snapshot.rows:
                    state.absorb(loads_trusted(line))
                for line in snapshot.audit:   # (an audit row that changed forces a rebuild)
                    state.absorb_audit(loads_trusted(line))
            else:
                state, self._audit_keys[digest] = fold_log((loads_trusted(line) for _, line in snapshot.rows),
                                                           (loads_trusted(line) for line in snapshot.audit))
            # never behind what the state holds: a writer thread of this process adopts its
            # revisions before its COMMIT, and a reader that re-read them would absorb them twice
            seq = snapshot.last_seq if snapshot.rebuilt else max(after, snapshot.last_seq)
            self._states[digest] = ((seq, snapshot.audit_rows), state)
            budget.held_state(self, digest, state)
            writing = getattr(self._local, "writing", None)
            if writing is not None and writing.digest == digest:
                writing.seq, writing.audit = snapshot.last_seq, snapshot.audit_rows
            return state

    def fold(self, scope: dict) -> ScopeState:
        """The scope's log read from the database, ignoring any cache."""
        state, self._audit_keys[digest_of(scope)] = fold_log(self.scope_revisions(scope), self.audit_rows(scope))
        return state

    def erasure_mark(self, where) -> int:
        """How many erasures the scope has had (its audit rows): an erasure acknowledged while a
        query read changes it, and the query reads again (``query._evaluated``)."""
        return self._call().position(self._digest(where))[1]

    def erased_transaction(self, scope: dict, state: ScopeState, tx: str):
        """What an audit row keeps of transaction ``tx`` (named there by digest), or None."""
        return erased_transaction(state, self._audit_keys.get(digest_of(scope), ()), tx)

    def _adopt(self, scope: dict, state: ScopeState, before: tuple | None = None) -> None:
        """Cache ``state`` as the fold of the scope up to what this thread's writer appended
        (``before`` is the file store's: a reader here reads the rows appended since it read)."""
        writing = self._writing(scope)
        self._states[digest_of(scope)] = ((writing.seq, writing.audit), state)
        budget.held_state(self, digest_of(scope), state)

    def _forget(self, where) -> None:
        self._states.pop(self._digest(where), None)

    # reads of the folded state: the same on every backend
    get, history, candidates = Store.get, Store.history, Store.candidates

    def scope_revisions(self, where) -> list[dict]:
        return [loads_trusted(line) for _, line in self._call().read(self._digest(where))]

    def audit_rows(self, where) -> list[dict]:
        return [loads_trusted(line) for line in self._call().audit(self._digest(where))]

    # -- an operator's reads (memory doctor, memory stats: memory/postgres_admin.py) -------------

    @contextmanager
    def examining(self, digest: str):
        """One scope streamed for ``memory doctor`` in one consistent read (``PostgresLedger.examining``)."""
        with self._ledger() as ledger:
            with ledger.examining(digest) as examined:
                yield examined

    def scope_counts(self, digest: str) -> dict:
        """One scope's ``memory stats`` counts, computed by the server (``PostgresLedger.scope_counts``)."""
        return self._call().scope_counts(digest)

    # -- pins: a cursor is {"seq": n, "audit": k} -----------------------------------------

    @staticmethod
    def _cursor(cursor: object) -> tuple[int, int] | None:
        if cursor == {}:
            return (0, -1)   # nothing read yet: everything is new, nothing moved
        if isinstance(cursor, dict) and isinstance(cursor.get("seq"), int) and isinstance(cursor.get("audit"), int):
            return cursor["seq"], cursor["audit"]
        return None

    def cursor_status(self, where, cursor: object) -> str:
        pinned = self._cursor(cursor)
        last_seq, audit_rows = self._call().position(self._digest(where))
        if pinned is None or (pinned[1] != -1 and pinned[1] != audit_rows) or pinned[0] > last_seq:
            return "moved"
        return "caught_up" if pinned[0] == last_seq and pinned[1] == audit_rows else "behind"

    def read_tail(self, where, cursor: object) -> Tail:
        pinned = self._cursor(cursor)
        moved = pinned is None
        after, seen = pinned if pinned is not None else (0, -1)
        snapshot = self._call().snapshot(self._digest(where), after=after, audit_seen=seen)
        if snapshot.rebuilt and seen != -1:
            moved = True
        if after > snapshot.last_seq:
            moved = True
            snapshot = self._call().snapshot(self._digest(where), after=0, audit_seen=-1)
        return Tail(moved, [line for _, line in snapshot.rows],
                    {"seq": snapshot.last_seq, "audit": snapshot.audit_rows},
                    [(SHARD, seq) for seq, _ in snapshot.rows], [])

    def current_view(self, scope: dict, previous: CurrentView | None = None) -> CurrentView:
        """The scope's current view, extended in place by the rows appended since ``previous``
        was read (a new one when there is none or an erasure changed the audit rows)."""
        view = previous if isinstance(previous, PostgresView) else None
        snapshot = self._call().snapshot(digest_of(scope), after=view.seq if view else 0,
                                           audit_seen=view.audit if view else -1)
        if view is None or snapshot.rebuilt:
            view = PostgresView()
        for seq, line in snapshot.rows:
            revision = loads_trusted(line)
            view.absorb(revision, SHARD, seq, len(line))
            view.lines[revision["id"]] = line
        view.seq, view.audit = snapshot.last_seq, snapshot.audit_rows
        return view

    def shard_files(self, where) -> dict:
        return {}

    def unchanged_since(self, where, files: dict) -> bool:
        return True

    # -- writing: the JSONL store's write path, the rows in PostgreSQL ------------------------

    def write(self, scope: dict, work: Callable[[ScopeWrite], T]) -> T:
        """Run ``work`` in one transaction holding the scope's advisory lock; returns after
        COMMIT. If ``work`` raises, nothing it did is kept (an erasure included)."""
        try:
            with self.writer(scope):
                handle = ScopeWrite(self, scope)
                try:
                    out = work(handle)
                except BaseException:
                    handle.discard()
                    raise
                handle.commit()
        except BaseException:
            self._forget(scope)   # the cache may hold what the rolled-back transaction staged
            raise
        return out

    def mutate(self, raw) -> dict:
        return next(iter(self.apply([raw], batch_size=1)))

    def apply(self, envelopes: Iterable, *, batch_size: int = DEFAULT_BATCH,
              progress: Callable[[int], None] | None = None) -> Iterator[dict]:
        return Store.apply(self, envelopes, batch_size=batch_size, progress=progress)

    _apply_batch = Store._apply_batch

    def append_lines(self, where, revisions: list[dict]) -> int:
        """Insert one transaction group's rows (inside the writer's transaction); never heals."""
        writing = self._writing(where)
        transactions = {}
        for revision in revisions:
            transition = revision["transition"]
            tx = transition["transaction_id"]
            if tx not in writing.registered:
                writing.registered.add(tx)
                transactions[tx] = transition.get("envelope_sha256", "")
        lines = [(r["id"], r["transition"]["transaction_id"], canonical_bytes(r)) for r in revisions]
        appended = writing.tx.append(lines, transactions, now=self.clock.now())
        writing.seq = appended.last_seq
        return 0

    def append_all_or_nothing(self, where, revisions: list[dict]) -> int:
        """The writer's transaction makes it all or nothing: a failure rolls it back."""
        return self.append_lines(where, revisions)

    def write_manifest(self, where, *, appended_only: bool = False) -> dict:
        return {}   # the tables are their own manifest: nothing to rewrite

    def erase_content(self, scope: dict, state: ScopeState, doomed: set, why: dict) -> dict:
        """Delete every revision of ``doomed`` and insert the content-free audit row, in the
        writer's transaction; the partitions are vacuumed after COMMIT."""
        writing = self._writing(scope)
        row = erasure.audit_row(state, doomed, why, self.clock.now())
        writing.tx.erase(sorted(doomed), canonical_bytes(row), now=self.clock.now())
        fresh = {tx: digest for tx, digest in (why.get("transactions") or {}).items()
                 if tx not in writing.registered and writing.tx.known_transaction(tx) is None}
        writing.tx.register(fresh)
        writing.registered.update(fresh)
        writing.vacuum = True
        self._forget(scope)
        writing.seq, writing.audit = self._call().position(digest_of(scope))
        return row

    def replace_audit(self, where, rows: list[dict]) -> None:
        """A restore into an empty scope writes its audit rows (inside the writer's transaction);
        their transactions stay known, as after the erasures that wrote them."""
        writing = self._writing(where)
        for row in rows:
            writing.tx.add_audit(canonical_bytes(row), now=self.clock.now())
            fresh = {tx: digest for tx, digest in row.get("transactions", {}).items() if tx not in writing.registered}
            writing.tx.register(fresh)
            writing.registered.update(fresh)
        self._forget(where)

    def drop_derived(self, where) -> None:
        pass   # nothing derived is kept outside the process

    # -- what only a store of files has ---------------------------------------------------

    FILE_ONLY = frozenset({"layout", "scope_dir", "view_dir", "views_root", "doctor_dir", "shard_paths",
                           "shard_stats", "shard_bytes", "shard_data", "manifest_bytes", "audit_size",
                           "repair_scope", "read_shard"})

    def __getattr__(self, name: str):
        if name in PostgresStore.FILE_ONLY:
            raise StoreError("this command reads a JSONL store's files and is not available on a PostgreSQL "
                             "store yet (docs/POSTGRES.md, Status)", code="not_supported")
        raise AttributeError(name)
