"""Keep a scope's BM25 index in step with its shards, reading only what is new.

The index is derived: its sidecar cursor records the bytes consumed per shard,
each pinned (``store.shard_pin``) to the file and the bytes before it. A refresh
reads each shard from its cursor to the last complete line; a pin that no longer
holds (an erasure's rewrite, a healed crash cut, a vanished shard) forces a rebuild. Records are never
re-tokenized when nothing changed.
"""
from __future__ import annotations

import shutil
import threading
import time
import weakref
from dataclasses import dataclass, field
from collections.abc import Callable  # not typing's: importing typing cost a `memory query` process ~3-4 ms

from .jsonio import loads_trusted
from .lifecycle import ScopeState
from .paths import scope_digest
from .retrieval.index import ScopeIndex
from .retrieval.temporal import date_words, relative_date_words
from .store import CACHE_BUDGET as BUDGET, Appended, CurrentView, Store, Tail

TYPE_CHECKING = False   # typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from .retrieval import dense


def document_text(record: dict, *, speaker_field: bool = False, date_field: bool = False,
                  relative_dates: bool = False) -> str:
    """What a record is found by: statement, aliases, tags, key words (and the speaker, if asked).

    With ``date_field``, an episode also holds the day it was said, in words ("13 October 2023
    Friday"): questions place events by calendar date ("in July", "on 13 October, 2023"),
    which the utterance itself rarely repeats. Costs four terms per episode.

    With ``relative_dates``, an episode also holds, in the same words, each day it names
    relative to when it was said: "I went yesterday" said on 8 May 2023 -> "7 May 2023 Sunday",
    "last month" -> "April 2023" (``temporal.relative_date_words``)."""
    parts = [record["statement"], *record.get("aliases", []), *record.get("tags", [])]
    if record.get("memory_key"):
        parts.append(record["memory_key"].replace(".", " ").replace("_", " "))
    if record["kind"] == "negative":
        parts.extend(record.get("negative_triggers", []))
    speaker = (record.get("source") or {}).get("speaker")
    if speaker and speaker_field:
        parts.append(speaker)
    if date_field and record["kind"] == "episode":
        parts.append(date_words(record["valid_time"]["from"]))
    if relative_dates and record["kind"] == "episode":
        parts.append(relative_date_words(record["statement"], record["valid_time"]["from"]))
    return "\n".join(parts)


def index_settings(store: Store) -> dict:
    bm25 = store.policies.retrieval.bm25
    return {"k1": bm25["k1"], "b": bm25["b"], "epsilon": bm25.get("epsilon", 0.25),
            "speaker_field": store.policies.retrieval.feature("speaker_field"),
            "date_field": store.policies.retrieval.feature("date_field"),
            "relative_dates": store.policies.retrieval.feature("relative_dates")}


