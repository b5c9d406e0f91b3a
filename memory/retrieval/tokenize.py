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

import re
import threading
import unicodedata
from functools import lru_cache

TOKENIZER_VERSION = "1"

# Han (+ extension A, compatibility, extensions B onwards), the iteration marks
# 々〆〇, Hiragana, Katakana (without the ・ word separator), Katakana phonetic
# extensions and Hangul (jamo, compatibility jamo, syllables).
_CJK = (
    "\u1100-\u11ff\u3005-\u3007\u3040-\u309f\u30a0-\u30fa\u30fc-\u30ff"
    "\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f"
    "\uac00-\ud7ff\uf900-\ufaff\U00020000-\U0003134f"
)
# Alternation order matters: a date must win over its digit runs, and CJK is
# excluded from words so that "abc漢字" splits into a word and a CJK run. The
# time of an ISO timestamp is matched and dropped (text is case-folded by
# then), so "2023-05-07T10:00Z" gives the date and no "t10"/"00z" debris.
_TOKEN_RE = re.compile(
    r"(?P<date>[0-9]{4}-[0-9]{2}-[0-9]{2}(?![0-9]))"
    r"(?:t[0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?(?:z|[+-][0-9]{2}:?[0-9]{2})?(?![0-9]))?"
    rf"|(?P<cjk>[{_CJK}]+)"
    rf"|(?P<word>[^\W_{_CJK}]+(?:'[^\W_{_CJK}]+)*)"
)

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
    text = unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")
    terms: list[str] = []
    for match in _TOKEN_RE.finditer(text):
        kind, token = match.lastgroup, match.group()
        if kind == "word":
            term = _word_term(token)
            if term is not None:
                terms.append(term)
        elif kind == "cjk":
            terms.extend(_bigrams(token))
        else:
            terms.append(match.group("date"))
    return terms


# Documents and queries go through the same function by design.
content_terms = tokenize


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
    global _stemmer
    with _stemmer_lock:
        if _stemmer is None:
            # Imported here: the package imports every language (~15 ms), a cost
            # that commands which never tokenize should not pay. The pure-Python
            # class is named directly so stems do not change when PyStemmer
            # happens to be installed.
            from snowballstemmer.english_stemmer import EnglishStemmer
            _stemmer = EnglishStemmer()
        return _stemmer.stemWord(word)
