"""One scope's persistent BM25 index: derived data, rebuildable at any time.

Files in the index folder: ``index.bin`` (the BM25 state), ``index.delta``
(docs added since, one JSON line each: base generation, id, tokens) and the sidecar
``index.meta.json`` = {"format", "tokenizer", "settings", "cursor", "docs",
"generation", "delta_bytes", "delta_docs"}, and the stem memo ``index.stems`` (the words of
the base's documents with their terms, ``STEMS_FILE``). A save after a few new docs appends
them to the delta (a refresh after one record costs an append, not a rewrite);
a large delta or a removal folds everything into a new base. Only the delta bytes
the sidecar counts are read, so a crash mid-append is never half-read.
``ScopeIndex.open`` loads them when the sidecar matches the tokenizer version and the settings asked for; otherwise it opens EMPTY and
names why in ``rebuilt_reason`` (None when it loaded), and the caller replays
the scope's records. ``cursor`` is the caller's bookmark (the store's bytes
consumed per shard), stored verbatim. ``save`` writes the data file, then the
sidecar, each atomically; both carry a random ``generation``, so a crash or a
concurrent saver between the two writes reads back as stale, never as a
mismatched pair.

``index.bin`` layout: ``MAGIC``, a little-endian u64 header length, a JSON
header {"format", "generation", "state_format", "terms", "lengths", "ids_bytes",
"ids_sha256"}, then the document ids as a JSON array (``ids_bytes`` long, its sha256
``ids_sha256``), then the BM25 state's int fields (``bm25.INT_FIELDS`` order) and each document's
length (``doc_lengths``: its slice of ``doc_terms``, saved so that no process works them out
again), ``lengths`` items each, as little-endian u32. The header's "distinct_lengths" are the
documents' lengths, each once (what ``BM25Index._norms`` evaluates: a set over every document's
length cost ~1.7 ms a 100k process); a file written without them (older code, which reads past an
unknown header key) is read as before. Binary because parsing the same ints as
JSON took ~30 ms at 10k documents against ~0.5 ms for ``array.frombytes``. Reading maps
a large file (``_mapped``) to decode its header and offsets, and leaves the postings and the
documents' terms in it, read by position a slice at a time (``_StoredInts``): nothing else is
copied, and only what a query asks for is read, without keeping the mapped pages around it.

The ids are apart from the header so that a reader holding the same ids already (the
scope's current view, which saves the same JSON array with the same digest: ``Borrow``)
takes its list and its id -> slot dictionary instead of parsing every id again and building a
second dictionary over them.
"""
from __future__ import annotations

import mmap
import os
import struct
import sys
from array import array
from pathlib import Path
from collections.abc import Callable, Iterable, Mapping, Sequence  # not typing's: importing typing cost a `memory query` process ~3-4 ms

from ..jsonio import atomic_write, dumps, dumps_digested, loads_trusted, open_private
from .bm25 import INT_FIELDS, BM25Index, _run_lengths
from . import tokenize as _tokenize
from .tokenize import TOKENIZER_VERSION, tokenize

FORMAT = 3                # 2: the ids apart from the header, with their sha256; 3: the documents' lengths
DATA_FILE = "index.bin"
DELTA_FILE = "index.delta"
# the delta is folded into the base once it holds more than this many docs, or 1/DELTA_FRACTION
# of the index: replaying it costs a dict insert per term, rewriting the base a full encode
DELTA_MIN_DOCS = 256
DELTA_FRACTION = 10
META_FILE = "index.meta.json"
# the words of the indexed documents with their terms (``_write_stems``): a process that loads the
# index stems none of them again (``tokenize.remember``). Read only beside the base it was saved
# with (its ``generation``, which the sidecar pins to the shard bytes) and under the same
# ``TOKENIZER_VERSION``: another tokenizer's or another base's memo is never read, and the next
# base written saves a new one
STEMS_FILE = "index.stems"
STEMS_FORMAT = 1
MAP_MIN_BYTES = 4 << 20      # index files at least this large are mapped, not read (``_mapped``)
DEFAULT_EPSILON = 0.25
MAGIC = b"MEMIDX\x00\x01"
_HEADER_LEN = struct.Struct("<Q")
_U32 = next(code for code in "IL" if array(code).itemsize == 4)

