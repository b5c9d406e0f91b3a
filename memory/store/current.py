"""A scope's current view, derived and pinned to the shard bytes like the BM25 index.

What a query needs of every record without parsing it: the record ids in log order,
where each one's current revision line is (shard, offset, length), and the columns
the filters and the planner read for all records (kind, status, speaker, session,
revision, when it was first recorded, memory key). Full records are parsed lazily, only for the
candidates (``CurrentRecords``). The log stays the only source of truth: the file
``current/<digest>/current.bin`` records the cursor it was built to (``log.shard_pin``
pins, plus the audit file's size); a reader extends it from the appended tail and
rebuilds it when a pin no longer holds (an erasure's rewrite, a healed crash cut).

``current.bin`` layout: ``MAGIC``, a little-endian u64 header length, a JSON header
{"format", "cursor", "audit_bytes", "tables", "lengths", "ids_bytes", "ids_sha256"}, then the
record ids as a JSON array (``ids_bytes`` long, its sha256 ``ids_sha256``: ``index.bin`` saves
its ids the same way, and an index over the same ids borrows the view's list and id -> slot
dictionary instead of building its own, ``lend_ids``), then the u32 columns (``COLUMNS``
order), then the groups (``_Groups.ARRAYS``). String columns hold an index into their table
(0: none), then the slots of the turns that call something off (``CALLING_OFF``), then the id ->
slot table (``SlotTable``: a loaded view looks an id up in it instead of building a dictionary of
every id, ~20 ms a 100k process against ~0.3 us more per id looked up). A file of
another ``FORMAT``, or whose ``calls_off`` names another pattern, is not read: the view is
rebuilt from the log.

What the planner asks of every record (a session's turns, who speaks in a session, which
speakers the scope has, which records hold a memory key) is kept beside the columns in
``_Groups``: built once from the columns, then extended by each appended record, so a
long-lived reader pays O(new records) per write, not O(scope). A revision that changes one
of those columns of an existing record drops the groups (rebuilt when next asked).
"""
from __future__ import annotations

import hashlib
import os
import re
import struct
import sys
import threading
from array import array
from bisect import bisect_left
from collections.abc import Mapping
from itertools import islice
from pathlib import Path
from zlib import crc32

from ..errors import StoreError
from ..jsonio import atomic_write, dumps, dumps_digested, loads_trusted, private_mkdir
from .layout import AUDIT_FILE
from .log import Tail, drop_incomplete_tail, read_audit_rows, read_tail, settled_transactions, shard_pin

FORMAT = 5                # 2: the memory_key column; 3: the ids apart from the header, with their sha256;
                          # 4: the turns calling something off; 5: each speaker's sessions, the id -> slot table
FILE = "current.bin"
MAGIC = b"MEMCUR\x00\x01"
_HEADER_LEN = struct.Struct("<Q")
_U32 = next(code for code in "IL" if array(code).itemsize == 4)
COLUMNS = ("shard", "offset", "length", "kind", "status", "speaker", "session", "created", "revision", "key")
TABLES = ("shard", "kind", "status", "speaker", "session", "created", "key")
_GROUPED = ("kind", "speaker", "session", "key")    # the columns ``_Groups`` is built from
_NONE = 0xFFFFFFFF
# an extension of fewer lines is not saved: the next reader reads that short tail again
SAVE_AFTER_LINES = 256
# ``features.turn_supersession`` (``decision.follow_turns``): words by which a speaker calls off or
# replaces what they said before. The view marks each conversation turn whose statement holds one
# (``CurrentView.calls_off``), as it is absorbed: a query then parses only those turns, not every
# holder of "call" or "instead" in the scope, in every process and after every write
CALLING_OFF = re.compile(r"(?i)\b(?:cancel(?:s|led|ed|ling|ing)?|call(?:s|ed|ing)?\s+(?:it\s+|that\s+)?off|"
                         r"no\s+longer|instead(?!\s+of)|changed\s+(?:my|our)\s+minds?|change\s+of\s+plans?|"
                         r"any\s*more|fell\s+through|scrapped|not\s+happening)\b")
# saved in the header: a file marked by another pattern is rebuilt, never misread
_CALLING_OFF_ID = hashlib.sha256(CALLING_OFF.pattern.encode()).hexdigest()[:16]


def calls_off(revision: dict) -> bool:
    """Whether a revision is a conversation turn whose statement says something is called off."""
    statement = revision.get("statement")
    return revision.get("kind") == "episode" and isinstance(statement, str) \
        and CALLING_OFF.search(statement) is not None


