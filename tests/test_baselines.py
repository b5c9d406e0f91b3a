"""The two reference retrievers: BM25 over turns, ReFind-style pairs with session RRF."""
from __future__ import annotations

from memory.benchmark.baselines import (
    BASELINES,
    TurnBM25,
    _fallback_tokenize,
    adjacent_pairs,
    bm25_turns,
    fuse_session_rrf,
    prepare_baselines,
    refind_pairs,
)
from memory.importers import Turn

DATE = "2023-05-08T13:56:00Z"


def turn(ref, text, session="s1", speaker="Ann"):
    return Turn(ref=ref, session=session, speaker=speaker, text=text, date=DATE)


TURNS = [
    turn("D1:1", "We planted tomatoes in the garden."),
    turn("D1:2", "My violin lesson was on Tuesday."),
    turn("D1:3", "Tomatoes need plenty of sunshine."),
    turn("D1:4", "Then we cooked pasta."),
    turn("D2:1", "The harbour was foggy.", session="s2"),
    turn("D2:2", "A lighthouse blinked all night.", session="s2"),
]


def test_bm25_ranks_the_rarest_matching_term_first():
    assert bm25_turns(TURNS, "violin lesson", 5) == ["D1:2"]


def test_bm25_returns_only_turns_sharing_a_term_so_no_match_means_abstain():
    assert set(bm25_turns(TURNS, "tomatoes", 5)) == {"D1:1", "D1:3"}
    assert bm25_turns(TURNS, "saxophone quartet", 5) == []


def test_bm25_respects_the_limit():
    assert len(bm25_turns(TURNS, "tomatoes", 1)) == 1


def test_bm25_indexes_the_speaker_name():
    turns = TURNS + [turn("D2:3", "I waved back.", session="s2", speaker="Zelda")]
    assert bm25_turns(turns, "Zelda", 5) == ["D2:3"]


def test_bm25_matches_in_a_tiny_haystack_where_idf_is_zero():
    # With two documents a term in one of them has BM25 IDF exactly 0 in rank_bm25;
    # the turn still matched and must still be returned.
    turns = [turn("a", "alpha bravo"), turn("b", "charlie delta")]
    assert bm25_turns(turns, "alpha", 5) == ["a"]


def test_bm25_empty_haystack_or_stopword_question_returns_nothing():
    assert bm25_turns([], "tomatoes", 5) == []
    assert bm25_turns(TURNS, "what is the", 5) == []


def test_prebuilt_index_answers_like_the_one_shot_function():
    index = TurnBM25(TURNS)
    for question in ("tomatoes garden", "foggy lighthouse", "pasta"):
        assert index.rank(question, 3) == bm25_turns(TURNS, question, 3)


def test_adjacent_pairs_stay_inside_a_session_and_keep_lone_turns():
    turns = [turn("a", "x"), turn("b", "y"), turn("c", "z", session="s2"), turn("d", "w", session="s3"),
             turn("e", "v", session="s3")]
    assert [[t.ref for t in pair] for pair in adjacent_pairs(turns)] == [["a", "b"], ["c"], ["d", "e"]]


def test_refind_returns_the_matching_pair_with_its_neighbour():
    assert refind_pairs(TURNS, "violin", 10) == ["D1:1", "D1:2", "D1:3"]


def test_refind_never_pairs_across_sessions():
    # D1:4 is the last turn of s1; its pair partner is D1:3, never D2:1.
    assert refind_pairs(TURNS, "pasta", 10) == ["D1:3", "D1:4"]


def test_refind_deduplicates_turns_shared_by_two_pairs():
    ranked = refind_pairs(TURNS, "tomatoes sunshine", 10)
    assert len(ranked) == len(set(ranked))


def test_refind_respects_the_limit():
    assert len(refind_pairs(TURNS, "tomatoes", 2)) == 2


def test_session_rrf_lets_a_strong_session_overtake_a_better_ranked_pair():
    # Pair ranks 1:A 2:C 3:B with session ranks B1 A2 C3 (k=60):
    # A 1/61+1/62, C 1/62+1/63, B 1/63+1/61 -> A, B, C.
    assert fuse_session_rrf(["A", "C", "B"], {"B": 1, "A": 2, "C": 3}) == [0, 2, 1]


def test_session_rrf_keeps_order_when_sessions_agree():
    assert fuse_session_rrf(["A", "B", "C"], {"A": 1, "B": 2, "C": 3}) == [0, 1, 2]


def test_registry_and_prepared_rankers_agree():
    rankers = prepare_baselines(TURNS)
    assert set(rankers) == set(BASELINES) == {"bm25_turns", "refind_pairs"}
    for name, rank in rankers.items():
        assert rank("foggy harbour", 4) == BASELINES[name](TURNS, "foggy harbour", 4)


def test_fallback_tokenizer_lowercases_and_drops_stop_words():
    assert _fallback_tokenize("What did Ann's DOG eat?") == ["ann", "dog", "eat"]
