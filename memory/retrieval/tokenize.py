"""Text to terms, one function for documents and queries alike.

``tokenize(text)``: NFKC, case-folded; English words lose stop words and are
stemmed with the Snowball English stemmer; numbers stay as they are ("32");
ISO dates stay whole ("2023-05-07"; a timestamp's time part is dropped); runs
of CJK characters (Han, Hiragana, Katakana, Hangul) become overlapping
character bigrams, a lone CJK character a unigram. Words keep an inner
apostrophe ("user's" stems to "user").

``TOKENIZER_VERSION`` names this behaviour; indexes record it in their sidecar
and rebuild when it differs, so bump it with any change to the output.
"""
from __future__ import annotations

import threading
import unicodedata
from bisect import bisect_right
from functools import lru_cache
from itertools import groupby

from .patterns import Lazy

TOKENIZER_VERSION = "1"

# Alternation order matters: a date must win over its digit runs. The time of
# an ISO timestamp is matched and dropped (the text is case-folded by then), so
# "2023-05-07T10:00Z" gives the date and no "t10"/"00z" debris. A word may
# still hold CJK characters ("abc漢字"): ``_append_mixed`` splits them, so the
# big CJK character classes never reach the regex compiler (~4 ms at import).
_TOKEN_RE = Lazy(
    r"(?P<date>[0-9]{4}-[0-9]{2}-[0-9]{2}(?![0-9]))"
    r"(?:t[0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?(?:z|[+-][0-9]{2}:?[0-9]{2})?(?![0-9]))?"
    r"|(?P<word>[^\W_]+(?:'[^\W_]+)*)"
)

# Code point ranges (first, last) of Han (+ extension A, compatibility,
# extensions B onwards), the iteration marks 々〆〇, Hiragana, Katakana (without
# the ・ separator), Katakana phonetic extensions and Hangul (jamo, compatibility
# jamo, syllables), sorted. Nothing below U+1100 is CJK.
_CJK_RANGES = (
    (0x1100, 0x11FF), (0x3005, 0x3007), (0x3040, 0x309F), (0x30A0, 0x30FA),
    (0x30FC, 0x30FF), (0x3130, 0x318F), (0x31F0, 0x31FF), (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF), (0xA960, 0xA97F), (0xAC00, 0xD7FF), (0xF900, 0xFAFF),
    (0x20000, 0x3134F),
)
_CJK_FIRSTS = [first for first, _ in _CJK_RANGES]
_FIRST_CJK = chr(_CJK_RANGES[0][0])

STOP_WORDS = frozenset("""
a about above after again against all am an and any are aren't as at
be because been before being below between both but by
can can't cannot could couldn't
did didn't do does doesn't doing don't down during
each few for from further
had hadn't has hasn't have haven't having he he'd he'll he's her here here's
hers herself him himself his how how's
i i'd i'll i'm i've if in into is isn't it it's its itself
let's me more most mustn't my myself
no nor not of off on once only or other ought our ours ourselves out over own
same shan't she she'd she'll she's should shouldn't so some such
than that that's the their theirs them themselves then there there's these they
they'd they'll they're they've this those through to too
under until up very
was wasn't we we'd we'll we're we've were weren't what what's when when's where
where's which while who who's whom why why's will with won't would wouldn't
you you'd you'll you're you've your yours yourself yourselves
""".split())

_STEM_CACHE_SIZE = 1 << 17
_stemmer = None
# Snowball stemmer objects keep the word being stemmed as instance state, so
# one shared object must not be used by two threads at once (the server).
_stemmer_lock = threading.Lock()


def tokenize(text: str) -> list[str]:
    """The terms of ``text``, in order, repeats kept."""
    if len(text) <= _SHORT_TEXT:
        return list(_short_terms(text))
    return _terms(text)


# A query tokenizes its question several times (the search, coverage, names, subjects) and
# the same few speaker names per candidate: short texts keep their terms. Documents, mostly
# longer, are tokenized once each and are not kept.
_SHORT_TEXT = 128


@lru_cache(maxsize=4096)
def _short_terms(text: str) -> tuple[str, ...]:
    return tuple(_terms(text))


def _terms(text: str) -> list[str]:
    text = unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")
    terms: list[str] = []
    for match in _TOKEN_RE.finditer(text):
        word = match.group("word")
        if word is None:
            terms.append(match.group("date"))
        elif max(word) < _FIRST_CJK:
            _append_word(terms, word)
        else:
            _append_mixed(terms, word)
    return terms


# Documents and queries go through the same function by design.
content_terms = tokenize


def _append_word(terms: list[str], word: str) -> None:
    term = _word_term(word)
    if term is not None:
        terms.append(term)


def _append_mixed(terms: list[str], word: str) -> None:
    """A word holding CJK: bigrams for its CJK runs, terms for the rest."""
    for is_cjk, chars in groupby(word, _is_cjk):
        run = "".join(chars)
        if is_cjk:
            terms.extend(_bigrams(run))
        elif run.strip("'"):
            # a cut may leave an apostrophe at the edge: "漢'abc" -> "'abc"
            _append_word(terms, run.strip("'"))


def _is_cjk(char: str) -> bool:
    code = ord(char)
    at = bisect_right(_CJK_FIRSTS, code) - 1
    return at >= 0 and code <= _CJK_RANGES[at][1]


def _bigrams(run: str) -> list[str]:
    if len(run) == 1:
        return [run]
    return [run[i:i + 2] for i in range(len(run) - 1)]