class CurrentView:
    """The current revision of every record of one scope, as columns (see the module doc)."""

    def __init__(self, directory: Path, scope_dir: Path) -> None:
        self.directory = Path(directory)       # where current.bin lives
        self.scope_dir = Path(scope_dir)
        self.cursor: dict = {}
        self.audit_bytes = 0
        self.ids: list[str] = []
        self.slot: dict[str, int] = {}
        self.tables: dict[str, list] = {name: [None] for name in TABLES}
        self._codes: dict[str, dict] = {name: {None: 0} for name in TABLES}  # value -> code, per table
        self.columns: dict[str, array] = {name: array(_U32) for name in COLUMNS}
        self.unsaved_lines = 0
        self.version = 0          # counts changes: a value built from the view keys on it
        # the ``version`` of the last change that was not an appended record (a revision of a
        # record already held, an erasure): values built at a version since which only records
        # were appended may be carried forward (``appended_since``)
        self.reshaped = 0
        # set by a long-lived reader (``indexing.defer_saves``): called with the view instead of
        # saving it on the request path once it read enough new lines (``refreshed``)
        self.save_later = None
        self._groups: _Groups | None = None
        self._paths: dict[str, str] = {}       # shard name -> its path
        # record id -> its neighbours in its session (``Neighbours``), as the whole view has them:
        # kept across versions, the one entry a new turn changes (its session's last turn
        # before it) dropped as it is absorbed; written and dropped under ``_neighbours_lock``
        self._neighbours: dict[str, tuple] = {}
        self._neighbours_lock = threading.Lock()
        self._keyed_parsed: dict[str, tuple[tuple, dict]] = {}
        # the slots whose current revision ``calls_off`` (kept as each revision is absorbed)
        self.calls_off: set[int] = set()
        # the sha256 of the ids as last saved or loaded, while ``ids`` still are those (None once
        # an id is added or dropped), and whether ``slot`` is lent to an index (``lend_ids``).
        # ``slot`` is a dict, or the saved ``SlotTable`` of a loaded view until it first changes
        self._ids_sha256: str | None = None
        self._slot_lent = False
        # (an index's slot -> id table, how many of its slots were found to be this view's, the
        # view's ids then): ``SpeakerFilter._view_slots``
        self._index_slots: tuple | None = None

    # -- reading ---------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.ids)

    def value(self, column: str, slot: int):
        """The value of a string column at ``slot`` (None when the record has none)."""
        return self.tables[column][self.columns[column][slot]]

    def column_of(self, column: str, record_id: str):
        return self.tables[column][self.columns[column][self.slot[record_id]]]     # ``value`` at its slot

    def session_slots(self) -> dict[int, list[int]]:
        """Session code -> the slots of its episodes, in log order. Kept up to date as the view
        grows (a session's slots are only ever appended to, a saved session's view replaced by a
        list first): a reader holding an older snapshot bounds them by its own record count."""
        return self.groups().sessions

    def groups(self) -> "_Groups":
        """The per-scope groups (``_Groups``), built from the columns on first use."""
        groups = self._groups
        if groups is None:
            groups = _Groups(self)
            columns = [self.columns[name] for name in _GROUPED]
            for at, codes in enumerate(zip(*columns)):
                groups.add(at, *codes)
            self._groups = groups
        return groups

    def lend_ids(self, ids_sha256: str) -> tuple[list[str], dict[str, int]] | None:
        """(a copy of ``ids``, ``slot``) when the ids are exactly those whose saved JSON array has
        ``ids_sha256`` (an index saved over the same records), else None. ``slot`` is then shared:
        this view copies it before it next changes it. Called under the lock that serializes
        this view's writers (``indexing.ReadCache.lock``)."""
        if self._ids_sha256 is None or self._ids_sha256 != ids_sha256:
            return None
        self._slot_lent = True
        return list(self.ids), self.slot

    def line(self, record_id: str) -> bytes:
        """The current revision's line, read from its shard (checked against the id)."""
        at = self.slot[record_id]
        name = self.tables["shard"][self.columns["shard"][at]]
        path = self._paths.get(name)
        if path is None:
            path = self._paths[name] = os.path.join(self.scope_dir, name)
        try:
            with open(path, "rb") as handle:
                handle.seek(self.columns["offset"][at])
                data = handle.read(self.columns["length"][at])
        except FileNotFoundError:
            data = b""
        # an erasure may have rewritten the shard since this view was read: never misread
        if f'"id":"{record_id}"'.encode() not in data:
            raise StoreError("the scope changed while it was being read; retry", code="scope_changed")
        return data

    def record(self, record_id: str) -> dict:
        return loads_trusted(self.line(record_id))

    def keyed_records(self, record_ids: list[str]) -> None:
        """Parse the keyed records not parsed yet (``keyed_record``), each shard opened once."""
        if type(self).line is not CurrentView.line:
            return                       # a view whose lines are not in shard files (PostgreSQL)
        columns, cached = self.columns, self._keyed_parsed
        todo = []
        for record_id in record_ids:
            at = self.slot[record_id]
            where = (columns["shard"][at], columns["offset"][at])
            known = cached.get(record_id)
            if known is None or known[0] != where:
                todo.append((where, columns["length"][at], record_id))
        todo.sort()
        for code in {where[0] for where, _, _ in todo}:
            try:
                handle = open(os.path.join(self.scope_dir, self.tables["shard"][code]), "rb")
            except FileNotFoundError:
                continue                 # read one by one below, which says the scope changed
            with handle:
                for where, length, record_id in todo:
                    if where[0] == code:
                        handle.seek(where[1])
                        data = handle.read(length)
                        if f'"id":"{record_id}"'.encode() in data:   # else: read again, one by one
                            cached[record_id] = (where, loads_trusted(data))

    def keyed_record(self, record_id: str) -> dict:
        """``record`` for a keyed record (``_Groups.keyed``), kept parsed while its current
        revision stays where it was: every query that follows supersession reads them all, and
        they are few (the facts, not the conversation turns). Callers only read it."""
        at = self.slot[record_id]
        where = (self.columns["shard"][at], self.columns["offset"][at])
        cached = self._keyed_parsed.get(record_id)
        if cached is not None and cached[0] == where:
            return cached[1]
        record = self.record(record_id)
        self._keyed_parsed[record_id] = (where, record)
        return record

    # -- building ----------------------------------------------------------------------

    def _code(self, table: str, value) -> int:
        codes = self._codes[table]
        code = codes.get(value)
        if code is None:
            code = codes[value] = len(self.tables[table])
            self.tables[table].append(value)
        return code

    def absorb(self, revision: dict, shard: str, offset: int, length: int) -> None:
        record_id = revision["id"]
        at = self.slot.get(record_id)
        source = revision.get("source") or {}
        values = {"shard": self._code("shard", shard), "offset": offset, "length": length,
                  "kind": self._code("kind", revision["kind"]), "status": self._code("status", revision["status"]),
                  "speaker": self._code("speaker", source.get("speaker")),
                  "session": self._code("session", source.get("session")),
                  "revision": revision["revision"], "key": self._code("key", revision.get("memory_key"))}
        columns = self.columns
        self.version += 1
        if at is None:
            # columns first, then the id, then the slot: a reader sharing this view never meets
            # an id without its columns
            values["created"] = self._code("created", revision["recorded_time"]["recorded_at"])
            for name in COLUMNS:
                columns[name].append(values[name])
            if self._slot_lent or type(self.slot) is not dict:
                # an index reads the lent table, or it is the saved one: this view takes a dict
                self.slot, self._slot_lent = self.slot.copy(), False
            self._ids_sha256 = None
            self.ids.append(record_id)
            at = self.slot[record_id] = len(self.ids) - 1
            if calls_off(revision):
                self.calls_off.add(at)
            groups = self._groups
            if groups is not None:
                groups.add(at, *(values[name] for name in _GROUPED))
                place = groups.position[at]
                if self._neighbours and place != _NONE and place:
                    before = self.ids[groups.sessions[values["session"]][place - 1]]
                    with self._neighbours_lock:
                        self._neighbours.pop(before, None)      # it has a next turn now
        else:
            if self._groups is not None and any(columns[name][at] != values[name] for name in _GROUPED):
                self._groups = None      # a record moved between groups: rebuilt when next asked
                with self._neighbours_lock:
                    self._neighbours.clear()
            for name, value in values.items():
                columns[name][at] = value
            if calls_off(revision):
                self.calls_off.add(at)
            else:
                self.calls_off.discard(at)
            self.reshaped = self.version

    def appended_since(self, version: int, count: int) -> range | None:
        """The slots appended since a reader took ``version`` and ``count`` (a ``CurrentRecords``
        snapshot), when nothing but appends happened since: every record the snapshot held is
        still its current revision at its slot. None when a record was revised or erased since."""
        if self.reshaped > version or count > len(self.ids):
            return None
        return range(count, len(self.ids))

    def forget(self, record_ids) -> None:
        """Drop erased records (an erasure whose rewrite has not happened yet: doctor reports it)."""
        doomed = {i for i in record_ids if i in self.slot}
        if not doomed:
            return
        self.version += 1
        self.reshaped = self.version
        self._groups = None
        with self._neighbours_lock:
            self._neighbours.clear()
        keep = [at for at, rid in enumerate(self.ids) if rid not in doomed]
        moved = {old: new for new, old in enumerate(keep)}
        self.calls_off = {moved[at] for at in self.calls_off if at in moved}
        self.ids = [self.ids[at] for at in keep]
        self.slot, self._slot_lent, self._ids_sha256 = {rid: at for at, rid in enumerate(self.ids)}, False, None
        for name in COLUMNS:
            self.columns[name] = array(_U32, (self.columns[name][at] for at in keep))

    # -- files -------------------------------------------------------------------------

    def save(self) -> None:
        data, digest, lines, version = self.encoded()
        self.write(data)
        self.saved(digest, lines, version)

    def encoded(self) -> tuple[bytes, str, int, int]:
        """What ``save`` writes, taken while no writer changes the view: (the file's bytes, the
        sha256 of its ids, the lines read so far unsaved, the ``version`` it was taken at)."""
        arrays = [self.columns[name] for name in COLUMNS] + self.groups().to_arrays() \
            + [array(_U32, sorted(self.calls_off)), SlotTable.table_of(self.ids)]
        if sys.byteorder == "big":
            arrays = [array(_U32, values) for values in arrays]
            for values in arrays:
                values.byteswap()
        ids, digest = dumps_digested(self.ids)
        header = dumps({"format": FORMAT, "cursor": self.cursor, "audit_bytes": self.audit_bytes,
                        "tables": self.tables, "lengths": [len(v) for v in arrays],
                        "ids_bytes": len(ids), "ids_sha256": digest, "calls_off": _CALLING_OFF_ID})
        data = b"".join([MAGIC, _HEADER_LEN.pack(len(header)), header, ids, *(values.tobytes() for values in arrays)])
        return data, digest, self.unsaved_lines, self.version

    def write(self, data: bytes) -> None:
        """Write what ``encoded`` took (OSError: not written). Touches nothing of the view: a
        long-lived reader writes without holding back the view's writers."""
        private_mkdir(self.directory)
        atomic_write(self.directory / FILE, data)

    def saved(self, digest: str, lines: int, version: int) -> None:
        """After ``write`` of what ``encoded`` took at ``version`` (with the view's writers held
        back again): the lines read since stay unsaved, the ids' sha256 is kept only while the
        view has not changed since."""
        self.unsaved_lines = max(self.unsaved_lines - lines, 0)
        if self.version == version:
            self._ids_sha256 = digest

    @classmethod
    def load(cls, directory: Path, scope_dir: Path) -> "CurrentView":
        """The saved view, or an empty one (which reads the whole log) when it is missing or unreadable."""
        view = cls(directory, scope_dir)
        try:
            data = (Path(directory) / FILE).read_bytes()
            view._decode(data)
        except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError):
            return cls(directory, scope_dir)
        return view

    def _decode(self, data: bytes) -> None:
        start = len(MAGIC) + _HEADER_LEN.size
        if not data.startswith(MAGIC):
            raise ValueError("not a current view")
        (header_len,) = _HEADER_LEN.unpack_from(data, len(MAGIC))
        header = loads_trusted(memoryview(data)[start:start + header_len])   # no copy of the header
        lengths = header["lengths"]
        if header["format"] != FORMAT or len(lengths) != len(COLUMNS) + len(_Groups.ARRAYS) + 2 \
                or header["calls_off"] != _CALLING_OFF_ID:
            raise ValueError("another format")
        ids_end = start + header_len + header["ids_bytes"]
        ids = loads_trusted(memoryview(data)[start + header_len:ids_end])
        body = memoryview(data)[ids_end:]
        if not isinstance(ids, list) or len(body) != 4 * sum(lengths) \
                or any(n != len(ids) for n in lengths[:len(COLUMNS)]):
            raise ValueError("truncated")
        arrays = []
        for length in lengths:
            values = array(_U32)
            values.frombytes(body[:4 * length])
            if sys.byteorder == "big":
                values.byteswap()
            arrays.append(values)
            body = body[4 * length:]
        self.columns = dict(zip(COLUMNS, arrays))
        self.cursor, self.audit_bytes, self.ids = header["cursor"], header["audit_bytes"], ids
        self.tables = header["tables"]
        self._codes = _Codes(self.tables)
        self.slot = SlotTable(ids, arrays[-1])
        self._groups = _Groups.from_arrays(self, arrays[len(COLUMNS):-2])
        self.calls_off = set(arrays[-2])
        if self.calls_off and max(self.calls_off) >= len(ids):
            raise ValueError("marks do not fit the view")
        self._ids_sha256 = header["ids_sha256"]


