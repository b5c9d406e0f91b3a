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


def _machine_like(match: re.Match) -> bool:
    """A value that looks generated: long, letters and digits mixed, not a repeated pattern."""
    value = match["value"]
    return (len(value) >= 16 and any(c.isdigit() for c in value) and any(c.isalpha() for c in value)
            and _entropy(value) >= 3.0)


def _mixed_case_or_digit(match: re.Match) -> bool:
    # real keys are base62; "sk-learn-compatible-estimator" is prose
    return any(c.isdigit() or c.isupper() for c in match["value"])


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


def _told_password(match: re.Match) -> bool:
    # "my password is sunflower" tells a password; "the password is required" describes one
    value = match["value"]
    return _literal_value(value) and not (match["spoken"] and _prose_word(value))


def _told_secret(match: re.Match) -> bool:
    # after "is", only a value that is not a plain word counts ("the secret is chocolate" is prose)
    value = match["value"]
    if not _literal_value(value):
        return False
    if not match["spoken"]:
        return True
    value = value.rstrip(".,;:!?")
    return (not _prose_word(value) and (any(c.isdigit() or not c.isalpha() for c in value)
                                         or any(c.isupper() for c in value[1:])))


_ALNUM = re.compile("[A-Za-z0-9]")
_ALNUM_ANY_CASE = re.compile("[A-Za-z0-9]", re.IGNORECASE)   # what the class matches in a (?i) pattern
_WORD = re.compile(r"\w")                                     # what \b looks at


@dataclass(frozen=True)
class Detector:
    kind: str
    pattern: re.Pattern
    literals: tuple[str, ...]                          # lower-case text every match holds (the pre-screen)
    judge: Callable[[re.Match], bool] | None = None    # a match counts only when the judge agrees
    # a match may not follow a character this matches: a lookbehind, checked here rather than
    # leading the pattern, where it kept re from skipping to the pattern's first literal
    edge: re.Pattern | None = None

    def matches(self, text: str):
        if self.edge is None:
            for match in self.pattern.finditer(text):
                if self.judge is None or self.judge(match):
                    yield match
            return
        position = 0
        while (match := self.pattern.search(text, position)) is not None:
            start = match.start()
            if start and self.edge.match(text, start - 1):
                position = start + 1  # as the lookbehind would: try again one character on
                continue
            if self.judge is None or self.judge(match):
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
    Detector("assignment", re.compile(r"(?i)(?:" + _PASSWORD_NAMES + r")" + _END + _TOLD),
             ("pass", "pwd"), _told_password, _ALNUM_ANY_CASE),
    # "AWS_SECRET_ACCESS_KEY=...", "api key: ...", "the api key is Xk29fLq0" (the lookbehind stays
    # in these two patterns: without it re stops at every "key" and "token" of running text)
    Detector("secret_assignment", re.compile(r"(?i)" + _EDGE + r"(?:" + _SECRET_NAMES + r")" + _END + _TOLD),
             ("secret", "key", "token"), _told_secret),
    # "token: 3f9a...", "key=8c2e...": a weaker name counts only with a generated-looking value
    Detector("token_assignment", re.compile(r"(?i)" + _EDGE + r"(?:" + _TOKEN_NAMES + r")" + _END + _SEPARATOR
                                            + r"(?P<value>[A-Za-z0-9+/_.~=-]{16,})"),
             ("token", "key", "auth", "cred"), _machine_like),
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
# lower() (found by trying every code point against a-z): folded first, the literal pre-screen
# holds for non-ASCII text too
_CASE_FOLDS = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s"})


def _candidates(form: str) -> list[Detector]:
    """The detectors whose literals ``form`` holds: a detector without one cannot match, so it
    is not run (every free string of every envelope is screened)."""
    lowered = form.lower() if form.isascii() else form.translate(_CASE_FOLDS).lower()
    if _ANY_LITERAL.search(lowered) is None:  # the common case, in one scan
        return []
    possible = []
    for detector in _DETECTORS:
        for literal in detector.literals:
            if literal in lowered:
                possible.append(detector)
                break
    return possible


def credential_kinds(text: str) -> list[str]:
    """The kinds of secret found in ``text`` (empty when clean)."""
    form = screen_form(text)
    return [d.kind for d in _candidates(form) if next(d.matches(form), None) is not None]


def fields_with_credentials(fields: list[tuple[str, str]]) -> list[str]:
    """The names of the (name, text) fields that carry a secret, in order, each once.

    The pre-screen reads all the texts at once: an envelope's dozen free strings hold no
    literal of any detector, almost always, and then no field is screened alone.
    """
    forms = [(name, screen_form(text)) for name, text in fields]
    possible = _candidates("\n".join(form for _, form in forms))  # absent from all, absent from each
    if not possible:
        return []
    return list(dict.fromkeys(name for name, form in forms
                              if any(next(d.matches(form), None) is not None for d in possible)))


def redact(text: str) -> str:
    """``text`` with every secret replaced by ``[REDACTED:<kind>]`` (then in its screen form),
    or ``text`` itself when it holds none."""
    form = screen_form(text)
    redacted = form
    for detector in _candidates(form):
        redacted = _redact_one(detector, redacted)
    return text if redacted == form else redacted


def _redact_one(detector: Detector, text: str) -> str:
    spans = [match.span() for match in detector.matches(text)]
    for start, end in reversed(spans):
        text = f"{text[:start]}[REDACTED:{detector.kind}]{text[end:]}"
    return text
