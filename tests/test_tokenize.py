"""tokenize: one normalization for documents and queries."""
from __future__ import annotations

import sys
import threading

import pytest

from memory.retrieval import tokenize as tokenize_module
from memory.retrieval.tokenize import STOP_WORDS, TOKENIZER_VERSION, content_terms, tokenize

from helpers import fresh_python


def test_case_and_width_are_folded():
    assert tokenize("ＣＡＦÉ Straße") == tokenize("café strasse") == ["café", "strass"]


def test_stop_words_are_dropped():
    assert tokenize("Where is the user's house?") == ["user", "hous"]


def test_inflections_share_a_stem():
    assert tokenize("running runs ran")[:2] == ["run", "run"]
    assert tokenize("cities") == tokenize("city")


def test_numbers_are_kept_as_tokens():
    assert tokenize("I have 32 apples since 2023") == ["32", "appl", "sinc", "2023"]


def test_iso_date_is_one_token():
    assert tokenize("moved on 2023-05-07.") == ["move", "2023-05-07"]


def test_timestamp_keeps_the_date_and_drops_the_time():
    assert tokenize("at 2023-05-07T10:00:00Z and 2023-05-07t10:00+02:00") == ["2023-05-07", "2023-05-07"]


def test_digit_run_longer_than_a_date_is_not_a_date():
    assert tokenize("2023-05-071") == ["2023", "05", "071"]


def test_han_run_becomes_bigrams():
    assert tokenize("東京都") == ["東京", "京都"]


def test_single_cjk_character_stays_a_unigram():
    assert tokenize("字 x") == ["字", "x"]


def test_kana_and_hangul_runs_become_bigrams():
    assert tokenize("ひらがな") == ["ひら", "らが", "がな"]
    assert tokenize("カタカナ") == ["カタ", "タカ", "カナ"]
    assert tokenize("서울") == ["서울"]


def test_cjk_run_is_split_from_adjacent_latin():
    assert tokenize("abc漢字def") == ["abc", "漢字", "def"]


def test_cjk_inside_a_word_keeps_the_word_parts_whole():
    assert tokenize("user's東京 2023年") == ["user", "東京", "2023", "年"]
    assert tokenize("漢'running") == ["漢", "run"]


def test_non_cjk_scripts_are_words_not_bigrams():
    assert tokenize("привет мир") == ["привет", "мир"]


def test_curly_apostrophe_is_a_straight_one():
    assert tokenize("user’s") == tokenize("user's") == ["user"]


def test_contraction_is_a_stop_word_not_two_fragments():
    assert tokenize("don't") == []


def test_punctuation_and_underscores_split_words():
    assert tokenize("snake_case, foo-bar!") == ["snake", "case", "foo", "bar"]


def test_content_terms_matches_tokenize():
    text = "The 2 users moved to 東京 on 2024-03-01"
    assert content_terms(text) == tokenize(text)


def test_stop_word_list_is_folded_and_plausibly_sized():
    assert all(word == word.casefold() for word in STOP_WORDS)
    assert 120 <= len(STOP_WORDS) <= 200


def test_tokenizer_version_is_a_string():
    assert isinstance(TOKENIZER_VERSION, str) and TOKENIZER_VERSION


def test_stemming_is_safe_across_threads():
    # The Snowball stemmer object is stateful; without the lock two threads
    # interleave inside stemWord and return each other's stems.
    words = [f"{stem}{suffix}" for stem in ("connect", "generous", "happi", "relat", "condit")
             for suffix in ("ing", "ed", "ly", "ness", "ation", "ional", "s", "es")]
    words = [f"{word}{'x' * n}" for word in words for n in range(20)]
    tokenize_module._word_term.cache_clear()
    expected = {word: tokenize_module._stem(word) for word in words}
    tokenize_module._word_term.cache_clear()
    results: dict[str, str] = {}

    def stem_all(chunk: list[str]) -> None:
        for word in chunk:
            results[word] = tokenize_module._stem(word)

    old_interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=stem_all, args=(words[i::8],)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(old_interval)
    assert results == expected


@pytest.mark.parametrize("text", ["", "   ", "?!", "the of and"])
def test_text_without_terms_gives_no_tokens(text):
    assert tokenize(text) == []


# -- the packaged stems (tools/gen_stems.py) ------------------------------------------------------

def _gen_stems():
    import importlib.util

    from memory.paths import PROJECT_ROOT
    spec = importlib.util.spec_from_file_location("gen_stems", PROJECT_ROOT / "tools" / "gen_stems.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_packaged_stems_are_generated_from_the_word_tables():
    gen = _gen_stems()
    assert gen.TARGET.read_text(encoding="utf-8") == gen.render(), "run: python tools/gen_stems.py"


def test_every_packaged_stem_is_the_stemmers():
    stems = tokenize_module._packaged_stems()
    stemmer = tokenize_module._english_stemmer_class()()
    assert len(stems) > 1000
    assert {word: stemmer.stemWord(word) for word in stems} == stems


def test_the_lexicon_stems_no_word_of_its_tables():
    """A `memory query` process read the category names and relation groups on its first question
    and stemmed ~140 words (pure-Python Snowball, ~40 us each); their stems are packaged."""
    code = ("from memory.retrieval import lexicon, tokenize as t\n"
            "lexicon.categories(); lexicon.relation_groups(); lexicon.categories()['veget'].members\n"
            "print(t._word_term.cache_info().misses > 100, t._stemmer is None)")
    assert fresh_python(code) == ["True", "True"]