class SlotTable(Mapping):
    """A loaded view's record id -> slot (``CurrentView.slot``), read from the table saved in
    ``current.bin`` instead of a dictionary built over every id by each process: open
    addressing over the crc32 of the id's UTF-8 (stable across processes, unlike ``hash``),
    a power-of-two size at least twice the ids', linear probing; each entry a slot (``_NONE``:
    empty), whose id is compared with the one looked up. Read-only: the view takes a dict
    (``copy``) before it first changes its ids, and an index borrowing it (``lend_ids``) copies
    it before it first changes its own; it answers for its first ``count`` ids only (the view's
    list, which later appends leave as it was below them)."""

    __slots__ = ("_ids", "_table", "_mask", "_count")

    def __init__(self, ids: list[str], table: array) -> None:
        size = len(table)
        if size < 2 * len(ids) or size & (size - 1):
            raise ValueError("id table does not fit the view")
        self._ids, self._table, self._mask, self._count = ids, table, size - 1, len(ids)

    @staticmethod
    def table_of(ids: list[str]) -> array:
        size = 8
        while size < 2 * len(ids):
            size *= 2
        mask, table = size - 1, [_NONE] * size
        for at, record_id in enumerate(ids):
            at_hash = crc32(record_id.encode("utf-8", "surrogatepass")) & mask
            while table[at_hash] != _NONE:
                at_hash = (at_hash + 1) & mask
            table[at_hash] = at
        return array(_U32, table)

    def get(self, record_id, default=None):
        try:
            at_hash = crc32(record_id.encode("utf-8", "surrogatepass")) & self._mask
        except AttributeError:          # not a str: no record's id
            return default
        table, ids, mask = self._table, self._ids, self._mask
        while True:
            at = table[at_hash]
            if at == _NONE:
                return default
            if ids[at] == record_id:
                return at
            at_hash = (at_hash + 1) & mask

    def __getitem__(self, record_id) -> int:
        try:                             # ``get``'s loop, inline: the hot loops look ids up here
            at_hash = crc32(record_id.encode("utf-8", "surrogatepass")) & self._mask
        except AttributeError:
            raise KeyError(record_id) from None
        table, ids, mask = self._table, self._ids, self._mask
        while True:
            at = table[at_hash]
            if at == _NONE:
                raise KeyError(record_id)
            if ids[at] == record_id:
                return at
            at_hash = (at_hash + 1) & mask

    def slots_of(self, record_ids) -> list[int]:
        """``[self[rid] for rid in record_ids]`` in one call (KeyError for an id not held)."""
        table, ids, mask, out = self._table, self._ids, self._mask, []
        for record_id in record_ids:
            at_hash = crc32(record_id.encode("utf-8", "surrogatepass")) & mask
            while True:
                at = table[at_hash]
                if at == _NONE:
                    raise KeyError(record_id)
                if ids[at] == record_id:
                    break
                at_hash = (at_hash + 1) & mask
            out.append(at)
        return out

    def __contains__(self, record_id) -> bool:
        return self.get(record_id) is not None

    def __len__(self) -> int:
        return self._count

    def __iter__(self):
        return iter(self._ids[:self._count])

    def copy(self) -> dict[str, int]:
        """The same mapping as a dict (built in C)."""
        return dict(zip(self._ids[:self._count], range(self._count)))


