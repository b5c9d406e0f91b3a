"""One memory budget for every per-scope cache of a process (``memory serve --cache-mb``).

A long-lived process keeps, per scope it has read, the folded state (``Store._states``), the
current view, the opened index and the values built from them (``indexing.ReadCache``). Left
alone they hold every scope ever touched: a server for many users grows without end. The
budget is a least-recently-used list of scopes, each with an estimate of what its caches hold
(records times a measured cost per record, ``BYTES_PER_RECORD``); when the estimate of all
scopes passes the limit, the scopes used longest ago are dropped from every cache until it fits.
The scope used last is never dropped, however large: one hot user keeps everything cached.

A dropped scope is read again on its next request from its derived files (the saved view and
index: O(new records)) or, on PostgreSQL, from its rows. A request that holds a dropped state,
view or index keeps its own reference and finishes with it; only the cache forgets it.

Each cache says, after it stores a value, ``touch(store, digest, part, records, drop)``:
``drop(store, digest)`` removes that part again, and must only pop from dictionaries (it runs
under the budget's lock, never taking another).
"""
from __future__ import annotations

import os
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable  # not typing's: importing typing cost a `memory query` process ~3-4 ms

from ..errors import UsageError

ENV = "MEMORY_CACHE_MB"
DEFAULT_MB = 256
# what one record costs in each cache, in bytes of resident memory: measured with
# benchmarks/perf/serve_many_users.py (200 users of 200 records, no budget: searches alone
# ~4.7 KB per record, adds and searches ~12 KB; benchmarks/reports/perf.md, "Many users"),
# split between the caches by what each holds. An estimate, not an accounting. The folded
# state a write keeps holds every revision parsed: most of the cost.
BYTES_PER_RECORD = {"state": 7300, "view": 1500, "index": 2800, "built": 400}
# what a cache entry costs however few its records: scopes with no records (a shared scope, a
# user never written to) count too, so touching many of them is bounded as well
BYTES_PER_ENTRY = 4096


def _env_limit() -> int:
    value = os.environ.get(ENV)
    if value is None or not value.strip():
        return DEFAULT_MB << 20
    try:
        mb = float(value)
    except ValueError:
        mb = -1.0
    if mb < 0:
        raise UsageError(f"${ENV} must be a number of megabytes (0 or more)", code="usage_error")
    return int(mb * (1 << 20))


class ScopeBudget:
    """The LRU of scopes (see the module doc). ``limit``: bytes, as estimated."""

    def __init__(self, limit: int | None = None) -> None:
        self._limit = limit
        self._lock = threading.Lock()
        # (id(store), digest) -> [weakref to the store, {part: (bytes, drop)}, bytes]
        self._scopes: OrderedDict[tuple[int, str], list] = OrderedDict()
        self.total = 0
        self.evictions = 0
        # stores collected since: their scopes leave at the next touch (a weakref callback may
        # run inside ``touch`` itself, so it only appends here)
        self._gone: list = []

    @property
    def limit(self) -> int:
        if self._limit is None:
            self._limit = _env_limit()
        return self._limit

    def set_limit(self, limit_bytes: int) -> None:
        with self._lock:
            self._limit = max(int(limit_bytes), 0)
            if self._gone:
                self._purge()
            self._shrink(None)

    def touch(self, store, digest: str, part: str, records: int, drop: Callable[[object, str], None]) -> None:
        """``store``'s cache ``part`` of scope ``digest`` now holds ``records`` records: the scope
        becomes the most recently used, and scopes used longest ago are dropped to fit."""
        size = BYTES_PER_ENTRY + records * BYTES_PER_RECORD.get(part.split(":", 1)[0], BYTES_PER_RECORD["built"])
        key = (id(store), digest)
        limit = self.limit
        with self._lock:
            if self._gone:
                self._purge()
            entry = self._scopes.get(key)
            if entry is None or entry[0]() is not store:
                if entry is not None:               # an id reused after its store was collected
                    self.total -= entry[2]
                entry = self._scopes[key] = [weakref.ref(store, self._gone.append), {}, 0]
            else:
                self._scopes.move_to_end(key)
            parts = entry[1]
            before = parts.get(part, (0, None))[0]
            parts[part] = (size, drop)
            entry[2] += size - before
            self.total += size - before
            if self.total > limit:
                self._shrink(key)

    def _purge(self) -> None:
        count = len(self._gone)             # (the list the callbacks append to stays the same)
        gone = set(map(id, self._gone[:count]))
        del self._gone[:count]
        for key in [key for key, entry in self._scopes.items() if id(entry[0]) in gone]:
            self.total -= self._scopes.pop(key)[2]

    def _shrink(self, keep) -> None:
        while self.total > self.limit and self._scopes:
            key = next(iter(self._scopes))
            if key == keep:
                if len(self._scopes) == 1:
                    return
                self._scopes.move_to_end(key)
                continue
            ref, parts, size = self._scopes.pop(key)
            self.total -= size
            self.evictions += 1
            store = ref()
            if store is not None:
                for _, drop in parts.values():
                    drop(store, key[1])

    def forget(self, store, digest: str, part: str | None = None) -> None:
        """``store`` dropped ``part`` (None: every part) of scope ``digest`` itself."""
        with self._lock:
            key = (id(store), digest)
            entry = self._scopes.get(key)
            if entry is None or entry[0]() is not store:
                return
            names = list(entry[1]) if part is None else [part]
            for name in names:
                size = entry[1].pop(name, (0, None))[0]
                entry[2] -= size
                self.total -= size
            if not entry[1]:
                del self._scopes[key]

    def scopes(self, store=None) -> list[str]:
        """The digests the budget holds (of ``store``), least recently used first."""
        with self._lock:
            return [key[1] for key, entry in self._scopes.items()
                    if store is None or entry[0]() is store]


BUDGET = ScopeBudget()


def set_cache_mb(mb: float) -> None:
    """The process's budget in megabytes (``memory serve --cache-mb``)."""
    if mb < 0:
        raise UsageError("the cache budget is a number of megabytes, 0 or more", code="usage_error")
    BUDGET.set_limit(int(mb * (1 << 20)))


def drop_state(store, digest: str) -> None:
    """``Store._states``' part of a scope (``PostgresStore`` alike)."""
    store._states.pop(digest, None)


def held_state(store, digest: str, state) -> None:
    """``store`` cached ``state`` as scope ``digest``'s folded state."""
    BUDGET.touch(store, digest, "state", len(state.revisions), drop_state)
