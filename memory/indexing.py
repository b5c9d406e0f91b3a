"""Keep a scope's BM25 index in step with its shards, reading only what is new.

The index is derived: its sidecar cursor records the bytes consumed per shard,
each pinned (``store.shard_pin``) to the file and the bytes before it. A refresh
reads each shard from its cursor to the last complete line; a pin that no longer
holds (an erasure's rewrite, a healed crash cut, a vanished shard) forces a rebuild. Records are never
re-tokenized when nothing changed.
"""
from __future__ import annotations

import shutil
from typing import TYPE_CHECKING

from .jsonio import loads_trusted
from .paths import scope_digest
from .retrieval.index import ScopeIndex
from .retrieval.temporal import date_words, relative_date_words
from .store import Store, pinned_offsets, shard_files, shard_pin

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


def open_index(store: Store, scope: dict, fingerprint: tuple | None = None) -> ScopeIndex:
    """The scope's index, refreshed from the shards (reading only what is new) and saved.

    The opened index stays on the store while the scope's files are unchanged (the same
    fingerprint ``Store.state`` trusts), so a long-lived store loads it once. A cached index
    is never changed in place once handed out (a served store shares it between threads):
    a refresh builds the next one from the files and replaces it. ``fingerprint``: the one
    the caller just took for this read (``Store.state``), so a query lists the scope once."""
    digest = scope_digest(scope["type"], scope["key"])
    if fingerprint is None:
        fingerprint = store.fingerprint(scope)
    # the settings are part of the key: a policy changed in place (a flag flipped between two
    # runs of one process) must not be served an index built under the old one
    key = (fingerprint, tuple(sorted(index_settings(store).items())))
    cached = store.index_cache.get(digest)
    if cached is not None and cached[0] == key:
        return cached[1]
    index = _refreshed(store, scope, store.layout.index_dir(digest))
    store.index_cache[digest] = (key, index)
    return index


def _refreshed(store: Store, scope: dict, directory) -> ScopeIndex:
    settings = index_settings(store)
    index = ScopeIndex.open(directory, settings)
    shards = shard_files(store.scope_dir(scope))
    offsets = pinned_offsets(shards, index.cursor)
    if offsets is None:
        index, offsets = ScopeIndex(directory, settings, rebuilt_reason="shards_changed"), {}
    if len(offsets) == len(shards) and all(offsets[n] == size for n, (_, size, _) in shards.items()):
        return index
    docs, cursor = [], {}
    for name, (path, size, inode) in shards.items():
        start = offsets.get(name, 0)
        with open(path, "rb") as handle:
            handle.seek(start)
            chunk = handle.read(size - start)
        complete = chunk[:chunk.rfind(b"\n") + 1]
        for line in complete.splitlines():
            record = loads_trusted(line)
            if record["revision"] == 1 and record["id"] not in index:
                docs.append((record["id"], document_text(record, speaker_field=settings["speaker_field"],
                                                               date_field=settings["date_field"],
                                                               relative_dates=settings["relative_dates"])))
        cursor[shard_pin(path, start + len(complete), inode)] = start + len(complete)
    index.apply(docs, cursor)
    _save_unless_moved(index, shards, store, scope)
    return index


def _save_unless_moved(index: ScopeIndex, shards: dict, store: Store, scope: dict) -> None:
    """Save, then make sure no writer rewrote a shard meanwhile (an erasure drops the index
    under the lock; a save racing it must not write erased words back)."""
    try:
        index.save()
    except OSError:
        return  # derived data: a read-only store still answers, it just re-reads next time
    now = {p.name: p.stat().st_ino for p in store.shard_paths(scope)}
    if any(now.get(name) != inode for name, (_, _, inode) in shards.items()):
        shutil.rmtree(index.directory, ignore_errors=True)


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
    current = store.derived(scope, "dense_index", lambda state: _dense_current(store, scope, state, encoder))
    if records is None:
        return current, None
    view = current.copy()
    view.refresh({rid: dense.dense_text(record) for rid, record in records.items()})
    return view, None


def _dense_current(store: Store, scope: dict, state, encoder) -> dense.DenseIndex:
    from .retrieval import dense
    texts = {record["id"]: dense.dense_text(record) for record in state.currents()}
    digest = scope_digest(scope["type"], scope["key"])
    index = dense.DenseIndex.open(store.layout.index_dir(digest) / dense.CACHE_FILE, encoder)
    if index.refresh(texts):
        try:
            index.save()
        except OSError:
            return index  # derived data: a read-only store still answers, it re-embeds next time
        if store.state(scope) is not state:
            # a writer changed the scope meanwhile (an erasure drops the index folder under the
            # lock): vectors of the state read before it must not be written back
            index.path.unlink(missing_ok=True)
    return index