# rebuilt_reason values (stable: the store may log or report them)
MISSING = "missing"
META_UNREADABLE = "meta_unreadable"
FORMAT_CHANGED = "format_changed"
TOKENIZER_CHANGED = "tokenizer_changed"
SETTINGS_CHANGED = "settings_changed"
DATA_UNREADABLE = "data_unreadable"
DATA_MISMATCH = "data_mismatch"

Query = str | Iterable[str]
# ``Borrow(ids_sha256)``: (ids list, id -> slot dict) of a reader holding exactly the ids whose
# JSON array has that sha256, or None. The list is copied; the dict is shared until the index
# first changes it (``BM25Index.from_state``), the lender copying it before it changes it.
Borrow = Callable[[str], "tuple[list[str], dict[str, int]] | None"]


class ScopeIndex:
    """BM25 over one scope's documents plus the cursor they were read up to.

    ``ScopeIndex(directory, settings)`` is an empty index (a forced rebuild);
    ``ScopeIndex.open`` loads what ``save`` wrote.
    """

    def __init__(self, directory: Path, settings: Mapping, *,
                 rebuilt_reason: str | None = None) -> None:
        self.directory = Path(directory)
        # A JSON round trip makes the comparison with the sidecar exact
        # (tuples become lists) and fails early on unserializable settings.
        self.settings: dict = loads_trusted(dumps(dict(settings)))
        self.cursor: dict[str, int] = {}
        self.rebuilt_reason = rebuilt_reason
        self._bm25 = BM25Index(**_bm25_params(self.settings))
        # what ``save`` may append instead of rewriting: the loaded base's generation, the delta
        # bytes that belong to it, the docs added since, and whether anything was removed
        self._base: str | None = None
        self._delta_bytes = 0
        self._delta_docs = 0
        self._pending: list[tuple[str, list[str]]] = []
        self._removed = False

    @classmethod
    def open(cls, directory: Path, settings: Mapping, borrow: Borrow | None = None) -> ScopeIndex:
        """Load the saved index, or an empty one naming why it is stale. ``borrow``: see ``Borrow``."""
        index = cls(directory, settings)
        meta, reason = _read_meta(index.directory / META_FILE)
        reason = reason or _stale_reason(meta, index.settings)
        bm25 = None
        if reason is None:
            bm25, reason = _read_data(index.directory / DATA_FILE, meta, index.settings, borrow)
        if bm25 is not None:
            reason = _replay_delta(bm25, index.directory / DELTA_FILE, meta)
        if reason is not None:
            index.rebuilt_reason = reason
            return index
        index._bm25, index.cursor = bm25, meta["cursor"]
        index._base, index._delta_bytes = meta["generation"], meta.get("delta_bytes", 0)
        _remember_stems(index.directory / STEMS_FILE, meta["generation"])
        index._delta_docs = meta.get("delta_docs", 0)
        return index

    def fork(self) -> "ScopeIndex":
        """An independent copy to extend (``BM25Index.fork``): what a long-lived reader does
        instead of loading the saved index again after a write."""
        other = ScopeIndex.__new__(ScopeIndex)
        other.__dict__.update(self.__dict__)
        other._bm25, other.cursor, other._pending = self._bm25.fork(), dict(self.cursor), list(self._pending)
        other.rebuilt_reason = None
        return other

    def prepare(self) -> None:
        """Work out now what the first search of this version reads whatever it asks (the
        documents' length norms): a long-lived store's catch-up after a write (``query.catch_up``)."""
        self._bm25._norms()

    def unsaved(self) -> bool:
        """Whether this index holds changes its folder does not (documents added or removed since
        it was loaded or saved, or never saved at all)."""
        return self._base is None or bool(self._pending) or self._removed

    def saved_as_loaded(self) -> bool:
        """Whether the sidecar on disk still names the base and delta this index was read from
        or last saved as (no other process saved since)."""
        meta, reason = _read_meta(self.directory / META_FILE)
        return reason is None and meta.get("generation") == self._base \
            and meta.get("delta_bytes", 0) == self._delta_bytes

    # -- reading -----------------------------------------------------------

    def __len__(self) -> int:
        return len(self._bm25)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._bm25

    def doc_ids(self) -> list[str]:
        """Indexed document ids in insertion order (a replaced doc moves last)."""
        return self._bm25.doc_ids()

    def terms(self, doc_id: str) -> list[str]:
        """The document's terms in order, repeats kept (KeyError if absent)."""
        return self._bm25.terms(doc_id)

    def search(self, query: Query, limit: int) -> list[tuple[str, float]]:
        """Best ``limit`` docs for a query text (tokenized here) or its tokens."""
        return self._bm25.top(_query_tokens(query), limit)

    def df(self, term: str) -> int:
        return self._bm25.df(term)

    def idf(self, term: str) -> float:
        """BM25 idf of a term (an unseen term counts as the rarest: df 0)."""
        return self._bm25.idf(term)

    def scores(self, query: Query) -> dict[str, float]:
        """BM25 score of every doc holding at least one query term."""
        return self._bm25.scores(_query_tokens(query))

    def scored_slots(self, query: Query) -> tuple[dict[int, float], list, dict]:
        """``scores`` keyed by the index's slots, with its slot -> id and id -> slot tables
        (``BM25Index.scored_slots``)."""
        return self._bm25.scored_slots(_query_tokens(query))

    def query_scores(self, query: Query):
        """``scored_slots``'s scores worked out where read (``BM25Index.query_scores``)."""
        return self._bm25.query_scores(_query_tokens(query))

    def holders(self, term: str) -> list[str]:
        """The docs holding ``term`` (a term, not a text), unscored (``BM25Index.holders``)."""
        return self._bm25.holders(term)

    # -- writing -----------------------------------------------------------

    def apply(self, docs: Iterable[tuple[str, str]], cursor: Mapping[str, int]) -> None:
        """Index (or re-index) each (doc_id, text), then move the cursor."""
        for doc_id, text in docs:
            tokens = tokenize(text)
            self._removed |= doc_id in self._bm25  # a replaced doc cannot be expressed as an append
            self._bm25.add(doc_id, tokens)
            self._pending.append((doc_id, tokens))
        self.cursor = dict(cursor)

    def remove(self, doc_id: str) -> bool:
        """Drop a doc; False if it was not indexed (derived data: nothing to undo)."""
        if doc_id not in self._bm25:
            return False
        self._bm25.remove(doc_id)
        self._removed = True
        return True

    def save(self) -> None:
        """Append the new docs to the delta file when the saved base still holds (the cheap,
        common case: one new record), else rewrite the base and empty the delta. A folder another
        process saved into since (``saved_as_loaded``) gets a new base: a delta appended to what
        this index did not load would not match it."""
        if self._base is not None and not self._removed and self._delta_fits() and self.saved_as_loaded():
            self._append_delta()
        else:
            self._write_base()
        self._pending, self._removed = [], False

    def _delta_fits(self) -> bool:
        docs = self._delta_docs + len(self._pending)
        return docs <= max(DELTA_MIN_DOCS, len(self._bm25) // DELTA_FRACTION)

    def _append_delta(self) -> None:
        if self._pending:
            lines = b"".join(dumps({"g": self._base, "id": doc_id, "t": tokens}) + b"\n"
                             for doc_id, tokens in self._pending)
            path = self.directory / DELTA_FILE
            with open_private(path, os.O_RDWR | os.O_CREAT) as handle:   # 0600, like every store file
                handle.truncate(self._delta_bytes)  # bytes a crashed save left past the sidecar's count
                handle.seek(self._delta_bytes)
                handle.write(lines)
                handle.flush()
                os.fsync(handle.fileno())
            self._delta_bytes += len(lines)
            self._delta_docs += len(self._pending)
        self._write_meta(self._base, len(self._bm25) - self._delta_docs)

    def _write_base(self) -> None:
        generation = os.urandom(8).hex()
        state = self._bm25.to_state()
        atomic_write(self.directory / DATA_FILE, _encode(state, generation))
        self._base, self._delta_bytes, self._delta_docs = generation, 0, 0
        self._write_meta(generation, len(state["ids"]))
        (self.directory / DELTA_FILE).unlink(missing_ok=True)
        self._write_stems(generation)

    def _write_stems(self, generation: str) -> None:
        """Save the stem memo of this base (``STEMS_FILE``): every word this process stemmed or
        was handed whose term the index holds, so the words of its documents when this process
        built it or loaded the previous memo. Written after the base and its sidecar: a crash
        between leaves a memo of the previous generation, not read."""
        stems = _tokenize.known_stems(lambda term: self._bm25.df(term) > 0)
        atomic_write(self.directory / STEMS_FILE, dumps({"format": STEMS_FORMAT, "tokenizer": TOKENIZER_VERSION,
                                                         "generation": generation, "stems": stems}))

    def _write_meta(self, generation: str, base_docs: int) -> None:
        meta = {"format": FORMAT, "tokenizer": TOKENIZER_VERSION, "settings": self.settings,
                "cursor": self.cursor, "docs": base_docs, "generation": generation,
                "delta_bytes": self._delta_bytes, "delta_docs": self._delta_docs}
        atomic_write(self.directory / META_FILE, dumps(meta, pretty=True))


def _remember_stems(path: Path, generation: str) -> None:
    """Hand the saved stem memo to the tokenizer when it was saved with this base and this
    tokenizer; any other (missing, torn, of another base or version) is not read."""
    try:
        memo = loads_trusted(path.read_bytes())
    except (OSError, ValueError):
        return
    if isinstance(memo, dict) and memo.get("format") == STEMS_FORMAT and memo.get("tokenizer") == TOKENIZER_VERSION \
            and memo.get("generation") == generation and isinstance(memo.get("stems"), dict) \
            and set(map(type, memo["stems"].values())) <= {str}:      # in C: ~4.5k stems at 100k
        _tokenize.remember(memo["stems"])


def _replay_delta(bm25: BM25Index, path: Path, meta: dict) -> str | None:
    """Add the delta's docs to a loaded base; a delta shorter than the sidecar says, or written
    for another base, makes the index stale (rebuilt), never half-read."""
    size = meta.get("delta_bytes", 0)
    if not size:
        return None
    try:
        with open(path, "rb") as handle:
            data = handle.read(size)
        lines = [loads_trusted(line) for line in data.splitlines()]
    except (OSError, ValueError):
        return DATA_UNREADABLE
    if len(data) != size or len(lines) != meta.get("delta_docs"):
        return DATA_MISMATCH
    for line in lines:
        if not isinstance(line, dict) or line.get("g") != meta["generation"]:
            return DATA_MISMATCH
        bm25.add(line["id"], line["t"])
    return None


def _bm25_params(settings: Mapping) -> dict:
    missing = [key for key in ("k1", "b") if key not in settings]
    if missing:
        raise ValueError("retrieval settings lack " + ", ".join(missing))
    return {"k1": settings["k1"], "b": settings["b"],
            "epsilon": settings.get("epsilon", DEFAULT_EPSILON)}


def _query_tokens(query: Query) -> list[str]:
    return tokenize(query) if isinstance(query, str) else list(query)


def _read_meta(path: Path) -> tuple[dict | None, str | None]:
    try:
        meta = loads_trusted(path.read_bytes())
    except FileNotFoundError:
        return None, MISSING
    except (OSError, ValueError):
        return None, META_UNREADABLE
    if not _meta_shape_ok(meta):
        return None, META_UNREADABLE
    return meta, None


def _meta_shape_ok(meta: object) -> bool:
    if not isinstance(meta, dict):
        return False
    cursor = meta.get("cursor")
    return (isinstance(cursor, dict)
            and all(isinstance(v, int) for v in cursor.values())
            and isinstance(meta.get("docs"), int)
            and isinstance(meta.get("generation"), str))


def _stale_reason(meta: dict, settings: dict) -> str | None:
    if meta.get("format") != FORMAT:
        return FORMAT_CHANGED
    if meta.get("tokenizer") != TOKENIZER_VERSION:
        return TOKENIZER_CHANGED
    if meta.get("settings") != settings:
        return SETTINGS_CHANGED
    return None


def _read_data(path: Path, meta: dict, settings: dict,
               borrow: Borrow | None = None) -> tuple[BM25Index | None, str | None]:
    try:
        data, stored = _mapped(path)
        header, state, slot_of = _decode(data, borrow, stored)
        del data                      # the mapping is let go: only ``stored``'s descriptor stays
    except (OSError, ValueError):
        # a missing data file beside a sidecar is as unreadable as a torn one
        return None, DATA_UNREADABLE
    if header["generation"] != meta["generation"]:
        return None, DATA_MISMATCH
    try:
        bm25 = BM25Index.from_state(state, **_bm25_params(settings), slot_of=slot_of)
    except (ValueError, TypeError):
        return None, DATA_UNREADABLE
    if len(bm25) != meta["docs"]:
        return None, DATA_MISMATCH
    return bm25, None


def _mapped(path: Path) -> tuple:
    """(the file's bytes, mapped read-only rather than read, and a ``_StoredFile`` of the same
    open file), or (its bytes read, None) for a file under ``MAP_MIN_BYTES`` (or one that cannot
    be mapped). The mapping serves the header, the ids and the offsets while the file is decoded;
    the postings and each document's terms are then read from the stored file by position, a
    query's few at a time (``_StoredInts``). Safe because the file is only ever replaced by a
    rename (``atomic_write``), never rewritten in place: an open file keeps the bytes it was
    opened on. A stored file holds a file descriptor while it lives (a served store keeps one
    index per scope it answered), hence the size floor."""
    with open(path, "rb") as handle:
        if os.fstat(handle.fileno()).st_size >= MAP_MIN_BYTES:
            try:
                return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ), _StoredFile(handle.fileno())
            except (ValueError, OSError):
                pass
        return handle.read(), None


