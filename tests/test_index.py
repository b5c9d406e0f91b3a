"""ScopeIndex: a persistent, self-describing, rebuild-when-stale scope index."""
from __future__ import annotations

import math
import shutil

import orjson
import pytest
from rank_bm25 import BM25Okapi

from memory.retrieval import index as index_module
from memory.retrieval.index import DATA_FILE, META_FILE, ScopeIndex
from memory.retrieval.tokenize import TOKENIZER_VERSION, tokenize

SETTINGS = {"k1": 1.2, "b": 0.75}
DOCS = [
    ("mem_1", "The user lives in Berlin since 2023-05-07"),
    ("mem_2", "The user's favourite food is ramen"),
    ("mem_3", "Running club meets on Tuesdays in Berlin"),
    ("mem_4", "東京都に住んでいます"),
    ("mem_5", "Project deadline moved to 2024-01-15"),
]
CURSOR = {"000001.jsonl": 512}


@pytest.fixture
def saved(tmp_path):
    """A folder holding a saved index of DOCS."""
    index = ScopeIndex(tmp_path / "idx", SETTINGS)
    index.apply(DOCS, CURSOR)
    index.save()
    return tmp_path / "idx"


def test_saved_index_loads_with_docs_cursor_and_results(saved):
    built = ScopeIndex(saved, SETTINGS)
    built.apply(DOCS, CURSOR)
    loaded = ScopeIndex.open(saved, SETTINGS)
    assert loaded.rebuilt_reason is None
    assert loaded.cursor == CURSOR
    assert loaded.doc_ids() == [doc_id for doc_id, _ in DOCS]
    assert loaded.search("where does the user live?", 3) == built.search("where does the user live?", 3)
    assert loaded.terms("mem_3") == tokenize(DOCS[2][1])


def test_the_documents_lengths_are_read_from_the_file_not_worked_out(saved, monkeypatch):
    """Each document's length was worked out from the offsets by every process that opened the
    index (~5 ms at 100k documents); format 3 saves them. Same lengths, same scores."""
    from memory.retrieval import bm25
    built = ScopeIndex(saved, SETTINGS)
    built.apply(DOCS, CURSOR)
    real = bm25._run_lengths     # an empty index (no document) may work out its none
    monkeypatch.setattr(bm25, "_run_lengths",
                        lambda offsets: real(offsets) if len(offsets) < 2 else pytest.fail("lengths worked out"))
    loaded = ScopeIndex.open(saved, SETTINGS)
    assert loaded.rebuilt_reason is None
    assert list(loaded._bm25._lens) == [len(tokenize(text)) for _, text in DOCS]
    for query in ("Berlin", "user food", "2023-05-07 club", "東京"):
        assert loaded.scores(query) == built.scores(query)


def test_an_index_file_of_format_2_is_rebuilt_not_misread(saved):
    meta = orjson.loads((saved / META_FILE).read_bytes())
    (saved / META_FILE).write_bytes(orjson.dumps({**meta, "format": 2}))
    assert ScopeIndex.open(saved, SETTINGS).rebuilt_reason == "format_changed"
    data = (saved / DATA_FILE).read_bytes()         # a data file of another format: refused on its own
    start = len(index_module.MAGIC) + 8
    header_len = int.from_bytes(data[len(index_module.MAGIC):start], "little")
    header = orjson.loads(data[start:start + header_len])
    assert header["format"] == index_module.FORMAT == 3 and len(header["lengths"]) == len(index_module.INT_FIELDS) + 1
    older = orjson.dumps({**header, "format": 2, "lengths": header["lengths"][:-1]})
    body = data[start + header_len:]
    with pytest.raises(ValueError):
        index_module._decode(data[:len(index_module.MAGIC)] + len(older).to_bytes(8, "little") + older
                             + body[:len(body) - 4 * header["lengths"][-1]])


def test_sidecar_names_what_the_index_was_built_from(saved):
    meta = orjson.loads((saved / META_FILE).read_bytes())
    assert meta["format"] == index_module.FORMAT
    assert meta["tokenizer"] == TOKENIZER_VERSION
    assert meta["settings"] == SETTINGS
    assert meta["cursor"] == CURSOR
    assert meta["docs"] == len(DOCS)


def test_missing_folder_opens_empty(tmp_path):
    index = ScopeIndex.open(tmp_path / "nowhere", SETTINGS)
    assert index.rebuilt_reason == "missing"
    assert len(index) == 0 and index.cursor == {}


def test_changed_settings_open_empty(saved):
    index = ScopeIndex.open(saved, {"k1": 1.5, "b": 0.75})
    assert index.rebuilt_reason == "settings_changed"
    assert len(index) == 0 and index.cursor == {}


