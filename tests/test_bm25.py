"""BM25Index: incremental, and equal to rank-bm25's BM25Okapi on every matching doc."""
from __future__ import annotations

import math
from array import array

import numpy as np
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rank_bm25 import BM25Okapi

from memory.retrieval.bm25 import INT_FIELDS, BM25Index

# A small alphabet so that terms collide often: common terms (df > N/2) take
# the negative-idf floor and repeated tokens exercise tf > 1.
TERMS = st.sampled_from(["a", "b", "c", "d", "e", "f", "g", "h"])
TOKENS = st.lists(TERMS, max_size=8)
QUERY = st.lists(st.sampled_from(["a", "b", "c", "d", "e", "f", "g", "h", "zz"]), min_size=1, max_size=6)
PARAMS = st.sampled_from([(1.2, 0.75, 0.25), (1.5, 0.75, 0.25), (0.9, 0.4, 0.5), (2.0, 1.0, 0.1)])


def build(docs: dict[str, list[str]], params=(1.2, 0.75, 0.25)) -> BM25Index:
    k1, b, epsilon = params
    index = BM25Index(k1=k1, b=b, epsilon=epsilon)
    for doc_id, tokens in docs.items():
        index.add(doc_id, tokens)
    return index


def reference(docs: dict[str, list[str]], query: list[str], params) -> dict[str, float]:
    """rank-bm25's scores for the docs holding a query token."""
    k1, b, epsilon = params
    # with b = 1 an empty doc scores 0/0 = nan there; it holds no query token,
    # so it is not compared, and numpy's warning about it is noise
    with np.errstate(invalid="ignore"):
        raw = BM25Okapi(list(docs.values()), k1=k1, b=b, epsilon=epsilon).get_scores(query)
    return {doc_id: float(score) for (doc_id, tokens), score in zip(docs.items(), raw)
            if set(tokens) & set(query)}


def assert_matches_rank_bm25(index: BM25Index, docs: dict[str, list[str]], query, params) -> None:
    got, want = index.scores(query), reference(docs, query, params)
    assert set(got) == set(want)
    for doc_id, score in want.items():
        # relative 1e-9; the absolute slack only matters where a score cancels to ~0
        assert math.isclose(got[doc_id], score, rel_tol=1e-9, abs_tol=1e-12), doc_id


def has_tokens(docs: dict[str, list[str]]) -> bool:
    # rank-bm25 divides by zero on a corpus without a single token
    return any(docs.values())


@settings(max_examples=300, deadline=None)
@given(corpus=st.lists(TOKENS, min_size=1, max_size=12), query=QUERY, params=PARAMS)
def test_scores_equal_rank_bm25(corpus, query, params):
    docs = {f"d{i}": tokens for i, tokens in enumerate(corpus)}
    if has_tokens(docs):
        assert_matches_rank_bm25(build(docs, params), docs, query, params)


OPS = st.lists(st.one_of(
    st.tuples(st.just("add"), st.integers(0, 15), TOKENS),
    st.tuples(st.just("remove"), st.integers(0, 15)),
    st.tuples(st.just("query"), QUERY),
    st.tuples(st.just("roundtrip")),
), max_size=40)


@settings(max_examples=300, deadline=None)
@given(ops=OPS, params=PARAMS)
def test_scores_equal_rank_bm25_through_adds_removals_and_reloads(ops, params):
    # Queries between mutations catch a stale idf cache; "roundtrip" moves the
    # corpus into the loaded flat arrays, so later mutations hit the
    # copy-on-write path. The reference is rebuilt from the remaining docs.
    k1, b, epsilon = params
    index, docs = BM25Index(k1=k1, b=b, epsilon=epsilon), {}
    for op in ops + [("query", ["a", "b", "c"])]:
        if op[0] == "add":
            docs.pop(f"d{op[1]}", None)  # a replaced doc moves to the end
            docs[f"d{op[1]}"] = op[2]
            index.add(f"d{op[1]}", op[2])
        elif op[0] == "remove" and f"d{op[1]}" in docs:
            del docs[f"d{op[1]}"]
            index.remove(f"d{op[1]}")
        elif op[0] == "roundtrip":
            index = BM25Index.from_state(orjson.loads(orjson.dumps(index.to_state())),
                                         k1=k1, b=b, epsilon=epsilon)
        elif op[0] == "query" and has_tokens(docs):
            assert_matches_rank_bm25(index, docs, op[1], params)
        assert index.doc_ids() == list(docs)
        assert all(index.terms(doc_id) == tokens for doc_id, tokens in docs.items())
        # a term's holders, unscored, in insertion order: the planner counts them per session
        assert all(index.holders(term) == [d for d, tokens in docs.items() if term in tokens]
                   for term in ["a", "b", "h", "zz"])


