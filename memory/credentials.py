"""Recognize text that carries a secret, and redact it when policy says so.

Each detector names a well-known credential shape (after the public rule sets of
GitHub secret scanning and gitleaks, written afresh); a hit is refused
(``credential_detected``) by default or replaced by ``[REDACTED:<kind>]``. The
matched text itself is never reported anywhere.

Text is screened in its ``screen_form``: NFKC (full-width ``ｐａｓｓｗｏｒｄ`` is
``password``) with invisible characters removed (a zero-width space inside
``pass\u200bword`` hides nothing). Generic ``name = value`` detectors judge the value:
a word like ``key`` or ``token`` counts only with a machine-looking value, so prose
("the key to success", "my password manager is 1Password") passes.
"""
from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

# Unicode's Default_Ignorable_Code_Point set: characters that render as nothing
_INVISIBLE = re.compile("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
                        "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3"
                        "\U0001d173-\U0001d17a\U000e0000-\U000e0fff]")


def screen_form(text: str) -> str:
    """The text the detectors read: NFKC, invisible characters removed (ASCII is its own form)."""
    if text.isascii():
        return text
    return _INVISIBLE.sub("", unicodedata.normalize("NFKC", text))


def _entropy(value: str) -> float:
    return -sum(n / len(value) * math.log2(n / len(value)) for n in Counter(value).values())


def _value(match: re.Match, text: str) -> str:
    return text[match.start("value"):match.end("value")]


def _machine_like(match: re.Match, text: str) -> bool:
    """A value that looks generated: long, letters and digits mixed, not a repeated pattern."""
    value = _value(match, text)
    return (len(value) >= 16 and any(c.isdigit() for c in value) and any(c.isalpha() for c in value)
            and _entropy(value) >= 3.0)


def _mixed_case_or_digit(match: re.Match, text: str) -> bool:
    # real keys are base62; "sk-learn-compatible-estimator" is prose
    return any(c.isdigit() or c.isupper() for c in _value(match, text))


# a value holding one of these is a placeholder or code, not a secret: "<your_password>",
# "{$api_secret}", "request.form['password']", 'YOUR_API_SECRET', "my_api_key", "secretName:"
_NOT_LITERAL = ("<", ">", "{", "}", "$", "(", "[", "%", "your", "my_", "my-", "example", "placeholder", "replace",
                "changeme", "xxxx", "****", "...")
_PROSE_ENDINGS = ("ed", "ing", "ly", "able", "ible", "ful", "less", "ous", "ive", "ion")
_PROSE_WORDS = frozenset({"correct", "incorrect", "invalid", "secure", "insecure", "strong", "unknown",
                          "private", "public", "simple", "complex", "different", "written", "stolen"})


def _literal_value(value: str) -> bool:
    lowered = value.lower()
    return not value.endswith(":") and not any(marker in lowered for marker in _NOT_LITERAL)


def _prose_word(value: str) -> bool:
    word = value.rstrip(".,;:!?").lower()
    return word.isalpha() and (word in _PROSE_WORDS or word.endswith(_PROSE_ENDINGS))


def _told_password(match: re.Match, text: str) -> bool:
    # "my password is sunflower" tells a password; "the password is required" describes one
    value = _value(match, text)
    return _literal_value(value) and not (match["spoken"] and _prose_word(value))


def _told_secret(match: re.Match, text: str) -> bool:
    # after "is", only a value that is not a plain word counts ("the secret is chocolate" is prose)
    value = _value(match, text)
    if not _literal_value(value):
        return False
    if not match["spoken"]:
        return True
    value = value.rstrip(".,;:!?")
    return (not _prose_word(value) and (any(c.isdigit() or not c.isalpha() for c in value)
                                         or any(c.isupper() for c in value[1:])))


_ALNUM = re.compile("[A-Za-z0-9]")
_WORD = re.compile(r"\w")                                     # what \b looks at