def test_added_setting_counts_as_a_change(saved):
    assert ScopeIndex.open(saved, {**SETTINGS, "epsilon": 0.25}).rebuilt_reason == "settings_changed"


def test_changed_tokenizer_opens_empty(saved, monkeypatch):
    monkeypatch.setattr(index_module, "TOKENIZER_VERSION", TOKENIZER_VERSION + "-next")
    index = ScopeIndex.open(saved, SETTINGS)
    assert index.rebuilt_reason == "tokenizer_changed" and len(index) == 0


def test_other_format_opens_empty(saved):
    meta = orjson.loads((saved / META_FILE).read_bytes())
    (saved / META_FILE).write_bytes(orjson.dumps({**meta, "format": index_module.FORMAT + 1}))
    assert ScopeIndex.open(saved, SETTINGS).rebuilt_reason == "format_changed"


@pytest.mark.parametrize("garbage", [b"", b"{not json", b"[]", b'{"cursor": {"a": "x"}, "docs": 1}'])
def test_unreadable_sidecar_opens_empty(saved, garbage):
    (saved / META_FILE).write_bytes(garbage)
    index = ScopeIndex.open(saved, SETTINGS)
    assert index.rebuilt_reason == "meta_unreadable" and len(index) == 0


@pytest.mark.parametrize("damage", [
    lambda data: data[:-3],               # torn tail
    lambda data: data[:20],               # torn header
    lambda data: b"garbage" + data,       # not our file
    lambda data: b"",
])
def test_damaged_data_file_opens_empty(saved, damage):
    path = saved / DATA_FILE
    path.write_bytes(damage(path.read_bytes()))
    index = ScopeIndex.open(saved, SETTINGS)
    assert index.rebuilt_reason == "data_unreadable" and len(index) == 0 and index.cursor == {}


def test_missing_data_file_opens_empty(saved):
    (saved / DATA_FILE).unlink()
    assert ScopeIndex.open(saved, SETTINGS).rebuilt_reason == "data_unreadable"


def test_data_and_sidecar_from_different_saves_open_empty(saved, tmp_path):
    # a crash after the data file was replaced but before the sidecar was
    old_meta = tmp_path / "old-meta"
    shutil.copy(saved / META_FILE, old_meta)
    index = ScopeIndex.open(saved, SETTINGS)
    index.remove("mem_1")
    index.apply([("mem_6", "new text")], {"000001.jsonl": 600})
    index.save()
    shutil.copy(old_meta, saved / META_FILE)
    stale = ScopeIndex.open(saved, SETTINGS)
    assert stale.rebuilt_reason == "data_mismatch" and len(stale) == 0 and stale.cursor == {}


def test_apply_replaces_a_doc_and_moves_the_cursor(saved):
    index = ScopeIndex.open(saved, SETTINGS)
    index.apply([("mem_1", "The user moved to Lisbon")], {"000001.jsonl": 700})
    assert index.cursor == {"000001.jsonl": 700}
    assert "mem_1" not in index.scores("berlin")
    assert index.search("lisbon", 5)[0][0] == "mem_1"
    assert len(index) == len(DOCS)


def test_changes_after_loading_survive_the_next_save(saved):
    index = ScopeIndex.open(saved, SETTINGS)
    index.apply([("mem_1", "The user moved to Lisbon"), ("mem_6", "Lisbon has trams")], {"000001.jsonl": 900})
    assert index.remove("mem_3") is True
    index.save()
    reloaded = ScopeIndex.open(saved, SETTINGS)
    fresh = ScopeIndex(saved, SETTINGS)
    fresh.apply([DOCS[1], DOCS[3], DOCS[4], ("mem_1", "The user moved to Lisbon"),
                 ("mem_6", "Lisbon has trams")], {})
    assert reloaded.rebuilt_reason is None
    assert reloaded.doc_ids() == fresh.doc_ids()
    query = "user lisbon berlin ramen"
    assert reloaded.scores(query) == pytest.approx(fresh.scores(query))
    assert reloaded.cursor == {"000001.jsonl": 900}


def test_remove_reports_whether_the_doc_was_indexed(saved):
    index = ScopeIndex.open(saved, SETTINGS)
    assert index.remove("mem_2") is True
    assert index.remove("mem_2") is False
    assert "mem_2" not in index and "mem_2" not in index.scores("ramen")


def test_search_takes_text_or_tokens(saved):
    index = ScopeIndex.open(saved, SETTINGS)
    assert index.search("Running in Berlin", 5) == index.search(["run", "berlin"], 5)
    assert index.scores("Running in Berlin") == index.scores(["run", "berlin"])


def test_cjk_and_dates_are_searchable(saved):
    index = ScopeIndex.open(saved, SETTINGS)
    assert index.search("東京", 1)[0][0] == "mem_4"
    assert index.search("2024-01-15", 1)[0][0] == "mem_5"


