"""Recognize statements that carry a secret, and redact them when policy says so.

The patterns name well-known credential shapes; a hit is refused
(``credential_detected``) by default or replaced by ``[REDACTED:<kind>]``.
The matched text itself is never reported anywhere.
"""
from __future__ import annotations

import re

_PATTERNS = {
    "private_key": r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----",
    "aws_access_key": r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",
    "github_token": r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})\b",
    "openai_key": r"\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}\b",
    "slack_token": r"\bxox[abprs]-[A-Za-z0-9-]{10,}\b",
    "google_api_key": r"\bAIza[0-9A-Za-z_-]{35}\b",
    "jwt": r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
    "bearer_token": r"\b[Bb]earer\s+[A-Za-z0-9._~+/-]{20,}=*",
    "assignment": (r"(?i)\b(?:password|passwd|pwd|passphrase|secret|api[_-]?key|access[_-]?token|"
                   r"auth[_-]?token|client[_-]?secret)\b\s*(?:[:=]|\bis\b)\s*['\"]?[^\s'\"]{6,}"),
}
_COMPILED = [(kind, re.compile(pattern)) for kind, pattern in _PATTERNS.items()]
# Lower-case text that every match of a pattern holds: on ASCII text a pattern whose literals
# are all absent cannot match, so it is not run (every envelope is screened: searching each
# pattern through each text was a fifth of admitting one). Non-ASCII text runs every pattern:
# case-insensitive matching also pairs ASCII letters with others ("ſ" matches "s").
_LITERALS = {
    "private_key": ("-----begin ",),
    "aws_access_key": ("akia", "asia"),
    "github_token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    "openai_key": ("sk-",),
    "slack_token": ("xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-"),
    "google_api_key": ("aiza",),
    "jwt": ("eyj",),
    "bearer_token": ("bearer",),
    "assignment": ("pass", "pwd", "secret", "api", "access", "auth"),
}
_LITERAL_KINDS = [(literal, kind) for kind, literals in _LITERALS.items() for literal in literals]


def credential_kinds(text: str) -> list[str]:
    """The kinds of secret found in ``text`` (empty when clean)."""
    if not text.isascii():
        return [kind for kind, pattern in _COMPILED if pattern.search(text)]
    lowered = text.lower()
    possible = {kind for literal, kind in _LITERAL_KINDS if literal in lowered}
    if not possible:
        return []
    return [kind for kind, pattern in _COMPILED if kind in possible and pattern.search(text)]


def redact(text: str) -> str:
    for kind, pattern in _COMPILED:
        text = pattern.sub(f"[REDACTED:{kind}]", text)
    return text