@dataclass(frozen=True)
class Detector:
    kind: str
    pattern: re.Pattern
    literals: tuple[str, ...]           # lower-case text every match holds (the pre-screen)
    judge: Callable[[re.Match, str], bool] | None = None   # (match, text): a match counts only if it agrees
    # a match may not follow a character this matches: a lookbehind, checked here rather than
    # leading the pattern, where it kept re from skipping to the pattern's first literal
    edge: re.Pattern | None = None
    # matched against the folded text (see ``fold``) with a case-sensitive pattern: the same
    # matches as (?i) on the text, three to seven times faster; judges still read the text
    folded: bool = False

    def matches(self, text: str, folded: str | None = None):
        subject = (folded if folded is not None else fold(text)) if self.folded else text
        position = 0
        while (match := self.pattern.search(subject, position)) is not None:
            start = match.start()
            if self.edge is not None and start and self.edge.match(subject, start - 1):
                position = start + 1  # as the lookbehind would: try again one character on
                continue
            if self.judge is None or self.judge(match, text):
                yield match
            position = max(match.end(), start + 1)


def _token(kind: str, pattern: str, literals: tuple[str, ...], judge=None) -> Detector:
    """A token shape that does not start inside a longer word or token ("_" and "-" may precede)."""
    return Detector(kind, re.compile(pattern), literals, judge, _ALNUM)


_EDGE = r"(?<![A-Za-z0-9])"          # not inside a longer word or token ("_" and "-" may precede)
_END = r"(?![A-Za-z0-9])"
_PASSWORD_NAMES = r"password|passwd|pwd|passphrase|passcode"
_SECRET_NAMES = (r"secret|client[_ -]?secret|secret[_ -]?(?:access[_ -]?)?key|api[_ -]?key|apikey|private[_ -]?key|"
                 r"(?:access|auth|refresh|session|bearer)[_ -]?token")
_TOKEN_NAMES = r"token|key|auth|credentials?|creds|access[_-]?key(?:[_-]?id)?"
# on one line: "Password:\n```php" is a heading before code, not an assignment
_SEPARATOR = r"""['"]?[ \t]*(?:=>|:=|[:=])[ \t]*['"]?"""
_TOLD = r"""(?:""" + _SEPARATOR + r"""|(?P<spoken>[ \t]+is[ \t]+)['"]?)(?P<value>[^\s'"]{6,})"""