def test_common_term_takes_the_epsilon_floor():
    # "a" is in 3 of 4 docs: raw idf < 0, replaced by epsilon * mean idf
    docs = {"d0": ["a", "b"], "d1": ["a", "c"], "d2": ["a", "d"], "d3": ["e"]}
    params = (1.2, 0.75, 0.25)
    index = build(docs, params)
    assert_matches_rank_bm25(index, docs, ["a"], params)
    assert index.scores(["a"])["d0"] > 0


def test_floor_after_removing_docs_from_a_loaded_index():
    # the df histogram is rebuilt from the loaded arrays plus the changed
    # postings; a stale entry for "a" (df 10 > N 3) would break the mean idf
    params = (1.2, 0.75, 0.25)
    docs = {f"d{i}": ["a", f"u{i}"] for i in range(10)}
    index = BM25Index.from_state(build(docs, params).to_state())
    for i in range(7):
        del docs[f"d{i}"]
        index.remove(f"d{i}")
    assert_matches_rank_bm25(index, docs, ["a"], params)


def test_repeated_query_token_counts_twice():
    index = build({"d0": ["x", "y"], "d1": ["y"], "d2": ["z"]})
    assert index.scores(["x", "x"])["d0"] == pytest.approx(2 * index.scores(["x"])["d0"])


def test_docs_without_query_terms_are_left_out():
    index = build({"d0": ["x"], "d1": ["y"], "d2": []})
    assert set(index.scores(["x", "missing"])) == {"d0"}


def test_top_orders_by_score_then_insertion():
    index = build({"long": ["x", "pad", "pad", "pad"], "tie1": ["x"], "tie2": ["x"], "other": ["y"]})
    assert [doc_id for doc_id, _ in index.top(["x"], 10)] == ["tie1", "tie2", "long"]
    assert [doc_id for doc_id, _ in index.top(["x"], 2)] == ["tie1", "tie2"]
    assert index.top(["x"], 0) == []


def test_top_scores_equal_scores():
    index = build({"d0": ["x", "y"], "d1": ["x"], "d2": ["y", "y"]})
    assert dict(index.top(["x", "y"], 10)) == index.scores(["x", "y"])


def test_re_adding_replaces_and_moves_the_doc_last():
    index = build({"d0": ["x", "v"], "d1": ["x", "u"], "d2": ["y", "u"], "d3": ["z", "v"]})
    index.add("d0", ["x", "w"])
    assert len(index) == 4
    assert index.terms("d0") == ["x", "w"]
    assert [doc_id for doc_id, _ in index.top(["x"], 10)] == ["d1", "d0"]
    assert index.doc_ids() == ["d1", "d2", "d3", "d0"]


def test_replacing_drops_the_old_terms():
    index = build({"d0": ["paris"], "d1": ["x"]})
    index.add("d0", ["berlin"])
    assert "d0" not in index.scores(["paris"])


def test_remove_unknown_id_raises():
    with pytest.raises(KeyError):
        build({"d0": ["x"]}).remove("nope")


def test_len_contains_and_version():
    index = build({"d0": ["x"]})
    version = index.version
    index.add("d1", ["y"])
    index.remove("d0")
    assert len(index) == 1 and "d1" in index and "d0" not in index
    assert index.version == version + 2


def test_terms_keep_order_and_repeats_after_reload():
    index = build({"d0": ["b", "a", "b"], "d1": ["c"]})
    loaded = BM25Index.from_state(index.to_state())
    assert loaded.terms("d0") == ["b", "a", "b"]
    with pytest.raises(KeyError):
        loaded.terms("nope")