class _Codes(dict):
    """Table name -> {value: code}, each built when first asked (a query that writes nothing
    never needs the code of a first-recorded instant: one per record)."""

    def __init__(self, tables: dict) -> None:
        super().__init__()
        self._tables = tables

    def __missing__(self, name: str) -> dict:
        codes = self[name] = {value: code for code, value in enumerate(self._tables[name])}
        return codes


_GROUPS_LOCK = threading.Lock()


class _Groups:
    """Per-scope groups over a view's columns, in log order (see the module doc). Only ever
    added to, so a reader holding a snapshot of the first ``count`` records reads the groups
    bounded by it: slots below ``count``, first slots below ``count``.

    - ``sessions``: session code -> slots of its episodes (a list, or a read-only view of the
      saved array until a turn is added to that session);
    - ``speakers``: speaker code (0 included: no speaker) -> the first slot holding it;
    - ``session_speakers``: session code -> {speaker code -> first slot}, over every record
      with both a session and a speaker (any kind, as the planner groups them);
    - ``keyed``: slots of the records other than episodes that hold a memory key;
    - ``position``: per slot, its place in its session's slots (``_NONE``: in none).
    """

    def __init__(self, view: CurrentView) -> None:
        # the view's own tables, appended to as it grows (a code's value may be an empty
        # string: only a true value counts, as in the records)
        self._kinds, self._tables = view._codes["kind"], view.tables
        self.sessions: dict[int, list[int]] = {}
        self.speakers: dict[int, int] = {}
        self._session_speakers: dict[int, dict[int, int]] | None = {}
        self._saved_pairs: tuple | None = None     # what ``session_speakers`` is read from, when asked
        self._pair_index: dict[int, int] | None = None   # session code -> its place in ``_saved_pairs``
        self.keyed: list[int] = []
        self.position = array(_U32)       # per slot: its place in its session's list, or _NONE
        self._spoken_in: dict[int, set[int]] | None = None   # ``speaker_sessions``, when asked
        # (speaker codes, offsets, session codes) as saved: each speaker's sessions, read for the
        # asked speakers alone while no pair was added since (``_session_speakers`` still None)
        self._saved_spoken: tuple | None = None
        self._outside: int | None = None     # how many slots of ``position`` are _NONE, once asked

    @property
    def session_speakers(self) -> dict[int, dict[int, int]]:
        """Read from the saved arrays when first asked (a query asks it only when the question
        names a speaker), once: under a lock, so a writer never adds to a dict then replaced."""
        found = self._session_speakers
        if found is None:
            with _GROUPS_LOCK:
                found = self._session_speakers
                if found is None:
                    sessions, offsets, pairs = self._saved_pairs
                    found = self._session_speakers = {
                        code: dict(zip(pairs[offsets[i]:offsets[i + 1]:2], pairs[offsets[i] + 1:offsets[i + 1]:2]))
                        for i, code in enumerate(sessions)}
        return found

    def speakers_in(self, session: int) -> dict[int, int] | None:
        """``session_speakers.get(session)``, read from the saved arrays for that one session
        while the whole mapping has not been asked for (a query asks for a few sessions)."""
        found = self._session_speakers
        if found is not None:
            return found.get(session)
        with _GROUPS_LOCK:
            if self._session_speakers is not None:
                return self._session_speakers.get(session)
            sessions, offsets, pairs = self._saved_pairs
            if self._pair_index is None:
                self._pair_index = dict(zip(sessions, range(len(sessions))))
            i = self._pair_index.get(session)
        if i is None:
            return None
        return dict(zip(pairs[offsets[i]:offsets[i + 1]:2], pairs[offsets[i] + 1:offsets[i + 1]:2]))

    def outside(self, count: int) -> int:
        """How many of the first ``count`` slots are in no session's list (``position`` _NONE):
        counted once, then kept by ``add`` (a search after each write asked it of every slot)."""
        with _GROUPS_LOCK:
            position = self.position
            if self._outside is None:
                self._outside = position.count(_NONE)
            if count == len(position):
                return self._outside
        return position[:count].count(_NONE)

    def speaker_sessions(self, speakers) -> set[int]:
        """The session codes where one of ``speakers`` (codes) speaks: ``session_speakers``
        turned round once (speaker code -> its sessions), then kept up to date by ``add``."""
        inverse = self._spoken_in
        if inverse is None:
            with _GROUPS_LOCK:
                saved = self._saved_spoken if self._session_speakers is None else None
            if saved is not None:
                return self._saved_sessions_of(saved, speakers)
            spoken = self.session_speakers
            with _GROUPS_LOCK:
                inverse = self._spoken_in
                if inverse is None:
                    inverse = {}
                    for session, names in list(spoken.items()):
                        for speaker in list(names):
                            found = inverse.get(speaker)
                            if found is None:
                                found = inverse[speaker] = set()
                            found.add(session)
                    self._spoken_in = inverse
        out: set[int] = set()
        with _GROUPS_LOCK:
            for speaker in speakers:
                out.update(inverse.get(speaker, ()))     # (``|=`` refused the empty tuple)
        return out

    @staticmethod
    def _saved_sessions_of(saved: tuple, speakers) -> set[int]:
        """``speaker_sessions`` read from the saved arrays: only the asked speakers' sessions
        (turning every session's speakers round cost ~15 ms a 100k process)."""
        codes, offsets, sessions = saved
        out: set[int] = set()
        for speaker in speakers:
            i = bisect_left(codes, speaker)
            if i < len(codes) and codes[i] == speaker:
                out.update(sessions[offsets[i]:offsets[i + 1]])
        return out

    def sessions_with_speakers(self):
        """The session codes that have a speaker (``session_speakers``' keys), as a container:
        the saved sessions' index while no pair was added since, else the live mapping."""
        with _GROUPS_LOCK:
            if self._session_speakers is not None:
                return self._session_speakers
            if self._pair_index is None:
                sessions = self._saved_pairs[0]
                self._pair_index = dict(zip(sessions, range(len(sessions))))
            return self._pair_index

    # what ``save`` writes after the columns (u32 arrays; "none" is _NONE)
    ARRAYS = ("position", "session_codes", "session_offsets", "session_members", "speaker_first",
              "pair_sessions", "pair_offsets", "pairs", "keyed", "spoken_speakers", "spoken_offsets",
              "spoken_sessions")

    def to_arrays(self) -> list[array]:
        out = {name: array(_U32) for name in self.ARRAYS}
        out["position"] = self.position
        out["session_offsets"].append(0)
        for code, members in self.sessions.items():
            out["session_codes"].append(code)
            out["session_members"].extend(members)
            out["session_offsets"].append(len(out["session_members"]))
        for code, first in self.speakers.items():
            out["speaker_first"].extend((code, first))
        out["pair_offsets"].append(0)
        for session, spoken in self.session_speakers.items():
            out["pair_sessions"].append(session)
            for speaker, first in spoken.items():
                out["pairs"].extend((speaker, first))
            out["pair_offsets"].append(len(out["pairs"]))
        out["keyed"].extend(self.keyed)
        spoken_in: dict[int, list[int]] = {}
        for session, spoken in self.session_speakers.items():
            for speaker in spoken:
                spoken_in.setdefault(speaker, []).append(session)
        out["spoken_offsets"].append(0)
        for speaker in sorted(spoken_in):
            out["spoken_speakers"].append(speaker)
            out["spoken_sessions"].extend(spoken_in[speaker])
            out["spoken_offsets"].append(len(out["spoken_sessions"]))
        return [out[name] for name in self.ARRAYS]

    @classmethod
    def from_arrays(cls, view: CurrentView, arrays: list) -> "_Groups":
        """The groups ``to_arrays`` wrote (ValueError: they do not fit the view)."""
        got = dict(zip(cls.ARRAYS, arrays))
        groups = cls(view)
        position = got["position"]
        if len(position) != len(view.ids):
            raise ValueError("groups do not fit the view")
        groups.position = position
        members, offsets = got["session_members"], got["session_offsets"]
        if len(offsets) != len(got["session_codes"]) + 1 or offsets[-1] != len(members):
            raise ValueError("session groups truncated")
        # each session's slots as a view of the saved array (no int object per slot), made a
        # list when a new turn is added to it (``add``)
        members = memoryview(members)
        groups.sessions = {code: members[offsets[i]:offsets[i + 1]] for i, code in enumerate(got["session_codes"])}
        first = got["speaker_first"]
        groups.speakers = dict(zip(first[::2], first[1::2]))
        pairs, offsets = got["pairs"], got["pair_offsets"]
        if len(offsets) != len(got["pair_sessions"]) + 1 or offsets[-1] != len(pairs):
            raise ValueError("speaker groups truncated")
        groups._saved_pairs, groups._session_speakers = (got["pair_sessions"], offsets, pairs), None
        groups.keyed = got["keyed"].tolist()
        codes, offsets, spoken = got["spoken_speakers"], got["spoken_offsets"], got["spoken_sessions"]
        if len(offsets) != len(codes) + 1 or offsets[-1] != len(spoken) or len(spoken) * 2 != len(pairs) \
                or any(a >= b for a, b in zip(codes, codes[1:])):
            raise ValueError("speaker sessions truncated")
        groups._saved_spoken = (codes, offsets, spoken)
        return groups

    def add(self, at: int, kind: int, speaker: int, session: int, key: int) -> None:
        tables = self._tables
        episode = kind == self._kinds.get("episode", -1)
        if speaker not in self.speakers:
            self.speakers[speaker] = at
        if session and episode:     # by code, as the session index always was
            members = self.sessions.get(session)
            if members is None:
                members = self.sessions[session] = []
            elif type(members) is not list:       # a saved session's view: a reader may hold it
                members = self.sessions[session] = members.tolist()
            self.position.append(len(members))
            members.append(at)
        else:
            with _GROUPS_LOCK:
                self.position.append(_NONE)
                if self._outside is not None:
                    self._outside += 1
        if session and tables["session"][session] and speaker and tables["speaker"][speaker]:
            spoken = self.session_speakers.get(session)
            if spoken is None:
                spoken = self.session_speakers[session] = {}
            if speaker not in spoken:
                spoken[speaker] = at
                if self._spoken_in is not None:
                    with _GROUPS_LOCK:
                        self._spoken_in.setdefault(speaker, set()).add(session)
        if key and tables["key"][key] and not episode:
            self.keyed.append(at)


