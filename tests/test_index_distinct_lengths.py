"""The documents' distinct lengths are read from ``index.bin``'s header, not worked out again.

``BM25Index._norms`` evaluates the length part of the BM25 denominator once per distinct length; a
set over every document's length cost each process that opened a 100k index ~1.7 ms. A file
written without them (older code) is read as before, with the same lengths and scores.
"""
from __future__ import annotations

import orjson
import pytest

from memory.retrieval import index as index_module
from memory.retrieval.index import DATA_FILE, ScopeIndex

SETTINGS = {"k1": 1.2, "b": 0.75}
DOCS = [(f"mem_{n}", " ".join(["word"] * (n % 7 + 1) + [f"t{n}", "berlin" if n % 3 else "ramen"]))
        for n in range(40)]
QUERIES = ("berlin", "ramen word", "t7 word", "t39")


def header_and_body(data: bytes) -> tuple[dict, bytes]:
    start = len(index_module.MAGIC) + 8
    header_len = int.from_bytes(data[len(index_module.MAGIC):start], "little")
    return orjson.loads(data[start:start + header_len]), data[start + header_len:]


def written(header: dict, body: bytes) -> bytes:
    raw = orjson.dumps(header)
    return index_module.MAGIC + len(raw).to_bytes(8, "little") + raw + body


@pytest.fixture
def saved(tmp_path):
    index = ScopeIndex(tmp_path / "idx", SETTINGS)
    index.apply(DOCS, {"000001.jsonl": 1})
    index.save()
    return tmp_path / "idx", index


def test_the_distinct_lengths_come_from_the_file(saved, monkeypatch):
    folder, built = saved
    header, _ = header_and_body((folder / DATA_FILE).read_bytes())
    assert header["distinct_lengths"] == sorted(set(built._bm25._lens))
    real_set = set

    def no_set_over_every_length(values=()):
        if isinstance(values, index_module.array):
            pytest.fail("the lengths worked out again")
        return real_set(values)
    from memory.retrieval import bm25
    monkeypatch.setattr(bm25, "set", no_set_over_every_length, raising=False)
    loaded = ScopeIndex.open(folder, SETTINGS)
    assert loaded.rebuilt_reason is None
    assert loaded._bm25._distinct_lens == set(built._bm25._lens)
    for query in QUERIES:
        assert loaded.scores(query) == built.scores(query)


def test_a_file_without_them_is_read_as_before(saved):
    folder, built = saved
    header, body = header_and_body((folder / DATA_FILE).read_bytes())
    del header["distinct_lengths"]
    (folder / DATA_FILE).write_bytes(written(header, body))
    loaded = ScopeIndex.open(folder, SETTINGS)
    assert loaded.rebuilt_reason is None and loaded._bm25._distinct_lens == set(built._bm25._lens)
    for query in QUERIES:
        assert loaded.scores(query) == built.scores(query)


def test_a_malformed_entry_is_not_read(saved):
    folder, _ = saved
    header, body = header_and_body((folder / DATA_FILE).read_bytes())
    (folder / DATA_FILE).write_bytes(written({**header, "distinct_lengths": {"a": 1}}, body))
    assert ScopeIndex.open(folder, SETTINGS).rebuilt_reason == index_module.DATA_UNREADABLE