class _StoredFile:
    """An open file descriptor (a duplicate: the caller's handle closes on its own), closed
    with its last reader."""

    def __init__(self, fd: int) -> None:
        self.fd = os.dup(fd)

    def __del__(self) -> None:
        os.close(self.fd)


class _StoredInts(Sequence):
    """A u32 array left in the index file, read by position (``os.pread``) a slice at a time:
    ``BM25Index`` reads a query term's posting and a candidate's terms as slices. A mapping of
    the file served them before, but every page a query touched stayed in the process's resident
    set, each with the neighbouring pages the kernel maps on a fault (on this machine's kernel
    and file system, large folios): ~19 MB of a 36 MB index at 100k documents for one query's
    ~15 postings and ~100 documents (benchmarks/reports/perf.md, scope-size notes). A slice that
    starts where the last one ended (a save walking every document) reads ``_READ_AHEAD`` ints
    ahead, kept until a slice falls outside them: one read per block, not per document."""

    def __init__(self, stored: _StoredFile, offset: int, length: int) -> None:
        self._stored, self._offset, self._length = stored, offset, length
        self._next = 0                     # where the last slice ended
        self._block: tuple[int, array] = (0, array(_U32))

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, at):
        if not isinstance(at, slice):
            at = range(self._length)[at]          # IndexError as a list's, negatives counted back
            return self[at:at + 1][0]
        start, stop, step = at.indices(self._length)
        stop = max(stop, start)
        first, block = self._block                # one tuple: a reader on another thread sees
        if first <= start and stop <= first + len(block):       # a whole block or the last one
            values = block[start - first:stop - first]
        elif start == self._next and stop - start < _READ_AHEAD:
            block = self._read(start, min(self._length, start + _READ_AHEAD))
            self._block = (start, block)
            values = block[:stop - start]
        else:
            values = self._read(start, stop)
        self._next = stop
        return values if step == 1 else values[::step]

    def _read(self, start: int, stop: int) -> array:
        values = array(_U32)
        size = 4 * (stop - start)
        data = os.pread(self._stored.fd, size, self._offset + 4 * start) if size else b""
        if len(data) != size:
            raise OSError("index file shorter than its header says")
        values.frombytes(data)
        if sys.byteorder == "big":
            values.byteswap()
        return values