def test_scores_use_the_settings_parameters(tmp_path):
    settings = {"k1": 1.5, "b": 0.3, "epsilon": 0.5}
    index = ScopeIndex(tmp_path, settings)
    index.apply(DOCS, {})
    corpus = [tokenize(text) for _, text in DOCS]
    query = tokenize("user lives in Berlin")
    want = BM25Okapi(corpus, k1=1.5, b=0.3, epsilon=0.5).get_scores(query)
    got = index.scores(query)
    for (doc_id, _), score in zip(DOCS, want):
        if doc_id in got:
            assert math.isclose(got[doc_id], score, rel_tol=1e-9)
    assert set(got) == {"mem_1", "mem_2", "mem_3"}


def test_settings_without_k1_or_b_are_refused(tmp_path):
    with pytest.raises(ValueError):
        ScopeIndex(tmp_path, {"k1": 1.2})


def test_save_leaves_only_the_three_files(saved):
    index = ScopeIndex.open(saved, SETTINGS)
    index.save()
    assert sorted(path.name for path in saved.iterdir()) == [DATA_FILE, META_FILE, index_module.STEMS_FILE]


def test_empty_index_saves_and_loads(tmp_path):
    ScopeIndex(tmp_path, SETTINGS).save()
    index = ScopeIndex.open(tmp_path, SETTINGS)
    assert index.rebuilt_reason is None and len(index) == 0 and index.search("x", 3) == []


# -- the delta: one new doc costs an append, not a rewrite -------------------------------------

from memory.retrieval.index import DELTA_FILE  # noqa: E402


def _corpus(count: int) -> list[tuple[str, str]]:
    words = ["garden", "piano", "tax", "printer", "tyres", "library", "dentist", "standup", "folder"]
    return [(f"d{n}", f"{words[n % 9]} {words[(n * 7) % 9]} note {n}") for n in range(count)]


def _built(path, docs) -> ScopeIndex:
    index = ScopeIndex(path, SETTINGS)
    index.apply(docs, {"s": len(docs)})
    index.save()
    return ScopeIndex.open(path, SETTINGS)


def test_one_new_doc_is_appended_to_the_delta_and_reloads_with_the_same_scores(tmp_path):
    docs = _corpus(40)
    index = _built(tmp_path / "i", docs)
    base = (tmp_path / "i" / DATA_FILE).read_bytes()
    index.apply([("new", "the piano tuner comes on friday")], {"s": 41})
    index.save()
    assert (tmp_path / "i" / DATA_FILE).read_bytes() == base   # the base was not rewritten
    assert (tmp_path / "i" / DELTA_FILE).exists()
    reloaded = ScopeIndex.open(tmp_path / "i", SETTINGS)
    assert reloaded.rebuilt_reason is None and "new" in reloaded and reloaded.cursor == {"s": 41}
    fresh = _built(tmp_path / "fresh", docs + [("new", "the piano tuner comes on friday")])
    query = tokenize("piano friday")
    assert reloaded.scores(query) == pytest.approx(fresh.scores(query))


def test_bytes_a_crashed_save_left_past_the_sidecar_are_ignored_then_overwritten(tmp_path):
    index = _built(tmp_path / "i", _corpus(40))
    index.apply([("a", "garden hose")], {"s": 41})
    index.save()
    with open(tmp_path / "i" / DELTA_FILE, "ab") as handle:
        handle.write(b'{"g": "junk", "id": "ghost", "t": ["ghost"]}\n{"half')   # appended, never recorded
    reloaded = ScopeIndex.open(tmp_path / "i", SETTINGS)
    assert reloaded.rebuilt_reason is None and "ghost" not in reloaded and "a" in reloaded
    reloaded.apply([("b", "tax folder")], {"s": 42})
    reloaded.save()
    again = ScopeIndex.open(tmp_path / "i", SETTINGS)
    assert again.rebuilt_reason is None and {"a", "b"} <= set(again.doc_ids()) and "ghost" not in again


@pytest.mark.parametrize("damage", ["short", "other_base"])
def test_a_delta_that_does_not_match_its_sidecar_makes_the_index_stale(tmp_path, damage):
    index = _built(tmp_path / "i", _corpus(40))
    index.apply([("a", "garden hose")], {"s": 41})
    index.save()
    delta = tmp_path / "i" / DELTA_FILE
    if damage == "short":
        delta.write_bytes(delta.read_bytes()[:-5])
    else:
        delta.write_bytes(delta.read_bytes().replace(b'"g":"', b'"g":"x'))
    assert ScopeIndex.open(tmp_path / "i", SETTINGS).rebuilt_reason is not None