def _audit_size(scope_dir: Path) -> int:
    try:
        return os.stat(Path(scope_dir) / AUDIT_FILE).st_size
    except FileNotFoundError:
        return 0


def refreshed(view: CurrentView, tail: Tail | None = None) -> CurrentView:
    """``view`` caught up with its scope's files: the same object extended by the appended tail,
    or a new view read from the whole log when a pin (or the audit file) moved. Saved when it
    was rebuilt or has read enough new lines. ``tail``: what ``read_tail`` from the view's cursor
    gives, when the caller knows it already (``Store.appended_tail``: this process's own appends)."""
    scope_dir = view.scope_dir
    audit_bytes = _audit_size(scope_dir)
    if tail is None:
        tail = read_tail(scope_dir, view.cursor)
    rebuilt = tail.moved or audit_bytes != view.audit_bytes
    if rebuilt:
        view = CurrentView(view.directory, scope_dir)
        tail = read_tail(scope_dir, {})
    elif not tail.lines:
        if tail.cursor != view.cursor:
            view.cursor = tail.cursor
        return view
    audit = read_audit_rows(scope_dir) if audit_bytes else []
    revisions = [loads_trusted(line) for line in tail.lines]
    kept = drop_incomplete_tail(revisions, settled_transactions(audit))
    cursor = tail.cursor
    if len(kept) != len(revisions):
        # a transaction cut short at the tail is not data: stop the cursor before it
        name, offset = tail.positions[len(kept)]
        cursor = {pin: end for pin, end in cursor.items() if pin.split("|", 1)[0] != name}
        entry = next(p for p in tail.paths if p.name == name)
        cursor[shard_pin(entry, offset, os.stat(entry).st_ino)] = offset
    for revision, (name, offset), line in zip(kept, tail.positions, tail.lines):
        view.absorb(revision, name, offset, len(line))
    erased = [i for row in audit for i in row.get("record_ids", [])]
    if erased:
        view.forget(erased)
    view.cursor, view.audit_bytes = cursor, audit_bytes
    view.unsaved_lines += len(kept)
    if not rebuilt and view.unsaved_lines >= SAVE_AFTER_LINES and view.save_later is not None:
        view.save_later(view)      # a long-lived reader saves it off the request path
    elif rebuilt or view.unsaved_lines >= SAVE_AFTER_LINES:
        try:
            view.save()
        except OSError:
            pass  # derived data: a read-only store still answers, it reads the tail again next time
    return view