# ``_StoredInts``: ints read ahead by a walk (256 KB)
_READ_AHEAD = 1 << 16
# the int fields left in the file when it is large (the rest, offsets, are copied at load)
_STORED_FIELDS = frozenset({"doc_terms", "postings", "tfs"})


def _encode(state: dict, generation: str) -> bytes:
    arrays = [array(_U32, state[field]) for field in INT_FIELDS]
    arrays.append(array(_U32, _run_lengths(arrays[0])))      # doc_lengths, from doc_offsets
    distinct = sorted(set(arrays[-1]))
    if sys.byteorder == "big":
        for values in arrays:
            values.byteswap()
    ids, digest = dumps_digested(state["ids"])
    header = dumps({"format": FORMAT, "generation": generation, "state_format": state["format"],
                    "terms": state["terms"], "lengths": [len(values) for values in arrays],
                    "ids_bytes": len(ids), "ids_sha256": digest, "distinct_lengths": distinct})
    return b"".join([MAGIC, _HEADER_LEN.pack(len(header)), header, ids,
                     *(values.tobytes() for values in arrays)])


def _decode(data, borrow: Borrow | None = None,
            stored: _StoredFile | None = None) -> tuple[dict, dict, dict | None]:
    """(header, BM25 state, the borrowed id -> slot dict or None) from ``index.bin`` bytes (or a
    mapping of them); ValueError if malformed. On a little-endian machine the int fields are
    views of ``data``, not copies; with ``stored`` (the same file, open), the large ones are read
    from it by position instead and the offsets copied, so nothing keeps ``data``."""
    start = len(MAGIC) + _HEADER_LEN.size
    if len(data) < start or data[:len(MAGIC)] != MAGIC:
        raise ValueError("not an index file")
    (header_len,) = _HEADER_LEN.unpack_from(data, len(MAGIC))
    if start + header_len > len(data):
        raise ValueError("index file truncated")
    header = loads_trusted(memoryview(data)[start:start + header_len])   # no copy of the header
    try:
        if header["format"] != FORMAT or not isinstance(header["generation"], str):
            raise ValueError("index file of another format")
        ids_end = start + header_len + header["ids_bytes"]
        if ids_end > len(data):
            raise ValueError("index file truncated")
        borrowed = borrow(header["ids_sha256"]) if borrow is not None else None
        if borrowed is not None:
            ids, slot_of = borrowed
        else:
            ids, slot_of = loads_trusted(memoryview(data)[start + header_len:ids_end]), None
        return header, _state_from(header, ids, memoryview(data)[ids_end:], stored, ids_end), slot_of
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError("index file header is malformed") from exc