def test_a_large_delta_or_a_removal_folds_everything_into_the_base(tmp_path):
    index = _built(tmp_path / "i", _corpus(40))
    index.apply([(f"n{k}", f"piano note {k}") for k in range(index_module.DELTA_MIN_DOCS + 1)], {"s": 999})
    index.save()
    assert not (tmp_path / "i" / DELTA_FILE).exists()
    reloaded = ScopeIndex.open(tmp_path / "i", SETTINGS)
    reloaded.apply([("z", "garden")], {"s": 1000})
    reloaded.save()
    assert (tmp_path / "i" / DELTA_FILE).exists()
    reloaded = ScopeIndex.open(tmp_path / "i", SETTINGS)
    reloaded.remove("d0")
    reloaded.save()
    assert not (tmp_path / "i" / DELTA_FILE).exists()
    final = ScopeIndex.open(tmp_path / "i", SETTINGS)
    assert "d0" not in final and "z" in final and final.rebuilt_reason is None


# -- the stem memo (index.stems) ------------------------------------------------------------

@pytest.fixture
def fresh_tokenizer(monkeypatch):
    """The tokenizer as a new process has it: nothing stemmed, nothing remembered."""
    from memory.retrieval import tokenize as tokenizer

    def reset():
        monkeypatch.setattr(tokenizer, "_remembered", {})
        monkeypatch.setattr(tokenizer, "_stemmed", {})
        tokenizer._word_term.cache_clear()
        tokenizer._short_terms.cache_clear()
    reset()
    yield tokenizer, reset
    tokenizer._word_term.cache_clear()
    tokenizer._short_terms.cache_clear()


class _NoStemming:
    def stemWord(self, word):
        pytest.fail(f"stemmed again: {word}")


def test_a_loaded_index_hands_its_words_stems_over_so_a_process_stems_none_again(tmp_path, fresh_tokenizer,
                                                                               monkeypatch):
    """Every ``memory query`` process stemmed the words of its candidates' clauses and the
    scope's speakers' names again (Snowball in pure Python, ~400-700 words a process)."""
    tokenizer, reset = fresh_tokenizer
    built = ScopeIndex(tmp_path / "idx", SETTINGS)
    built.apply(DOCS, CURSOR)
    built.save()
    expected = {doc_id: tokenize(text) for doc_id, text in DOCS}
    memo = orjson.loads((tmp_path / "idx" / index_module.STEMS_FILE).read_bytes())
    assert memo["stems"]["lives"] == "live" and memo["stems"]["tuesdays"] == "tuesday"
    stemmer = tokenizer._english_stemmer_class()()
    assert all(stemmer.stemWord(word) == term for word, term in memo["stems"].items())
    reset()                                                  # a new process
    monkeypatch.setattr(tokenizer, "_stemmer", _NoStemming())
    loaded = ScopeIndex.open(tmp_path / "idx", SETTINGS)
    assert loaded.rebuilt_reason is None
    assert {doc_id: tokenize(text) for doc_id, text in DOCS} == expected


@pytest.mark.parametrize("change", ["tokenizer", "generation", "format", "not a term", "torn"])
def test_a_stem_memo_of_another_tokenizer_or_base_is_never_read(tmp_path, fresh_tokenizer, change):
    tokenizer, reset = fresh_tokenizer
    built = ScopeIndex(tmp_path / "idx", SETTINGS)
    built.apply(DOCS, CURSOR)
    built.save()
    path = tmp_path / "idx" / index_module.STEMS_FILE
    memo = orjson.loads(path.read_bytes())
    if change == "torn":
        path.write_bytes(path.read_bytes()[:-20])
    elif change == "not a term":
        path.write_bytes(orjson.dumps({**memo, "stems": {**memo["stems"], "lives": 3}}))
    else:
        path.write_bytes(orjson.dumps({**memo, change: memo[change] + 1 if change == "format" else memo[change] + "x"}))
    reset()
    assert ScopeIndex.open(tmp_path / "idx", SETTINGS).rebuilt_reason is None
    assert tokenizer._remembered == {}
    assert tokenize("The user lives in Berlin") == ["user", "live", "berlin"]


def test_a_new_base_saves_the_words_it_loaded_and_those_it_stemmed(tmp_path, fresh_tokenizer):
    tokenizer, reset = fresh_tokenizer
    built = ScopeIndex(tmp_path / "idx", SETTINGS)
    built.apply(DOCS, CURSOR)
    built.save()
    reset()
    loaded = ScopeIndex.open(tmp_path / "idx", SETTINGS)
    loaded.apply([("mem_6", "Zorbing lessons resumed")], CURSOR)
    loaded.remove("mem_5")                      # a removal folds everything into a new base
    loaded.save()
    stems = orjson.loads((tmp_path / "idx" / index_module.STEMS_FILE).read_bytes())["stems"]
    assert {"lives", "tuesdays", "zorbing", "resumed"} <= set(stems)
    assert "deadline" not in stems              # its only document went: not a term of the index