def test_state_is_json_and_dense():
    index = build({"d0": ["x", "y"], "d1": ["y"], "d2": ["z"]})
    index.remove("d1")
    index.remove("d2")
    state = index.to_state()
    assert orjson.loads(orjson.dumps(state)) == state
    assert state["ids"] == ["d0"] and sorted(state["terms"]) == ["x", "y"]  # "z" left with d2


def test_to_state_is_a_copy():
    index = build({"d0": ["x"]})
    state = index.to_state()
    index.add("d1", ["x"])
    assert state["ids"] == ["d0"] and state["postings"] == [0]


def test_from_state_accepts_arrays_and_leaves_them_unchanged():
    state = build({"d0": ["x", "y"], "d1": ["y"]}).to_state()
    for field in INT_FIELDS:
        state[field] = array("I", state[field])
    frozen = {field: state[field].tolist() for field in INT_FIELDS}
    index = BM25Index.from_state(state)
    index.add("d2", ["x"])
    index.remove("d0")
    assert {field: state[field].tolist() for field in INT_FIELDS} == frozen
    assert set(index.scores(["x"])) == {"d2"}


def test_many_removals_compact_without_changing_scores():
    params = (1.2, 0.75, 0.25)
    docs = {f"d{i}": [f"t{i % 7}", f"t{i % 3}", "common"] for i in range(300)}
    index = build(docs, params)
    for i in range(300):
        if i % 5 or i % 4 == 0:
            del docs[f"d{i}"]
            index.remove(f"d{i}")
    assert len(index._ids) < 300  # the holes were squeezed out: the path under test ran
    assert index.doc_ids() == list(docs)
    assert_matches_rank_bm25(index, docs, ["t1", "t2", "common"], params)
    assert index.terms("d5") == docs["d5"]


@pytest.mark.parametrize("damage", [
    lambda s: s.update(format=99),
    lambda s: s.pop("tfs"),
    lambda s: s["doc_offsets"].append(99),
    lambda s: s["posting_offsets"].pop(),
    lambda s: s["ids"].append(s["ids"][0]) or s["doc_offsets"].append(s["doc_offsets"][-1]),
])
def test_from_state_rejects_malformed_state(damage):
    state = build({"d0": ["x", "y"], "d1": ["y"]}).to_state()
    damage(state)
    with pytest.raises(ValueError):
        BM25Index.from_state(state)


def test_empty_index_scores_nothing():
    index = BM25Index()
    assert index.scores(["x"]) == {} and index.top(["x"], 5) == [] and len(index) == 0


def test_idf_of_known_term_matches_rank_bm25_and_unseen_term_is_rarest():
    from rank_bm25 import BM25Okapi
    corpus = [["a", "b"], ["a", "c"], ["a", "d", "d"], ["e"]]
    index = BM25Index()
    for number, doc in enumerate(corpus):
        index.add(f"d{number}", doc)
    reference = BM25Okapi(corpus)
    assert index.idf("c") == pytest.approx(reference.idf["c"])
    assert index.idf("a") == pytest.approx(reference.idf["a"])  # the epsilon floor case
    unseen = index.idf("zzz")
    assert unseen > max(reference.idf.values())


@settings(max_examples=200, deadline=None)
@given(corpus=st.lists(TOKENS, min_size=1, max_size=12), queries=st.lists(QUERY, min_size=1, max_size=5),
       extra=st.lists(TOKENS, max_size=3))
def test_a_query_extending_a_recent_one_scores_exactly_as_from_scratch(corpus, queries, extra):
    # the planner searches a question, then the question plus feedback terms: the second
    # starts from the first one's sums, which must give the same floats in the same order
    docs = {f"d{i}": tokens for i, tokens in enumerate(corpus)}
    index = build(docs)
    for query in queries + [queries[0] + queries[-1], queries[-1] + queries[0] + ["a"], queries[0], queries[-1]]:
        assert list(index.scores(query).items()) == list(build(docs).scores(query).items())
    for i, tokens in enumerate(extra):  # a change forgets the remembered sums
        index.scores(queries[0])
        index.add(f"x{i}", tokens)
        query = queries[0] + ["a", "b"]
        assert list(index.scores(query).items()) == without_memo(index, query)