class CurrentRecords(Mapping):
    """Record id -> current revision, parsed on first access (a query reads a few candidates).

    Iterating yields ids in log order without parsing; ``column(name, id)`` reads the
    view's columns (kind, status, speaker, session) without parsing either. It holds the
    records the view had when it was made: a view extended later (a long-lived reader
    catching up with a write) adds records it does not show."""

    def __init__(self, view: CurrentView, kinds: tuple = ()) -> None:
        self.view = view
        self._parsed: dict[str, dict] = {}
        self._version = view.version          # read before the count: see ``Neighbours``
        self._count = len(view.ids)
        if kinds:
            wanted = {code for code, kind in enumerate(view.tables["kind"]) if kind in kinds}
            kind_col = view.columns["kind"]
            self._ids = [rid for at, rid in enumerate(view.ids[:self._count]) if kind_col[at] in wanted]
            self._members = frozenset(self._ids)
        else:
            # the view's own list, read up to ``_count`` (it is only appended to, or replaced
            # whole by an erasure): not a copy of its 100k ids per snapshot
            self._ids, self._members = view.ids, None

    def __getitem__(self, record_id: str) -> dict:
        record = self._parsed.get(record_id)
        if record is None:
            if record_id not in self:
                raise KeyError(record_id)
            record = self._parsed[record_id] = self.view.record(record_id)
        return record

    def __contains__(self, record_id: object) -> bool:
        if self._members is not None:
            return record_id in self._members
        # a record the shared view gained after this snapshot is not one of these: the index
        # and the rest of the query were read at the snapshot
        at = self.view.slot.get(record_id)
        return at is not None and at < self._count

    def __iter__(self):
        return iter(self._ids) if self._members is not None else islice(self._ids, self._count)

    def __len__(self) -> int:
        return len(self._ids) if self._members is not None else self._count

    def column(self, name: str, record_id: str):
        return self.view.column_of(name, record_id)

    def calls_off(self, record_id: str) -> bool:
        """Whether the record's current revision is a turn that says something is called off
        (``current.calls_off``), without parsing it."""
        return self.view.slot[record_id] in self.view.calls_off

    def marks_calling_off(self) -> bool:
        """Whether the view marks any turn as calling something off (``calls_off``): when it marks
        none, no record says so, and the planner lists no holder of the words that might."""
        return bool(self.view.calls_off)

    def appended_after(self, older: "CurrentRecords") -> list[str] | None:
        """The ids these records hold after those of ``older``, a snapshot of the same view taken
        before, when every record ``older`` held is unchanged (only records were appended since:
        ``CurrentView.appended_since``); None otherwise, or when either is narrowed to some kinds."""
        if older.view is not self.view or self._members is not None or older._members is not None \
                or older._count > self._count:
            return None
        # after this snapshot was taken: a revision absorbed before it shows in ``reshaped``
        if self.view.appended_since(older._version, older._count) is None:
            return None
        return self.view.ids[older._count:self._count]

    def carry_parsed(self, older: "CurrentRecords") -> bool:
        """Take the records ``older`` parsed, when these records are ``older``'s and some appended
        after them, unchanged (``appended_after``): each is still its record's current revision.
        A long-lived reader's search after a write otherwise parses its candidates again (~400
        records at 100k, a read and a JSON parse each). A copy: a query of the older snapshot
        may still add to its own. False (nothing taken) when a record changed since."""
        if self._parsed or self.appended_after(older) is None:
            return False
        self._parsed = dict(older._parsed)
        kept = getattr(older, "_keyed_kept", None)
        if kept is not None:          # its keyed records by key, extended by the appended ones
            self._keyed_from = (kept[1], older._count)
        return True

    def column_values(self, name: str, record_ids) -> list:
        """``[self.column(name, rid) for rid in record_ids]``, looked up in C."""
        view = self.view
        slot = view.slot
        slots = slot.slots_of(record_ids) if type(slot) is SlotTable else map(slot.__getitem__, record_ids)
        return list(map(view.tables[name].__getitem__, map(view.columns[name].__getitem__, slots)))

    def said_by(self, items, speakers) -> list:
        """The (record id, value) pairs of ``items`` whose record's speaker is one of
        ``speakers``, in order, by the speaker column (a speaker search filters every hit)."""
        return self.speaker_filter(speakers)(items)

    def speaker_filter(self, speakers):
        """``lambda items: self.said_by(items, speakers)`` with the speakers' codes, the column and
        the id -> slot dict looked up once: a speaker search filters its matches, then the turns
        each match lifts, a call per match (~1k calls a query at 100k, most of one or two items)."""
        return SpeakerFilter(self.view, speakers)

    def _slots(self):
        if self._members is not None:
            slot = self.view.slot
            return ((slot[rid], rid) for rid in self._ids)
        return enumerate(islice(self._ids, self._count))

    def group_ids(self, name: str) -> dict:
        """Column value -> the ids holding it, in log order, without parsing a record."""
        codes, table, grouped = self.view.columns[name], self.view.tables[name], {}
        for at, record_id in self._slots():
            code = codes[at]
            members = grouped.get(code)
            if members is None:
                members = grouped[code] = []
            members.append(record_id)
        return {table[code]: ids for code, ids in grouped.items()}

    def speaker_names(self) -> list | None:
        """The speakers of these records in the order they first speak (the keys of
        ``group_ids("speaker")``, None included for records without one), from the groups:
        O(speakers), not O(records). None for records of some kinds only (group them instead)."""
        if self._members is not None:
            return None
        table, count = self.view.tables["speaker"], self._count
        firsts = sorted((first, code) for code, first in list(self.view.groups().speakers.items()) if first < count)
        return list(dict.fromkeys(table[code] for _, code in firsts))

    def distinct(self, name: str) -> set:
        """The values a column takes over these records."""
        codes, table = self.view.columns[name], self.view.tables[name]
        if self._members is not None:
            return {table[codes[at]] for at, _ in self._slots()}
        if name == "speaker":          # from the groups: O(speakers), not O(records)
            count = self._count
            return {table[code] for code, first in list(self.view.groups().speakers.items()) if first < count}
        return {table[code] for code in set(codes[:self._count])}

    def session_speakers(self) -> Mapping:
        """Session -> the speakers of its records (records with both a session and a speaker,
        of any kind), without parsing a record: ``planner._session_speakers``."""
        view = self.view
        speakers, sessions = view.tables["speaker"], view.tables["session"]
        if self._members is None:
            return _SessionSpeakers(view, self._count)
        grouped: dict = {}
        speaker_col, session_col = view.columns["speaker"], view.columns["session"]
        for at, _ in self._slots():
            session, speaker = sessions[session_col[at]], speakers[speaker_col[at]]
            if session and speaker:
                grouped.setdefault(session, set()).add(speaker)
        return {session: frozenset(names) for session, names in grouped.items()}

    def _keyed_slots(self) -> list[int]:
        """The slots of the records other than episodes that hold a memory key, in log order."""
        if self._members is None:
            keyed, count = self.view.groups().keyed, self._count
            return keyed[:bisect_left(keyed, count)]
        episode = self.view._codes["kind"].get("episode", -1)
        kinds, keys, table = self.view.columns["kind"], self.view.columns["key"], self.view.tables["key"]
        return [at for at, _ in self._slots() if kinds[at] != episode and table[keys[at]]]

    def _parsed_keyed(self, slots) -> list[dict]:
        ids, parsed, view = self.view.ids, self._parsed, self.view
        wanted = [ids[at] for at in slots]
        view.keyed_records([rid for rid in wanted if rid not in parsed])
        for record_id in wanted:
            if record_id not in parsed:
                parsed[record_id] = view.keyed_record(record_id)
        return [parsed[record_id] for record_id in wanted]

    def keyed(self):
        """The records other than episodes that hold a memory key, parsed, in log order (the
        rest are never parsed)."""
        return self._parsed_keyed(self._keyed_slots())

    def keyed_slots(self) -> "KeyedSlots":
        """memory_key -> ``keyed`` records holding it, in log order: what
        ``decision.follow_supersession`` groups into slots. A slot's records are parsed when
        it is first asked for (a query asks for the slots of its matches only). Kept while the
        view is as it was (every query of a cached view asks, ~1-2 ms of grouping each time)."""
        view = self.view
        state = (view.version, len(view.ids))     # read before the slots are: see ``Neighbours``
        kept = getattr(self, "_keyed_kept", None)
        if kept is not None and kept[0] == state:
            return kept[1]
        carried = getattr(self, "_keyed_from", None)
        slots = KeyedSlots(self) if carried is None else KeyedSlots.extended(self, *carried)
        self._keyed_kept = (state, slots)
        return slots

    def covers_index(self, index) -> bool | None:
        """True when every document of ``index`` (a ``ScopeIndex``) is one of these records, known
        without listing them: the index and the view read the same log bytes (equal cursors), the
        view dropped nothing (no erasure was ever recorded) and holds every record it read. Every
        indexed document is a record of those lines, so it is here. None: not known this way."""
        view = self.view
        # the cursor before the count: a writer sharing the view absorbs lines, then moves the
        # cursor. Read the other way round, a writer acting between the two reads made a
        # snapshot of N records claim an index holding N + k (a 500 under concurrent adds)
        cursor = view.cursor
        if self._members is None and cursor and index.cursor == cursor and self._count == len(view.ids) \
                and not view.audit_bytes:
            return True
        return None

    def covers(self, record_ids) -> bool:
        """Whether every id of ``record_ids`` is one of these records."""
        if self._members is not None:
            return self._members.issuperset(record_ids)
        if len(self.view.ids) == self._count:      # the view has not grown since: by its id table
            covered = self.view.slot.keys() >= set(record_ids)
            if len(self.view.ids) == self._count:  # ... and still had not when it was read
                return covered
        return all(record_id in self for record_id in record_ids)

    def neighbours(self) -> "Neighbours":
        """Record id -> the turns before and after it in its session, among these records,
        computed per record when asked (a query asks it of its scored records only)."""
        return Neighbours(self)

    def of_kinds(self, kinds) -> "CurrentRecords":
        return CurrentRecords(self.view, tuple(kinds))