_DETECTORS = [
    Detector("private_key", re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"), ("-----begin ",)),
    _token("aws_access_key", r"(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}" + _END,
           ("akia", "asia", "abia", "acca", "a3t")),
    _token("github_token", r"(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})",
           ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_")),
    _token("gitlab_token",
           r"(?:gl(?:pat|dt|rt|ptt|ft|imt|oas|cbt|soat|agent)-[A-Za-z0-9_-]{20,}|GR1348941[A-Za-z0-9_-]{20,})",
           ("glpat-", "gldt-", "glrt-", "glptt-", "glft-", "glimt-", "gloas-", "glcbt-", "glsoat-", "glagent-",
            "gr1348941")),
    _token("slack_token", r"(?:xox[abeoprs]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,})",
           ("xoxa-", "xoxb-", "xoxe-", "xoxo-", "xoxp-", "xoxr-", "xoxs-", "xapp-")),
    Detector("slack_webhook", re.compile(r"hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9+/]{20,}"),
             ("hooks.slack.com/",)),
    _token("stripe_key", r"(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,}",
           ("sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_")),
    _token("npm_token", r"npm_[A-Za-z0-9]{36}" + _END, ("npm_",)),
    _token("pypi_token", r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{20,}", ("pypi-ageichlwas5vcmc",)),
    _token("anthropic_key", r"sk-ant-[a-z]+\d*-[A-Za-z0-9_-]{20,}", ("sk-ant-",)),
    _token("openai_key", r"sk-(?P<value>(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,})", ("sk-",),
           _mixed_case_or_digit),
    _token("google_api_key", r"AIza[0-9A-Za-z_-]{35}", ("aiza",)),
    _token("huggingface_token", r"hf_[A-Za-z]{34}" + _END, ("hf_",)),
    _token("sendgrid_key", r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}", ("sg.",)),
    Detector("jwt", re.compile(r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"), ("eyj",),
             edge=_WORD),
    Detector("bearer_token", re.compile(r"[Bb]earer\s+[A-Za-z0-9._~+/-]{20,}=*"), ("bearer",), edge=_WORD),
    # "postgres://user:pass@host", from the "://" on: any scheme will do
    Detector("url_credentials", re.compile(r"://[^\s/:@'\"]+:[^\s/@'\"]+@(?=[^\s/@'\"])"), ("://",)),
    # "password is hunter22", "db_password: x9...": any value of 6+ characters that is not a
    # placeholder (a told password is often a plain word: "the wifi password is sunflower")
    Detector("assignment", re.compile(r"(?:" + _PASSWORD_NAMES + r")" + _END + _TOLD),
             ("pass", "pwd"), _told_password, _ALNUM, folded=True),
    # "AWS_SECRET_ACCESS_KEY=...", "api key: ...", "the api key is Xk29fLq0" (here the lookbehind
    # leading the pattern is the faster way: it turns away every "key" inside a word at once)
    Detector("secret_assignment", re.compile(_EDGE + r"(?:" + _SECRET_NAMES + r")" + _END + _TOLD),
             ("secret", "key", "token"), _told_secret, folded=True),
    # "token: 3f9a...", "key=8c2e...": a weaker name counts only with a generated-looking value
    Detector("token_assignment", re.compile(r"(?:" + _TOKEN_NAMES + r")" + _END + _SEPARATOR
                                            + r"(?P<value>[A-Za-z0-9+/_.~=-]{16,})"),
             ("token", "key", "auth", "cred"), _machine_like, _ALNUM, folded=True),
]
_LITERALS = tuple(dict.fromkeys(literal for d in _DETECTORS for literal in d.literals))


def _trie_pattern(words: tuple[str, ...]) -> str:
    """One regex for "any of ``words``", factored by common prefix: re tries one branch per
    character instead of each word in turn (a plain alternation was slower than 55 ``in`` tests)."""
    trie: dict = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}
    def pattern(node: dict) -> str:
        branches = [re.escape(char) + pattern(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body
    return pattern(trie)


_ANY_LITERAL = re.compile(_trie_pattern(_LITERALS))


# the only characters re's case-insensitive matching pairs with an ASCII letter other than by
# lower() (found by trying every code point against a-z); U+0130 is also the only character
# whose lower() is longer than one, so a folded text keeps the text's indices
_CASE_FOLDS = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s"})


def fold(form: str) -> str:
    """Lower case, and the three letters re pairs with ASCII ones made ASCII: on it a lower-case
    pattern matches where the same pattern with (?i) matches on ``form``, at the same indices."""
    return form.lower() if form.isascii() else form.translate(_CASE_FOLDS).lower()


def _candidates(folded: str) -> list[Detector]:
    """The detectors whose literals the folded text holds: a detector without one cannot match,
    so it is not run (every free string of every envelope is screened)."""
    if _ANY_LITERAL.search(folded) is None:  # the common case, in one scan
        return []
    possible = []
    for detector in _DETECTORS:
        for literal in detector.literals:
            if literal in folded:
                possible.append(detector)
                break
    return possible


def _found(detectors: list[Detector], form: str, folded: str) -> list[str]:
    return [d.kind for d in detectors if next(d.matches(form, folded), None) is not None]


def credential_kinds(text: str) -> list[str]:
    """The kinds of secret found in ``text`` (empty when clean)."""
    form = screen_form(text)
    folded = fold(form)
    return _found(_candidates(folded), form, folded)


def fields_with_credentials(fields: list[tuple[str, str]]) -> list[str]:
    """The names of the (name, text) fields that carry a secret, in order, each once.

    The pre-screen reads all the texts at once: an envelope's dozen free strings hold no
    literal of any detector, almost always, and then no field is screened alone.
    """
    forms = [(name, screen_form(text)) for name, text in fields]
    possible = _candidates(fold("\n".join(form for _, form in forms)))  # absent from all, absent from each
    if not possible:
        return []
    return list(dict.fromkeys(name for name, form in forms if _found(possible, form, fold(form))))


def redact(text: str) -> str:
    """``text`` with every secret replaced by ``[REDACTED:<kind>]`` (then in its screen form),
    or ``text`` itself when it holds none."""
    form = screen_form(text)
    redacted = form
    for detector in _candidates(fold(form)):
        redacted = _redact_one(detector, redacted)
    return text if redacted == form else redacted


def _redact_one(detector: Detector, text: str) -> str:
    spans = [match.span() for match in detector.matches(text)]
    for start, end in reversed(spans):
        text = f"{text[:start]}[REDACTED:{detector.kind}]{text[end:]}"
    return text