@lru_cache(maxsize=_STEM_CACHE_SIZE)
def _word_term(word: str) -> str | None:
    """A case-folded word's term, or None for a stop word (cached: the hot path)."""
    if word in STOP_WORDS:
        return None
    if word.isdigit():
        return word
    return _stem(word)


def _stem(word: str) -> str:
    term = _packaged_stems().get(word)
    if term is None:
        term = _remembered.get(word)
    if term is not None:
        return term
    global _stemmer
    with _stemmer_lock:
        if _stemmer is None:
            _stemmer = _english_stemmer_class()()
        term = _stemmer.stemWord(word)
        if len(_stemmed) < _MEMO_MAX:
            _stemmed[word] = term
    return term


# A scope's stem memo (``retrieval.index.STEMS_FILE``: the words of its documents, saved with its
# index) is handed to ``remember`` when the index is loaded, so a process stems no word of the
# scope that the process which saved the index stemmed before (Snowball in pure Python: ~25 us a
# word, ~400-700 words a ``memory query`` process, its candidates' clauses and speakers' names).
# A stem depends on the word and the tokenizer only: a memo of this ``TOKENIZER_VERSION`` holds
# for any scope. ``_stemmed``: the words this process stemmed itself (what the next memo saves).
# Both are bounded (a server answering many scopes): past the bound a word is stemmed again.
_MEMO_MAX = 1 << 18
_remembered: dict[str, str] = {}
_stemmed: dict[str, str] = {}


def remember(stems: dict[str, str]) -> None:
    """Take word -> term pairs a stem memo saved (written by ``known_stems`` under this
    ``TOKENIZER_VERSION``): those words are not stemmed again by this process."""
    with _stemmer_lock:
        if len(_remembered) + len(stems) <= _MEMO_MAX:
            _remembered.update(stems)


def known_stems(keep) -> dict[str, str]:
    """word -> term of every word this process stemmed or was handed (``remember``) whose term
    ``keep(term)`` accepts (an index keeps those of its own vocabulary), in word order. The
    packaged table's words are not among them: every process has those."""
    with _stemmer_lock:
        pairs = {**_remembered, **_stemmed}
    return {word: pairs[word] for word in sorted(pairs) if keep(pairs[word])}


@lru_cache(maxsize=1)
def _packaged_stems() -> dict[str, str]:
    """word -> its stem for the words of the packaged word tables (``memory/packaged/lexicon/
    stems.json``, written by ``tools/gen_stems.py``; tests/test_tokenize.py holds every entry to the
    stemmer): the category lexicon stemmed ~140 of them on every process's first question."""
    import json
    from ..paths import PACKAGED   # not importlib.resources: ~6-14 ms of a process's start-up

    try:
        text = PACKAGED.joinpath("lexicon", "stems.json").read_text(encoding="utf-8")
        table = json.loads(text)
    except (OSError, ValueError):     # not shipped: every word is stemmed, as before
        return {}
    return table["stems"] if table.get("tokenizer_version") == TOKENIZER_VERSION else {}


def stemmed_words(text: str) -> list[str]:
    """The words of ``text`` that ``tokenize`` stems (no stop word, no number), in order: the
    words ``tools/gen_stems.py`` keeps the stems of."""
    found: list[str] = []
    text = unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")
    for match in _TOKEN_RE.finditer(text):
        word = match.group("word")
        if word is None:
            continue
        if max(word) < _FIRST_CJK:
            parts = [word]
        else:
            parts = [run.strip("'") for is_cjk, chars in groupby(word, _is_cjk) if not is_cjk
                     for run in ["".join(chars)] if run.strip("'")]
        found += [part for part in parts if part not in STOP_WORDS and not part.isdigit()]
    return found


# The private package the English stemmer's modules are loaded under (``_english_stemmer_class``).
_SNOWBALL_ALIAS = "_memory_snowball_english"


def _english_stemmer_class() -> type:
    """Snowball's pure-Python English stemmer class, loaded without the package's ``__init__``.

    That ``__init__`` imports all 36 of its stemmers (~15 ms, a third of a query process's own
    imports) to fill a language table this module never reads. The generated
    ``english_stemmer`` module imports only its siblings ``basestemmer`` and ``among``, so it
    is loaded from the installed package's folder under a private package name whose
    ``__init__`` never runs: the code, and so every stem, is the installed package's own
    (tests/test_startup.py compares them). The class is named directly, never through
    ``snowballstemmer.stemmer``, so stems do not change when PyStemmer happens to be
    installed. Called once per process, under ``_stemmer_lock``.
    """
    import importlib
    import importlib.machinery
    import importlib.util
    import sys

    installed = None if "snowballstemmer" in sys.modules else importlib.util.find_spec("snowballstemmer")
    if installed is None or not installed.submodule_search_locations:
        # already imported by someone else (nothing left to save), or not installed (ImportError)
        from snowballstemmer.english_stemmer import EnglishStemmer
        return EnglishStemmer
    if _SNOWBALL_ALIAS not in sys.modules:
        alias = importlib.machinery.ModuleSpec(_SNOWBALL_ALIAS, None, is_package=True)
        alias.submodule_search_locations = list(installed.submodule_search_locations)
        sys.modules[_SNOWBALL_ALIAS] = importlib.util.module_from_spec(alias)
    return importlib.import_module(f"{_SNOWBALL_ALIAS}.english_stemmer").EnglishStemmer