@dataclass
class ReadCache:
    """What the read side keeps per store between queries: opened indexes by scope digest
    (with the fingerprint and settings they were read at) and values built from a scope's
    folded state (the query view, dense vectors), dropped when the state changes."""

    indexes: dict[str, tuple[tuple, ScopeIndex]] = field(default_factory=dict)
    built: dict[tuple[str, str], tuple[ScopeState, int, object]] = field(default_factory=dict)
    # the scope's current view (the store's derived columns) by digest, with the fingerprint
    # it was caught up at, and values built from it (the query view)
    currents: dict[str, tuple[tuple, CurrentView]] = field(default_factory=dict)
    built_current: dict[tuple[str, str], tuple[CurrentView, int, object]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    # per scope digest: held while its index is refreshed (forked, extended, cached) and while it
    # is saved, so a save never runs beside a fork of the index it saves
    index_locks: dict[str, threading.Lock] = field(default_factory=dict)
    # set by ``defer_saves``: refreshed indexes are saved by it, off the request path
    saver: "IndexSaver | None" = None
    # per scope digest, the store's own recent appends, oldest first (``Store.hand_appends_to``):
    # the view and the index are extended from them without reading the shards again
    appends: dict[str, tuple[Appended, ...]] = field(default_factory=dict)
    # per scope digest, the last tail read from the shards: (fingerprint, cursor, tail); the view
    # and the index at the same cursor read it once (``_tail``)
    tails: dict[str, tuple[tuple, dict, Tail]] = field(default_factory=dict)

    def appended(self, digest: str, appended: Appended) -> None:
        """``Store.hand_appends_to``'s listener (under the scope's write lock): kept while this
        cache holds the scope's view or index, the newest ``KEEP_APPENDS`` (and at most
        ``KEEP_APPENDED_BYTES`` of lines) per scope; older ones are read from the shards."""
        if digest not in self.currents and digest not in self.indexes:
            return
        kept, size = [appended], len(appended.payload)
        for earlier in reversed(self.appends.get(digest, ())):
            size += len(earlier.payload)
            if len(kept) >= KEEP_APPENDS or size > KEEP_APPENDED_BYTES:
                break
            kept.append(earlier)
        self.appends[digest] = tuple(reversed(kept))    # replaced whole: readers take it unlocked

    def index_lock(self, digest: str) -> threading.Lock:
        lock = self.index_locks.get(digest)
        if lock is None:
            lock = self.index_locks.setdefault(digest, threading.Lock())   # atomic: one lock wins
        return lock

    def clear(self) -> None:
        self.indexes.clear()
        self.built.clear()
        self.currents.clear()
        self.built_current.clear()
        self.appends.clear()
        self.tails.clear()


# how many of its own recent appends per scope (and bytes of their lines) a store's read side keeps:
# a search after a write uses the last one or two; a reader further behind reads the shards
KEEP_APPENDS = 16
KEEP_APPENDED_BYTES = 1 << 20
# a tail read from the shards is kept for the next reader at the same cursor when it is this short
# (the view and the index of one search); a longer one (a rebuild) is not held on to
KEEP_TAIL_LINES = 4096


_CACHES: "weakref.WeakKeyDictionary[Store, ReadCache]" = weakref.WeakKeyDictionary()
_CACHES_GUARD = threading.Lock()


def _drop_read(store: Store, digest: str) -> None:
    """The budget dropping a scope (``store.budget``): its view and its index go together (a
    query's index is checked against the shared view, ``_holds_view``), and what was built from
    them. Only pops: a request holding any of them keeps its own reference."""
    cache = _CACHES.get(store)
    if cache is not None:
        cache.currents.pop(digest, None)
        cache.indexes.pop(digest, None)
        cache.appends.pop(digest, None)
        cache.tails.pop(digest, None)
        _drop_built(store, digest)


def _drop_built(store: Store, digest: str) -> None:
    cache = _CACHES.get(store)
    if cache is not None:
        for built in (cache.built, cache.built_current):
            for key in [key for key in list(built) if key[0] == digest]:
                built.pop(key, None)


def read_cache(store: Store) -> ReadCache:
    """The read cache of ``store`` (made on first use; it lives as long as the store)."""
    with _CACHES_GUARD:
        cache = _CACHES.get(store)
        if cache is None:
            cache = _CACHES[store] = ReadCache()
            hand = getattr(store, "hand_appends_to", None)   # the file store: its own appends, from memory
            if hand is not None:
                hand(cache.appended)
        return cache


def _tail(store: Store, cache: ReadCache, scope: dict, digest: str, cursor: dict, fingerprint: tuple | None) -> Tail:
    """What a derived file of the scope pinned at ``cursor`` has not read (``Store.read_tail``),
    taken, in this order, from the store's own appends (``Store.appended_tail``: nothing is read),
    from the tail another reader of this search read from the same cursor, or from the shards."""
    if fingerprint is not None:
        tail = store.appended_tail(scope, cursor, cache.appends.get(digest, ()), fingerprint)
        if tail is not None:
            return tail
        known = cache.tails.pop(digest, None)      # read once more at most: not held on to
        if known is not None and known[0] == fingerprint and known[1] == cursor:
            return known[2]
    tail = store.read_tail(scope, cursor)
    if fingerprint is not None and not tail.moved and len(tail.lines) <= KEEP_TAIL_LINES:
        cache.tails[digest] = (fingerprint, cursor, tail)
    else:
        cache.tails.pop(digest, None)
    return tail


def built_from_state(store: Store, scope: dict, name: str, build: Callable[[ScopeState], object],
                     fingerprint: tuple | None = None) -> object:
    """``build(state)``, cached until the scope's state changes (re-read, or extended by a write).

    The value must not be changed by callers: other queries (and threads) share it.
    ``fingerprint`` as in ``Store.state``."""
    state = store.state(scope, fingerprint)
    cache = read_cache(store)
    key = (scope_digest(scope["type"], scope["key"]), name)
    version = state.version
    cached = cache.built.get(key)
    if cached is not None and cached[0] is state and cached[1] == version:
        value = cached[2]
    else:
        value = build(state)
        cache.built[key] = (state, version, value)
    BUDGET.touch(store, key[0], "built:" + name, len(state.revisions), _drop_built)
    return value


def current_view(store: Store, scope: dict, fingerprint: tuple | None = None) -> CurrentView:
    """The scope's current view, caught up with its files (extended in place from the tail)."""
    digest = scope_digest(scope["type"], scope["key"])
    if fingerprint is None:
        fingerprint = store.fingerprint(scope)
    cache = read_cache(store)
    with cache.lock:   # one thread catches a shared view up at a time
        cached = cache.currents.get(digest)
        if cached is not None and cached[0] == fingerprint:
            view = cached[1]
        else:
            previous = cached[1] if cached is not None else None
            if previous is not None and cache.saver is not None and previous.save_later is None:
                # caught up from now on without saving on the request path: the saver saves it
                previous.save_later = cache.saver.view_saver(digest)
            if previous is not None and getattr(store, "derived_files", True):
                # caught up from this process's own appends, or the shards read once for the view
                # and the index of this search (``_tail``)
                view = store.current_view(scope, previous, _tail(store, cache, scope, digest, previous.cursor,
                                                                 fingerprint))
            else:
                view = store.current_view(scope, previous)
            if cache.saver is not None and view.save_later is None:
                view.save_later = cache.saver.view_saver(digest)
            cache.currents[digest] = (fingerprint, view)
    BUDGET.touch(store, digest, "view", len(view.ids), _drop_read)
    return view


def built_from_current(store: Store, scope: dict, name: str, build: Callable[[CurrentView], object],
                       fingerprint: tuple | None = None,
                       carry: Callable[[object, CurrentView], object] | None = None) -> object:
    """``build(view)`` over the scope's current view, cached until the view changes. ``carry(value,
    view)``: the value built from an earlier version of the same view, brought up to this one
    (a long-lived reader after a write that only appended records), or None: built again."""
    view = current_view(store, scope, fingerprint)
    cache = read_cache(store)
    key = (scope_digest(scope["type"], scope["key"]), name)
    cached = cache.built_current.get(key)
    version = view.version
    if cached is not None and cached[0] is view and cached[1] == version:
        return cached[2]      # (the scope was touched as its view was)
    value = carry(cached[2], view) if carry is not None and cached is not None and cached[0] is view else None
    if value is None:
        value = build(view)
    cache.built_current[key] = (view, version, value)
    BUDGET.touch(store, key[0], "built:" + name, len(view.ids), _drop_built)
    return value


def open_index(store: Store, scope: dict, fingerprint: tuple | None = None) -> ScopeIndex:
    """The scope's index, refreshed from the shards (reading only what is new) and saved.

    The opened index stays on the store while the scope's files are unchanged (the same
    fingerprint ``Store.state`` trusts), so a long-lived store loads it once. A cached index
    is never changed in place once handed out (a served store shares it between threads):
    a refresh builds the next one from the files and replaces it. ``fingerprint``: the one
    the caller just took for this read (``Store.state``), so a query lists the scope once.
    With ``defer_saves`` the refreshed index is saved later by the store's ``IndexSaver``."""
    digest = scope_digest(scope["type"], scope["key"])
    if fingerprint is None:
        fingerprint = store.fingerprint(scope)
    # the settings are part of the key: a policy changed in place (a flag flipped between two
    # runs of one process) must not be served an index built under the old one
    key = (fingerprint, tuple(sorted(index_settings(store).items())))
    cache = read_cache(store)
    cached = cache.indexes.get(digest)
    if cached is not None and cached[0] == key and _holds_view(cached[1], cache, digest):
        index = cached[1]
    else:
        with cache.index_lock(digest):    # one refresh at a time, never beside a save of it
            cached = cache.indexes.get(digest)
            if cached is not None and cached[0] == key and _holds_view(cached[1], cache, digest):
                index = cached[1]         # another request refreshed it meanwhile
            else:
                previous = cached[1] if cached is not None and cached[0][1] == key[1] else None
                save = _save_unless_moved if cache.saver is None else cache.saver.schedule
                index = _refreshed(store, scope, store.index_dir(digest), previous, _view_ids(cache, digest),
                                   save, lambda cursor: _tail(store, cache, scope, digest, cursor, fingerprint))
                cache.indexes[digest] = (key, index)
                _drop_used_appends(cache, digest, fingerprint)
    BUDGET.touch(store, digest, "index", len(index), _drop_read)
    return index


def keeps_reads(store: Store, scope: dict) -> bool:
    """Whether this store keeps the scope's read side between requests and saves it off the
    request path (``defer_saves``: a long-lived server), holding its current view now: then
    a write is worth catching the view and the index up to at once (``query.catch_up``); a
    one-shot process would read what it never uses."""
    cache = _CACHES.get(store)
    return cache is not None and cache.saver is not None \
        and scope_digest(scope["type"], scope["key"]) in cache.currents


def _drop_used_appends(cache: ReadCache, digest: str, fingerprint: tuple) -> None:
    """Forget the scope's handed-over appends once both its view and its index were caught up to
    the files the last of them left (a server holding many users' scopes keeps no lines for a
    scope whose readers need none). An append handed over meanwhile may go with them: its
    readers then read the shards, as for any append this cache does not hold."""
    appends = cache.appends.get(digest)
    view = cache.currents.get(digest)
    if appends and view is not None and view[0] == fingerprint == appends[-1].after:
        if cache.appends.get(digest) is appends:
            cache.appends.pop(digest, None)


def _holds_view(index: ScopeIndex, cache: ReadCache, digest: str) -> bool:
    """Whether ``index`` holds the last record of the scope's shared current view (so every
    record of it: both are read in log order). A query reads its view first, then its index:
    a fingerprint taken before a write, and another query catching the shared view up (in place)
    before this one read it, gave a view holding the new turn and the index cached under the
    older fingerprint, without it (a KeyError when the turn was a neighbour of a hit). The
    shared view is never behind the query's snapshot of it, so the index is read again."""
    cached = cache.currents.get(digest)
    if cached is None:
        return True
    ids = cached[1].ids
    try:
        return ids[-1] in index
    except IndexError:         # an empty view
        return True


def _view_ids(cache: ReadCache, digest: str) -> Callable:
    """``ScopeIndex.open``'s ``borrow``: the ids and id -> slot dictionary of the scope's current
    view when this process holds it and the saved index was built over exactly the same ids
    (equal sha256): one id table in the process, not two (``CurrentView.lend_ids``)."""
    def borrow(ids_sha256: str):
        with cache.lock:     # the lock the view's writers hold: lent whole, never mid-absorb
            cached = cache.currents.get(digest)
            return cached[1].lend_ids(ids_sha256) if cached is not None else None
    return borrow


def _refreshed(store: Store, scope: dict, directory, previous: ScopeIndex | None = None,
               borrow: Callable | None = None, save: Callable | None = None,
               read_tail: Callable[[dict], Tail] | None = None) -> ScopeIndex:
    """The index caught up with the shards. ``previous``: the index this process opened before
    (same settings); when the saved index is still the one it was read as, a copy of it is
    extended (O(new records)) instead of loading the saved index again (O(scope)). ``borrow``:
    as ``ScopeIndex.open``'s. ``save(index, files, store, scope)``: what is done with an index
    that took new documents (``_save_unless_moved`` unless given). ``read_tail(cursor)``: the
    tail from a cursor (``_tail``: this process's own appends first), else ``Store.read_tail``."""
    settings = index_settings(store)
    # a backend without derived files (PostgreSQL) keeps its index in memory only: never saved
    in_memory = not getattr(store, "derived_files", True)
    if read_tail is None or in_memory:
        read_tail = lambda cursor: store.read_tail(scope, cursor)   # noqa: E731
    # an index holding documents it has not saved (a deferred save: ``IndexSaver``) is extended
    # too: loading the saved one would read those documents again
    index = None
    if previous is not None and (in_memory or previous.unsaved() or previous.saved_as_loaded()):
        tail = read_tail(previous.cursor)   # the shards listed and pinned once, not twice
        if not tail.moved:
            index = previous.fork()
    if index is None:
        index = ScopeIndex.open(directory, settings, borrow)
        tail = read_tail(index.cursor)
    # the shards as listed before the tail was read: ``_save_unless_moved``'s reference
    files = tail.files if tail.files is not None else store.shard_files(scope)
    if tail.moved:
        index = ScopeIndex(directory, settings, rebuilt_reason="shards_changed")
    elif tail.caught_up and tail.cursor == index.cursor:
        return index
    docs = []
    for line in tail.lines:
        record = loads_trusted(line)
        if record["revision"] == 1 and record["id"] not in index:
            docs.append((record["id"], document_text(record, speaker_field=settings["speaker_field"],
                                                           date_field=settings["date_field"],
                                                           relative_dates=settings["relative_dates"])))
    index.apply(docs, tail.cursor)
    if not in_memory:
        (save or _save_unless_moved)(index, files, store, scope)
    return index


def _save_unless_moved(index: ScopeIndex, files: dict, store: Store, scope: dict) -> None:
    """Save, then make sure no writer rewrote a shard meanwhile (an erasure drops the index
    under the lock; a save racing it must not write erased words back)."""
    try:
        index.save()
    except OSError:
        return  # derived data: a read-only store still answers, it just re-reads next time
    if not store.unchanged_since(scope, files):
        shutil.rmtree(index.directory, ignore_errors=True)


# a served store saves a refreshed index once its scope has had no refresh for this long (the
# writes meanwhile saved together), and at the latest this many times as long after it fell due
SAVE_DELAY_SECONDS = 2.0
SAVE_AT_MOST_DELAYS = 15


class IndexSaver:
    """Saves refreshed indexes (and current views, ``view_saver``) off the request path, for a
    long-lived store (``defer_saves``).

    A search right after a write refreshes the scope's index (fork, new documents); saving it
    there (a delta appended with fsync) made every such search wait for the disk. Here the
    refresh only names the index as due (``schedule``); a thread saves the newest index of each
    scope once no refresh came for ``delay`` seconds (a save holds the scope's lock: a busy
    scope's searches are not made to wait for it), or ``SAVE_AT_MOST_DELAYS`` times as long after
    the first of them fell due, whichever comes first; ``flush`` saves what is due at once (the
    server's shutdown). The index is derived and pinned to the shard
    bytes it read: a process that dies before a save leaves the saved index behind the shards,
    and the next one reads the tail it lacks, so nothing is lost but that work.

    A save runs under the scope's ``ReadCache.index_lock``, as a refresh does: it never runs
    beside a fork of the index it saves (``ScopeIndex.save`` moves the bookkeeping a fork
    copies). It saves the index the cache holds for the scope when it saves (a newer one holds
    every document of the one that was due), or the due one if the cache dropped the scope."""

    def __init__(self, store: Store, cache: ReadCache, delay: float = SAVE_DELAY_SECONDS) -> None:
        self._store = weakref.ref(store)
        self._cache = cache
        self.delay = delay
        self._due: dict[str, tuple[ScopeIndex, dict, dict]] = {}
        self._views_due: dict[str, CurrentView] = {}     # current views due, by scope digest
        self._first_due = self._last_due = 0.0       # time.monotonic() of the first and last schedule
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None

    def schedule(self, index: ScopeIndex, files: dict, store: Store, scope: dict) -> None:
        """``_refreshed``'s ``save``: ``index`` is due (replacing an older index of its scope)."""
        with self._wake:
            self._last_due = time.monotonic()
            if not self._due:
                self._first_due = self._last_due
            self._due[scope_digest(scope["type"], scope["key"])] = (index, files, scope)
            self._start()

    def view_saver(self, digest: str) -> Callable:
        """A current view's ``save_later`` (``current.refreshed``): the view of scope ``digest``
        is due, saved as an index is (the same delays, and by ``flush``)."""
        def save_later(view: CurrentView) -> None:
            with self._wake:
                self._last_due = time.monotonic()
                if not self._due and not self._views_due:
                    self._first_due = self._last_due
                self._views_due[digest] = view
                self._start()
        return save_later

    def _start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="memory-index-saver", daemon=True)
            self._thread.start()

    def due(self) -> int:
        """How many scopes have an index or a current view waiting to be saved."""
        with self._wake:
            return len(self._due.keys() | self._views_due.keys())

    def flush(self) -> None:
        """Save every due index and view now (in the caller's thread)."""
        with self._wake:
            due, self._due = self._due, {}
            views, self._views_due = self._views_due, {}
            self._wake.notify_all()
        self._save_all(due, views)

    def _run(self) -> None:
        while True:
            with self._wake:
                if not self._due and not self._views_due:
                    self._thread = None     # started again by the next schedule
                    return
                save_at = min(self._last_due + self.delay, self._first_due + SAVE_AT_MOST_DELAYS * self.delay)
                wait = save_at - time.monotonic()
                if wait > 0:
                    self._wake.wait(wait)    # woken early by ``flush``, which takes what is due
                    continue
                due, self._due = self._due, {}
                views, self._views_due = self._views_due, {}
            self._save_all(due, views)

    def _save_all(self, due: dict, views: dict | None = None) -> None:
        store = self._store()
        if store is None:
            return
        for digest, view in (views or {}).items():
            self._save_view(digest, view)
        for digest, (index, files, scope) in due.items():
            with self._cache.index_lock(digest):
                cached = self._cache.indexes.get(digest)
                _save_unless_moved(index if cached is None else cached[1], files, store, scope)


    def _save_view(self, digest: str, view: CurrentView) -> None:
        """Save a current view: its bytes taken under ``ReadCache.lock`` (the lock its writers
        hold), written without it. A view the cache no longer holds (rebuilt, or the scope
        dropped) is not saved: what replaced it saves itself. Derived and pinned like the index:
        a file written after an erasure's rewrite names pins and an audit size that no longer
        hold, and its next reader rebuilds it."""
        with self._cache.lock:
            cached = self._cache.currents.get(digest)
            if cached is None or cached[1] is not view or view.unsaved_lines == 0:
                return
            data, ids_sha256, lines, version = view.encoded()
        try:
            view.write(data)
        except OSError:
            return      # derived data: a read-only store reads the tail again next time
        with self._cache.lock:
            view.saved(ids_sha256, lines, version)