def _state_from(header: dict, ids: list, body: memoryview, stored: _StoredFile | None = None,
                body_offset: int = 0) -> dict:
    lengths = header["lengths"]
    if len(lengths) != len(INT_FIELDS) + 1 or len(body) != 4 * sum(lengths) or lengths[-1] != lengths[0] - 1:
        raise ValueError("index file truncated or padded")
    state = {"format": header["state_format"], "ids": ids, "terms": header["terms"]}
    offset = body_offset
    for field, length in zip(INT_FIELDS, lengths):
        if stored is not None and field in _STORED_FIELDS:
            state[field] = _StoredInts(stored, offset, length)
        elif sys.byteorder == "little" and stored is None:
            state[field] = body[:4 * length].cast(_U32)   # read-only, shares ``body``'s buffer
        else:
            values = state[field] = array(_U32)
            values.frombytes(body[:4 * length])
            if sys.byteorder == "big":
                values.byteswap()
        body = body[4 * length:]
        offset += 4 * length
    doc_lengths = state["doc_lengths"] = array(_U32)      # copied (400 KB at 100k docs)
    doc_lengths.frombytes(body)
    if sys.byteorder == "big":
        doc_lengths.byteswap()
    distinct = header.get("distinct_lengths")      # absent from files written before it was saved
    if distinct is not None:
        if not isinstance(distinct, list) or len(distinct) > len(doc_lengths) + 1:
            raise ValueError("index file header is malformed")
        state["distinct_lengths"] = distinct
    return state