def without_memo(index: BM25Index, query: list[str]) -> list:
    # an index changed in place may differ in the last bit from a fresh build (its idf floor
    # sums the df histogram in another order), so the reference is the same index, unmemoized
    remembered, index._recent = index._recent, []
    try:
        return list(index.scores(query).items())
    finally:
        index._recent = remembered


@settings(max_examples=100, deadline=None)
@given(corpus=st.lists(TOKENS, min_size=1, max_size=30), params=PARAMS)
def test_length_norms_are_the_per_document_expression_exactly(corpus, params):
    # evaluated once per distinct length and spread over the slots: the same floats as
    # evaluating k1 * (1 - b + b * dl / avgdl) for each document, as rank-bm25 does
    index = build({f"d{i}": tokens for i, tokens in enumerate(corpus)}, params)
    if not index._total_len:
        return
    k1, b, _ = params
    avgdl = index._total_len / len(index)
    assert index._norms() == [k1 * ((1 - b) + b * len(tokens) / avgdl) for tokens in corpus]


def _reference_bound(index: BM25Index, token: str) -> float:
    """The largest part a holder of ``token`` adds, evaluated for every holder (as the scoring
    loop adds it), with the index's norms."""
    term_id = index._term_id[token]
    slots, tfs, df = index._posting_df(term_id)
    norms, idf, k1_plus_1 = index._norms(), index._idf(token, df), index.k1 + 1
    return max(idf * (tf * k1_plus_1 / (tf + norms[slot])) for slot, tf in zip(slots[:df], tfs[:df]))


@settings(max_examples=150, deadline=None)
@given(first=st.lists(TOKENS, min_size=1, max_size=25), later=st.lists(st.lists(TOKENS, max_size=4), max_size=5),
       removed=st.lists(st.integers(0, 60), max_size=3), params=PARAMS, tail=st.sampled_from([0, 4096]))
def test_norms_and_bounds_kept_across_writes_equal_fresh_ones(first, later, removed, params, tail):
    # ``_spread`` keeps the lengths of the first slots, ``_shortest_by_tf`` what each posting held,
    # across writes that append documents (forks of forks, as a served scope's searches take them);
    # a removal changes them in place. Every version's norms and bounds must be those worked out
    # afresh for it, to the last bit
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("memory.retrieval.bm25._NORM_TAIL", tail)    # a new snapshot now and then, or never
        _check_kept_across_writes(first, later, removed, params)


def _check_kept_across_writes(first, later, removed, params):
    k1, b, _ = params
    index = build({f"d{i}": tokens for i, tokens in enumerate(first)}, params)
    docs = dict(enumerate(first))
    versions = []
    for step, batch in enumerate(later):
        for tokens in batch:
            index.add(f"n{len(docs)}", tokens)
            docs[len(docs)] = tokens
        if step < len(removed) and f"d{removed[step]}" in index:
            index.remove(f"d{removed[step]}")
            docs.pop(removed[step])
        versions.append(index)
        if index._total_len:
            avgdl = index._total_len / len(index)
            lengths = [len(index._doc_term_ids(s)) if index._ids[s] is not None else 0 for s in range(index._n_slots)]
            assert index._norms() == [k1 * ((1 - b) + b * length / avgdl) for length in lengths]
            for token in sorted({t for tokens in docs.values() for t in tokens}):
                term_id = index._term_id[token]
                slots, tfs, df = index._posting_df(term_id)
                if df and index._idf(token, df) > 0:
                    assert index._bound(token, slots, tfs, df) == _reference_bound(index, token)
        index = index.fork()
    for older in versions:          # an older index reads as it did
        if older._total_len:
            for token in sorted(older._term_id):
                slots, tfs, df = older._posting_df(older._term_id[token])
                if df and older._idf(token, df) > 0:
                    assert older._bound(token, slots, tfs, df) == _reference_bound(older, token)