def defer_saves(store: Store, delay: float = SAVE_DELAY_SECONDS) -> IndexSaver:
    """From now on, indexes this store refreshes are saved by an ``IndexSaver`` (``memory serve``:
    a search is not made to wait for the disk). Call ``flush_saves`` before the process ends."""
    cache = read_cache(store)
    with cache.lock:
        if cache.saver is None:
            cache.saver = IndexSaver(store, cache, delay)
        return cache.saver


def flush_saves(store: Store) -> None:
    """Save what ``defer_saves`` left due (nothing without it)."""
    cache = _CACHES.get(store)
    if cache is not None and cache.saver is not None:
        cache.saver.flush()


def open_dense(store: Store, scope: dict, records: dict | None = None):
    """(the scope's dense vectors, None) or (None, why not): the ``dense_search`` arm's index.

    The vectors of the scope's current records are cached on disk beside the BM25 index
    (``retrieval.dense``) and on the store until the scope's files change, so only the
    question is embedded per query. ``records`` other than the current ones (a view as
    recorded at an instant) get an unsaved copy, re-embedding only the records whose text
    differs. Without the ``dense`` extra the answer is (None, the reason): lexical search goes on.
    """
    # here, not at the top: only the dense_search arm needs it
    from .retrieval import dense
    try:
        encoder = dense.load_encoder()
    except dense.DenseUnavailable as exc:
        return None, str(exc)
    current = built_from_state(store, scope, "dense_index", lambda state: _dense_current(store, scope, state, encoder))
    if records is None:
        return current, None
    view = current.copy()
    view.refresh({rid: dense.dense_text(record) for rid, record in records.items()})
    return view, None


def _dense_current(store: Store, scope: dict, state, encoder) -> dense.DenseIndex:
    from .retrieval import dense
    version = state.version
    texts = {record["id"]: dense.dense_text(record) for record in state.currents()}
    digest = scope_digest(scope["type"], scope["key"])
    index = dense.DenseIndex.open(store.index_dir(digest) / dense.CACHE_FILE, encoder)
    if index.refresh(texts):
        try:
            index.save()
        except OSError:
            return index  # derived data: a read-only store still answers, it re-embeds next time
        if store.state(scope) is not state or state.version != version:
            # a writer changed the scope meanwhile (an erasure drops the index folder under the
            # lock): vectors of the state read before it must not be written back
            index.path.unlink(missing_ok=True)
    return index