class SpeakerFilter:
    """``CurrentRecords.speaker_filter``: called with (record id, value) pairs, the pairs whose
    record's speaker is one of the speakers, in order. What a speaker search also asks of it
    (``planner.SearchSpace._smoothed_top``), so that it reads neither the ids nor the
    neighbours of the many matches that cannot count:

    - ``by_slot(scored, ids)``: the kept (id, value) pairs of ``scored`` (index slot -> value,
      ``ids`` the index's slot -> id table) in its order, read by slot from the speaker column
      when the index's slots are the view's (its ids are the first of the view's, in order);
      None when they are not (the caller filters by id);
    - ``lifter(ids)``: a test of a match's key (an index slot when ``ids`` is given, else a
      record id) that is False only when no turn of the match's session can be kept: a session
      whose speakers (``_Groups.session_speakers``, every record of it with a speaker) are none
      of these (a session given its first speaker after the test was made is kept: the test
      reads which sessions have speakers as they were then, ``sessions_with_speakers``). A neighbour is a turn of
      the same session, so such a match lifts no kept turn and holds none of the kept neighbours."""

    def __init__(self, view: CurrentView, speakers) -> None:
        codes = view._codes["speaker"]
        self.view = view
        self.wanted = frozenset(codes[name] for name in speakers if name in codes)
        self._column, self._slot = view.columns["speaker"], view.slot

    def __call__(self, items) -> list:
        column, slot, wanted = self._column, self._slot, self.wanted
        return [item for item in items if column[slot[item[0]]] in wanted]

    def _view_slots(self, ids) -> bool:
        """Whether slot ``i`` of ``ids`` (an index's slot -> id table) is the view's slot ``i``:
        its ids are the view's first ones, in order (a hole, None, where the index dropped a
        document, is not; nor is a document it re-added at a new slot). Kept on the view per
        table while neither list is replaced: both are only appended to, or have a slot set to
        None (``BM25Index.remove``: that slot is no longer scored), so a table that grew is
        checked from where it was checked before."""
        view, count = self.view, len(ids)
        own = view.ids
        known = view._index_slots
        start = 0
        if known is not None and known[0] is ids and known[2] is own and known[1] <= count:
            start = known[1]
            if start == count:
                return True
        if count > len(own) or (ids is not own and ids[start:count] != own[start:count]):
            return False
        view._index_slots = (ids, count, own)
        return True

    def by_slot(self, scored, ids) -> dict | None:
        if not self._view_slots(ids):
            return None
        column, wanted = self._column, self.wanted
        return {ids[at]: value for at, value in scored.items() if column[at] in wanted}

    def lifter(self, ids=None):
        view = self.view
        groups = view.groups()
        known, spoken = groups.sessions_with_speakers(), groups.speaker_sessions(self.wanted)
        sessions = view.columns["session"]
        if ids is not None and self._view_slots(ids):
            def lifts_slot(at: int) -> bool:
                session = sessions[at]
                return session in spoken or session not in known
            return lifts_slot
        slot = self._slot

        def lifts_id(record_id: str) -> bool:
            at = slot.get(record_id)
            return True if at is None else (sessions[at] in spoken or sessions[at] not in known)
        if ids is not None:
            return lambda at: lifts_id(ids[at])
        return lifts_id


class KeyedSlots(Mapping):
    """``CurrentRecords.keyed_slots``: memory_key -> its keyed records, parsed on first access."""

    def __init__(self, records: CurrentRecords) -> None:
        self.records = records
        keys, table = records.view.columns["key"], records.view.tables["key"]
        self._slots: dict[str, list[int]] = {}
        for at in records._keyed_slots():
            self._slots.setdefault(table[keys[at]], []).append(at)
        self._parsed: dict[str, list[dict]] = {}

    @classmethod
    def extended(cls, records: CurrentRecords, older: "KeyedSlots", count: int) -> "KeyedSlots":
        """``KeyedSlots(records)`` from ``older``, the one of a snapshot of the first ``count`` of
        these records, all unchanged since (``CurrentRecords.carry_parsed``): its groups with the
        keyed records appended after them added (a key's list copied, not changed: ``older``
        may still be read), and its parsed lists but for the keys those records hold. The same
        keys in the same order (a new key's first slot is after every older key's), the same
        slots in log order."""
        new = cls.__new__(cls)
        new.records = records
        keys, table = records.view.columns["key"], records.view.tables["key"]
        grouped, parsed = dict(older._slots), dict(older._parsed)
        keyed = records._keyed_slots()
        for at in keyed[bisect_left(keyed, count):]:
            key = table[keys[at]]
            members = grouped.get(key)
            grouped[key] = [at] if members is None else members + [at]
            parsed.pop(key, None)
        new._slots, new._parsed = grouped, parsed
        return new

    def __getitem__(self, key: str) -> list[dict]:
        found = self._parsed.get(key)
        if found is None:
            found = self._parsed[key] = self.records._parsed_keyed(self._slots[key])
        return found

    def __iter__(self):
        return iter(self._slots)

    def __len__(self) -> int:
        return len(self._slots)


class CreatedAt(Mapping):
    """Record id -> when its first revision was recorded, from the view's column."""

    def __init__(self, view: CurrentView) -> None:
        self.view = view

    def __getitem__(self, record_id: str) -> str:
        return self.view.column_of("created", record_id)

    def __iter__(self):
        return iter(self.view.ids)

    def __len__(self) -> int:
        return len(self.view.ids)


class Sessions(Mapping):
    """Session -> the ids of its episodes in log order, from the view's groups, as they were
    when this was made (the view may grow meanwhile: its first ``count`` records)."""

    def __init__(self, view: CurrentView) -> None:
        self.view, self._count, self._ids = view, len(view.ids), view.ids
        self._slots = view.session_slots()
        self._codes = view._codes["session"]
        self._len: int | None = None

    def _members(self, session) -> list[int] | None:
        code = self._codes.get(session)
        slots = self._slots.get(code) if code is not None else None
        if not slots or slots[0] >= self._count:
            return None
        return slots if slots[-1] < self._count else slots[:bisect_left(slots, self._count)]

    def __getitem__(self, session: str) -> list[str]:
        slots = self._members(session)
        if slots is None:
            raise KeyError(session)
        ids = self._ids
        return [ids[at] for at in slots]

    def __contains__(self, session: object) -> bool:
        return self._members(session) is not None

    def turns(self) -> int:
        """How many episodes the sessions hold together (``sum(map(len, self.values()))``),
        counted in C: each slot in a session has a place in it (a search after a write asks)."""
        return self._count - self.view.groups().outside(self._count)

    def __iter__(self):
        table = self.view.tables["session"]
        return iter([table[code] for code, slots in list(self._slots.items()) if slots[0] < self._count])

    def __bool__(self) -> bool:
        # sessions are listed in order of their first turn: the first one is the earliest
        try:
            first = next(iter(self._slots.values()), None)
        except RuntimeError:        # a writer's thread added a session meanwhile
            return len(self) > 0
        return first is not None and first[0] < self._count

    def __len__(self) -> int:
        if self._len is None:
            # sessions are listed in order of their first turn: only the last ones can have
            # begun after this snapshot (a search after a write asks this of a new snapshot)
            slots, count = self._slots, self._count
            try:
                begun = len(slots)
                for code in reversed(slots):
                    if slots[code][0] < count:
                        break
                    begun -= 1
            except RuntimeError:        # a writer's thread added a session meanwhile
                begun = sum(1 for code, members in list(slots.items()) if members[0] < count)
            self._len = begun
        return self._len


class _SessionSpeakers(Mapping):
    """Session -> frozenset of its speakers, from the view's groups, over its first ``count``
    records; each session worked out when asked (a query asks it of a few candidates)."""

    def __init__(self, view: CurrentView, count: int) -> None:
        self.view, self._count = view, count
        self._groups = view.groups()
        self._known: dict = {}

    def __getitem__(self, session):
        found = self._known.get(session)
        if found is None:
            code = self.view._codes["session"].get(session)
            spoken = self._groups.speakers_in(code) if code else None
            if spoken is None or not (session and any(first < self._count for first in list(spoken.values()))):
                raise KeyError(session)
            table, count = self.view.tables["speaker"], self._count
            found = self._known[session] = frozenset(table[c] for c, first in list(spoken.items()) if first < count)
        return found

    def __iter__(self):
        table, count = self.view.tables["session"], self._count
        return iter([table[code] for code, spoken in list(self._groups.session_speakers.items())
                     if any(first < count for first in spoken.values())])

    def __len__(self) -> int:
        return sum(1 for _ in self)


class Neighbours:
    """``get(record_id, default)``: the turn before and the turn after a record in its session
    (among the records of a ``CurrentRecords``), as a tuple of ids. A session's turns are
    worked out the first time one of them is asked for, then kept."""

    def __init__(self, records: CurrentRecords) -> None:
        self.records, self.view = records, records.view
        self._slots = self.view.session_slots()
        self._known: dict[str, tuple] = {}
        self._shared = False
        self._by_slots = False
        if records._members is None:
            # every episode of the view's first ``count`` records is one of these: a turn's
            # neighbours are the slots beside it in its session's list (O(1))
            # (a flag, not ``self.get = self._adjacent``: a bound method kept on its own instance
            # is a reference cycle, which kept a dropped scope's view alive until a full collection)
            self._by_slots = True
            self._groups, self._count = self.view.groups(), records._count
            # what earlier queries worked out over the same records: the view's own neighbours,
            # while it still is the view these records were taken from (same version and count)
            with self.view._neighbours_lock:
                if self._current():
                    self._known, self._shared = dict(self.view._neighbours), True

    def _current(self) -> bool:
        view = self.view
        return view.version == self.records._version and len(view.ids) == self._count

    def known(self) -> dict:
        """The neighbours worked out so far (record id -> tuple): a hot loop reads this dict
        first and calls ``compute`` only for an id not in it yet."""
        return self._known

    def compute(self, record_id: str) -> tuple:
        """``get(record_id)``, kept in ``known()``."""
        found = self._known[record_id] = self.get(record_id, ())
        if self._shared:
            with self.view._neighbours_lock:    # kept for later queries, unless the view moved on
                if self._current():
                    self.view._neighbours[record_id] = found
                else:
                    self._shared = False
        return found

    def compute_many(self, record_ids) -> None:
        """``compute`` of each of ``record_ids`` not known yet, kept for later queries under one
        hold of the view's lock (a search smoothing every hit asks thousands at once)."""
        known, get = self._known, self.get
        found = {rid: get(rid, ()) for rid in record_ids if rid not in known}
        if not found:
            return
        known.update(found)
        if self._shared:
            with self.view._neighbours_lock:
                if self._current():
                    self.view._neighbours.update(found)
                else:
                    self._shared = False

    def _adjacent(self, record_id: str, default=()):
        view = self.view
        at = view.slot.get(record_id)
        if at is None or at >= self._count:
            return default
        groups = self._groups
        i = groups.position[at]
        if i == _NONE:
            return default
        slots, ids = groups.sessions.get(view.columns["session"][at]), view.ids
        if slots is None or i >= len(slots) or slots[i] != at:
            return self._listed(record_id, default)   # moved since the groups were read
        if i + 1 < len(slots) and slots[i + 1] < self._count:
            return (ids[slots[i - 1]], ids[slots[i + 1]]) if i else (ids[slots[i + 1]],)
        return (ids[slots[i - 1]],) if i else ()

    def get(self, record_id: str, default=()):
        if self._by_slots:
            return self._adjacent(record_id, default)
        return self._listed(record_id, default)

    def _listed(self, record_id: str, default=()):
        known = self._known.get(record_id)
        if known is not None:
            return known
        view, records = self.view, self.records
        at = view.slot.get(record_id)
        slots = self._slots.get(view.columns["session"][at]) if at is not None and record_id in records else None
        if slots is None:
            return default
        ids = view.ids
        turns = [rid for rid in (ids[s] for s in slots) if rid in records]
        for i, rid in enumerate(turns):
            self._known[rid] = tuple(turns[max(i - 1, 0):i] + turns[i + 1:i + 2])
        found = self._known.get(record_id)
        if found is None:
            return default                        # not an episode of that session
        return found
